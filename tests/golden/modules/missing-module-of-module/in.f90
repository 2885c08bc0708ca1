! A module found (consts) that uses a module that is not (kinds): one error, at consts' USE of kinds, because cp's declaration needs kinds.
subroutine heat(n, t)
  use consts, only: cp
  implicit none
  integer, intent(in) :: n
  real(8), intent(inout) :: t(n)
  integer :: i

!$stencil region
  do i = 1, n
    t(i) = t(i) / cp
  end do
!$stencil end region
end subroutine heat
