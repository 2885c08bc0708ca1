! laplace_acc.f90 -- kernels.sh case 1 for GCC's OpenACC: laplace.f90 with
! the region directive replaced by what an OpenACC user writes on this nest
! (the loops and the statement unchanged).  The arrays are present: the
! driver's `!$acc data` holds them.
module laplace_kernel
  implicit none
  private
  public :: laplace

contains

  subroutine laplace(nx, ny, nz, u, unew, w)
    integer, intent(in) :: nx, ny, nz
    real(8), intent(in) :: u(nx, ny, nz)
    real(8), intent(inout) :: unew(nx, ny, nz)
    real(8), intent(in) :: w
    integer :: i, j, k

!$acc parallel loop gang vector collapse(3) present(u, unew)
    do k = 2, nz-1
      do j = 2, ny-1
        do i = 2, nx-1
          unew(i,j,k) = u(i,j,k) + w*(u(i-1,j,k) + u(i+1,j,k)              &
                                     + u(i,j-1,k) + u(i,j+1,k)              &
                                     + u(i,j,k-1) + u(i,j,k+1)              &
                                     - 6.0d0*u(i,j,k))
        end do
      end do
    end do
  end subroutine laplace

end module laplace_kernel
