! vector(0) after a comma ('do parallel, vector(0)'): error, the length must be positive.
subroutine sat_adjust(t, q, qs, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: t(its:ite, kts:kte), q(its:ite, kts:kte)
  real, intent(in)    :: qs(its:ite, kts:kte)
  real, parameter :: xlv = 2.5e6, cp = 1004.5
  real :: dq
  integer :: i, k

!$stencil region copy(t, q) copyin(qs)
!$stencil do parallel, vector(0)
  do i = its, ite
    do k = kts, kte
      dq = max(0., q(i,k) - qs(i,k))
      q(i,k) = q(i,k) - dq
      t(i,k) = t(i,k) + xlv / cp * dq
    end do
  end do
!$stencil end region
end subroutine sat_adjust
