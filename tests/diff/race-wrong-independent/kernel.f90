! race-wrong-independent: the prefix sum of running-sum-i,
!   s(i,j) = s(i-1,j) + a(i,j),
! with a wrong `independent` on the i loop: the translator trusts the user
! and runs i in parallel.  In forward thread order each thread still reads
! its left neighbour's finished value, so the outputs match the reference;
! on a GPU (or in reverse order) they would not.  The race check must
! report it: s(its+1,jts) written by thread 0 and read by thread 1.
module race_kernel
  implicit none
  private
  public :: row_prefix_sum, r8
  integer, parameter :: r8 = 8

contains

  subroutine row_prefix_sum(a, s, ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real(r8), dimension(ims:ime, jms:jme), intent(in)    :: a
    real(r8), dimension(ims:ime, jms:jme), intent(inout) :: s

    integer :: i, j

!$stencil region
    do j = jts, jte
!$stencil do independent
      do i = its+1, ite
        s(i,j) = s(i-1,j) + a(i,j)
      end do
    end do
!$stencil end region
  end subroutine row_prefix_sum

end module race_kernel
