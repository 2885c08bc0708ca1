! copyin(b(1:m)) where 'm' is not a variable of the routine: error at 'm'.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region copyin(b(1:m)) copyout(a)
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
!$stencil end region
end subroutine s
