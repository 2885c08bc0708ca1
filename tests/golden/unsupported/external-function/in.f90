! An EXTERNAL function (declared 'real, external :: f') called in a region: error saying it is not in the file and what to do (not 'a scalar').
subroutine s(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  real, external :: f
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = f(a(i))
  end do
!$stencil end region
end subroutine s
