! An extra '(' in a bound, q((its-1:ite+1, kts:kte)): error at the ':', note at that '('.
subroutine advect_x(u, q, qten, rdx, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(in)  :: u(its:ite+1, kts:kte), q(its-1:ite+1, kts:kte), rdx
  real, intent(out) :: qten(its:ite, kts:kte)
  integer :: i, k

!$stencil region copyin(u, q((its-1:ite+1, kts:kte)) copyout(qten)
  do k = kts, kte
    do i = its, ite
      qten(i,k) = -rdx * (u(i+1,k) * 0.5 * (q(i+1,k) + q(i,k)) &
                        - u(i,k)   * 0.5 * (q(i,k) + q(i-1,k)))
    end do
  end do
!$stencil end region
end subroutine advect_x
