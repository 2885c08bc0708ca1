! --dump-ir=list prints the pass table, one name per line in order, and exits 0 without translating.
subroutine nothing(n, a)
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = 2.0 * a(i)
  end do
!$stencil end region
end subroutine nothing
