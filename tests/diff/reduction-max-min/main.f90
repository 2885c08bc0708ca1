! Driver of reduction-max-min: the host computes the maximum, the lowest
! level and the minimum itself and checks them exactly (max and min are
! exact in any order).  Dumps w whole, and the three scalars as
! one-element arrays.
program reduction_max_min
  use maxmin_kernel, only: cfl_stats
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, fail
  implicit none
  character(len=*), parameter :: name = 'reduction-max-min'
  integer, parameter :: ni = 71, nj = 13, nk = 19, halo = 1
  real, parameter :: dt = 10.0, sentinel = -1.0

  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  integer :: klow, klow_ref
  real, allocatable :: w(:,:,:), dz(:,:,:), w0(:,:,:)
  real :: cflmax, cfl, cflmax_ref, tmin, tmin_ref
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(w(ims:ime, kms:kme, jms:jme), dz(ims:ime, kms:kme, jms:jme), w0(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        w(i,k,j) = sign(0.2 + 2.0 * abs(noise(i, k, j)), noise(i, k + 3, j))
        dz(i,k,j) = 200.0 + 50.0 * noise(i, k + 7, j)
      end do
    end do
  end do
  w(its+5, kts+11, jts+3) = 1.0e-4      ! the only nearly still points: levels 12 and 9
  w(ite-2, kts+8, jte) = -2.0e-4
  w0 = w
  cflmax = -1.0e30
  klow = -7
  tmin = 99.0

  call cfl_stats(w, dz, dt, cflmax, klow, tmin, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  cflmax_ref = -1.0e30
  klow_ref = kte + 1
  tmin_ref = 1.0e30
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        cfl = -abs(w0(i,k,j)) * dt / dz(i,k,j)
        cflmax_ref = max(cflmax_ref, cfl)
        if (cfl > -1.0e-4) klow_ref = min(klow_ref, k)
        tmin_ref = min(tmin_ref, w0(i,k,j) - 1.0)
      end do
    end do
  end do
  write(*,'(a,es12.4,i5,es12.4)') name//': cflmax, klow, tmin =', cflmax, klow, tmin
  if (cflmax /= cflmax_ref) call fail(name, 'wrong maximum CFL number')
  if (cflmax >= 0.0) call fail(name, 'the maximum should be negative')
  if (klow /= kts + 8) call fail(name, 'the lowest still level should be the 9th')
  if (klow /= klow_ref) call fail(name, 'wrong lowest unstable level')
  if (tmin /= tmin_ref) call fail(name, 'wrong minimum')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('w', w)
  call s2s_dump_array('cflmax', [cflmax])
  call s2s_dump_array('klow', [klow])
  call s2s_dump_array('tmin', [tmin])
  call s2s_dump_close()

end program reduction_max_min
