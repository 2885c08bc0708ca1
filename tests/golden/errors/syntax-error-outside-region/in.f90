! A syntax error in a routine without directives, in a file that has a region: error at it.
subroutine scale_host(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  a(1) = = 2.0 * a(1)
end subroutine scale_host

subroutine scale(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = 2.0 * a(i)
  end do
!$stencil end region
end subroutine scale
