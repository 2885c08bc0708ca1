! data-advice-applied: data-advice-time-loop with the translator's advice
! written in: a data region around the time loop holds t and tend (copy),
! so the two regions inside find them present and move nothing; q, which
! the host halves every tenth step, stays out of it and moves with each
! region.  The numbers must be the same as the original program's, and the
! translator has no advice left for the loop.
module advice_kernel
  implicit none
  private
  public :: integrate

contains

  subroutine integrate(t, tend, q, ims,ime, jms,jme, its,ite, jts,jte, nsteps)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte, nsteps
    real, dimension(ims:ime, jms:jme), intent(inout) :: t, q
    real, dimension(ims:ime, jms:jme), intent(inout) :: tend
    integer :: i, j, step

!$stencil data copy(t) copy(tend)
    do step = 1, nsteps
!$stencil region
      do j = jts, jte
        do i = its, ite
          tend(i,j) = 0.2*((t(i+1,j) - t(i,j)) - (t(i,j) - t(i-1,j))) &
                    + 0.1*((t(i,j+1) - t(i,j)) - (t(i,j) - t(i,j-1)))
        end do
      end do
!$stencil end region
!$stencil region
      do j = jts, jte
        do i = its, ite
          t(i,j) = t(i,j) + tend(i,j) + 0.01*q(i,j)
        end do
      end do
!$stencil end region
      if (mod(step, 10) == 0) then
        q = 0.5*q
      end if
    end do
!$stencil end data
  end subroutine integrate

end module advice_kernel
