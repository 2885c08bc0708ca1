! A computed GOTO inside a region: refused at the GOTO, with the IF ... GO TO form it can take instead.
subroutine pick(a, kind, its, ite)
  implicit none
  integer, intent(in) :: its, ite, kind
  real, intent(inout) :: a(its:ite)
  integer :: i
!$stencil region
  do i = its, ite
    go to (10, 20) kind
10  a(i) = 1.0
    go to 30
20  a(i) = 2.0
30  continue
  end do
!$stencil end region
end subroutine pick
