! A library file of procedures outside any module (MASS style): each leaves NAME.s2sproc.
subroutine scale_column(n, y, x, c)
  integer, intent(in) :: n
  real, intent(out) :: y(n)
  real, intent(in) :: x(n), c
  integer :: k
  do k = 1, n
    y(k) = c * x(k)
  end do
end subroutine scale_column
