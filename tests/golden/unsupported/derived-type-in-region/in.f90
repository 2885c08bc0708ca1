! Derived-type components in a region (v%x(i,j) assigned, v%c read): each error names the component and the variable's type, not 'call of function'.
subroutine s(v, a, n)
  implicit none
  type grid
    real :: x(10,10)
    real :: c
  end type grid
  integer, intent(in) :: n
  type(grid), intent(inout) :: v
  real, intent(inout) :: a(n)
  integer :: i, j
!$stencil region
  do j = 1, n
    do i = 1, n
      v%x(i,j) = a(i)
    end do
  end do
  do i = 1, n
    a(i) = v%c
  end do
!$stencil end region
end subroutine s
