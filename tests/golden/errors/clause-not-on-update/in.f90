! copyout on '!$stencil update' in a data region: error; update takes host(...) or device(...).
subroutine output_step(t, tout, nsteps, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte, nsteps
  real, intent(inout) :: t(its:ite, kts:kte)
  real, intent(out)   :: tout(its:ite, kts:kte)
  integer :: i, k, n

!$stencil data copy(t) create(tout)
  do n = 1, nsteps
!$stencil region
    do k = kts, kte
      do i = its, ite
        tout(i,k) = t(i,k)
      end do
    end do
!$stencil end region
!$stencil update copyout(tout)
  end do
!$stencil end data
end subroutine output_step
