! inline-column-routine: the WRF/WSM5 shape. A j loop around a call that passes
! the j-th plane of qv (qv(ims,kms,j)) and a work array t(its:ite,kts:kte) to a
! 2-D routine with its own work array and a downward k loop. The call is
! inlined, t and the callee's work array are privatized, and the region is one
! kernel over (i,j).
module micro
  implicit none
  real, parameter :: den0 = 1.28
contains
  subroutine driver(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, th, qv, pii)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(inout) :: th(ims:ime, kms:kme, jms:jme), qv(ims:ime, kms:kme, jms:jme)
    real, intent(in) :: pii(ims:ime, kms:kme, jms:jme)
    real :: t(its:ite, kts:kte)
    integer :: i, j, k
!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          t(i,k) = th(i,k,j) * pii(i,k,j)
        end do
      end do
      call column2d(t, qv(ims,kms,j), ims,ime, kms,kme, its,ite, kts,kte)
      do k = kts, kte
        do i = its, ite
          th(i,k,j) = t(i,k) / pii(i,k,j)
        end do
      end do
    end do
!$stencil end region
  end subroutine driver

  subroutine column2d(t, q, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(inout) :: t(its:ite, kts:kte)
    real, intent(inout) :: q(ims:ime, kms:kme)
    real :: work(its:ite, kts:kte)
    real :: supsat
    integer :: i, k
    do k = kts, kte
      do i = its, ite
        work(i,k) = max(q(i,k), 0.0) * den0
      end do
    end do
    do k = kte, kts + 1, -1
      do i = its, ite
        supsat = work(i,k) - 0.001 * t(i,k)
        if (supsat > 0.0) then
          q(i,k) = q(i,k) - 0.5 * supsat
          q(i,k-1) = q(i,k-1) + 0.5 * supsat
          t(i,k) = t(i,k) + 2.5 * supsat
        end if
      end do
    end do
    return
  end subroutine column2d
end module micro
