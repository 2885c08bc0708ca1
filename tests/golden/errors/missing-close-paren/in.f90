! copy(u, v is not closed before the next clause: error at 'copyin', the token found instead.
subroutine pbl_mix(u, v, exch_h, dz, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: u(its:ite, kts:kte), v(its:ite, kts:kte)
  real, intent(in)    :: exch_h(its:ite, kts:kte), dz(its:ite, kts:kte)
  integer :: i, k

!$stencil region copy(u, v copyin(exch_h, dz)
  do k = kts+1, kte-1
    do i = its, ite
      u(i,k) = u(i,k) + exch_h(i,k) * (u(i,k+1) - 2.*u(i,k) + u(i,k-1)) / dz(i,k)**2
      v(i,k) = v(i,k) + exch_h(i,k) * (v(i,k+1) - 2.*v(i,k) + v(i,k-1)) / dz(i,k)**2
    end do
  end do
!$stencil end region
end subroutine pbl_mix
