! The same array qc in copyin and copy of one region: error at the second, note at the first.
subroutine warm_rain(qc, qr, den, dt, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: qc(its:ite, kts:kte), qr(its:ite, kts:kte)
  real, intent(in)    :: den(its:ite, kts:kte), dt
  real, parameter :: qc0 = 1.e-3, c1 = 1.e-3
  real :: praut
  integer :: i, k

!$stencil region copyin(qc, den) copy(qr, qc)
  do k = kts, kte
    do i = its, ite
      praut = max(0., c1 * (qc(i,k) - qc0 / den(i,k)))
      praut = min(praut, qc(i,k) / dt)
      qc(i,k) = qc(i,k) - praut * dt
      qr(i,k) = qr(i,k) + praut * dt
    end do
  end do
!$stencil end region
end subroutine warm_rain
