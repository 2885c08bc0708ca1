! assumed-shape-section: routines with assumed-shape dummies called with
! sections of the model's 3-D fields: damp(q(its:ite,k,j), t(its:ite,k,j),
! ...) on x(its:), y(its:) inside a k loop, and clip(q(:,:,j), ...) on
! x(ims:, kms:) after it.  Each dummy takes its shape from the section (its
! own lower bound), the calls are inlined and the region is one kernel.
module ashape
  implicit none
contains
  subroutine relax(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, q, t)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    real, intent(in) :: t(ims:ime, kms:kme, jms:jme)
    integer :: j, k
!$stencil region
    do j = jts, jte
      do k = kts, kte
        call damp(q(its:ite,k,j), t(its:ite,k,j), its, ite, 0.9)
      end do
      call clip(q(:,:,j), ims, kms, its, ite, kts, kte)
    end do
!$stencil end region
  end subroutine relax

  subroutine damp(x, y, its, ite, f)
    integer, intent(in) :: its, ite
    real, intent(inout) :: x(its:)
    real, intent(in) :: y(its:)
    real, intent(in) :: f
    integer :: i
    do i = its, ite
      x(i) = f * x(i) + (1.0 - f) * y(i)
    end do
  end subroutine damp

  subroutine clip(x, ims, kms, its, ite, kts, kte)
    integer, intent(in) :: ims, kms, its, ite, kts, kte
    real, intent(inout) :: x(ims:, kms:)
    integer :: i, k
    do k = kts, kte
      do i = its, ite
        x(i,k) = max(x(i,k), 0.0)
      end do
    end do
  end subroutine clip
end module ashape
