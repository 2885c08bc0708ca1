! '!$stencilregion', the directive word glued to the sentinel: error at the line; the prose
! comment '!$stenciled below' stays an ordinary comment.
subroutine scale(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$stenciled below: the loop
!$stencilregion
  do i = 1, n
    a(i) = 2.0 * a(i)
  end do
!$stencil end region
end subroutine scale
