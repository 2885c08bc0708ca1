! Helpers of modules-across-files, outside any module (MASS style): each
! leaves its summary NAME.s2sproc for the files that call it.
subroutine ratio_sqrt(ims,ime, kms,kme, its,ite, kts,kte, y, x, c)
  use kinds, only: kind_phys
  implicit none
  integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
  real(kind_phys), intent(inout) :: y(ims:ime, kms:kme)
  real(kind_phys), intent(in) :: x(ims:ime, kms:kme), c
  integer :: i, k
  do k = kts, kte
    do i = its, ite
      y(i,k) = sqrt(c / x(i,k))
    end do
  end do
end subroutine ratio_sqrt
