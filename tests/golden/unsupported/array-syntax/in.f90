! Array syntax a(:,j) = b(:,j) in a region: one error per section; write the loop explicitly.
subroutine tend(n, m, a, b)
  implicit none
  integer, intent(in) :: n, m
  real, intent(inout) :: a(n, m), b(n, m)
  integer :: i, j
  real :: s

!$stencil region
  do j = 1, m
    a(:,j) = b(:,j)
  end do
!$stencil end region
end subroutine tend
