! A directive continued with '&' onto a plain line (no '!$stencil' sentinel): error at the '&'.
subroutine diffuse_q(q, q_new, kh, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(in)  :: q(its:ite, kts:kte), kh
  real, intent(out) :: q_new(its:ite, kts:kte)
  integer :: i, k

!$stencil region copyin(q(its:ite, kts:kte)) &
                 copyout(q_new)
  do k = kts, kte
    do i = its+1, ite-1
      q_new(i,k) = q(i,k) + kh * (q(i+1,k) - 2.*q(i,k) + q(i-1,k))
    end do
  end do
!$stencil end region
end subroutine diffuse_q
