! private(xmelt) on a region directive: error, private is a clause of '!$stencil do' only.
subroutine melt(t, qs, qr, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: t(its:ite, kts:kte), qs(its:ite, kts:kte), qr(its:ite, kts:kte)
  real, parameter :: t0c = 273.15, xlf = 3.5e5, cp = 1004.5
  real :: xmelt
  integer :: i, k

!$stencil region copy(t, qs, qr) private(xmelt)
  do k = kts, kte
    do i = its, ite
      if (t(i,k) > t0c .and. qs(i,k) > 0.) then
        xmelt = min(qs(i,k), (t(i,k) - t0c) * cp / xlf)
        qs(i,k) = qs(i,k) - xmelt
        qr(i,k) = qr(i,k) + xmelt
        t(i,k) = t(i,k) - xlf / cp * xmelt
      end if
    end do
  end do
!$stencil end region
end subroutine melt
