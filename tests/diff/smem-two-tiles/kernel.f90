! smem-two-tiles: one kernel staging two arrays of different kinds, a
! real(4) field read in a cross reaching i+2 and a real(8) one in a 3x3 box:
! two tiles in the block's shared memory, the second after the first, whose
! 35 x 10 floats (1400 bytes for a 32x8 block) are rounded up to 1408 so
! that the real(8) tile is aligned (a GPU faults on a misaligned double),
! each with its own halo.  The tool stages both.
module two_kernel
  implicit none
  private
  public :: two

contains

  subroutine two(a, b, w, ni, nj)
    integer, intent(in) :: ni, nj
    real, intent(in) :: a(0:ni+2, 0:nj+1)
    real(8), intent(in) :: b(0:ni+1, 0:nj+1)
    real(8), intent(inout) :: w(ni, nj)
    integer :: i, j

!$stencil region
    do j = 1, nj
      do i = 1, ni
        w(i,j) = (a(i+1,j) + a(i-1,j) + a(i,j+1) + a(i,j-1) - 4.0*a(i,j) + 0.5*a(i+2,j))  &
                 * (b(i-1,j-1) + b(i,j-1) + b(i+1,j-1) + b(i-1,j) + b(i+1,j)             &
                    + b(i-1,j+1) + b(i,j+1) + b(i+1,j+1) - 8.0d0*b(i,j))
      end do
    end do
!$stencil end region
  end subroutine two

end module two_kernel
