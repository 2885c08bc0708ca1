! smem-block-3d: a 9-point stencil per level of a field (i,j,k) in blocks
! the user shapes in three dimensions (vector(16) on i, (4) on j, (2) on k:
! 16x4x2 threads): each z slice of a block has a tile of its own level, which
! the slice's threads load and read.  nk = 7 is odd, so the top blocks have a
! slice above the last level: its threads load nothing and return after the
! barrier.  The tool stages u: tile (bx+2) x (by+2) per block and level.
module box9_kernel
  implicit none
  private
  public :: box9

contains

  subroutine box9(u, w, ni, nj, nk)
    integer, intent(in) :: ni, nj, nk
    real, intent(in) :: u(0:ni+1, 0:nj+1, nk)
    real, intent(inout) :: w(ni, nj, nk)
    integer :: i, j, k

!$stencil region
!$stencil do parallel, vector(2)
    do k = 1, nk
!$stencil do parallel, vector(4)
      do j = 1, nj
!$stencil do parallel, vector(16)
        do i = 1, ni
          w(i,j,k) = 0.5*u(i,j,k) + 0.125*(u(i-1,j,k) + u(i+1,j,k) + u(i,j-1,k) + u(i,j+1,k)) &
                     - 0.0625*(u(i-1,j-1,k) + u(i+1,j+1,k) - u(i+1,j-1,k) - u(i-1,j+1,k))
        end do
      end do
    end do
!$stencil end region
  end subroutine box9

end module box9_kernel
