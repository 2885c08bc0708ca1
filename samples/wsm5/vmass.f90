! vmass.f90 -- MASS-style vector helpers of the wsm5 sample, outside any
! module, in a library file of their own (as IBM's MASS vector library or
! WRF's replacement for it): y(1:n) = f(x(1:n)) on assumed-size arrays.
! The microphysics calls them with array-element actuals, e.g.
!     call vsrec(tvec1(its), den(its,k), ite-its+1)
! so that each call works on one row of a 2-D slab (sequence association).
! Single precision, like the physics.

!-------------------------------------------------------------------------------
! y = 1/x
subroutine vsrec(y, x, n)
  implicit none
  integer, intent(in) :: n
  real, intent(out) :: y(*)
  real, intent(in) :: x(*)
  integer :: i
  do i = 1, n
    y(i) = 1.0 / x(i)
  end do
end subroutine vsrec

!-------------------------------------------------------------------------------
! y = sqrt(x)
subroutine vssqrt(y, x, n)
  implicit none
  integer, intent(in) :: n
  real, intent(out) :: y(*)
  real, intent(in) :: x(*)
  integer :: i
  do i = 1, n
    y(i) = sqrt(x(i))
  end do
end subroutine vssqrt

!-------------------------------------------------------------------------------
! y = exp(x)
subroutine vsexp(y, x, n)
  implicit none
  integer, intent(in) :: n
  real, intent(out) :: y(*)
  real, intent(in) :: x(*)
  integer :: i
  do i = 1, n
    y(i) = exp(x(i))
  end do
end subroutine vsexp

!-------------------------------------------------------------------------------
! y = log(x), x > 0
subroutine vslog(y, x, n)
  implicit none
  integer, intent(in) :: n
  real, intent(out) :: y(*)
  real, intent(in) :: x(*)
  integer :: i
  do i = 1, n
    y(i) = log(x(i))
  end do
end subroutine vslog
