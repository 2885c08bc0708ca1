! '!$stencil update host(a)' after a region, with no data region open in the routine: translated,
! with a warning that the update stops the program unless a caller's data region holds a.
subroutine scale(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$stencil region copy(a)
  do i = 1, n
    a(i) = 2.0 * a(i)
  end do
!$stencil end region
!$stencil update host(a)
end subroutine scale
