! Driver of explicit-shape-extent: recomputes q on the host column by column
! and compares (relative 1e-6).  Dumps q.
program explicit_shape_extent
  use explicit_extent, only: smooth
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'explicit-shape-extent'
  integer, parameter :: ni = 61, nj = 33, nk = 24, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real, allocatable :: q(:,:,:), w(:,:,:), q0(:,:,:)
  real :: err, expect
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(q(ims:ime,kms:kme,jms:jme), w(ims:ime,kms:kme,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        q(i,k,j) = 2.0 + noise(i, k, j)
        w(i,k,j) = 1.0 + noise(j, i, k)
      end do
    end do
  end do
  q0 = q
  call smooth(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, q, w)
  err = 0.0
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        expect = q0(i,k,j) + 0.5 * w(i,k,j)
        if (i > its) expect = expect + 0.25 * w(i,k,j) * expect
        err = max(err, abs(q(i,k,j) - expect) / abs(expect))
      end do
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-6, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_close()
end program explicit_shape_extent
