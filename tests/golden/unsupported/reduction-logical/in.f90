! A logical reduction (wet = wet .or. a(i,j) > 0): not implemented, refused naming the update.
subroutine anywet(n, m, a, b)
  implicit none
  integer, intent(in) :: n, m
  real, intent(in) :: a(n, m)
  real, intent(out) :: b(n, m)
  integer :: i, j
  logical :: wet
!$stencil region
  do j = 1, m
    do i = 1, n
      wet = wet .or. a(i,j) > 0.0
      b(i,j) = 2.0 * a(i,j)
    end do
  end do
!$stencil end region
end subroutine anywet
