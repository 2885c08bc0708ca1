! update-host-async-staged: the update-host-async time loop without
! registration (no `env`), so the queued copies land in the runtime's pinned
! blocks and the wait copies them into t: the first edge plane is a box with
! holes (its+1:ite-1 of the memory's ims:ime, packed on the device before
! its copy), the second a contiguous plane.  The emulation performs a queued
! copy only when something waits for it, so a host that read the planes
! before the wait (or a wait that did not unpack the blocks) reads the
! values of the step before.
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
!$stencil update host(t(its+1:ite-1, kts:kte, jts:jts)) async
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
      edge_sum(step) = sum(t(its+1:ite-1, kts:kte, jts)) + 0.5*sum(t(its:ite, kts:kte, jte))
    end do
!$stencil end data
  end subroutine steps

end module async_kernel
