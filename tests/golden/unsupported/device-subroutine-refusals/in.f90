! Subroutines a region can neither inline nor make __device__ functions, one error each: an assigned argument given an expression, a call inside passing an expression to an argument its callee assigns, a module variable written, an OPTIONAL argument.
module m
  implicit none
  integer :: nvisits
contains
  subroutine outer(n, a, b)
    integer, intent(in) :: n
    real, intent(inout) :: a(n), b(n)
    integer :: i
!$stencil region
    do i = 1, n
      call bump(a(i) + 1.0, 2)
      call relay(a(i), 2)
      call visit(i)
      call maybe(b(i))
    end do
!$stencil end region
  end subroutine outer

  recursive subroutine bump(v, k)
    real, intent(inout) :: v
    integer, intent(in) :: k
    v = v + 1.0
    if (k > 0) call bump(v, k - 1)
  end subroutine bump

  recursive subroutine relay(v, k)
    real, intent(inout) :: v
    integer, intent(in) :: k
    if (k > 0) call relay(v, k - 1)
    call bump(2.0 * v, 0)
  end subroutine relay

  recursive subroutine visit(k)
    integer, intent(in) :: k
    nvisits = nvisits + 1
    if (k > 1) call visit(k - 1)
  end subroutine visit

  recursive subroutine maybe(v, w)
    real, intent(inout) :: v
    real, intent(in), optional :: w
    v = 2.0 * v
    if (v < 1.0) call maybe(v)
  end subroutine maybe
end module m
