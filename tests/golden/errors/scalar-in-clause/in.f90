! copyin(n) naming an integer scalar: error, data clauses take arrays.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region copyin(n) copyout(a)
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
!$stencil end region
end subroutine s
