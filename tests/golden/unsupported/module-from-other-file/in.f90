! A name (cp) from a module of another file used in a region: refused, not declared here.
subroutine heat(n, t)
  use physical_constants, only: cp
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: t(n)
  integer :: i

!$stencil region
  do i = 1, n
    t(i) = t(i) / cp
  end do
!$stencil end region
end subroutine heat
