! vmass.f90 -- MASS-style vector helpers, outside any module, in a library
! file of their own: y(1:n) = f(x(1:n)) on assumed-size arrays, called with
! array-element actuals (sequence association), as WSM5 calls vsrec and
! vssqrt.
subroutine vrec(y, x, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(out) :: y(*)
  real(8), intent(in) :: x(*)
  integer :: i
  do i = 1, n
    y(i) = 1.0d0 / x(i)
  end do
end subroutine vrec

subroutine vsqrt(y, x, n)
  implicit none
  integer, intent(in) :: n
  real(8), intent(out) :: y(*)
  real(8), intent(in) :: x(*)
  integer :: i
  do i = 1, n
    y(i) = sqrt(x(i))
  end do
end subroutine vsqrt
