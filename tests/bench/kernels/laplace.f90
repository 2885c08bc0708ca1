! laplace.f90 -- kernels.sh case 1: one Jacobi step of the 7-point Laplacian
! in 3-D, COSMO-style fields u(i,j,k) (i contiguous), double precision, the
! faces left alone.  samples/laplace is the same stencil in C; this is its
! Fortran spelling, so that GCC's OpenACC build compiles the same loops
! (laplace_acc.f90).
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

!$stencil region
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
!$stencil end region
  end subroutine laplace

end module laplace_kernel
