! A derived-type component grid%t_2 in a data clause: error at the '%'; name a plain array.
subroutine nudge_grid(grid, tobs, gt, its, ite, kts, kte)
  use module_domain, only : domain
  implicit none
  type(domain), intent(inout) :: grid
  integer, intent(in) :: its, ite, kts, kte
  real, intent(in) :: tobs(its:ite, kts:kte), gt
  integer :: i, k

!$stencil region copy(grid%t_2) copyin(tobs)
  do k = kts, kte
    do i = its, ite
      grid%t_2(i,k,1) = grid%t_2(i,k,1) + gt * (tobs(i,k) - grid%t_2(i,k,1))
    end do
  end do
!$stencil end region
end subroutine nudge_grid
