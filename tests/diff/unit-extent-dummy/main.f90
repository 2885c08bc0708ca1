! Driver of unit-extent-dummy: recomputes q on the host column by column and
! compares (relative 1e-6).  Dumps q.
program unit_extent_dummy
  use unit_extent, only: scale_rows
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'unit-extent-dummy'
  integer, parameter :: ni = 61, nj = 33, nk = 24, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real, allocatable :: q(:,:,:), q0(:,:,:)
  real :: err, col(nk)
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(q(ims:ime,kms:kme,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        q(i,k,j) = noise(i, k, j)
      end do
    end do
  end do
  q0 = q
  call scale_rows(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, q)
  err = 0.0
  do j = jts, jte
    do i = its, ite
      do k = kts, kte
        col(k) = 2.0 * q0(i,k,j) + 1.0
      end do
      do k = kts, kte
        err = max(err, abs(q(i,k,j) - col(k)) / max(abs(col(k)), 1.0e-3))
      end do
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-5, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_close()
end program unit_extent_dummy
