! A scalar assigned at the top of a region, outside every loop: error naming the scalar (not 'an array element'), move it before the region.
subroutine s(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$stencil region
  i = 1
  do while (i <= n)
    a(i) = 0.0
    i = i + 1
  end do
!$stencil end region
end subroutine s
