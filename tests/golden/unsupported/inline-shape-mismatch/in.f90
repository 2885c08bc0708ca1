! A call passing q(its,kts,j) to a dummy of the tile's shape, whose leading extent is not q's:
! the dummy does not map onto the actual element for element, inlining is refused.
module m
  implicit none
contains
  subroutine outer(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, q)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    integer :: j
!$stencil region
    do j = jts, jte
      ! the tile, not the memory plane: its leading extent differs from q's
      call column(q(its,kts,j), its,ite, kts,kte)
    end do
!$stencil end region
  end subroutine outer

  subroutine column(q, its,ite, kts,kte)
    integer, intent(in) :: its,ite, kts,kte
    real, intent(inout) :: q(its:ite, kts:kte)
    integer :: i, k
    do k = kts, kte
      do i = its, ite
        q(i,k) = 2.0 * q(i,k)
      end do
    end do
  end subroutine column
end module m
