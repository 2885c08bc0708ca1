! Driver of reduction-columns-3d: the host checks that total equals the sum
! of the columns' bottom fluxes flux(:,kts,:) (relative 1e-4, real(4) sums
! in two orders) and the fluxes against its own column sums.  Dumps flux
! whole (outside the tile: a sentinel) and total as a one-element array.
program reduction_columns_3d
  use colsum_kernel, only: column_flux
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'reduction-columns-3d'
  integer, parameter :: ni = 89, nj = 17, nk = 24, halo = 2
  real, parameter :: sentinel = -1.0

  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j
  real, allocatable :: q(:,:,:), dz(:,:,:), flux(:,:,:)
  real :: total, err
  real(8) :: bottom
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(q(ims:ime, kms:kme, jms:jme), dz(ims:ime, kms:kme, jms:jme), flux(ims:ime, kms:kme, jms:jme))
  q = 1.0e-3
  dz = 100.0
  q(its:ite, kts:kte, jts:jte) = 1.0e-3 * (1.0 + 0.5 * reshape([(noise(i, 3, 0), i = 1, &
      (ite-its+1)*(kte-kts+1)*(jte-jts+1))], [ite-its+1, kte-kts+1, jte-jts+1]))
  do j = jts, jte
    dz(its:ite, kts:kte, j) = 150.0 + 20.0 * real(j - jts)
  end do
  flux = sentinel
  total = -999.0

  call column_flux(q, dz, flux, total, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  bottom = 0.0d0
  err = 0.0
  do j = jts, jte
    do i = its, ite
      bottom = bottom + real(flux(i,kts,j), 8)
      err = max(err, abs(flux(i,kts,j) - sum(q(i,kts:kte,j) * dz(i,kts:kte,j))) / flux(i,kts,j))
    end do
  end do
  call check_tolerance(name, 'max relative error of the column fluxes', err, 1.0e-5, 'wrong fluxes')
  call check_tolerance(name, 'relative error of total', real(abs(total - bottom) / bottom), 1.0e-4, &
                       'wrong total')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('flux', flux)
  call s2s_dump_array('total', [total])
  call s2s_dump_close()

end program reduction_columns_3d
