! smem-refused-level-per-thread: a 5-point stencil of a field (i,k,j) at a
! level each point chooses for itself (kk from i and j): enough offsets for
! a shared-memory tile, but the threads of one block read different levels,
! so one tile per block would hold the wrong level for most of them.  The
! tool must refuse the tile, saying why, and read u from global memory.
module pick_kernel
  implicit none
  private
  public :: pick

contains

  subroutine pick(u, w, ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real, intent(in) :: u(ims:ime, 3, jms:jme)
    real, intent(inout) :: w(ims:ime, jms:jme)
    integer :: i, j, kk

!$stencil region
    do j = jts, jte
      do i = its, ite
        kk = 1 + mod(i + 2*j, 3)
        w(i,j) = u(i+1,kk,j) + u(i-1,kk,j) + u(i,kk,j+1) + u(i,kk,j-1) - 4.0*u(i,kk,j)
      end do
    end do
!$stencil end region
  end subroutine pick

end module pick_kernel
