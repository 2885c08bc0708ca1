! A scalar assigned in the region and read after it: refused, its value would be lost.
subroutine tend(n, m, a, b)
  implicit none
  integer, intent(in) :: n, m
  real, intent(inout) :: a(n, m), b(n, m)
  integer :: i, j
  real :: s

!$stencil region
  do j = 1, m
    do i = 1, n
      s = 2.0 * b(i,j)
      a(i,j) = s
    end do
  end do
!$stencil end region
  b(1,1) = s
end subroutine tend
