! '!$stencil end regoin': error, 'region' or 'data' expected after 'end'.
subroutine ice_fallout(qi, vti, delz, dt, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: qi(its:ite, kts:kte)
  real, intent(in)    :: vti(its:ite, kts:kte), delz(its:ite, kts:kte), dt
  integer :: i, k

!$stencil region copy(qi) copyin(vti, delz)
  do i = its, ite
    do k = kts, kte-1
      qi(i,k) = qi(i,k) + dt * vti(i,k+1) * qi(i,k+1) / delz(i,k)
    end do
  end do
!$stencil end regoin
end subroutine ice_fallout
