! A region opened in one routine and 'ended' in the next: one error at the region, the stray end region is its partner.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
end subroutine s
subroutine t(a, n)
  integer :: n
  real :: a(n)
!$stencil end region
end subroutine t
