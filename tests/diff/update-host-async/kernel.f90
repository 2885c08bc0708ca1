! update-host-async: a time loop whose host code reads an edge plane of t
! each step, copied with `update host(...) async` before the interior's
! region is launched and waited for with `!$stencil wait` after it: the
! copy of the plane and the interior kernel are both queued, and the host
! waits for the copy only; the other edge plane, copied after the interior
! kernel, is read after the same wait.  Run with S2S_REGISTER=always (`env`), so the
! copy really is queued straight into the array (a registered copy): in
! the emulation a queued copy happens only when something waits for it
! (or a kernel is launched after it), so reading the second plane without
! the wait (or after a wait that did not wait) reads the values of the
! step before.
module async_kernel
  implicit none
  private
  public :: steps

contains

  subroutine steps(t, edge_sum, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, nsteps)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, nsteps
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: t
    real, intent(out) :: edge_sum(nsteps)
    integer :: i, j, k, step

!$stencil data copy(t)
    do step = 1, nsteps
!$stencil region
      do j = jts, jte
        do k = kts, kte
          do i = its, ite
            t(i,k,j) = 0.99*t(i,k,j) + 0.01*real(k + step)
          end do
        end do
      end do
!$stencil end region
!$stencil update host(t(ims:ime, kms:kme, jts:jts)) async
!$stencil region
      do j = jts+1, jte
        do k = kts, kte
          do i = its, ite
            t(i,k,j) = t(i,k,j) + 0.5
          end do
        end do
      end do
!$stencil end region
!$stencil update host(t(ims:ime, kms:kme, jte:jte)) async
!$stencil wait
      edge_sum(step) = sum(t(its:ite, kts:kte, jts)) + 0.5*sum(t(its:ite, kts:kte, jte))
    end do
!$stencil end data
  end subroutine steps

end module async_kernel
