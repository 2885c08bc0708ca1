! acc-in-stencil-file: a file with !$stencil directives reads those; its
! !$acc lines are warnings (never dropped without a word), not directives.
subroutine both(a, n)
  integer :: n, i
  real :: a(n)
!$acc parallel loop
!$stencil region
  do i = 1, n
    a(i) = a(i) + 1.0
  end do
!$stencil end region
end subroutine both
