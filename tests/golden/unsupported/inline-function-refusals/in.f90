! Functions a region cannot inline nor make __device__ functions: a recursive one that writes a module variable, one that changes its argument, one that returns an array, and a recursive subroutine with array arguments.
module m
  implicit none
  integer :: ncalls
contains
  subroutine outer(n, a, b)
    integer, intent(in) :: n
    real, intent(inout) :: a(n), b(n)
    integer :: i
!$stencil region
    do i = 1, n
      a(i) = fact(b(i))
      b(i) = bump(a(i))
      a(i) = a(i) + spread3(b(i))
      call walk(a, b, i)
    end do
!$stencil end region
  end subroutine outer

  recursive real function fact(x) result(r)
    real, intent(in) :: x
    ncalls = ncalls + 1
    if (x > 1.0) then
      r = x * fact(x - 1.0)
    else
      r = 1.0
    end if
  end function fact

  real function bump(x)
    real, intent(inout) :: x
    x = x + 1.0
    bump = x
  end function bump

  function spread3(x) result(v)
    real, intent(in) :: x
    real :: v(3)
    v(1) = x
  end function spread3

  recursive subroutine walk(a, b, k)
    real, intent(inout) :: a(:), b(:)
    integer, intent(in) :: k
    if (k > 1) then
      a(k) = a(k) + b(k - 1)
      call walk(a, b, k - 1)
    end if
  end subroutine walk
end module m
