! A recursive function called in a region cannot be inlined: it becomes a __device__ function of the generated file, the call kept.
module m
  implicit none
  integer, parameter :: base = 10
contains
  subroutine count_digits(n, k, nd)
    integer, intent(in) :: n
    integer, intent(in) :: k(n)
    integer, intent(out) :: nd(n)
    integer :: i
!$stencil region
    do i = 1, n
      nd(i) = ndigits(abs(k(i)))
    end do
!$stencil end region
  end subroutine count_digits

  ! The digits of m >= 0 in base `base` (integer division truncates, as in C).
  recursive integer function ndigits(m) result(d)
    integer, intent(in) :: m
    if (m < base) then
      d = 1
    else
      d = 1 + ndigits(m / base)
    end if
  end function ndigits
end module m
