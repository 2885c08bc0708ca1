! A procedure outside any module, in another file, called in a region: read from scale_column.s2sproc and inlined.
subroutine columns(nx, nz, y, x)
  implicit none
  integer, intent(in) :: nx, nz
  real, intent(out) :: y(nz, nx)
  real, intent(in) :: x(nz, nx)
  integer :: i

!$stencil region
  do i = 1, nx
    call scale_column(nz, y(1, i), x(1, i), 0.5)
  end do
!$stencil end region
end subroutine columns
