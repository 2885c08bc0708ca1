! --dump-ir=group: the region with its plan after grouping (two kernels, a privatized work array, each array's clause and box).
subroutine two(n, m, a, b, c)
  implicit none
  integer, intent(in) :: n, m
  real, intent(in) :: a(n, m)
  real, intent(out) :: b(n, m), c(n, m)
  real :: w(n)
  integer :: i, j

!$stencil region
  do j = 1, m
    do i = 1, n
      w(i) = 2.0 * a(i,j)
      b(i,j) = w(i) + 1.0
    end do
  end do
  do j = 2, m
    do i = 1, n
      c(i,j) = b(i,j) - b(i,j-1)
    end do
  end do
!$stencil end region
end subroutine two
