! A recursive subroutine called in a region: a `static __host__ __device__ void` function with the argument it assigns by pointer, the kernel's call one `s2s_devret` reference; a recursive one that assigns nothing has its call removed.
module m
  implicit none
contains
  subroutine outer(n, a, b)
    integer, intent(in) :: n
    real, intent(inout) :: a(n)
    real, intent(in) :: b(n)
    integer :: i
!$stencil region
    do i = 1, n
      call halve(b(i), 3, a(i))
      call probe(i)
    end do
!$stencil end region
  end subroutine outer

  recursive subroutine halve(x, times, y)
    real, intent(in) :: x
    integer, intent(in) :: times
    real, intent(out) :: y
    if (times <= 0) then
      y = x
    else
      call halve(0.5 * x, times - 1, y)
    end if
  end subroutine halve

  recursive subroutine probe(k)
    integer, intent(in) :: k
    if (k > 1) call probe(k / 2)
  end subroutine probe
end module m
