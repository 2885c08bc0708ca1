! goto-forward-skip: forward GOTOs inside the column body, WRF style: one
! skips statements of its own list, one jumps out of a nested IF past that
! label to a later one, one leaves a k loop early (level search with a
! GOTO).  Each becomes a block that the jump leaves; one kernel over (i,j).
module gfs_kernel
  implicit none
  private
  public :: skip_some

contains

  subroutine skip_some(a, b, c, ktop, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: b(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: a(ims:ime, kms:kme, jms:jme), c(ims:ime, kms:kme, jms:jme)
    integer, intent(inout) :: ktop(ims:ime, jms:jme)
    integer :: i, k, j, kk
!$stencil region
    do j = jts, jte
      do i = its, ite
        do k = kts, kte
          a(i,k,j) = b(i,k,j)
          if (b(i,k,j) < -0.3) go to 200
          a(i,k,j) = 2.0 * a(i,k,j)
          if (b(i,k,j) > 0.2) then
            c(i,k,j) = 1.0
            if (b(i,k,j) > 0.4) go to 300
          end if
200       continue
          c(i,k,j) = c(i,k,j) + a(i,k,j)
300     end do
        kk = kts - 1
        do k = kte, kts, -1
          if (b(i,k,j) > 0.3) then
            kk = k
            goto 400
          end if
          c(i,k,j) = -c(i,k,j)
        end do
        a(i,kts,j) = a(i,kts,j) + 100.0
400     ktop(i,j) = kk
      end do
    end do
!$stencil end region
  end subroutine skip_some

end module gfs_kernel
