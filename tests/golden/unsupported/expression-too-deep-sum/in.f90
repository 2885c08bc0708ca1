! A sum of 1100 terms in a region: one error (expression nested too deep) at its start; the same sum in host code is fine.
subroutine s(a, x, n)
  implicit none
  integer, intent(in) :: n
  real, intent(in) :: a(n)
  real, intent(out) :: x(n)
  integer :: i
  do i = 1, n
    x(i) = a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i)
  end do
!$stencil region
  do i = 1, n
    x(i) = a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) + a(i) &
        & + a(i) + a(i) + a(i) + a(i) + a(i)
  end do
!$stencil end region
end subroutine s
