! An EXIT by name from a k loop out of the i loop, which runs on the GPU grid: refused at the EXIT (a thread cannot end the other columns' iterations).
subroutine first_negative(a, b, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(in) :: a(its:ite, kts:kte)
  real, intent(inout) :: b(its:ite, kts:kte)
  integer :: i, k
!$stencil region
  columns: do i = its, ite
    do k = kts, kte
      if (a(i,k) < 0.) exit columns
      b(i,k) = 2.0 * a(i,k)
    end do
  end do columns
!$stencil end region
end subroutine first_negative
