! sedimentation-downward: rain falls through the column, implicit upwind in
! time (as microphysics schemes write it): level k gains what falls out of
! level k+1 in this step and loses what falls out of itself, computed from
! its own new value.  So the sweep runs downwards, k = kte-1 .. kts, each
! level needing the flux of the level above, computed by the previous
! iteration; the top level, which receives nothing, is peeled before the
! loop.  What leaves the lowest level accumulates as surface rain.
! Loops j outer, then k, then i.
!
! Legal GPU shape: one kernel over (i,j), the k loop sequential (downwards)
! inside each thread.  Illegal: a parallel k loop, or an upward k loop.
module sed_kernel
  implicit none
  private
  public :: sediment

contains

  subroutine sediment(qr, rho, dz, vt, flux, rain, dt,               &
                      ims,ime, jms,jme, kms,kme,                      &
                      its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: qr     ! g/kg
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: rho    ! kg/m3
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: dz     ! m
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: vt     ! m/s, > 0
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: flux   ! g/m2/s, out of k
    real, dimension(ims:ime, jms:jme), intent(inout) :: rain            ! g/m2
    real, intent(in) :: dt

    integer :: i, j, k
    real :: cfl

!$stencil region
    do j = jts, jte
      ! Top level: nothing falls in.
      do i = its, ite
        qr(i,kte,j) = qr(i,kte,j)/(1.0 + dt*vt(i,kte,j)/dz(i,kte,j))
        flux(i,kte,j) = rho(i,kte,j)*vt(i,kte,j)*qr(i,kte,j)
      end do
      ! Downwards: what fell out of k+1 falls into k.
      do k = kte-1, kts, -1
        do i = its, ite
          cfl = dt*vt(i,k,j)/dz(i,k,j)
          qr(i,k,j) = (qr(i,k,j) + dt*flux(i,k+1,j)/(rho(i,k,j)*dz(i,k,j)))/(1.0 + cfl)
          flux(i,k,j) = rho(i,k,j)*vt(i,k,j)*qr(i,k,j)
        end do
      end do
      do i = its, ite
        rain(i,j) = rain(i,j) + dt*flux(i,kts,j)
      end do
    end do
!$stencil end region
  end subroutine sediment

end module sed_kernel
