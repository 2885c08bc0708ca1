! Modules of other files found with -I: consts.s2smod and kinds.s2smod, written into inc/ by their own translations.
subroutine heat(n, t, q)
  use kinds, only: kind_phys
  use consts, only: cp, rd
  implicit none
  integer, intent(in) :: n
  real(kind_phys), intent(inout) :: t(n)
  real(kind_phys), intent(in) :: q(n)
  integer :: i

!$stencil region
  do i = 1, n
    t(i) = t(i) + q(i) * rd / cp
  end do
!$stencil end region
end subroutine heat
