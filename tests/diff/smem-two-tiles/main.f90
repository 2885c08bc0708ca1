! Driver of smem-two-tiles: a with a halo of 1 (2 on the right), b of 1, sizes that are not
! multiples of the 32x8 block.  The host checks w point by point.  Dumps w.
program smem_two_tiles
  use two_kernel, only: two
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'smem-two-tiles'
  integer, parameter :: ni = 35, nj = 10
  real(8), parameter :: tolerance = 1.0d-5
  integer :: i, j
  real :: a(0:ni+2, 0:nj+1)
  real(8) :: b(0:ni+1, 0:nj+1), w(ni, nj)
  real(8) :: err, want
  character(len=512) :: path

  call get_dump_path(path)
  do j = 0, nj + 1
    do i = 0, ni + 2
      a(i,j) = 1.0 + 0.1*i + noise(i, j, 0)
    end do
    do i = 0, ni + 1
      b(i,j) = 2.0d0 - 0.05d0*j + noise_r8(j, i, 1)
    end do
  end do
  w = -1.0d0

  call two(a, b, w, ni, nj)

  err = 0.0d0
  do j = 1, nj
    do i = 1, ni
      want = (a(i+1,j) + a(i-1,j) + a(i,j+1) + a(i,j-1) - 4.0*a(i,j) + 0.5*a(i+2,j))  &
             * (b(i-1,j-1) + b(i,j-1) + b(i+1,j-1) + b(i-1,j) + b(i+1,j)                 &
                + b(i-1,j+1) + b(i,j+1) + b(i+1,j+1) - 8.0d0*b(i,j))
      err = max(err, abs(w(i,j) - want))
    end do
  end do
  call check_tolerance(name, 'max error of w', err, tolerance, 'wrong w')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('w', w)
  call s2s_dump_close()
end program smem_two_tiles
