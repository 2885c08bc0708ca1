! An undeclared name under IMPLICIT NONE in a region: error at it, saying to declare it or check the spelling.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = x * b(i)
  end do
!$stencil end region
end subroutine s
