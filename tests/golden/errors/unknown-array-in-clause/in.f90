! copyin(c) where the routine has no 'c': error at the name.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region copyin(c) copyout(a)
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
!$stencil end region
end subroutine s
