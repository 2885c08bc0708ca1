! Driver of assumed-shape-section: recomputes q on the host and compares
! (relative 1e-5: single-precision pow and exp differ by a few ulps between
! the GPU and the host; points outside the tile keep their values).  Dumps q.
program assumed_shape_section
  use ashape, only: relax
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'assumed-shape-section'
  integer, parameter :: ni = 61, nj = 33, nk = 24, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real, allocatable :: q(:,:,:), t(:,:,:), q0(:,:,:)
  real :: err, expect
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(q(ims:ime,kms:kme,jms:jme), t(ims:ime,kms:kme,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        q(i,k,j) = noise(i, k, j)
        t(i,k,j) = 0.3 + noise(j, i, k)
      end do
    end do
  end do
  q0 = q
  call relax(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, q, t)
  err = 0.0
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        expect = q0(i,k,j)
        if (i >= its .and. i <= ite .and. j >= jts .and. j <= jte .and. k >= kts .and. k <= kte) &
          expect = max(0.9 * q0(i,k,j) + (1.0 - 0.9) * t(i,k,j), 0.0)
        err = max(err, abs(q(i,k,j) - expect) / max(abs(expect), 1.0e-3))
      end do
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-5, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_close()
end program assumed_shape_section
