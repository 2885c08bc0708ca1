! '-o out/' naming a directory that does not exist: usage error (exit 2), nothing written; '-o out'
! without the '/' would build a program named out (compiler-driver mode).
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
