! A sum updated at the top of the region outside every loop (every thread would add it) as well as inside the nest: refused at its declaration.
subroutine outside(n, m, a, tot)
  implicit none
  integer, intent(in) :: n, m
  real, intent(in) :: a(n, m)
  real, intent(inout) :: tot
  integer :: i, j
!$stencil region
  tot = tot + 1.0
  do j = 1, m
    do i = 1, n
      tot = tot + a(i,j)
    end do
  end do
!$stencil end region
end subroutine outside
