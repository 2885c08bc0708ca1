! A GOTO from inside a region to a label after it: refused at the GOTO (a jump out of a region is not supported).
subroutine bail(a, its, ite)
  implicit none
  integer, intent(in) :: its, ite
  real, intent(inout) :: a(its:ite)
  integer :: i
!$stencil region
  do i = its, ite
    if (a(i) < 0.) go to 99
    a(i) = sqrt(a(i))
  end do
!$stencil end region
99 continue
end subroutine bail
