! openacc-enter-exit-data: unpaired data lifetimes.  device_init puts t,
! tend and q on the device (`enter data copyin`), integrate runs a time
! loop of two regions with an `update host(t)` every 7th step (the host
! averages t) and an `update device(q)` after the host halves q every
! 10th step, and device_finish brings t and tend back (`exit data
! copyout`) and drops q (`delete`).  The regions must find the arrays
! present and move nothing (the case's `timing` file checks the S2S_TIME
! report), and the results must be the original program's.
module eed_kernel
  implicit none
  private
  public :: device_init, integrate, device_finish

contains

  subroutine device_init(t, tend, q, ims,ime, jms,jme)
    integer, intent(in) :: ims,ime, jms,jme
    real, dimension(ims:ime, jms:jme), intent(in) :: t, tend, q
!$acc enter data copyin(t, tend) copyin(q)
  end subroutine device_init

  subroutine device_finish(t, tend, q, ims,ime, jms,jme)
    integer, intent(in) :: ims,ime, jms,jme
    real, dimension(ims:ime, jms:jme), intent(inout) :: t, tend, q
!$acc exit data copyout(t, tend) delete(q)
  end subroutine device_finish

  subroutine integrate(t, tend, q, tmean, ims,ime, jms,jme, its,ite, jts,jte, nsteps)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte, nsteps
    real, dimension(ims:ime, jms:jme), intent(inout) :: t, q, tend
    real, intent(out) :: tmean(nsteps/7)
    integer :: i, j, step

    do step = 1, nsteps
!$acc parallel loop
      do j = jts, jte
        do i = its, ite
          tend(i,j) = 0.2*((t(i+1,j) - t(i,j)) - (t(i,j) - t(i-1,j))) &
                    + 0.1*((t(i,j+1) - t(i,j)) - (t(i,j) - t(i,j-1)))
        end do
      end do
!$acc kernels
      do j = jts, jte
        do i = its, ite
          t(i,j) = t(i,j) + tend(i,j) + 0.01*q(i,j)
        end do
      end do
!$acc end kernels
      if (mod(step, 7) == 0) then
!$acc update host(t)
        tmean(step/7) = sum(t(its:ite, jts:jte)) / real((ite-its+1)*(jte-jts+1))
      end if
      if (mod(step, 10) == 0) then
        q = 0.5*q
!$acc update device(q)
      end if
    end do
  end subroutine integrate

end module eed_kernel
