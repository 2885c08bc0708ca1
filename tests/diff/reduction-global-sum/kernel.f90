! reduction-global-sum: one rain step over the tile, and the total
! precipitation over it, a diagnostic the host prints after the region:
! precip_total is a dummy argument given 0 at the top of the region and
! summed over every (i,j) inside the nest that also updates rain.  nrain
! (an integer dummy the host set) counts the points with rain, started from
! the host's value.  Both must become GPU reductions over (i,j), the
! results back in the host's variables.  vector(100) on the i loop gives
! blocks of 100 threads: the last warp of each block is partial.
module gsum_kernel
  implicit none
  private
  public :: rain_step, r8
  integer, parameter :: r8 = 8

contains

  subroutine rain_step(rate, area, rain, precip_total, nrain, dt,   &
                       ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real(r8), intent(in) :: dt
    real(r8), dimension(ims:ime, jms:jme), intent(in)    :: rate, area
    real(r8), dimension(ims:ime, jms:jme), intent(inout) :: rain
    real(r8), intent(out) :: precip_total
    integer, intent(inout) :: nrain

    integer :: i, j

!$stencil region
    precip_total = 0.0_r8
    do j = jts, jte
!$stencil do vector(100)
      do i = its, ite
        rain(i,j) = rain(i,j) + dt * rate(i,j)
        precip_total = precip_total + dt * rate(i,j) * area(i,j)
        if (rate(i,j) > 0.0_r8) nrain = nrain + 1
      end do
    end do
!$stencil end region
  end subroutine rain_step

end module gsum_kernel
