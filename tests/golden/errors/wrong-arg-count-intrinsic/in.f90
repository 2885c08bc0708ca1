! sqrt with two arguments in a region: error giving the count.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = sqrt(b(i), 2.0)
  end do
!$stencil end region
end subroutine s
