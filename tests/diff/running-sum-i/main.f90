! Driver of running-sum-i: the host checks every s(i,j) against the sum of
! a(its:i,j) computed with sum() (relative 1e-12).  s starts as a sentinel
! (a parallel i loop would read it).  Dumps s, whole.
program running_sum_i
  use rsum_kernel, only: row_prefix_sum, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  integer, parameter :: ni = 150, nj = 37, halo = 2
  real(r8), parameter :: sentinel = -1.0_r8, tolerance = 1.0e-12_r8

  integer :: ims, ime, jms, jme, its, ite, jts, jte, i, j
  real(r8), allocatable :: a(:,:), s(:,:)
  real(r8) :: err
  character(len=512) :: path

  if (command_argument_count() /= 1) then
    write(*,'(a)') 'usage: prog OUT.dat'
    stop 2
  end if
  call get_command_argument(1, path)

  its = 3
  ite = ni + 2
  jts = 1
  jte = nj
  ims = its - halo
  ime = ite + halo
  jms = jts - halo
  jme = jte + halo
  allocate(a(ims:ime, jms:jme), s(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      a(i,j) = 0.01_r8 + 0.02_r8*(noise(i, j) + 0.5_r8)
    end do
  end do
  s = sentinel

  call row_prefix_sum(a, s, ims,ime, jms,jme, its,ite, jts,jte)

  err = 0.0_r8
  do j = jts, jte
    do i = its, ite
      err = max(err, abs(s(i,j) - sum(a(its:i,j)))/sum(a(its:i,j)))
    end do
  end do
  write(*,'(a,es10.3,a,es10.3,a)') 'running-sum-i: max relative error ', err, &
       ' (tolerance ', tolerance, ')'
  if (.not. (err <= tolerance)) then
    write(*,'(a)') 'running-sum-i: wrong prefix sums'
    stop 1
  end if

  call s2s_dump_open(trim(path))
  call s2s_dump_array('s', s)
  call s2s_dump_close()

contains

  ! Deterministic noise in [-0.5, 0.5) from two integers.
  real(r8) function noise(i, j)
    integer, intent(in) :: i, j
    integer(int64), parameter :: q = 1000003_int64
    integer(int64) :: h

    h = modulo(73856093_int64*i + 83492791_int64*j, q)
    h = modulo(h*h + 12345_int64, q)
    noise = real(h, r8)/real(q, r8) - 0.5_r8
  end function noise

end program running_sum_i
