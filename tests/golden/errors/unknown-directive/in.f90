! A misspelled directive '!$stencil regoin': error listing the directives.
subroutine qsat_column(p, t, qs, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(in)    :: p(its:ite, kts:kte), t(its:ite, kts:kte)
  real, intent(out)   :: qs(its:ite, kts:kte)
  real, parameter :: ep2 = 0.622, svp1 = 0.6112, svp2 = 17.67, svp3 = 29.65
  real :: es
  integer :: i, k

!$stencil regoin copyin(p, t) copyout(qs)
  do k = kts, kte
    do i = its, ite
      es = 1000. * svp1 * exp(svp2 * (t(i,k) - 273.15) / (t(i,k) - svp3))
      qs(i,k) = ep2 * es / (p(i,k) - es)
    end do
  end do
!$stencil end region
end subroutine qsat_column
