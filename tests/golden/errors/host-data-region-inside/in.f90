! A region inside a host_data construct: there a names the device copy, which the region's
! launcher would look up as a host array; one error at the region, none after.
subroutine s(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$stencil data copy(a)
!$stencil host_data use_device(a)
!$stencil region
  do i = 1, n
    a(i) = 2.0 * a(i)
  end do
!$stencil end region
!$stencil end host_data
!$stencil end data
end subroutine s
