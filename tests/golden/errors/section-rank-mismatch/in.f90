! copyin(b(1:n,1:n)) for a 1-D array: error giving the rank.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region copyin(b(1:n,1:n)) copyout(a)
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
!$stencil end region
end subroutine s
