! An array of rank 8 named in a data clause: one error at the clause item, no cascade at 'end data'.
subroutine r8(a, b)
  implicit none
  real, intent(inout) :: a(2,2,2,2,2,2,2,2), b(2)
  integer :: i
!$stencil data copy(a)
!$stencil region
  do i = 1, 2
    b(i) = 1.0
  end do
!$stencil end region
!$stencil end data
end subroutine r8
