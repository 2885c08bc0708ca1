! Driver of reduction-global-sum: the host checks precip_total against its
! own sum of dt*rate*area (relative 1e-12) and nrain against its own count
! plus the 5 it started from.  Dumps rain whole, and the two scalars as
! one-element arrays.
program reduction_global_sum
  use gsum_kernel, only: rain_step, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise_r8, check_tolerance, fail
  implicit none
  character(len=*), parameter :: name = 'reduction-global-sum'
  integer, parameter :: ni = 147, nj = 39, halo = 2
  real(r8), parameter :: dt = 20.0_r8, sentinel = -1.0_r8

  integer :: ims,ime, jms,jme, its,ite, jts,jte, i, j, nrain, count_ref
  real(r8), allocatable :: rate(:,:), area(:,:), rain(:,:)
  real(r8) :: precip_total, total_ref
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte)
  allocate(rate(ims:ime, jms:jme), area(ims:ime, jms:jme), rain(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      rate(i,j) = max(0.0_r8, 1.0e-4_r8 * noise_r8(i, 1, j))   ! half the points dry
      area(i,j) = 1.0e6_r8 * (1.0_r8 + 0.1_r8 * noise_r8(i, 2, j))
    end do
  end do
  rain = sentinel
  rain(its:ite, jts:jte) = 0.0_r8
  nrain = 5
  precip_total = -999.0_r8

  call rain_step(rate, area, rain, precip_total, nrain, dt, ims,ime, jms,jme, its,ite, jts,jte)

  total_ref = 0.0_r8
  count_ref = 5
  do j = jts, jte
    do i = its, ite
      total_ref = total_ref + dt * rate(i,j) * area(i,j)
      if (rate(i,j) > 0.0_r8) count_ref = count_ref + 1
    end do
  end do
  call check_tolerance(name, 'relative error of precip_total', &
                       abs(precip_total - total_ref) / total_ref, 1.0e-12_r8, 'wrong total')
  if (nrain /= count_ref) call fail(name, 'wrong count of raining points')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('rain', rain)
  call s2s_dump_array('precip_total', [precip_total])
  call s2s_dump_array('nrain', [nrain])
  call s2s_dump_close()

end program reduction_global_sum
