! independent-tracer: a vertical filling of negative tracer values, the
! CPU way: a tracer loop around an i loop with a local column scratch
! dm(km), written before it is read in every (tracer, column) iteration.
! The user asserts `independent` on the tracer loop.  Each thread must get
! its own dm: one shared dm (what an unchecked `independent` gives) races
! on a GPU.  The translation: one kernel over (i, tracer), dm kept per
! thread.
module tracer_kernel
  implicit none
  private
  public :: fill_negative

contains

  subroutine fill_negative(q, dq, delp, im, km, nq)
    integer, intent(in) :: im, km, nq
    real, intent(inout) :: q(im, km, nq)
    real, intent(out) :: dq(im, km, nq)
    real, intent(in) :: delp(im, km)
    real :: dm(km)
    integer :: i, k, ic
!$stencil region
!$stencil do independent
    do ic = 1, nq
      do i = 1, im
        do k = 1, km
          dm(k) = delp(i,k) * q(i,k,ic)         ! tracer mass of each layer
        end do
        do k = 1, km - 1
          if (q(i,k,ic) < 0.) then              ! borrow from the layer below
            q(i,k+1,ic) = q(i,k+1,ic) + q(i,k,ic)*delp(i,k)/delp(i,k+1)
            q(i,k,ic) = 0.
          end if
        end do
        do k = 1, km
          dq(i,k,ic) = q(i,k,ic)*delp(i,k) - dm(k)   ! mass moved into each layer
        end do
      end do
    end do
!$stencil end region
  end subroutine fill_negative

end module tracer_kernel
