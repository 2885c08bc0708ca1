! A strided section a(its:ite:2, :) in copyin: error at the stride's ':'; no strides.
subroutine coarse_copy(a, b, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(in)  :: a(its:ite, kts:kte)
  real, intent(out) :: b(its:ite, kts:kte)
  integer :: i, k

!$stencil region copyin(a(its:ite:2, :)) copyout(b)
  do k = kts, kte
    do i = its, ite, 2
      b(i,k) = a(i,k)
    end do
  end do
!$stencil end region
end subroutine coarse_copy
