! bench_util.f90 -- what the drivers of tests/bench/kernels.sh share: the
! command line, a wall clock, the comparison with the one-core reference and
! the lines run.sh reads (every line starts with "kernels: CASE:").
module bench_util
  use, intrinsic :: iso_fortran_env, only: int64, real32, real64
  implicit none
  private
  public :: read_sizes, clock_ms, report, compare, int64, real32, real64

  interface compare
    module procedure compare_r4, compare_r8
  end interface compare

contains

  ! NI NJ NK [CALLS] from the command line, the defaults where absent.
  subroutine read_sizes(name, ni, nj, nk, ncalls)
    character(len=*), intent(in) :: name
    integer, intent(inout) :: ni, nj, nk, ncalls
    integer :: nargs

    nargs = command_argument_count()
    if (nargs /= 0 .and. nargs /= 3 .and. nargs /= 4) then
      write(*,'(3a)') 'usage: ', name, ' [NI NJ NK [CALLS]]'
      stop 2
    end if
    if (nargs >= 3) then
      ni = int_argument(1)
      nj = int_argument(2)
      nk = int_argument(3)
    end if
    if (nargs == 4) ncalls = int_argument(4)
  end subroutine read_sizes

  integer function int_argument(n)
    integer, intent(in) :: n
    character(len=32) :: arg
    integer :: ios

    call get_command_argument(n, arg)
    read(arg, *, iostat=ios) int_argument
    if (ios /= 0 .or. int_argument < 1) then
      write(*,'(3a)') 'bad argument ', trim(arg), ': want a positive integer'
      stop 2
    end if
  end function int_argument

  ! Wall clock in ms.
  real(real64) function clock_ms()
    integer(int64) :: c, rate

    call system_clock(c, rate)
    clock_ms = 1.0e3_real64*real(c, real64)/real(rate, real64)
  end function clock_ms

  ! One line for run.sh: "kernels: CASE: KEY VALUE".
  subroutine report(name, key, value)
    character(len=*), intent(in) :: name, key
    real(real64), intent(in) :: value

    write(*,'(4a,es14.6)') 'kernels: ', name, ': ', key, value
  end subroutine report

  ! Max relative error of got against want (|got - want| / |want|, where
  ! want is not zero) over all elements; stops with status 1 above tol.
  subroutine compare_r8(name, got, want, tol)
    character(len=*), intent(in) :: name
    real(real64), intent(in) :: got(:,:,:), want(:,:,:)
    real(real64), intent(in) :: tol
    real(real64) :: err, e
    integer :: i, j, k

    err = 0.0_real64
    do k = 1, size(want, 3)
      do j = 1, size(want, 2)
        do i = 1, size(want, 1)
          e = abs(got(i,j,k) - want(i,j,k))
          if (want(i,j,k) /= 0.0_real64) e = e/abs(want(i,j,k))
          if (.not. (e <= err)) err = e     ! NaN counts
        end do
      end do
    end do
    call verdict(name, err, tol)
  end subroutine compare_r8

  subroutine compare_r4(name, got, want, tol)
    character(len=*), intent(in) :: name
    real(real32), intent(in) :: got(:,:,:), want(:,:,:)
    real(real64), intent(in) :: tol
    real(real64) :: err, e
    integer :: i, j, k

    err = 0.0_real64
    do k = 1, size(want, 3)
      do j = 1, size(want, 2)
        do i = 1, size(want, 1)
          e = abs(real(got(i,j,k), real64) - real(want(i,j,k), real64))
          if (want(i,j,k) /= 0.0) e = e/abs(real(want(i,j,k), real64))
          if (.not. (e <= err)) err = e
        end do
      end do
    end do
    call verdict(name, err, tol)
  end subroutine compare_r4

  subroutine verdict(name, err, tol)
    character(len=*), intent(in) :: name
    real(real64), intent(in) :: err, tol

    call report(name, 'max_rel_err', err)
    call report(name, 'tolerance', tol)
    if (.not. (err <= tol)) then
      write(*,'(3a)') 'kernels: ', name, ': DIFFERS from the one-core reference'
      stop 1
    end if
    write(*,'(3a)') 'kernels: ', name, ': agrees with the one-core reference'
  end subroutine verdict

end module bench_util
