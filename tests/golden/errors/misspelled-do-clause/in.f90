! A misspelled clause 'paralel' on '!$stencil do': error listing the clauses of do.
subroutine slope_rain(qr, den, denfac, t, rslope, vt, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(in)  :: qr(its:ite, kts:kte), den(its:ite, kts:kte)
  real, intent(in)  :: denfac(its:ite, kts:kte), t(its:ite, kts:kte)
  real, intent(out) :: rslope(its:ite, kts:kte), vt(its:ite, kts:kte)
  real, parameter :: qcrmin = 1.e-9, pvtr = 841.99667, bvtr = 0.8
  real :: lamdar
  integer :: i, k

!$stencil region copyin(qr, den, denfac, t) copyout(rslope, vt)
  do k = kts, kte
!$stencil do paralel vector(128)
    do i = its, ite
      if (qr(i,k) <= qcrmin) then
        rslope(i,k) = 0.
      else
        lamdar = sqrt(sqrt(2.5e6 / (qr(i,k) * den(i,k))))
        rslope(i,k) = 1. / lamdar
      end if
      vt(i,k) = pvtr * rslope(i,k)**bvtr * denfac(i,k)
    end do
  end do
!$stencil end region
end subroutine slope_rain
