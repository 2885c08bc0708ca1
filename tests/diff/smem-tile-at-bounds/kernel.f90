! smem-tile-at-bounds: a stencil whose reads reach i-1..i+2 and j-2..j+1
! (one of them under an IF) at one level `lev` of a field (i,k,j), on
! memory that holds exactly those points: the field's halo is the reads'
! halo, so the array, its box and the device copy end where the reads do.
! The tile sizes (45 x 13) are not multiples of the block (32 x 8), so the
! blocks at the upper edges have threads out of range, and every block at an
! edge has a tile that reaches past the array: the load must skip those
! elements (the race check stops a kernel that touches an element outside
! the device copy) and the reads must still find every element they use.
! The tool stages u in shared memory: tile (bx+3) x (by+3) per block.
module smooth_kernel
  implicit none
  private
  public :: smooth

contains

  subroutine smooth(u, w, ims,ime, jms,jme, its,ite, jts,jte, lev)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte, lev
    real, intent(in) :: u(ims:ime, 3, jms:jme)
    real, intent(inout) :: w(ims:ime, jms:jme)
    integer :: i, j

!$stencil region
    do j = jts, jte
      do i = its, ite
        w(i,j) = 0.25*(u(i-1,lev,j) + u(i+2,lev,j) + u(i,lev,j-2) + u(i,lev,j+1)) - u(i,lev,j)
        if (u(i+1,lev,j+1) > u(i,lev,j)) w(i,j) = w(i,j) + 0.5*u(i+1,lev,j+1)
      end do
    end do
!$stencil end region
  end subroutine smooth

end module smooth_kernel
