! vector(n) with a variable length: error, a positive integer constant is needed.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
!$stencil do vector(n)
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
!$stencil end region
end subroutine s
