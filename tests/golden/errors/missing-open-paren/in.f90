! 'copyin q, qs' without parentheses: error, '(' expected after the clause name.
subroutine rh_diag(q, qs, rh, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(in)  :: q(its:ite, kts:kte), qs(its:ite, kts:kte)
  real, intent(out) :: rh(its:ite, kts:kte)
  integer :: i, k

!$stencil region copyin q, qs copyout(rh)
  do k = kts, kte
    do i = its, ite
      rh(i,k) = min(1., max(0., q(i,k) / qs(i,k)))
    end do
  end do
!$stencil end region
end subroutine rh_diag
