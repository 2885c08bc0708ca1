! A parenthesis left open in a region's loop: error at the DO, not at the routine's first line.
subroutine scale(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = (2.0 * a(i)
  end do
!$stencil end region
end subroutine scale
