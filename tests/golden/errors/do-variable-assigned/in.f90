! The DO variable assigned inside its loop in a region: one error at the assignment, not a second 'empty region'.
subroutine s(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = 0.0
    i = i + 1
  end do
!$stencil end region
end subroutine s
