! Driver of private-count-over-levels: temperatures around 300 K so that
! each column counts several warm levels, the count recomputed on the host
! (exact) and out dumped whole.
program private_count_over_levels
  use pcl_kernel, only: count_levels
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'private-count-over-levels'
  integer, parameter :: ni = 41, nj = 9, nk = 17, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k, cnt
  real, allocatable :: t(:,:,:), out(:,:,:)
  real :: err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, kms:kme, jms:jme), out(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 300.0 + 20.0 * noise(i, k, j)
      end do
    end do
  end do
  out = -1.0
  call count_levels(t, out, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  err = 0.0
  do j = jts, jte
    do i = its, ite
      cnt = 1
      do k = kts, kte
        if (t(i,k,j) * 2.0 > 600.0) cnt = cnt + 1
      end do
      do k = kts, kte
        err = max(err, abs(out(i,k,j) - (t(i,k,j) * 2.0 + 1.0) * real(cnt)))
      end do
    end do
  end do
  call check_tolerance(name, 'max abs error', err, 0.0, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('out', out)
  call s2s_dump_close()
end program private_count_over_levels
