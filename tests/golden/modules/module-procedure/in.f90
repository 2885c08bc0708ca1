! A procedure of a module of another file called in a region: read from thermo.s2smod and inlined like a routine of this file.
subroutine columns(nx, nz, t, p)
  use thermo, only: to_theta
  implicit none
  integer, intent(in) :: nx, nz
  real, intent(inout) :: t(nz, nx)
  real, intent(in) :: p(nz, nx)
  integer :: i

!$stencil region
  do i = 1, nx
    call to_theta(nz, t(1, i), p(1, i))
  end do
!$stencil end region
end subroutine columns
