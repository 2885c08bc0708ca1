! A statement function that refers to itself: one error at its definition (a COMMON array assignment that looks like one is not reported).
subroutine smooth(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
  real :: f, x
  f(x) = f(x) + 1.0
!$stencil region
  do i = 1, n
    a(i) = f(a(i))
  end do
!$stencil end region
end subroutine smooth

subroutine bump(a, n, i)
  integer n, i
  real a(n)
  common /blk/ g(10)
  g(i) = g(i) + 1.0
!$stencil region
  do i = 1, n
    a(i) = 2.0 * a(i)
  end do
!$stencil end region
end subroutine bump
