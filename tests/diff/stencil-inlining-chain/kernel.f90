! stencil-inlining-chain: pass recompute on a plane (i,j) without a k loop
! around the nests, real(8), the region body itself the list of nests:
!  - a 3-deep chain: grad (a centred difference of u along i), sgrad (grad
!    smoothed along i, reading it at i-1, i, i+1, and zeroed under IF where
!    it is small), then div reading sgrad at j-1 and j+1;
!  - a producer with a scalar temporary of its own (d) read at i and i+1;
!  - a producer fl that must stay stored: its consumer reads fl(i-1,j) and
!    fl(i,j-1), which at i = its or j = jts lie outside the points the
!    producer stores (the reads are guarded, so the original never reads
!    them, but the pass cannot inline a read it cannot prove covered): the
!    region gets a kernel split before that consumer.
! grad, sgrad and wk must be computed where they are read, never stored.
module chain_kernel
  implicit none
  private
  public :: chain

contains

  subroutine chain(u, v, div, dif, lim, ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real(8), dimension(ims:ime, jms:jme), intent(in)    :: u, v
    real(8), dimension(ims:ime, jms:jme), intent(inout) :: div, dif, lim

    real(8) :: grad(its-1:ite+1, jts-1:jte+1)
    real(8) :: sgrad(its:ite, jts-1:jte+1)
    real(8) :: wk(its:ite+1, jts:jte)
    real(8) :: fl(its:ite, jts:jte)
    real(8) :: d
    integer :: i, j

!$stencil region
    do j = jts-1, jte+1
      do i = its-1, ite+1
        grad(i,j) = 0.5d0*(u(i+1,j) - u(i-1,j))
      end do
    end do
    do j = jts-1, jte+1
      do i = its, ite
        sgrad(i,j) = 0.25d0*grad(i-1,j) + 0.5d0*grad(i,j) + 0.25d0*grad(i+1,j)
        if (abs(sgrad(i,j)) < 0.05d0) sgrad(i,j) = 0.0d0
      end do
    end do
    do j = jts, jte
      do i = its, ite
        div(i,j) = sgrad(i,j+1) - sgrad(i,j-1) + v(i,j)
      end do
    end do
    do j = jts, jte
      do i = its, ite+1
        d = v(i,j) - u(i,j)
        wk(i,j) = d*d + 0.1d0*v(i,j)
      end do
    end do
    do j = jts, jte
      do i = its, ite
        dif(i,j) = wk(i+1,j) - wk(i,j)
      end do
    end do
    do j = jts, jte
      do i = its, ite
        fl(i,j) = u(i,j)*v(i,j) - 0.5d0*u(i,j+1)
      end do
    end do
    do j = jts, jte
      do i = its, ite
        lim(i,j) = fl(i,j)
        if (i > its) lim(i,j) = lim(i,j) - 0.5d0*fl(i-1,j)
        if (j > jts) lim(i,j) = lim(i,j) - 0.25d0*fl(i,j-1)
      end do
    end do
!$stencil end region
  end subroutine chain

end module chain_kernel
