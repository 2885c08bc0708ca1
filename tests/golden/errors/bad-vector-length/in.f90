! vector(nblock), a variable length: error at the name; the length must be an integer like 128.
subroutine fall_flux(qrs, vt, delz, fall, its, ite, kts, kte, nblock)
  implicit none
  integer, intent(in) :: its, ite, kts, kte, nblock
  real, intent(in)  :: qrs(its:ite, kts:kte), vt(its:ite, kts:kte), delz(its:ite, kts:kte)
  real, intent(out) :: fall(its:ite, kts:kte)
  integer :: i, k

!$stencil region copyin(qrs, vt, delz) copyout(fall)
!$stencil do parallel vector(nblock)
  do i = its, ite
    do k = kts, kte
      fall(i,k) = qrs(i,k) * vt(i,k) / delz(i,k)
    end do
  end do
!$stencil end region
end subroutine fall_flux
