! firstprivate-scalar: a scalar set on the host before the region, read by
! the first nest and reassigned between the nests: every thread must start
! from the host's value.
module firstprivate_kernel
  implicit none
  private
  public :: scale_rows
contains
  subroutine scale_rows(a, b, c0, ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real, intent(inout) :: a(ims:ime, jms:jme)
    real, intent(out) :: b(ims:ime, jms:jme)
    real, intent(in) :: c0
    real :: s
    integer :: i, j
    s = 2.0 * c0
!$stencil region
    do j = jts, jte
      do i = its, ite
        b(i,j) = s * a(i,j)
      end do
    end do
    s = 3.0
    do j = jts, jte
      do i = its, ite
        a(i,j) = a(i,j) + s
      end do
    end do
!$stencil end region
  end subroutine scale_rows
end module firstprivate_kernel
