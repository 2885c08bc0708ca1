! A CHARACTER and a COMPLEX variable used in a region: refused at the use, naming the type as
! declared (not called undeclared), and the string literal called a character string.
subroutine s(n, a)
  implicit none
  integer :: n, i
  real :: a(n)
  character(len=8) :: tag
  complex :: z
  tag = 'x'
  z = (1.0, 2.0)
!$stencil region
  do i = 1, n
    if (tag == 'x') a(i) = 0.0
    a(i) = a(i) + real(z)
  end do
!$stencil end region
end subroutine s
