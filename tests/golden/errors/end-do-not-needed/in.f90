! '!$stencil end do' after a 'do' directive: error, the do directive covers only the next loop.
subroutine relax_bdy(t, tbdy, w, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: t(its:ite, kts:kte)
  real, intent(in)    :: tbdy(its:ite, kts:kte), w(its:ite)
  integer :: i, k

!$stencil region copy(t) copyin(tbdy, w)
!$stencil do parallel
  do i = its, ite
    do k = kts, kte
      t(i,k) = t(i,k) + w(i) * (tbdy(i,k) - t(i,k))
    end do
  end do
!$stencil end do
!$stencil end region
end subroutine relax_bdy
