! present() of an optional dummy inside a region: refused, it is known only on the host.
subroutine accumulate(n, a, extra)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  real, intent(in), optional :: extra(n)
  integer :: i
!$stencil region
  do i = 1, n
    if (present(extra)) a(i) = a(i) + extra(i)
  end do
!$stencil end region
end subroutine accumulate
