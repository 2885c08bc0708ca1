! An array element assigned in a region outside every loop: refused, no thread owns it.
subroutine tend(n, m, a, b)
  implicit none
  integer, intent(in) :: n, m
  real, intent(inout) :: a(n, m), b(n, m)
  integer :: i, j
  real :: s

!$stencil region
  a(1,1) = 0.0
  do j = 1, m
    do i = 1, n
      a(i,j) = b(i,j)
    end do
  end do
!$stencil end region
end subroutine tend
