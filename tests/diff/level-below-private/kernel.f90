! level-below-private (a false refusal found by tests/random.sh -m physics,
! fixed): a per-column layer array dz(kts:kte) written at every level, then
! the layer differences dz(k) - dz(k-1) for k = kts+1..kte.  Every element
! read was written in the same column, so dz is kept per thread (before the
! fix: "its element dz(k-1) ... may not have been written before in the same
! iteration").  Expected: one kernel over (i,j), k in order.
module lbp_kernel
  implicit none
contains
  subroutine layers(a1, o2, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in) :: a1
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: o2
    real :: dz(kts:kte)
    integer :: i, j, k
!$stencil region
    do j = jts, jte
      do i = its, ite
        do k = kts, kte
          dz(k) = a1(i,k+1,j) - a1(i,k,j)
        end do
        do k = kts+1, kte
          o2(i,k,j) = dz(k) - dz(k-1)
        end do
      end do
    end do
!$stencil end region
  end subroutine layers
end module lbp_kernel
