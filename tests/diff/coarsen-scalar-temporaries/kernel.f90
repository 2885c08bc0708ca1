! coarsen-scalar-temporaries: a 4th-order smoothing of a 2-D field with a
! flux limiter, written with scalar temporaries: the Laplacian at the point
! and its four neighbours (lc, ln, ls, le, lw), the fluxes fx (set under
! IF and ELSE) and fy (zeroed under an IF), their sum d.  Each point
! assigns every temporary before reading it.  q is read at 13 points around
! (i, j), 6 of them along j: s2s-cuda makes one kernel over (i, j) whose
! threads compute 4 points of j each (thread coarsening), each point
! starting from fresh temporaries; nj = 16, a multiple of 4.
module smooth_kernel
  implicit none
  private
  public :: smooth
contains
  subroutine smooth(q, w, out, lim, ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real, intent(in) :: q(ims:ime, jms:jme), w(ims:ime, jms:jme), lim
    real, intent(inout) :: out(ims:ime, jms:jme)
    real :: lc, ln, ls, le, lw, fx, fy, d
    integer :: i, j
!$stencil region
    do j = jts, jte
      do i = its, ite
        lc = 4.0*q(i,j) - q(i+1,j) - q(i-1,j) - q(i,j+1) - q(i,j-1)
        ln = 4.0*q(i,j+1) - q(i+1,j+1) - q(i-1,j+1) - q(i,j+2) - q(i,j)
        ls = 4.0*q(i,j-1) - q(i+1,j-1) - q(i-1,j-1) - q(i,j) - q(i,j-2)
        le = 4.0*q(i+1,j) - q(i+2,j) - q(i,j) - q(i+1,j+1) - q(i+1,j-1)
        lw = 4.0*q(i-1,j) - q(i,j) - q(i-2,j) - q(i-1,j+1) - q(i-1,j-1)
        fx = le - 2.0*lc + lw
        if (abs(fx) > lim) then
          fx = sign(lim, fx)
        else
          fx = 0.5*fx
        end if
        fy = ln - 2.0*lc + ls
        if (fy*(q(i,j+1) - q(i,j-1)) > 0.0) fy = 0.0
        d = fx + fy
        out(i,j) = q(i,j) - w(i,j)*d
      end do
    end do
!$stencil end region
  end subroutine smooth
end module smooth_kernel
