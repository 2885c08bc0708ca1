! reduction-max-min: the largest vertical CFL number of a 3-D field (real,
! all negative here: the maximum of negative values), in the IF form
! `if (cfl > cflmax) cflmax = cfl` starting from the host's value, and the
! lowest level index where a column is unstable (integer, min(...) form),
! and the smallest (negative) tendency, both set at the top of the region.
! The host prints them after the region.  All three become GPU reductions
! over (i,k,j); w is also written, so the nest is a kernel of its own.
! vector(4) on k makes blocks of 128 x 4 threads, numbered across y.
module maxmin_kernel
  implicit none
  private
  public :: cfl_stats

contains

  subroutine cfl_stats(w, dz, dt, cflmax, klow, tmin,               &
                       ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: w
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: dz
    real, intent(in) :: dt
    real, intent(inout) :: cflmax
    integer, intent(out) :: klow
    real, intent(out) :: tmin

    integer :: i, j, k
    real :: cfl

!$stencil region
    klow = kte + 1
    tmin = 1.0e30
    do j = jts, jte
!$stencil do vector(4)
      do k = kts, kte
        do i = its, ite
          cfl = -abs(w(i,k,j)) * dt / dz(i,k,j)
          if (cfl > cflmax) cflmax = cfl
          if (cfl > -1.0e-4) klow = min(klow, k)
          tmin = min(tmin, w(i,k,j) - 1.0)
          w(i,k,j) = 0.5 * w(i,k,j)
        end do
      end do
    end do
!$stencil end region
  end subroutine cfl_stats

end module maxmin_kernel
