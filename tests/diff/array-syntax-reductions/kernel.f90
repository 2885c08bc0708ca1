! array-syntax-reductions: reductions over a column section inside the i
! loop, as column physics uses them in scalar expressions: maxval, minval
! (with mask=), sum, count, any, maxloc(.., 1) (the 1-based position in the
! section, first occurrence) and minloc(.., dim=1) on a section that does
! not start at 1.  Each is computed into a temporary by a k loop inside the
! thread, before the statement that uses it.
module reductions_kernel
  implicit none
  private
  public :: column_stats
contains
  subroutine column_stats(t, q, stats, kpos, ims,ime, jms,jme, km, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, km, its,ite, jts,jte
    real, intent(in) :: t(ims:ime, km, jms:jme), q(ims:ime, km, jms:jme)
    real, intent(out) :: stats(ims:ime, 5, jms:jme)
    integer, intent(out) :: kpos(ims:ime, 4, jms:jme)
    integer :: i, j, k
    do j = jts, jte
!$stencil region
      do i = its, ite
        stats(i,1,j) = maxval(t(i,:,j)) - minval(t(i,:,j), mask=q(i,:,j) > 0.)
        stats(i,2,j) = sum(q(i,1:km,j)) / real(km)
        stats(i,3,j) = maxval(q(i,2:km-1,j), mask=t(i,2:km-1,j) > 500.)
        if (any(q(i,:,j) > 0.45)) then
          stats(i,4,j) = 1.
        else
          stats(i,4,j) = 0.
        end if
        stats(i,5,j) = sum(t(i,:,j) * q(i,:,j), q(i,:,j) < 0.)
        kpos(i,1,j) = count(q(i,:,j) < 0.)
        kpos(i,2,j) = maxloc(t(i,:,j), 1)
        kpos(i,3,j) = minloc(t(i,3:km,j), dim=1)
        kpos(i,4,j) = maxloc(q(i,1:km:2,j), 1, mask=q(i,1:km:2,j) < -0.3)
      end do
!$stencil end region
    end do
  end subroutine column_stats
end module reductions_kernel
