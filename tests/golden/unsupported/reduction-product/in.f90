! A product over the columns (tot = tot * a(i,j)): only +, max and min are combined on the GPU, refused.
subroutine prod(n, m, a, b, tot)
  implicit none
  integer, intent(in) :: n, m
  real, intent(in) :: a(n, m)
  real, intent(out) :: b(n, m)
  real, intent(inout) :: tot
  integer :: i, j
!$stencil region
  do j = 1, m
    do i = 1, n
      tot = tot * a(i,j)
      b(i,j) = 2.0 * a(i,j)
    end do
  end do
!$stencil end region
end subroutine prod
