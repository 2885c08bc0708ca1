! private-count-over-levels: per-column work arrays of a j slab, as WSM5
! keeps them: numdt(i) counted up over the levels (a count per column,
! summed over k), work(i,k) and dz(k) scratch.  numdt has no k, so one copy
! per (i,k) thread would hold only its own level's count: k must stay
! sequential in each thread (a legality check: a kernel with k on the grid
! gives wrong numbers), while i and j are on the grid with numdt, work and
! dz kept per thread.
module pcl_kernel
  implicit none
contains
  subroutine count_levels(t, out, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, intent(in) :: t(ims:ime, kms:kme, jms:jme)
    real, intent(out) :: out(ims:ime, kms:kme, jms:jme)
    real :: work(its:ite, kts:kte), dz(kts:kte)
    integer :: numdt(its:ite)
    integer :: i, j, k

!$stencil region
    do j = jts, jte
      do i = its, ite
        numdt(i) = 1
      end do
      do k = kts, kte
        do i = its, ite
          work(i,k) = t(i,k,j) * 2.0
          if (work(i,k) > 600.0) numdt(i) = numdt(i) + 1
        end do
      end do
      do i = its, ite
        do k = kts, kte
          dz(k) = work(i,k) + 1.0
        end do
        do k = kts, kte
          out(i,k,j) = dz(k) * real(numdt(i))
        end do
      end do
    end do
!$stencil end region
  end subroutine count_levels
end module pcl_kernel
