! A module that is not found and gives several names to the region: one error, at the USE, naming the module and how to provide it; no error for each name.
subroutine heat(n, t, q)
  use consts
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
