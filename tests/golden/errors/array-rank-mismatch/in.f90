! A 1-D array with two subscripts in a region: error giving its rank.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = 2.0 * b(i, i)
  end do
!$stencil end region
end subroutine s
