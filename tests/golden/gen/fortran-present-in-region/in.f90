! present() of an optional dummy inside a region: two kernel variants, the host tests presence and launches one.
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
