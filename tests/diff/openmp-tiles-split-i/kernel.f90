! openmp-tiles-split-i: WRF's OpenMP tiling with the tiles cut along i.
! Each host thread runs column physics on its own tile its:ite and holds
! its tile of t and q in a data region of its own around a few steps; the
! boxes t(its:ite,kms:kme,jts:jte) of the two threads interleave in memory
! (their spans overlap) but share no element, so the runtime must keep two
! present copies side by side, neither "only partly present" nor one
! taken for the other.
module split_kernel
  implicit none
  private
  public :: tile_physics

contains

  subroutine tile_physics(t, q, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, nsteps)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, nsteps
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: t, q
    integer :: i, j, k, step

!$stencil data copy(t(its:ite,kms:kme,jts:jte)) copy(q(its:ite,kms:kme,jts:jte))
    do step = 1, nsteps
!$stencil region
      do j = jts, jte
        do k = kts+1, kte
          do i = its, ite
            t(i,k,j) = t(i,k,j) + 0.25*(t(i,k-1,j) - t(i,k,j)) + 0.01*q(i,k,j)
          end do
        end do
        do k = kts, kte
          do i = its, ite
            q(i,k,j) = 0.9*q(i,k,j) + 0.001*t(i,k,j)
          end do
        end do
      end do
!$stencil end region
    end do
!$stencil end data
  end subroutine tile_physics

end module split_kernel
