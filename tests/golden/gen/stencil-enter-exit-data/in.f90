! The !$stencil spelling of enter data / exit data: the same runtime calls
! as OpenACC's (s2s_enter_data, s2s_exit_data with finalize), no clause
! report lines (those are for !$acc input), and no warning for the update
! between them.
subroutine relax(t, n, nsteps)
  implicit none
  integer, intent(in) :: n, nsteps
  real, intent(inout) :: t(0:n+1)
  real :: tn(0:n+1)
  integer :: i, step
!$stencil enter data copyin(t) create(tn)
  do step = 1, nsteps
!$stencil region
    do i = 1, n
      tn(i) = 0.25 * (t(i-1) + 2.0 * t(i) + t(i+1))
    end do
    do i = 1, n
      t(i) = tn(i)
    end do
!$stencil end region
  end do
!$stencil update host(t(1:n))
!$stencil exit data copyout(t) delete(tn) finalize
end subroutine relax
