! Driver of fusion-illegal: a and b start as a sentinel (a fused kernel
! would read the sentinel at k+1); the host checks b against potential
! temperature computed on its own.  Dumps a and b, whole.
program fusion_illegal
  use fus_kernel, only: stability, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'fusion-illegal'
  integer, parameter :: ni = 71, nj = 13, nk = 26, halo = 1
  real(r8), parameter :: sentinel = -1.0_r8, tolerance = 1.0e-12_r8

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k
  real(r8), allocatable :: t(:,:,:), p(:,:,:), a(:,:,:), b(:,:,:)
  real(r8) :: err, th_lo, th_hi
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, kms:kme, jms:jme), p(ims:ime, kms:kme, jms:jme),   &
           a(ims:ime, kms:kme, jms:jme), b(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        p(i,k,j) = 1000.0_r8*exp(-0.08_r8*(k - 1)) + 5.0_r8*noise_r8(i, k, j)
        t(i,k,j) = 295.0_r8 - 3.5_r8*(k - 1) + 2.0_r8*noise_r8(j, i, k)
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
  call check_tolerance(name, 'max error of b', err, tolerance, 'wrong b')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
  call s2s_dump_array('b', b)
  call s2s_dump_close()

end program fusion_illegal
