! running-sum-i: a prefix sum along i in every row j,
!   s(i,j) = s(i-1,j) + a(i,j),
! a dependence of distance 1 along i.  i must NOT run in parallel; j may:
! the legal GPU shape is one thread per row j, the i loop sequential inside
! it (slow memory access, but correct).  The first point of each row is
! set in its own loop before the sweep.
module rsum_kernel
  implicit none
  private
  public :: row_prefix_sum, r8
  ! real(8); spelled as a literal: the translator cannot evaluate kind(1.0d0) yet.
  integer, parameter :: r8 = 8

contains

  subroutine row_prefix_sum(a, s, ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real(r8), dimension(ims:ime, jms:jme), intent(in)    :: a
    real(r8), dimension(ims:ime, jms:jme), intent(inout) :: s

    integer :: i, j

!$stencil region
    do j = jts, jte
      s(its,j) = a(its,j)
    end do
    do j = jts, jte
      do i = its+1, ite
        s(i,j) = s(i-1,j) + a(i,j)
      end do
    end do
!$stencil end region
  end subroutine row_prefix_sum

end module rsum_kernel
