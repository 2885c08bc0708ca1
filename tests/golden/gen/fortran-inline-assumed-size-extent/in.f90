! MASS-style assumed-size dummies y(*), x(*) with an extent n unrelated to the tile: inlined under the run-time assumption its+n-1 <= ite, which the launcher checks.
module m
  implicit none
contains
  subroutine outer(q, work, its, ite, kts, kte, n)
    integer, intent(in) :: its, ite, kts, kte, n
    real, intent(inout) :: q(its:ite, kts:kte), work(its:ite)
    integer :: k
!$stencil region
    do k = kts, kte
      call vrec(work(its), q(its,k), n)
    end do
!$stencil end region
  end subroutine outer
end module m

subroutine vrec(y, x, n)
  integer n, i
  real y(*), x(*)
  do i = 1, n
    y(i) = 1./x(i)
  end do
end subroutine vrec
