! A region inside a region: one error at the inner region (regions do not nest), not a second one for the extra end region.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
!$stencil region
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
!$stencil end region
!$stencil end region
end subroutine s
