! ONLY lists with renames (kp => kind_phys, heat_capacity => cp), summaries found in the current directory; the local rd is not consts' rd.
subroutine heat(n, t)
  use kinds, only: kp => kind_phys
  use consts, only: heat_capacity => cp
  implicit none
  integer, intent(in) :: n
  real(kp), intent(inout) :: t(n)
  real(kp) :: rd
  integer :: i

  rd = 2.0_kp
!$stencil region
  do i = 1, n
    t(i) = t(i) * rd / heat_capacity
  end do
!$stencil end region
end subroutine heat
