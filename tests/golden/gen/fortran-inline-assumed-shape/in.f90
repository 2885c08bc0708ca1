! An assumed-shape dummy x(:) on the whole actual q(n): x takes q's shape from lower bound 1, inlined.
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
    real, intent(inout) :: x(:)
    integer :: i
    do i = 1, n
      x(i) = 2.0 * x(i)
    end do
  end subroutine scale
end module m
