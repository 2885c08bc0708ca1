! -fdefault-real-8 without -fdefault-double-8 makes DOUBLE PRECISION and a
! `d` exponent real(16), as gfortran does: refused once, at the first, naming
! the flag to add (kernels have no real(16)); default REAL alone is fine.
subroutine scale(n, a, d)
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  double precision, intent(inout) :: d(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = a(i) * 2.0
    d(i) = d(i) * 2.0d0
  end do
!$stencil end region
end subroutine scale
