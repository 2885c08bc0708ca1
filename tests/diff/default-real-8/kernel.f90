! default-real-8: default REAL everywhere (no kind), built with
! -fdefault-real-8 -fdefault-double-8 on both sides (`flags`): the
! translation must make the arrays, the scalar argument, the private scalar,
! the literals and REAL() real(8) as gfortran does, in the kernel and in
! the interface the host file calls; DOUBLE PRECISION stays real(8) and an
! explicit real(4) stays real(4).  The driver checks results that real(4)
! arithmetic cannot meet (relative 1e-13).
module dr8_kernel
  implicit none
  private
  public :: smooth

contains

  subroutine smooth(alpha, a, b, d, w, ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real, intent(in) :: alpha
    real, dimension(ims:ime, jms:jme), intent(in) :: a
    real, dimension(ims:ime, jms:jme), intent(inout) :: b
    double precision, dimension(ims:ime, jms:jme), intent(inout) :: d
    real(4), dimension(ims:ime, jms:jme), intent(inout) :: w

    integer :: i, j
    real :: third

!$stencil region
    do j = jts, jte
      do i = its, ite
        third = 1.0 / 3.0
        b(i,j) = alpha * third * (a(i-1,j) + a(i,j) + a(i+1,j)) + real(i) * 1.0e-10
        d(i,j) = b(i,j) * 2.0d0
        w(i,j) = real(a(i,j), 4) * 0.5_4
      end do
    end do
!$stencil end region
  end subroutine smooth

end module dr8_kernel
