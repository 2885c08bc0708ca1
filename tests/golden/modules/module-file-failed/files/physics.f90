! A file that defines a module and fails to translate (a bad directive): it leaves no summary.
module physics
  implicit none
  real, parameter :: cp = 1004.5
contains
  subroutine warm(n, t)
    integer, intent(in) :: n
    real, intent(inout) :: t(n)
    integer :: i
!$stencil region copyin(
    do i = 1, n
      t(i) = t(i) + 1.0
    end do
!$stencil end region
  end subroutine warm
end module physics
