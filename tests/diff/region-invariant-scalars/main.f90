! Driver of region-invariant-scalars: runs ris_column on a tile with a halo,
! recomputes t and flux on the host (exact: the same operations) and dumps
! both whole.
program region_invariant_scalars
  use ris_kernel, only: ris_column
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'region-invariant-scalars'
  integer, parameter :: ni = 45, nj = 13, nk = 21, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real, allocatable :: t(:,:,:), q(:,:,:), flux(:,:,:), t0(:,:,:)
  real :: f, err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, kms:kme, jms:jme), q(ims:ime, kms:kme, jms:jme), flux(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 280.0 + 10.0 * noise(i, k, j)
        q(i,k,j) = 0.01 * noise(k, i, j)
      end do
    end do
  end do
  flux = -999.0
  t0 = t
  call ris_column(t, q, flux, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  err = 0.0
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        if (k < kte) then
          f = (q(i,k+1,j) - q(i,k,j)) / real(ite - its + 1)
        else
          f = -q(i,k,j) / real(kte - kts + 1)
        end if
        err = max(err, abs(flux(i,k,j) - f), abs(t(i,k,j) - (t0(i,k,j) + f)))
      end do
    end do
  end do
  call check_tolerance(name, 'max abs error', err, 0.0, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('flux', flux)
  call s2s_dump_close()
end program region_invariant_scalars
