! explicit-shape-extent: helpers with explicit-shape dummies whose extent is
! an argument (y(n), x(n)), called with the extent held in a variable the
! region sets before the call (nx = ite-its+1) and with slab actuals
! tq(its,k), tw(its,k).  The extent's value at the call shows that y(1:n)
! stays inside its..ite, so the calls are inlined; their loops run over i.
module explicit_extent
  implicit none
contains
  subroutine smooth(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, q, w)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    real, intent(in) :: w(ims:ime, kms:kme, jms:jme)
    real :: tq(its:ite, kts:kte), tw(its:ite, kts:kte)
    integer :: i, j, k, nx
!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          tq(i,k) = q(i,k,j)
          tw(i,k) = w(i,k,j)
        end do
      end do
      do k = kts, kte
        nx = ite - its + 1
        call axpy_n(nx, 0.5, tw(its,k), tq(its,k))
        call shift_add(nx, tw(its,k), tq(its,k))
      end do
      do k = kts, kte
        do i = its, ite
          q(i,k,j) = tq(i,k)
        end do
      end do
    end do
!$stencil end region
  end subroutine smooth

  subroutine axpy_n(n, a, x, y)
    integer, intent(in) :: n
    real, intent(in) :: a, x(n)
    real, intent(inout) :: y(n)
    integer :: i
    do i = 1, n
      y(i) = y(i) + a * x(i)
    end do
  end subroutine axpy_n

  subroutine shift_add(n, x, y)
    integer, intent(in) :: n
    real, intent(in) :: x(n)
    real, intent(inout) :: y(n)
    integer :: i
    do i = 2, n
      y(i) = y(i) + 0.25 * x(i) * y(i)
    end do
  end subroutine shift_add
end module explicit_extent
