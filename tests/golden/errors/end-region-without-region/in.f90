! '!$stencil end region' with no region open: error at the directive.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
!$stencil end region
end subroutine s
