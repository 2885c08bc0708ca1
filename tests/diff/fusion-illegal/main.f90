! Driver of fusion-illegal: a and b start as a sentinel (a fused kernel
! would read the sentinel at k+1); the host checks b against potential
! temperature computed on its own.  Dumps a and b, whole.
program fusion_illegal
  use fus_kernel, only: stability, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  integer, parameter :: ni = 71, nj = 13, nk = 26, halo = 1
  real(r8), parameter :: sentinel = -1.0_r8, tolerance = 1.0e-12_r8

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k
  real(r8), allocatable :: t(:,:,:), p(:,:,:), a(:,:,:), b(:,:,:)
  real(r8) :: err, th_lo, th_hi
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
  allocate(t(ims:ime, kms:kme, jms:jme), p(ims:ime, kms:kme, jms:jme),   &
           a(ims:ime, kms:kme, jms:jme), b(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        p(i,k,j) = 1000.0_r8*exp(-0.08_r8*(k - 1)) + 5.0_r8*noise(i, k, j)
        t(i,k,j) = 295.0_r8 - 3.5_r8*(k - 1) + 2.0_r8*noise(j, i, k)
      end do
    end do
  end do
  a = sentinel
  b = sentinel

  call stability(t, p, a, b, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  err = 0.0_r8
  do j = jts, jte
    do k = kts, kte-1
      do i = its, ite
        th_lo = t(i,k,j)*(1000.0_r8/p(i,k,j))**0.2857_r8
        th_hi = t(i,k+1,j)*(1000.0_r8/p(i,k+1,j))**0.2857_r8
        err = max(err, abs(b(i,k,j) - (th_hi - th_lo))/th_hi)
      end do
    end do
  end do
  write(*,'(a,es10.3,a,es10.3,a)') 'fusion-illegal: max error of b ', err, &
       ' (tolerance ', tolerance, ')'
  if (.not. (err <= tolerance)) then
    write(*,'(a)') 'fusion-illegal: wrong b'
    stop 1
  end if

  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
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

end program fusion_illegal
