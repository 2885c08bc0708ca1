! Array syntax that normalize refuses, one region each: extents not provably equal, overlaps no loop order keeps right, a WHERE reading other elements than it assigns, an array-valued function argument, an array where a scalar is needed.
module m
  implicit none
contains
  real function twice(x)
    real, intent(in) :: x(:)
    twice = 2.0 * x(1)
  end function twice

  subroutine tend(n, a, b, c, x)
    integer, intent(in) :: n
    real, intent(inout) :: a(n), b(n), c(n, n), x
!$stencil region
    a(1:n) = b(2:n)
!$stencil end region
!$stencil region
    a(2:n-1) = a(1:n-2) + a(3:n)
!$stencil end region
!$stencil region
    c(2,1:n) = c(1:n,2)
!$stencil end region
!$stencil region
    where (a(2:n) > 0.) a(1:n-1) = a(2:n)
!$stencil end region
!$stencil region
    a(1:n) = twice(b(1:n))
!$stencil end region
!$stencil region
    x = a(1:n) + 1.0
!$stencil end region
  end subroutine tend
end module m
