! level-search-bound: loop bounds found by a search over levels, the DO
! variable read after its loop (`ktop = k`): its value at an EXIT, and
! last + step after a loop that completes (also one of step 2 and one that
! runs zero times); then loops up to the bound found.  One kernel over (i,j).
module lsb_kernel
  implicit none
  private
  public :: top_of_cloud

contains

  subroutine top_of_cloud(q, kinfo, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    integer, intent(inout) :: kinfo(ims:ime, 4, jms:jme)
    integer :: i, k, j, ktop, kbot
    real, parameter :: qmin = 0.25
!$stencil region
    do j = jts, jte
      do i = its, ite
        do k = kte, kts, -1
          if (q(i,k,j) > qmin) exit
        end do
        ktop = k
        do k = kts, kte
          if (q(i,k,j) > 0.45) exit
        end do
        kbot = k
        kinfo(i,1,j) = ktop
        kinfo(i,2,j) = kbot
        do k = kts, ktop
          q(i,k,j) = q(i,k,j) + 1.0
        end do
        do k = kbot, kte
          q(i,k,j) = 2.0 * q(i,k,j)
        end do
        do k = kts, kte, 2
        end do
        kinfo(i,3,j) = k
        do k = ktop + 1, ktop
        end do
        kinfo(i,4,j) = k
      end do
    end do
!$stencil end region
  end subroutine top_of_cloud

end module lsb_kernel
