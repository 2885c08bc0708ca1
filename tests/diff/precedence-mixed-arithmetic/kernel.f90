! precedence-mixed-arithmetic: expressions whose C text needs parentheses in some
! places and not in others (kernels are printed by C's precedence, not with
! parentheses around every operation): a - (b - c), a / (b * c), Fortran's
! -a * b (which is -(a * b)), integer division and MOD inside real arithmetic,
! a comparison chain under .and./.or., .eqv., and integer expressions such as
! i - (j - shift) * 2 with a PARAMETER.  Every point is independent.
module prec_kernel
  implicit none
  private
  public :: mixed

contains

  subroutine mixed(a, b, c, r, m, ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real, dimension(ims:ime, jms:jme), intent(in)  :: a, b, c
    real, dimension(ims:ime, jms:jme), intent(out) :: r
    integer, dimension(ims:ime, jms:jme), intent(out) :: m
    integer, parameter :: shift = 3
    integer :: i, j
    logical :: big, pos

!$stencil region
    do j = jts, jte
      do i = its, ite
        big = a(i,j) - (b(i,j) - c(i,j)) > 0.25 .and. (b(i,j) < c(i,j) .or. a(i,j) >= 0.)
        pos = (a(i,j) > 0.) .eqv. (b(i,j) > 0.)
        r(i,j) = a(i,j) / (b(i,j) * c(i,j) + 2.0) - (-a(i,j)) * b(i,j)                  &
                 - real(mod(i, 7) * (j / 3) - (i - j) / 2) / real(i + j + shift)       &
                 - -a(i,j) * c(i,j)
        if (big .and. .not. pos) then
          r(i,j) = -(r(i,j) - c(i,j)) * 0.5
        end if
        m(i,j) = i - (j - shift) * 2 - mod(i + j, 5) / 2 * 3 - i / (2 * j) - (-j)
        if (pos) then
          m(i,j) = -m(i,j)
        end if
      end do
    end do
!$stencil end region
  end subroutine mixed

end module prec_kernel
