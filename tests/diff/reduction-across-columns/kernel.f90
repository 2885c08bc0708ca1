! reduction-across-columns: in every (k,j), the sum of a over i, then a
! normalized by it.  tot is a sum across columns (i), used after its loop.
! The i loop of the sum is a reduction: it cannot run with one thread per i
! unless the translator builds a parallel reduction.  j and k are parallel
! (each (k,j) has its own tot), so one thread per (k,j) with both i loops
! sequential inside would also be legal.
module red_kernel
  implicit none
  private
  public :: normalize_rows, r8
  ! real(8); spelled as a literal: the translator cannot evaluate kind(1.0d0) yet.
  integer, parameter :: r8 = 8

contains

  subroutine normalize_rows(a, b, ims,ime, jms,jme, kms,kme,          &
                            its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: a
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: b

    integer :: i, j, k
    real(r8) :: tot

!$stencil region
    do j = jts, jte
      do k = kts, kte
        tot = 0.0_r8
        do i = its, ite
          tot = tot + a(i,k,j)
        end do
        do i = its, ite
          b(i,k,j) = a(i,k,j)/tot
        end do
      end do
    end do
!$stencil end region
  end subroutine normalize_rows

end module red_kernel
