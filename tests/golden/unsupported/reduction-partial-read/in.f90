! A sum whose running value is read inside its loop (b(i,j) = tot): a GPU reduction only gives the final value, refused naming the read.
subroutine running(n, m, a, b)
  implicit none
  integer, intent(in) :: n, m
  real, intent(in) :: a(n, m)
  real, intent(out) :: b(n, m)
  integer :: i, j
  real :: tot
!$stencil region
  do j = 1, m
    do i = 1, n
      tot = tot + a(i,j)
      b(i,j) = tot
    end do
  end do
!$stencil end region
end subroutine running
