! goto-iteration-loop: a semi-Lagrangian-like fall step per column, repeated
! with a backward GOTO (`100 continue ... if (...) go to 100`) until what a
! step moves is small or a counter reaches its limit; the GOTO loop becomes a
! loop without an index, run in order inside each thread of a kernel over (i,j).
module gil_kernel
  implicit none
  private
  public :: settle

contains

  subroutine settle(q, v, nsteps, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    real, intent(in) :: v(ims:ime, kms:kme, jms:jme)
    integer, intent(inout) :: nsteps(ims:ime, jms:jme)
    integer :: i, k, j, n
    real :: flux, moved
!$stencil region
    do j = jts, jte
      do i = its, ite
        n = 0
100     continue
        n = n + 1
        moved = 0.
        do k = kts, kte - 1
          flux = 0.5 * abs(v(i,k,j)) * q(i,k+1,j)
          q(i,k+1,j) = q(i,k+1,j) - flux
          q(i,k,j) = q(i,k,j) + flux
          moved = moved + flux
        end do
        if (moved > 1.e-3 .and. n < 25) go to 100
        nsteps(i,j) = n
      end do
    end do
!$stencil end region
  end subroutine settle

end module gil_kernel
