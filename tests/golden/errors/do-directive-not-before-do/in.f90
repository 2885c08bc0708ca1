! '!$stencil do seq' in front of an assignment: error, it must come right before a DO.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
  do i = 1, n
!$stencil do seq
    a(i) = 2.0 * b(i)
  end do
!$stencil end region
end subroutine s
