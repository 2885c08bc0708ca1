! data-advice-time-loop: a time loop around two regions, as a dynamics
! driver has: the first computes a tendency from t (2-D, WRF (i,j)
! layout), the second adds it and a forcing q; every tenth step the host
! itself halves q.  The translator's advice: a data region around the loop
! keeps t and tend on the device (each region then finds them present),
! and q stays out of it because host code in the loop uses it.  The
! advice, applied, is the data-advice-applied case: same numbers.
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
  end subroutine integrate

end module advice_kernel
