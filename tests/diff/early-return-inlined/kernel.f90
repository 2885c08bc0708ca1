! early-return-inlined: a vertical filling routine, called per column inside
! the i loop, that RETURNs early (nothing to fill; from inside its k loop
! once the column is non-negative again).  Inlined, each RETURN leaves the
! block around the routine's body; one kernel over (i,j).
module eri_kernel
  implicit none
  private
  public :: fill_all

contains

  subroutine fill_all(q, nfix, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    integer, intent(inout) :: nfix(ims:ime, jms:jme)
    integer :: i, j
!$stencil region
    do j = jts, jte
      do i = its, ite
        call fill_column(q(ims,kms,j), nfix(i,j), i, ims,ime, kms,kme, kts,kte)
      end do
    end do
!$stencil end region
  end subroutine fill_all

  ! Borrow from the level below for each negative value, from the top down;
  ! nothing to do when the two top levels are not negative.
  subroutine fill_column(q, nfix, i, ims,ime, kms,kme, kts,kte)
    integer, intent(in) :: i, ims,ime, kms,kme, kts,kte
    real, intent(inout) :: q(ims:ime, kms:kme)
    integer, intent(out) :: nfix
    integer :: k
    real :: need
    nfix = 0
    if (q(i,kte) >= 0. .and. q(i,kte-1) >= 0.) return
    do k = kte, kts + 1, -1
      if (q(i,k) < 0.) then
        need = -q(i,k)
        q(i,k) = 0.
        q(i,k-1) = q(i,k-1) - need
        nfix = nfix + 1
        if (q(i,k-1) >= 0. .and. k - 1 > kts) return
      end if
    end do
    if (q(i,kts) < 0.) q(i,kts) = 0.
  end subroutine fill_column

end module eri_kernel
