! micro.f90 -- a warm-rain microphysics step as the 2009 PGI Accelerator port
! of WSM5 left it (the article in the project's background reading): the
! j loop, once around the call, inlined into the routine; the i loops moved
! outermost and fused into one loop around the column's body; the work
! arrays without a j index named in the j loop's private list and in the
! region's local clause; numdt(i) scalarized by hand into numdt; data
! clauses on whole arrays; `!$acc do kernel` and the schedule the article
! tuned, parallel, vector(16) on j and on i.  No compiler accepts these
! directives today; s2s-cuda reads them as advice that its analysis checks.
!
! Per column: condensation of supersaturated vapour (latent heating),
! autoconversion of cloud water to rain, and rain falling down the column in
! mstep sub-steps short enough for the fastest level (a per-column count),
! each level passing a flux to the one below; what leaves the bottom is
! surface rain.  Fields are WRF's (i,k,j) with memory and tile bounds.
module pgiport_micro
  implicit none
  private
  public :: micro
  real, parameter :: xlv = 2.5e6, cp = 1004.5, qsat0 = 1.2e-2, t0 = 273.15
  real, parameter :: autoc = 1.0e-3, qcrit = 5.0e-4, vfall = 5.0
contains
  subroutine micro(t, q, qc, qr, den, delz, rain, dt, &
                   ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, intent(inout) :: t(ims:ime, kms:kme, jms:jme), q(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: qc(ims:ime, kms:kme, jms:jme), qr(ims:ime, kms:kme, jms:jme)
    real, intent(in) :: den(ims:ime, kms:kme, jms:jme), delz(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: rain(ims:ime, jms:jme)
    real, intent(in) :: dt
    real :: work(its:ite, kts:kte)    ! saturation mixing ratio, then fall speed
    real :: falk(its:ite, kts:kte)    ! mass flux out of each level
    real :: denfac(its:ite, kts:kte)  ! density correction of the fall speed
    real :: numdt, dtn, cond, auto, vmax, flux
    integer :: i, j, k, n, mstep
!$acc region copyin(den(:,:,:), delz(:,:,:)) copy(t(:,:,:), q(:,:,:),
!$acc& qc(:,:,:), qr(:,:,:), rain(:,:)) local(work, falk, denfac)
!$acc do parallel, vector(16) private(work, falk, denfac)
    do j = jts, jte
!$acc do kernel, parallel, vector(16)
      do i = its, ite
        ! condensation towards saturation, which falls off with temperature
        do k = kts, kte
          work(i,k) = qsat0 * exp(0.06 * (t(i,k,j) - t0))
          cond = max(q(i,k,j) - work(i,k), -qc(i,k,j)) / (1.0 + xlv / cp * 0.06 * work(i,k))
          q(i,k,j) = q(i,k,j) - cond
          qc(i,k,j) = qc(i,k,j) + cond
          t(i,k,j) = t(i,k,j) + xlv / cp * cond
        end do
        ! autoconversion above a threshold
        do k = kts, kte
          auto = min(autoc * dt * max(qc(i,k,j) - qcrit, 0.0), qc(i,k,j))
          qc(i,k,j) = qc(i,k,j) - auto
          qr(i,k,j) = qr(i,k,j) + auto
        end do
        ! fall speeds and the number of sub-steps this column needs
        vmax = 0.0
        do k = kts, kte
          denfac(i,k) = sqrt(den(i,kts,j) / den(i,k,j))
          work(i,k) = vfall * denfac(i,k)
          vmax = max(vmax, work(i,k) * dt / delz(i,k,j))
        end do
        mstep = int(vmax) + 1
        numdt = 1.0 / real(mstep)
        dtn = dt * numdt
        ! sedimentation, top down, in mstep sub-steps
        do n = 1, mstep
          do k = kte, kts, -1
            falk(i,k) = den(i,k,j) * qr(i,k,j) * work(i,k) * dtn
          end do
          flux = 0.0
          do k = kte, kts, -1
            qr(i,k,j) = max(qr(i,k,j) - (falk(i,k) - flux) / (den(i,k,j) * delz(i,k,j)), 0.0)
            flux = falk(i,k)
          end do
          rain(i,j) = rain(i,j) + flux
        end do
      end do
    end do
!$acc end region
  end subroutine micro
end module pgiport_micro
