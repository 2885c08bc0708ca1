! -o out/ where 'out' is a file, not a directory: error naming it, nothing written.
subroutine scale(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = 2.0 * a(i)
  end do
!$stencil end region
end subroutine scale
