! A call that omits a non-optional dummy (scale) of the callee: inlining it is refused.
module m
  implicit none
contains
  subroutine outer(n, a)
    integer, intent(in) :: n
    real, intent(inout) :: a(n)
    integer :: i
!$stencil region
    do i = 1, n
      call bump(a(i))
    end do
!$stencil end region
  end subroutine outer

  subroutine bump(x, scale)
    real, intent(inout) :: x
    real, intent(in) :: scale
    x = x + 1.0
  end subroutine bump
end module m
