! A module scalar assigned in every iteration of a region and read by the routine after it: its value after the region would be lost, so the write is refused.
module last_value
  implicit none
  real :: last
end module last_value
subroutine keep_last(n, t, r)
  use last_value
  implicit none
  integer :: n, i
  real :: t(n), r
!$stencil region
  do i = 1, n
    last = t(i) * 0.5
    t(i) = last + 1.0
  end do
!$stencil end region
  r = last
end subroutine keep_last
