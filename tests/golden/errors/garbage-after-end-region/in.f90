! A clause after 'end region' (copyout(t)): error 'garbage after end region' at it.
subroutine theta_to_t(th, pii, t, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(in)  :: th(its:ite, kts:kte), pii(its:ite, kts:kte)
  real, intent(out) :: t(its:ite, kts:kte)
  integer :: i, k

!$stencil region copyin(th, pii)
  do k = kts, kte
    do i = its, ite
      t(i,k) = th(i,k) * pii(i,k)
    end do
  end do
!$stencil end region copyout(t)
end subroutine theta_to_t
