! interchange-illegal: a(i,j) reads a(i+1,j-1), written by the previous j
! iteration one point to the east: a dependence of distance (1,-1) along
! (j,i).  The j loop carries it and must stay sequential.  Within one j the
! i iterations are independent, but i cannot be moved outside j: the
! interchanged nest would have distance (-1,1) and read a(i+1,j-1) before it
! is written.  So i and j cannot both run in parallel threads, and i cannot
! be a parallel loop around a sequential j in each thread; the only legal
! parallel form would launch one kernel per j (the host running j), which
! s2s-cuda does not do: it must refuse the region.
module ich_kernel
  implicit none
  private
  public :: skewed_sweep, r8
  ! real(8); spelled as a literal: the translator cannot evaluate kind(1.0d0) yet.
  integer, parameter :: r8 = 8

contains

  subroutine skewed_sweep(a, b, ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real(r8), dimension(ims:ime, jms:jme), intent(inout) :: a
    real(r8), dimension(ims:ime, jms:jme), intent(in)    :: b

    integer :: i, j

!$stencil region
    do j = jts, jte
      do i = its, ite
        a(i,j) = 0.5_r8*a(i+1,j-1) + b(i,j)
      end do
    end do
!$stencil end region
  end subroutine skewed_sweep

end module ich_kernel
