! A module scalar used as a per-iteration temporary in a region is refused at its write: other routines may read it after the region.
module work_vars
  implicit none
  real :: tmp
end module work_vars
subroutine scale(n, a)
  use work_vars
  implicit none
  integer :: n, i
  real :: a(n)
!$stencil region
  do i = 1, n
    tmp = 2.0 * a(i)
    a(i) = tmp + 1.0
  end do
!$stencil end region
end subroutine scale
