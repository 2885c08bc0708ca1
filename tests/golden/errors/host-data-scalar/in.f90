! use_device of a scalar: the clause names arrays.
subroutine s(a, x, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), x
  external :: use_it
!$stencil data copy(a)
!$stencil host_data use_device(x)
  call use_it(x)
!$stencil end host_data
!$stencil end data
end subroutine s
