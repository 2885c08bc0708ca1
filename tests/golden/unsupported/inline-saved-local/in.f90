! The callee has a local with an initializer (implicitly SAVE): inlining it is refused.
module m
  implicit none
contains
  subroutine outer(n, a)
    integer, intent(in) :: n
    real, intent(inout) :: a(n)
    integer :: i
!$stencil region
    do i = 1, n
      call count_calls(a(i))
    end do
!$stencil end region
  end subroutine outer

  subroutine count_calls(x)
    real, intent(inout) :: x
    integer :: calls = 0     ! an initializer makes it SAVE: it counts across calls
    calls = calls + 1
    x = x + real(calls)
  end subroutine count_calls
end module m
