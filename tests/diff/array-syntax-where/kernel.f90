! array-syntax-where: WHERE in column physics: the statement form on a
! column section inside the i loop (`where (q(i,:,j) < 0.) q(i,:,j) = 0.`),
! and a construct with a masked ELSEWHERE and an ELSEWHERE over a plane
! inside a k loop, assigning two arrays.  Each becomes one loop over the
! mask's shape with an IF chain at each element.
module where_kernel
  implicit none
  private
  public :: fix
contains
  subroutine fix(t, q, flag, ims,ime, jms,jme, km, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, km, its,ite, jts,jte
    real, intent(inout) :: t(ims:ime, km, jms:jme), q(ims:ime, km, jms:jme)
    real, intent(out) :: flag(ims:ime, km, jms:jme)
    integer :: i, j, k
    do j = jts, jte
!$stencil region
      do i = its, ite
        where (q(i,:,j) < 0.) q(i,:,j) = 0.
      end do
      do k = 1, km
        where (t(its:ite,k,j) > 290.)
          flag(its:ite,k,j) = 1.
          t(its:ite,k,j) = 290. + 0.5 * (t(its:ite,k,j) - 290.)
        elsewhere (t(its:ite,k,j) < 280.)
          flag(its:ite,k,j) = -1.
        elsewhere
          flag(its:ite,k,j) = 0.
          q(its:ite,k,j) = q(its:ite,k,j) * 2.
        end where
      end do
!$stencil end region
    end do
  end subroutine fix
end module where_kernel
