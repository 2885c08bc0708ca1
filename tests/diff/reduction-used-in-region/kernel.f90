! reduction-used-in-region: the tile mean of a field, then the anomaly
! from it, in one region: tot is summed over (i,j) by the first nest, mean
! is computed from it between the nests, and the second nest subtracts the
! mean.  The second part needs the finished sum, which only exists after
! every thread of the first has added its part: the region must split into
! a kernel that reduces and a kernel that uses the result (a kernel
! boundary is the global barrier).  vmax, a maximum in the same first
! nest, is used the same way by the second.
module anomaly_kernel
  implicit none
  private
  public :: remove_mean, r8
  integer, parameter :: r8 = 8

contains

  subroutine remove_mean(a, b, ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real(r8), dimension(ims:ime, jms:jme), intent(in)  :: a
    real(r8), dimension(ims:ime, jms:jme), intent(out) :: b

    integer :: i, j
    real(r8) :: tot, mean, vmax

!$stencil region
    tot = 0.0_r8
    vmax = -1.0e30_r8
    do j = jts, jte
      do i = its, ite
        tot = tot + a(i,j)
        vmax = max(vmax, a(i,j))
      end do
    end do
    mean = tot / real((ite-its+1)*(jte-jts+1), r8)
    do j = jts, jte
      do i = its, ite
        b(i,j) = (a(i,j) - mean) / (vmax - mean)
      end do
    end do
!$stencil end region
  end subroutine remove_mean

end module anomaly_kernel
