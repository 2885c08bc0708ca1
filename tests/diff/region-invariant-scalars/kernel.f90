! region-invariant-scalars: scalars set from the routine's arguments before
! the loops and used as their bounds, as column physics writes them: at the
! top of the region (l = ite; n = kte; nlev = ite - its + 1, one built on
! another: nk = n - kts + 1), and inside the j loop (ie = l, each j the same
! value).  Each holds one value wherever it is read, so the loops they bound
! stay on the grid: one kernel over (i, j).  Then the k = kte idiom: the
! bottom level done after its loop with k set by hand, between two k nests,
! does not split the kernel (k runs in order inside each thread).
module ris_kernel
  implicit none
contains
  subroutine ris_column(t, q, flux, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, intent(inout) :: t(ims:ime, kms:kme, jms:jme)
    real, intent(in) :: q(ims:ime, kms:kme, jms:jme)
    real, intent(out) :: flux(ims:ime, kms:kme, jms:jme)
    integer :: i, j, k, l, n, nlev, nk, ie

!$stencil region
    l = ite
    n = kte
    nlev = ite - its + 1
    nk = n - kts + 1
    do j = jts, jte
      ie = l
      do k = kts, n - 1
        do i = its, ie
          flux(i,k,j) = (q(i,k+1,j) - q(i,k,j)) / real(nlev)
        end do
      end do
      k = n
      do i = its, ie
        flux(i,k,j) = -q(i,k,j) / real(nk)
      end do
      do k = kts, n
        do i = its, l
          t(i,k,j) = t(i,k,j) + flux(i,k,j)
        end do
      end do
    end do
!$stencil end region
  end subroutine ris_column
end module ris_kernel
