! Driver of relaxed-fp-saturation: t in 230..310 K, p in 20..100 kPa; checks
! qs, th and lnp against the same formulas in real(8) on the host (relative
! 1e-5, which the fast intrinsics of a GPU build also meet).  Dumps qs, th
! and lnp, whole.
program relaxed_fp_saturation
  use relaxed_kernel, only: saturation
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  use iso_fortran_env, only: real64
  implicit none
  character(len=*), parameter :: name = 'relaxed-fp-saturation'
  integer, parameter :: ni = 67, nj = 23, nk = 19, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, k, j
  real, allocatable :: t(:,:,:), p(:,:,:), qs(:,:,:), th(:,:,:), lnp(:,:,:)
  real(real64) :: es, want_qs, want_th, err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, kms:kme, jms:jme), p(ims:ime, kms:kme, jms:jme), qs(ims:ime, kms:kme, jms:jme), &
           th(ims:ime, kms:kme, jms:jme), lnp(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 270.0 + 80.0 * noise(i, k, j)
        p(i,k,j) = 6.0e4 + 8.0e4 * noise(j, i, k)
      end do
    end do
  end do
  qs = -1.0
  th = -1.0
  lnp = -1.0
  call saturation(t, p, qs, th, lnp, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
  err = 0.0_real64
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        es = 611.2_real64 * exp(17.67_real64 * (t(i,k,j) - 273.15_real64) / (t(i,k,j) - 29.65_real64))
        want_qs = 0.622_real64 * es / (p(i,k,j) - es)
        want_th = t(i,k,j) * (1.0e5_real64 / p(i,k,j)) ** 0.2857_real64
        err = max(err, abs(qs(i,k,j) - want_qs) / abs(want_qs), abs(th(i,k,j) - want_th) / want_th, &
                  abs(lnp(i,k,j) - log(real(p(i,k,j), real64))) / log(real(p(i,k,j), real64)))
      end do
    end do
  end do
  call check_tolerance(name, 'max relative error against real(8)', err, 1.0e-5_real64, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('qs', qs)
  call s2s_dump_array('th', th)
  call s2s_dump_array('lnp', lnp)
  call s2s_dump_close()
end program relaxed_fp_saturation
