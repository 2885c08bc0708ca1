! split-two-kernels: the first nest computes a flux b = u*a on the tile and
! one point beyond it in i; the second takes its difference between the
! neighbouring columns i-1 and i+1.  A thread of the second nest reads b
! written by other threads of the first, so the two nests cannot share one
! kernel over (i,j) (no grid-wide barrier between them): the region must
! become two kernels, launched in order.  Every loop is parallel.
module split_kernel
  implicit none
  private
  public :: flux_difference

contains

  subroutine flux_difference(a, u, b, c,                              &
                             ims,ime, jms,jme, kms,kme,               &
                             its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: a, u
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: b, c

    integer :: i, j, k

!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its-1, ite+1
          b(i,k,j) = u(i,k,j)*a(i,k,j)
        end do
      end do
    end do
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          c(i,k,j) = 0.5*(b(i-1,k,j) - b(i+1,k,j))
        end do
      end do
    end do
!$stencil end region
  end subroutine flux_difference

end module split_kernel
