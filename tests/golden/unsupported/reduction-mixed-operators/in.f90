! A host scalar updated with + and with max in one nest: two operators are no one reduction, refused at its declaration with the line of the second.
subroutine mixed(n, m, a, b, tot)
  implicit none
  integer, intent(in) :: n, m
  real, intent(in) :: a(n, m), b(n, m)
  real, intent(inout) :: tot
  integer :: i, j
!$stencil region
  do j = 1, m
    do i = 1, n
      tot = tot + a(i,j)
      tot = max(tot, b(i,j))
    end do
  end do
!$stencil end region
end subroutine mixed
