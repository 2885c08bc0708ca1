! vector-helper-in-2d-routine: physics2d's shape.  The region calls a 2-D
! routine per j with planes rho(ims,kms,j), denfac(ims,kms,j); the routine sets
! n = ite-its+1 and then, in a k loop, calls vsrec(tvec1(its,k), rho(its,k), n)
! and vssqrt(df(its,k), tvec1(its,k), n) on rho(ims:ime, kms:kme): the proof
! uses n's value (the calls cannot change n, its or k) and assumes its >= ims,
! ime >= ite, which the launcher checks.
module vhelp
  implicit none
  real, parameter :: den0 = 1.28
contains
  subroutine slopes(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, rho, denfac)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: rho(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: denfac(ims:ime, kms:kme, jms:jme)
    integer :: j
!$stencil region
    do j = jts, jte
      call slopes2d(rho(ims,kms,j), denfac(ims,kms,j), ims,ime, kms,kme, its,ite, kts,kte)
    end do
!$stencil end region
  end subroutine slopes

  subroutine slopes2d(rho, denfac, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(in) :: rho(ims:ime, kms:kme)
    real, intent(inout) :: denfac(ims:ime, kms:kme)
    real :: df(its:ite, kts:kte), tvec1(its:ite, kts:kte)
    integer :: i, k, n
    n = ite - its + 1
    do k = kts, kte
      call vsrec(tvec1(its,k), rho(its,k), n)
      call vssqrt(df(its,k), tvec1(its,k), n)
    end do
    do k = kts, kte
      do i = its, ite
        denfac(i,k) = df(i,k) * sqrt(den0)
      end do
    end do
  end subroutine slopes2d
end module vhelp

subroutine vsrec(y, x, n)
  integer, intent(in) :: n
  integer :: i
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
