! '!$stencil do seq parallel': error at 'parallel', the two clauses contradict each other.
subroutine sedimentation(qr, vt, delz, dt, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: qr(its:ite, kts:kte)
  real, intent(in)    :: vt(its:ite, kts:kte), delz(its:ite, kts:kte), dt
  integer :: i, k

!$stencil region copy(qr) copyin(vt, delz)
  do i = its, ite
!$stencil do seq parallel
    do k = kte-1, kts, -1
      qr(i,k) = qr(i,k) + dt * (vt(i,k+1) * qr(i,k+1) - vt(i,k) * qr(i,k)) / delz(i,k)
    end do
  end do
!$stencil end region
end subroutine sedimentation
