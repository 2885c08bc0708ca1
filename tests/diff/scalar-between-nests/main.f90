! Driver of scalar-between-nests: the host recomputes t1, v and v2 point by
! point in another loop order (i outermost) and checks them (relative 1e-6).
! Dumps t1, v and v2, whole (outside the tile: a sentinel).
program scalar_between_nests
  use sbn_kernel, only: column_mix
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, fail
  implicit none
  character(len=*), parameter :: name = 'scalar-between-nests'
  integer, parameter :: ni = 59, nj = 27, nk = 17, halo = 1
  real, parameter :: sentinel = -1.0, tolerance = 1.0e-6

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k, bad
  real, allocatable :: u(:,:,:), zk(:), wj(:), t1(:,:,:), v(:,:,:), v2(:,:,:)
  real :: c1, c2, f, want_t1, want_v, want_v2
  character(len=512) :: path

  call get_dump_path(path)
  ! Tile (2:ni+1, 1:nk, 2:nj+1).
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, &
                   first_i=2, first_j=2)
  allocate(u(ims:ime, kms:kme, jms:jme), zk(kms:kme), wj(jms:jme),       &
           t1(ims:ime, kms:kme, jms:jme), v(ims:ime, kms:kme, jms:jme),   &
           v2(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    wj(j) = 0.8 + 0.4*noise(j, 0, 5)
    do k = kms, kme
      do i = ims, ime
        u(i,k,j) = 1.5 + noise(i, k, j)
      end do
    end do
  end do
  do k = kms, kme
    zk(k) = 1.0 - 0.03*k
  end do
  t1 = sentinel
  v = sentinel
  v2 = sentinel

  call column_mix(u, zk, wj, t1, v, v2, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  bad = 0
  do i = its, ite
    do k = kts, kte
      do j = jts, jte
        c1 = 0.5*(wj(j) + wj(j+1))
        f = c1*zk(k)
        c2 = c1*c1 + wj(j)
        want_t1 = f*u(i,k,j)
        want_v = want_t1 + c1*u(i+1,k,j)
        want_v2 = c2*want_v - want_t1
        if (abs(t1(i,k,j) - want_t1) > tolerance*abs(want_t1) .or.        &
            abs(v(i,k,j) - want_v) > tolerance*abs(want_v) .or.           &
            abs(v2(i,k,j) - want_v2) > tolerance*(abs(want_v2) + 1.0)) bad = bad + 1
      end do
    end do
  end do
  write(*,'(2a,i0,a,es9.2)') name, ': ', bad, &
       ' points differ from the host recomputation by more than ', tolerance
  if (bad /= 0) call fail(name, 'wrong t1, v or v2')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('t1', t1)
  call s2s_dump_array('v', v)
  call s2s_dump_array('v2', v2)
  call s2s_dump_close()

end program scalar_between_nests
