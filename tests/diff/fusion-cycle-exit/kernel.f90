! fusion-cycle-exit: two sibling i loops inside a k loop, the first with a
! CYCLE (or an EXIT) and a cross-column read that keeps i sequential in
! each thread.  Fusing the two i loops inside the thread would make the
! CYCLE skip the second loop's statement too, and the EXIT end both: the
! loops must stay apart (found by tests/random.sh, seed 1039).
module fce_kernel
  implicit none
  private
  public :: skip_and_stop

contains

  subroutine skip_and_stop(a, b, c, d, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: b(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: a(ims:ime, kms:kme, jms:jme), c(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: d(ims:ime, kms:kme, jms:jme)
    integer :: i, k, j
!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its + 1, ite
          if (b(i,k,j) < -0.2) cycle
          a(i,k,j) = a(i-1,k,j) + b(i,k,j)       ! a running sum along i: i stays sequential
        end do
        do i = its + 1, ite
          c(i,k,j) = 2.0*b(i,k,j)
        end do
        do i = its + 1, ite
          if (b(i,k,j) > 0.4) exit
          d(i,k,j) = d(i-1,k,j) - b(i,k,j)
        end do
        do i = its + 1, ite
          c(i,k,j) = c(i,k,j) + 1.0
        end do
      end do
    end do
!$stencil end region
  end subroutine skip_and_stop

end module fce_kernel
