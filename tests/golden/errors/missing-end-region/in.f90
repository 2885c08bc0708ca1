! A region without its '!$stencil end region': one error at the region, saying where the end goes.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
end subroutine s
