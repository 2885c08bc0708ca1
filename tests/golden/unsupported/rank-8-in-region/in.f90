! An array of rank 8 (more than the IR's 7) used twice in a region: one error at the first use; a rank-8 array of host code only is fine.
subroutine r8(a, b, w)
  implicit none
  real, intent(inout) :: a(2,2,2,2,2,2,2,2), b(2), w(2,2,2,2,2,2,2,2)
  integer :: i, j, k, l, m, n, o, p
  w(i,j,k,l,m,n,o,p) = 0.0
!$stencil region
  do i = 1, 2
    a(i,1,1,1,1,1,1,1) = 1.0
    b(i) = a(i,2,1,1,1,1,1,1)
  end do
!$stencil end region
end subroutine r8
