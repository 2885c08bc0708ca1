! '!$stencil end data' with no data region open: error at the directive.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
!$stencil end region
!$stencil end data
end subroutine s
