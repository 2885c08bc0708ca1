! The second nest reads b(i,j-1), which the first writes: the region splits into two kernels.
subroutine two(n, m, a, b, c)
  implicit none
  integer, intent(in) :: n, m
  real, intent(in) :: a(n, m)
  real, intent(out) :: b(n, m), c(n, m)
  integer :: i, j

!$stencil region
  do j = 1, m
    do i = 1, n
      b(i,j) = 2.0 * a(i,j)
    end do
  end do
  do j = 2, m
    do i = 1, n
      c(i,j) = b(i,j) - b(i,j-1)
    end do
  end do
!$stencil end region
end subroutine two
