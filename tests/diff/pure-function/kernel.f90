! pure-function: a saturation mixing ratio qsat(t, p) written as a pure
! module function with locals, called in expressions of a region: in an
! assignment, inside an IF test and with an expression as argument.  Each
! reference is inlined before its statement, the result in a local of the
! thread; the region is one kernel over (i,k,j).
module satfn
  implicit none
  real, parameter :: ep2 = 0.622
contains
  subroutine condense(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, t, p, qv)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: t(ims:ime, kms:kme, jms:jme), p(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: qv(ims:ime, kms:kme, jms:jme)
    real :: excess
    integer :: i, j, k
!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          if (qv(i,k,j) > qsat(t(i,k,j), p(i,k,j))) then
            excess = qv(i,k,j) - qsat(t(i,k,j), p(i,k,j))
            qv(i,k,j) = qv(i,k,j) - 0.5 * excess
          else
            qv(i,k,j) = qv(i,k,j) + 0.1 * qsat(t(i,k,j) - 1.0, p(i,k,j))
          end if
        end do
      end do
    end do
!$stencil end region
  end subroutine condense

  pure function qsat(tk, pmb) result(qs)
    real, intent(in) :: tk, pmb
    real :: qs, es, tc
    tc = tk - 273.15
    es = 6.112 * exp(17.67 * tc / (tc + 243.5))
    qs = ep2 * es / (pmb - es)
  end function qsat
end module satfn
