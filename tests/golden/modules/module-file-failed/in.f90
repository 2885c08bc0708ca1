! A module whose file on the same command line did not translate: its errors, then one error at the USE naming that file (not a stale summary, not "not found").
subroutine heat(n, t)
  use physics, only: cp
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: t(n)
  integer :: i

!$stencil region
  do i = 1, n
    t(i) = t(i) / cp
  end do
!$stencil end region
end subroutine heat
