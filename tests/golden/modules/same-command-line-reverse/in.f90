! Modules defined by files later on the same command line (in.f90 consts.f90 kinds.f90): translated first, kinds before consts before in.f90.
subroutine heat(n, t)
  use kinds, only: kind_phys
  use consts, only: cp
  implicit none
  integer, intent(in) :: n
  real(kind_phys), intent(inout) :: t(n)
  integer :: i

!$stencil region
  do i = 1, n
    t(i) = t(i) / cp
  end do
!$stencil end region
end subroutine heat
