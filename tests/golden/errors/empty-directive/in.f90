! A bare '!$stencil' line: error 'empty directive', listing the directives expected.
subroutine surface_flux(tsk, t1, ust, hfx, its, ite)
  implicit none
  integer, intent(in) :: its, ite
  real, intent(in)  :: tsk(its:ite), t1(its:ite), ust(its:ite)
  real, intent(out) :: hfx(its:ite)
  real, parameter :: cp = 1004.5, rho = 1.2, ch = 1.2e-3
  integer :: i

!$stencil
  do i = its, ite
    hfx(i) = rho * cp * ch * ust(i) * (tsk(i) - t1(i))
  end do
end subroutine surface_flux
