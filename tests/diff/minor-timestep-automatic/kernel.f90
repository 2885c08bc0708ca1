! minor-timestep-automatic: WSM5's minor time-step loop (`do loop = 1,
! loops` with dtcld = dt/loops) around a call of a 2-D routine per j, whose
! per-column scratch dz(kts:kte) is an automatic array sized by its
! arguments and which has its own i loop.  Legal GPU shape: one kernel over
! (i,j); the time-step loop, k and the scratch inside each thread.
module mta_kernel
  implicit none
contains
  subroutine step_all(q, t, dt, loops, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: loops, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    real, intent(in) :: t(ims:ime, kms:kme, jms:jme), dt
    integer :: j, loop
    real :: dtcld
!$stencil region
    do j = jts, jte
      dtcld = dt / real(loops)
      do loop = 1, loops
        call relax(q(ims,kms,j), t(ims,kms,j), dtcld, ims,ime, kms,kme, its,ite, kts,kte)
      end do
    end do
!$stencil end region
  end subroutine step_all

  subroutine relax(q, t, dtcld, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(inout) :: q(ims:ime, kms:kme)
    real, intent(in) :: t(ims:ime, kms:kme), dtcld
    real :: dz(kts:kte)
    integer :: i, k
    do i = its, ite
      do k = kts, kte
        dz(k) = 0.01 * (t(i,k) - 280.0)
      end do
      do k = kte, kts + 1, -1
        q(i,k) = q(i,k) + dtcld * (dz(k) - dz(k-1)) * q(i,k-1)
      end do
    end do
  end subroutine relax
end module mta_kernel
