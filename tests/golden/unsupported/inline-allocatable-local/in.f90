! A callee's allocatable local has run-time bounds the host cannot pass: inlining it is refused.
module m
  implicit none
contains
  subroutine outer(q, n)
    integer, intent(in) :: n
    real, intent(inout) :: q(n)
!$stencil region
    call scale(q, n)
!$stencil end region
  end subroutine outer

  subroutine scale(x, n)
    integer, intent(in) :: n
    real, intent(inout) :: x(n)
    real, allocatable :: w(:)
    integer :: i
    do i = 1, n
      x(i) = 2.0 * x(i) + w(i)
    end do
  end subroutine scale
end module m
