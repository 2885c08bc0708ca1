! named-loops-exit-cycle: named DO loops inside the column body, with EXIT
! and CYCLE by name from an inner loop (`exit levels`, `cycle levels`) and
! an unnamed EXIT of the inner one; the jumps stay inside each thread of a
! kernel over (i,j).
module nlec_kernel
  implicit none
  private
  public :: search_levels

contains

  subroutine search_levels(a, b, nfound, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: b(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: a(ims:ime, kms:kme, jms:jme)
    integer, intent(inout) :: nfound(ims:ime, jms:jme)
    integer :: i, k, j, m, n
!$stencil region
    columns: do j = jts, jte
      do i = its, ite
        n = 0
        levels: do k = kts, kte
          steps: do m = 1, 4
            if (b(i,k,j) + 0.1 * m > 0.75) exit levels
            if (b(i,k,j) - 0.1 * m < -0.55) cycle levels
            if (m == 3 .and. b(i,k,j) > 0.0) exit
            a(i,k,j) = a(i,k,j) + 0.25 * m
            if (m == 2 .and. b(i,k,j) < -0.2) cycle steps
            a(i,k,j) = a(i,k,j) * 0.5
          end do steps
          n = n + 1
        end do levels
        nfound(i,j) = n
      end do
    end do columns
!$stencil end region
  end subroutine search_levels

end module nlec_kernel
