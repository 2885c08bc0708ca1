! privatize-work-arrays: the WSM5 habit of work arrays without a j index
! inside the j loop: work(i,k) (size known at run time), numdt(i) (one value
! per column) and tmp(i,4) (constant size).  Each is written before it is
! read in every column and the host never uses it, so each thread gets its
! own copy and the region is one kernel over (i,j).
module privatize_kernel
  implicit none
  private
  public :: micro
contains
  subroutine micro(t, q, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, intent(in) :: t(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    real :: work(its:ite, kts:kte)
    real :: numdt(its:ite)
    real :: tmp(its:ite, 4)
    integer :: i, j, k, n
!$stencil region
    do j = jts, jte
      do i = its, ite
        numdt(i) = 1.0 + 0.5 * real(j)
      end do
      do k = kts, kte
        do i = its, ite
          work(i,k) = t(i,k,j) * 2.0 - numdt(i)
        end do
      end do
      do n = 1, 4
        do i = its, ite
          tmp(i,n) = real(n) * numdt(i) + work(i,kts)
        end do
      end do
      do k = kte, kts, -1
        do i = its, ite
          q(i,k,j) = work(i,k) + numdt(i) * q(i,k,j)
        end do
      end do
      do n = 1, 4
        do i = its, ite
          q(i,n,j) = q(i,n,j) + tmp(i,n)
        end do
      end do
    end do
!$stencil end region
  end subroutine micro
end module privatize_kernel
