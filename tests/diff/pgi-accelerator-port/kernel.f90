! pgi-accelerator-port: a microphysics routine in the shape of the 2009 PGI
! Accelerator port of WSM5 (the article in the seeds): the j loop inlined
! into the routine, the i loops fused into one outer loop around the body,
! work arrays without a j index named in the j loop's private list and in
! the region's local clause, numdt(i) scalarized by hand into numdt, an
! `!$acc do kernel` on i, a continuation line `!$acc&`, and data clauses
! on whole arrays.  The driver keeps the fields on the device in an
! `!$acc data region` with an `!$acc update host` halfway.  Expected: one
! kernel over (i, j); qci and work kept per thread (the local clause is
! superseded by the private list); the downward sweep sequential.
module pgi_port_kernel
  implicit none
  private
  public :: micro
contains
  subroutine micro(t, q, rain, delt, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, intent(in) :: t(ims:ime, kms:kme, jms:jme), delt
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: rain(ims:ime, jms:jme)
    real :: qci(its:ite, kts:kte)
    real :: work(its:ite, kts:kte)
    real :: numdt, flux
    integer :: i, j, k
!$acc region copyin(t(:,:,:)) copy(q(:,:,:), rain(:,:))
!$acc& local(qci, work)
!$acc do parallel private(qci, work)
    do j = jts, jte
!$acc do kernel, vector(32)
      do i = its, ite
        numdt = max(1.0, delt * 0.5)
        do k = kts, kte
          qci(i,k) = max(q(i,k,j) - 1.0e-3 * (t(i,k,j) - 273.15), 0.0)
          work(i,k) = qci(i,k) * 0.01 * numdt
        end do
        ! sedimentation, top down: each level passes a flux to the one below
        flux = 0.0
        do k = kte, kts, -1
          q(i,k,j) = q(i,k,j) - work(i,k) + flux
          flux = work(i,k)
        end do
        rain(i,j) = rain(i,j) + flux
      end do
    end do
!$acc end region
  end subroutine micro
end module pgi_port_kernel
