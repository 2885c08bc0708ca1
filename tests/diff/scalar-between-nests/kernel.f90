! scalar-between-nests: the j loop holds scalar statements between its
! nests (coef from 1-D profiles, independent of k; coef2 between two k
! nests), and the first k loop holds a scalar (fk) and two sibling i loops,
! the second reading what the first wrote at the same point.  Every loop is
! parallel; coef, coef2 and fk are private to their iteration.
!
! Legal GPU shape: one kernel over (i,j) with the scalars computed in each
! thread and both k loops in order inside it (or a kernel over (i,k,j) per
! nest, the scalars recomputed).  Illegal: shared scalars, or the second
! i loop before the first.
module sbn_kernel
  implicit none
  private
  public :: column_mix

contains

  subroutine column_mix(u, zk, wj, t1, v, v2,                          &
                        ims,ime, jms,jme, kms,kme,                     &
                        its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: u
    real, dimension(kms:kme), intent(in) :: zk
    real, dimension(jms:jme), intent(in) :: wj
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: t1, v, v2

    integer :: i, j, k
    real :: coef, coef2, fk

!$stencil region
    do j = jts, jte
      coef = 0.5*(wj(j) + wj(j+1))
      do k = kts, kte
        fk = coef*zk(k)
        do i = its, ite
          t1(i,k,j) = fk*u(i,k,j)
        end do
        do i = its, ite
          v(i,k,j) = t1(i,k,j) + coef*u(i+1,k,j)
        end do
      end do
      coef2 = coef*coef + wj(j)
      do k = kts, kte
        do i = its, ite
          v2(i,k,j) = coef2*v(i,k,j) - t1(i,k,j)
        end do
      end do
    end do
!$stencil end region
  end subroutine column_mix

end module sbn_kernel
