! A host_data construct with no end host_data in its routine.
subroutine s(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  external :: use_it
!$stencil data copy(a)
!$stencil host_data use_device(a)
  call use_it(a, n)
!$stencil end data
end subroutine s
