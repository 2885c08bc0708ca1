! A module scalar accumulated across the iterations of a region: each thread would have its own copy, so the write is refused at the assignment.
module totals
  implicit none
  real :: total
end module totals
subroutine accumulate(n, t)
  use totals
  implicit none
  integer :: n, i
  real :: t(n)
!$stencil region
  do i = 1, n
    total = total + t(i)
    t(i) = t(i) * 2.0
  end do
!$stencil end region
end subroutine accumulate
