! Functions a region cannot inline: a recursive one, one that changes its argument, one that returns an array.
module m
  implicit none
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
    end do
!$stencil end region
  end subroutine outer

  recursive real function fact(x) result(r)
    real, intent(in) :: x
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
end module m
