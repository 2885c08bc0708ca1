! '!$stencil update' with neither host(...) nor device(...): error at 'update'.
subroutine physics_driver(t, q, nsteps, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte, nsteps
  real, intent(inout) :: t(its:ite, kts:kte), q(its:ite, kts:kte)
  integer :: i, k, n

!$stencil data copy(t, q)
  do n = 1, nsteps
!$stencil region
    do k = kts, kte
      do i = its, ite
        t(i,k) = t(i,k) - 0.01 * (t(i,k) - 273.15)
      end do
    end do
!$stencil end region
    if (mod(n, 10) == 0) then
!$stencil update
      print *, 'step', n, maxval(t)
    end if
  end do
!$stencil end data
end subroutine physics_driver
