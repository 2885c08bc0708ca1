! A running sum a(i) = a(i-1) + b(i): a loop-carried flow dependence, no parallel loop: refused.
subroutine cumulate(n, a, b)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  real, intent(in) :: b(n)
  integer :: i

!$stencil region
  do i = 2, n
    a(i) = a(i-1) + b(i)
  end do
!$stencil end region
end subroutine cumulate
