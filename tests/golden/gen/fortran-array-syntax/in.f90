! Array syntax in a region: a whole-column copy a(:,j) = b(:,j), a WHERE on it and a maxval per column, expanded into loops by pass normalize.
subroutine tend(n, m, a, b, amax)
  implicit none
  integer, intent(in) :: n, m
  real, intent(inout) :: a(n, m), b(n, m)
  real, intent(out) :: amax(m)
  integer :: i, j

!$stencil region
  do j = 1, m
    a(:,j) = b(:,j)
    where (a(:,j) < 0.) a(:,j) = 0.
    amax(j) = maxval(a(:,j))
  end do
!$stencil end region
end subroutine tend
