! Driver of smem-block-3d: u with a halo of 1 in i and j, levels far apart
! (a point that read another level's tile would be off by whole units).  The
! host checks w point by point.  Dumps w, whole.
program smem_block_3d
  use box9_kernel, only: box9
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'smem-block-3d'
  integer, parameter :: ni = 37, nj = 9, nk = 7
  real, parameter :: tolerance = 1.0e-5
  integer :: i, j, k
  real :: u(0:ni+1, 0:nj+1, nk), w(ni, nj, nk)
  real :: err, want
  character(len=512) :: path

  call get_dump_path(path)
  do k = 1, nk
    do j = 0, nj + 1
      do i = 0, ni + 1
        u(i,j,k) = 10.0*k + 0.2*i - 0.1*j + noise(i, j, k)
      end do
    end do
  end do
  w = -1.0

  call box9(u, w, ni, nj, nk)

  err = 0.0
  do k = 1, nk
    do j = 1, nj
      do i = 1, ni
        want = 0.5*u(i,j,k) + 0.125*(u(i-1,j,k) + u(i+1,j,k) + u(i,j-1,k) + u(i,j+1,k)) &
               - 0.0625*(u(i-1,j-1,k) + u(i+1,j+1,k) - u(i+1,j-1,k) - u(i-1,j+1,k))
        err = max(err, abs(w(i,j,k) - want))
      end do
    end do
  end do
  call check_tolerance(name, 'max error of w', err, tolerance, 'wrong w')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('w', w)
  call s2s_dump_close()
end program smem_block_3d
