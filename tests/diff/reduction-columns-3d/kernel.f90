! reduction-columns-3d: sedimentation-like flux summed downward in each
! column (a k recurrence, so k stays sequential in each thread), loops
! j/k/i as the CPU writes them, and the total mass over the whole tile
! summed inside the same k loop: a reduction over the column loops (i,j)
! of a 3-D region, each thread adding its own column's levels in order
! before the threads' partial sums are combined.  total is real(4).
module colsum_kernel
  implicit none
  private
  public :: column_flux

contains

  subroutine column_flux(q, dz, flux, total,                          &
                         ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)  :: q, dz
    real, dimension(ims:ime, kms:kme, jms:jme), intent(out) :: flux
    real, intent(out) :: total

    integer :: i, j, k

!$stencil region
    total = 0.0
    do j = jts, jte
      do i = its, ite
        flux(i,kte,j) = q(i,kte,j) * dz(i,kte,j)
        total = total + q(i,kte,j) * dz(i,kte,j)
      end do
      do k = kte-1, kts, -1
        do i = its, ite
          flux(i,k,j) = flux(i,k+1,j) + q(i,k,j) * dz(i,k,j)
          total = total + q(i,k,j) * dz(i,k,j)
        end do
      end do
    end do
!$stencil end region
  end subroutine column_flux

end module colsum_kernel
