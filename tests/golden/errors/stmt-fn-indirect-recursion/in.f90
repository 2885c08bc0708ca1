! Statement functions that refer to each other in a cycle (f -> g -> k -> f): one error, at the first one's definition.
subroutine physics(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
  real :: f, g, h, k, x
  h(x) = x + 1.0
  f(x) = g(x) + h(x)
  k(x) = f(x) + 1.0
  g(x) = h(x) * k(x)
!$stencil region
  do i = 1, n
    a(i) = k(a(i)) + h(a(i))
  end do
!$stencil end region
end subroutine physics
