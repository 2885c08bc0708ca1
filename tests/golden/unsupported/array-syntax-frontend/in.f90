! Array syntax the front end refuses, one error each (the region's first statement translates): a vector subscript, maxloc without dim= (an array result), a reduction along dim=2 (an array result).
subroutine tend(n, a, c, idx, k)
  implicit none
  integer, intent(in) :: n, idx(n)
  real, intent(inout) :: a(n), c(n, n)
  integer, intent(out) :: k
!$stencil region
  a(1) = 0.
  a(1:n) = c(idx(1:n), 1)
  k = maxloc(a(1:n))
  a(1) = sum(c(1:n,1:n), dim=2)
!$stencil end region
end subroutine tend
