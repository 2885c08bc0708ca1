! Driver of scalar-between-kernels: the kernel's `scale` is -99 on the host
! before its region and dt = 0.3, so a kernel that reads the host's value
! writes -99 * (v(i-1) + v(i+1)) instead of 0.15 * (...).  Checks w on the host; dumps v
! and w whole.
program scalar_between_kernels
  use sbk_kernel, only: smooth_and_scale, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'scalar-between-kernels'
  integer, parameter :: ni = 53, nj = 9, nk = 17, halo = 1
  real(r8), parameter :: sentinel = -5.0_r8, tolerance = 1.0e-13_r8

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k
  real(r8), allocatable :: u(:,:,:), v(:,:,:), w(:,:,:)
  real(r8) :: err, want
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(u(ims:ime, kms:kme, jms:jme), v(ims:ime, kms:kme, jms:jme), w(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        u(i,k,j) = 1.0_r8 + noise_r8(i, k, j)
      end do
    end do
  end do
  v = sentinel
  w = sentinel
  call smooth_and_scale(u, v, w, 0.3_r8, ims,ime, jms,jme, kms,kme,          &
                        its,ite, jts,jte, kts,kte)

  err = 0.0_r8
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        want = 0.15_r8*(2.0_r8*u(i-1,k,j) + 2.0_r8*u(i+1,k,j))
        err = max(err, abs(w(i,k,j) - want))
      end do
    end do
  end do
  call check_tolerance(name, 'max error of w', err, tolerance, 'wrong w')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('v', v)
  call s2s_dump_array('w', w)
  call s2s_dump_close()

end program scalar_between_kernels
