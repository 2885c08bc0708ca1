! vector-helper-memory-bounds: a MASS-style helper called on an array declared
! with WRF memory bounds, vsrec(tvec1(its), rho(its,k,j), ite-its+1) on
! rho(ims:ime,...): nothing states ims <= its, ite <= ime, so the inlining
! is accepted under those assumptions, which the launcher checks before the
! launch (the driver's tile lies inside its memory bounds).
module vhelp
  implicit none
  real, parameter :: den0 = 1.28
contains
  subroutine slopes(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, rho, denfac)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: rho(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: denfac(ims:ime, kms:kme, jms:jme)
    real :: df(its:ite, kts:kte), tvec1(its:ite)
    integer :: i, j, k
!$stencil region
    do j = jts, jte
      do k = kts, kte
        call vsrec(tvec1(its), rho(its,k,j), ite-its+1)
        do i = its, ite
          tvec1(i) = tvec1(i) * den0
        end do
        call vssqrt(df(its,k), tvec1(its), ite-its+1)
      end do
      do k = kts, kte
        do i = its, ite
          denfac(i,k,j) = df(i,k)
        end do
      end do
    end do
!$stencil end region
  end subroutine slopes
end module vhelp

subroutine vsrec(y, x, n)
  integer n, i
  real y(*), x(*)
  do i = 1, n
    y(i) = 1.0 / x(i)
  end do
end subroutine vsrec

subroutine vssqrt(y, x, n)
  integer n, i
  real y(*), x(*)
  do i = 1, n
    y(i) = sqrt(x(i))
  end do
end subroutine vssqrt
