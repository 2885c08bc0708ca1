! PRINT inside a region: error naming it as input/output, move it out of the region.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = 2.0 * b(i)
    print *, a(i)
  end do
!$stencil end region
end subroutine s
