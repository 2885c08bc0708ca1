! '!$stencil end host_data' with no host_data open.
subroutine s(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
!$stencil data copy(a)
  a(1) = 0.0
!$stencil end host_data
!$stencil end data
end subroutine s
