! Modules of other files found with -J: the summaries go to the module directory, not to -o, and are read from there; USE without ONLY gives all of consts, and kinds through it.
subroutine heat(n, t)
  use consts
  implicit none
  integer, intent(in) :: n
  real(kind_phys), intent(inout) :: t(n)
  integer :: i

!$stencil region
  do i = 1, n
    t(i) = t(i) * rd / cp
  end do
!$stencil end region
end subroutine heat
