! substep-max-over-columns: WSM5's sedimentation sub-stepping as the CPU
! code writes it (see ../shared/seeds, the WSM5 article): each column needs
! mstep(i) sub-steps (its fall speed times dt over the layer depth), the
! routine computes their maximum over the columns, mstepmax, and repeats
! the downward recurrence mstepmax times with every column tested
! `if (n .le. mstep(i))` in the innermost loop.  The top level is done
! first with k set by hand (k = kte).  mstep and the work arrays have no j:
! they are per j slab, as in a 2-D routine called per j.
!
! Legal GPU shape: one kernel over (i,j); each column runs its own mstep(i)
! sub-steps (the maximum over columns and the test go away), k downwards
! inside the thread.
module smc_kernel
  implicit none
contains
  subroutine substep_fall(q, den, vt, delz, fall, dt, ims,ime, jms,jme, kms,kme, &
                          its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    real, intent(in) :: den(ims:ime, kms:kme, jms:jme), vt(ims:ime, kms:kme, jms:jme)
    real, intent(in) :: delz(ims:ime, kms:kme, jms:jme), dt
    real, intent(out) :: fall(ims:ime, kms:kme, jms:jme)
    integer :: i, j, k, n, mstepmax
    integer :: mstep(its:ite)
    real :: falk(its:ite, kts:kte)

!$stencil region
    do j = jts, jte
      do i = its, ite
        mstep(i) = 1
      end do
      do k = kte, kts, -1
        do i = its, ite
          fall(i,k,j) = 0.
          mstep(i) = max(mstep(i), int(vt(i,k,j) * dt / delz(i,k,j) + 1.))
        end do
      end do
      mstepmax = 1
      do i = its, ite
        if (mstepmax .le. mstep(i)) mstepmax = mstep(i)
      end do
      do n = 1, mstepmax
        k = kte
        do i = its, ite
          if (n .le. mstep(i)) then
            falk(i,k) = den(i,k,j) * q(i,k,j) * vt(i,k,j) / delz(i,k,j)
            fall(i,k,j) = fall(i,k,j) + falk(i,k)
            q(i,k,j) = max(q(i,k,j) - falk(i,k) * dt / mstep(i) / den(i,k,j), 0.)
          end if
        end do
        do k = kte - 1, kts, -1
          do i = its, ite
            if (n .le. mstep(i)) then
              falk(i,k) = den(i,k,j) * q(i,k,j) * vt(i,k,j) / delz(i,k,j)
              fall(i,k,j) = fall(i,k,j) + falk(i,k)
              q(i,k,j) = max(q(i,k,j) - (falk(i,k) - falk(i,k+1) * delz(i,k+1,j) / delz(i,k,j)) &
                             * dt / mstep(i) / den(i,k,j), 0.)
            end if
          end do
        end do
      end do
    end do
!$stencil end region
  end subroutine substep_fall
end module smc_kernel
