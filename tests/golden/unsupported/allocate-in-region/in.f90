! ALLOCATE inside a region: error naming the statement as a user would, move it out of the region.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
  real, allocatable :: w(:)
!$stencil region
  do i = 1, n
    allocate(w(n))
    a(i) = 2.0 * b(i)
  end do
!$stencil end region
end subroutine s
