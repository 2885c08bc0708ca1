! Driver of smem-refused-level-per-thread: three levels that differ by
! whole units, so a point that read another level would be off by far more
! than the tolerance; w a sentinel outside the tile.  The host checks w
! point by point.  Dumps w, whole.
program smem_refused_level_per_thread
  use pick_kernel, only: pick
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'smem-refused-level-per-thread'
  integer, parameter :: ni = 41, nj = 11, halo = 1
  real, parameter :: sentinel = -7.0, tolerance = 1.0e-5
  integer :: ims, ime, jms, jme, its, ite, jts, jte
  integer :: i, j, k, kk
  real, allocatable :: u(:,:,:), w(:,:)
  real :: err, want
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte)
  allocate(u(ims:ime, 3, jms:jme), w(ims:ime, jms:jme))
  do j = jms, jme
    do k = 1, 3
      do i = ims, ime
        u(i,k,j) = 10.0*k*k + 0.3*i + noise(i, k, j)
      end do
    end do
  end do
  w = sentinel

  call pick(u, w, ims,ime, jms,jme, its,ite, jts,jte)

  err = 0.0
  do j = jms, jme
    do i = ims, ime
      if (i < its .or. i > ite .or. j < jts .or. j > jte) then
        want = sentinel
      else
        kk = 1 + mod(i + 2*j, 3)
        want = u(i+1,kk,j) + u(i-1,kk,j) + u(i,kk,j+1) + u(i,kk,j-1) - 4.0*u(i,kk,j)
      end if
      err = max(err, abs(w(i,j) - want))
    end do
  end do
  call check_tolerance(name, 'max error of w', err, tolerance, 'wrong w')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('w', w)
  call s2s_dump_close()
end program smem_refused_level_per_thread
