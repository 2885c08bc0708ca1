! tests/modules.sh: a vector helper outside any module (MASS style), inlined
! into the region of region.f90 from its summary helper_sqrt.s2sproc.
subroutine helper_sqrt(ims, ime, its, ite, y, x)
  use kinds, only: kind_phys
  implicit none
  integer, intent(in) :: ims, ime, its, ite
  real(kind_phys), intent(inout) :: y(ims:ime)
  real(kind_phys), intent(in) :: x(ims:ime)
  integer :: i
  do i = its, ite
    y(i) = sqrt(x(i))
  end do
end subroutine helper_sqrt
