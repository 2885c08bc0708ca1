! Driver of reduction-used-in-region: the host checks that b sums to zero
! over the tile (1e-10 relative to the sum of |b|) and that its maximum is
! 1.  Dumps b, whole (outside the tile: a sentinel).
program reduction_used_in_region
  use anomaly_kernel, only: remove_mean, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'reduction-used-in-region'
  integer, parameter :: ni = 131, nj = 27, halo = 1
  real(r8), parameter :: sentinel = -7.0_r8

  integer :: ims,ime, jms,jme, its,ite, jts,jte, i, j
  real(r8), allocatable :: a(:,:), b(:,:)
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte)
  allocate(a(ims:ime, jms:jme), b(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      a(i,j) = 280.0_r8 + 10.0_r8 * noise_r8(i, 0, j)
    end do
  end do
  b = sentinel

  call remove_mean(a, b, ims,ime, jms,jme, its,ite, jts,jte)

  call check_tolerance(name, 'relative sum of b', &
                       abs(sum(b(its:ite,jts:jte))) / sum(abs(b(its:ite,jts:jte))), 1.0e-10_r8, &
                       'the mean was not removed')
  call check_tolerance(name, 'max b - 1', abs(maxval(b(its:ite,jts:jte)) - 1.0_r8), 1.0e-12_r8, &
                       'not scaled by the maximum')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('b', b)
  call s2s_dump_close()

end program reduction_used_in_region
