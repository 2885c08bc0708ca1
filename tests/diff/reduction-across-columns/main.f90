! Driver of reduction-across-columns: the host checks that every row of b
! sums to 1 (1e-12).  Dumps b, whole (outside the tile: a sentinel).
program reduction_across_columns
  use red_kernel, only: normalize_rows, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  integer, parameter :: ni = 93, nj = 15, nk = 22, halo = 1
  real(r8), parameter :: sentinel = -1.0_r8, tolerance = 1.0e-12_r8

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k
  real(r8), allocatable :: a(:,:,:), b(:,:,:)
  real(r8) :: err
  character(len=512) :: path

  if (command_argument_count() /= 1) then
    write(*,'(a)') 'usage: prog OUT.dat'
    stop 2
  end if
  call get_command_argument(1, path)

  its = 1
  ite = ni
  jts = 1
  jte = nj
  kts = 1
  kte = nk
  ims = its - halo
  ime = ite + halo
  jms = jts - halo
  jme = jte + halo
  kms = kts
  kme = kte
  allocate(a(ims:ime, kms:kme, jms:jme), b(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        a(i,k,j) = 1.0_r8 + noise(i, k, j)
      end do
    end do
  end do
  b = sentinel

  call normalize_rows(a, b, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  err = 0.0_r8
  do j = jts, jte
    do k = kts, kte
      err = max(err, abs(sum(b(its:ite,k,j)) - 1.0_r8))
    end do
  end do
  write(*,'(a,es10.3,a,es10.3,a)') 'reduction-across-columns: max |sum_i b - 1| = ', err, &
       ' (tolerance ', tolerance, ')'
  if (.not. (err <= tolerance)) then
    write(*,'(a)') 'reduction-across-columns: rows not normalized'
    stop 1
  end if

  call s2s_dump_open(trim(path))
  call s2s_dump_array('b', b)
  call s2s_dump_close()

contains

  ! Deterministic noise in [-0.5, 0.5) from three integers.
  real(r8) function noise(i, k, j)
    integer, intent(in) :: i, k, j
    integer(int64), parameter :: q = 1000003_int64
    integer(int64) :: h

    h = modulo(73856093_int64*i + 19349663_int64*k + 83492791_int64*j, q)
    h = modulo(h*h + 12345_int64, q)
    noise = real(h, r8)/real(q, r8) - 0.5_r8
  end function noise

end program reduction_across_columns
