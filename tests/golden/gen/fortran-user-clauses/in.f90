! User clauses: copyin a(:,:,:), a tile section of b on a continuation line, do parallel and
! vector(64): a 3-D grid of 64-thread blocks, and a warning that copyin(b) loses b's writes.
subroutine scale(ims, ime, kms, kme, jms, jme, its, ite, kts, kte, jts, jte, a, b)
  implicit none
  integer, intent(in) :: ims, ime, kms, kme, jms, jme
  integer, intent(in) :: its, ite, kts, kte, jts, jte
  real(kind=8), dimension(ims:ime, kms:kme, jms:jme) :: a, b
  integer :: i, j, k

!$stencil region copyin(a(:,:,:)) &
!$stencil        copyin(b(its:ite, kts:kte, jts:jte))
!$stencil do parallel
  do j = jts, jte
    do k = kts, kte
!$stencil do parallel, vector(64)
      do i = its, ite
        b(i,k,j) = 2.0d0 * a(i,k,j)
      end do
    end do
  end do
!$stencil end region
end subroutine scale
