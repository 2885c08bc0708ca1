! openacc-update-async: the update-host-async-staged time loop in OpenACC
! spelling: `!$acc data copy(t)` around a `kernels` region and a `parallel
! loop`, `update host(...) async(1)` of a box with holes (its+1:ite-1 of the
! memory's ims:ime, packed on the device before its copy) queued between
! them and of a contiguous plane after them, then `wait(1)`; the host reads
! the planes after the wait.  No registration, so the queued copies land in
! the runtime's pinned blocks and the wait copies them into t.  The
! emulation performs a queued copy only when something waits for it, so a
! host that read the planes without the wait (async honoured, `!$acc wait`
! dropped) reads the values of the step before, and the sums differ.
module acc_async_kernel
  implicit none
  private
  public :: steps

contains

  subroutine steps(t, edge_sum, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, nsteps)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, nsteps
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: t
    real, intent(out) :: edge_sum(nsteps)
    integer :: i, j, k, step

!$acc data copy(t)
    do step = 1, nsteps
!$acc kernels
      do j = jts, jte
        do k = kts, kte
          do i = its, ite
            t(i,k,j) = 0.99*t(i,k,j) + 0.01*real(k + step)
          end do
        end do
      end do
!$acc end kernels
!$acc update host(t(its+1:ite-1, kts:kte, jts:jts)) async(1)
!$acc parallel loop
      do j = jts+1, jte
        do k = kts, kte
          do i = its, ite
            t(i,k,j) = t(i,k,j) + 0.5
          end do
        end do
      end do
!$acc update host(t(ims:ime, kms:kme, jte:jte)) async(1)
!$acc wait(1)
      edge_sum(step) = sum(t(its+1:ite-1, kts:kte, jts)) + 0.5*sum(t(its:ite, kts:kte, jte))
    end do
!$acc end data
  end subroutine steps

end module acc_async_kernel
