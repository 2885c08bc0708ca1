! Driver of strict-fp-diffusion: t = 300 K plus noise of 0.01 K, so the tendency is a
! difference of products about 3e4 times its own size; u, v in -10..10 m/s.  Checks tend
! against the same sums in real(8) on the host, to 1e-12 of the products' size (the
! operands' magnitude, not tend's), and speed to 1e-5 relative.  Dumps tend and speed,
! whole (outside the tile the sentinel -1).
program strict_fp_diffusion
  use strict_kernel, only: diffusion
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, noise_r8, check_tolerance
  use iso_fortran_env, only: real64
  implicit none
  character(len=*), parameter :: name = 'strict-fp-diffusion'
  integer, parameter :: ni = 67, nj = 23, nk = 7, halo = 1
  real(real64), parameter :: kappa = 3.0e2_real64, rdx2 = 1.0_real64 / 9.0e6_real64
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, k, j
  real(real64), allocatable :: t(:,:,:), tend(:,:,:)
  real, allocatable :: u(:,:,:), v(:,:,:), speed(:,:,:)
  real(real64) :: want, scale, err_t, err_s
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, kms:kme, jms:jme), tend(ims:ime, kms:kme, jms:jme), &
           u(ims:ime, kms:kme, jms:jme), v(ims:ime, kms:kme, jms:jme), speed(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 300.0_real64 + 0.01_real64 * noise_r8(i, k, j)
        u(i,k,j) = 20.0 * noise(j, i, k)
        v(i,k,j) = 20.0 * noise(k, j, i)
      end do
    end do
  end do
  tend = -1.0_real64
  speed = -1.0
  call diffusion(t, u, v, tend, speed, kappa, rdx2, ims,ime, kms,kme, jms,jme, &
                 its,ite, kts,kte, jts,jte)
  err_t = 0.0_real64
  err_s = 0.0_real64
  scale = 4.0_real64 * kappa * rdx2 * 300.0_real64
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        want = kappa * rdx2 * (t(i+1,k,j) + t(i-1,k,j) + t(i,k,j+1) + t(i,k,j-1) - 4.0_real64 * t(i,k,j))
        err_t = max(err_t, abs(tend(i,k,j) - want) / scale)
        want = sqrt(real(u(i,k,j), real64)**2 + real(v(i,k,j), real64)**2) &
             / (1.0_real64 + 0.1_real64 * (real(u(i,k,j), real64) * v(i,k,j))**2)
        err_s = max(err_s, abs(speed(i,k,j) - want) / want)
      end do
    end do
  end do
  call check_tolerance(name, 'tend: max error relative to the products', err_t, 1.0e-12_real64, 'wrong result')
  call check_tolerance(name, 'speed: max relative error against real(8)', err_s, 1.0e-5_real64, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('tend', tend)
  call s2s_dump_array('speed', speed)
  call s2s_dump_close()
end program strict_fp_diffusion
