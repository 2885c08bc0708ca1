! unit-extent-dummy: a routine written for 2-D slabs, x(its:ite, 1), called
! with the 1-D work array tw: a 2-D dummy with one extent of 1 on a 1-D
! actual maps element for element along its first dimension.  The call is
! inlined, its loop fuses with the caller's, one kernel over (i,k,j).
module unit_extent
  implicit none
contains
  subroutine scale_rows(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, q)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    real :: tw(its:ite), tq(its:ite, kts:kte)
    integer :: i, j, k
!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          tw(i) = q(i,k,j)
        end do
        call slab(tw, its, ite)
        do i = its, ite
          tq(i,k) = tw(i)
        end do
      end do
      do k = kts, kte
        do i = its, ite
          q(i,k,j) = tq(i,k)
        end do
      end do
    end do
!$stencil end region
  end subroutine scale_rows

  subroutine slab(x, its, ite)
    integer, intent(in) :: its, ite
    real, intent(inout) :: x(its:ite, 1)
    integer :: i
    do i = its, ite
      x(i,1) = 2.0 * x(i,1) + 1.0
    end do
  end subroutine slab
end module unit_extent
