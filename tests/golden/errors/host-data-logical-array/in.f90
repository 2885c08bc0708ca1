! use_device of a LOGICAL array: only integers and reals are supported.
subroutine s(mask, a, n)
  implicit none
  integer, intent(in) :: n
  logical, intent(inout) :: mask(n)
  real, intent(inout) :: a(n)
  integer :: i
  external :: use_it
!$stencil data copy(mask, a)
!$stencil host_data use_device(mask)
  call use_it(mask, n)
!$stencil end host_data
!$stencil region
  do i = 1, n
    if (mask(i)) a(i) = 0.0
  end do
!$stencil end region
!$stencil end data
end subroutine s
