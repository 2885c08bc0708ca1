! A local work array declared with a kind (`real(kind=8) :: w(n)`) is a plain local: the host never uses it, so it is privatized, not copied.
subroutine smooth(n, m, a, b)
  implicit none
  integer, intent(in) :: n, m
  real(kind=8), intent(in) :: a(n, m)
  real(kind=8), intent(out) :: b(n, m)
  real(kind=8) :: w(n)
  integer :: i, j

!$stencil region
  do j = 1, m
    do i = 1, n
      w(i) = 0.5d0 * a(i,j)
      b(i,j) = w(i) * w(i)
    end do
  end do
!$stencil end region
end subroutine smooth
