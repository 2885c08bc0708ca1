! The copyin list is not closed by the end of the line: error at the end, note at its '('.
subroutine add_tend(th, thten, dt, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: th(its:ite, kts:kte)
  real, intent(in)    :: thten(its:ite, kts:kte), dt
  integer :: i, k

!$stencil region copy(th) copyin(thten(its:ite, kts:kte)
  do k = kts, kte
    do i = its, ite
      th(i,k) = th(i,k) + dt * thten(i,k)
    end do
  end do
!$stencil end region
end subroutine add_tend
