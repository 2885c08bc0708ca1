! Intrinsics (exp, 3-argument max, nint, mod, int, sign, **, abs, sqrt, dble, merge), logical
! operators, real(8) and module parameters in a region: each maps to its CUDA form.
module consts
  implicit none
  real, parameter :: xlv = 2.5e6, rv = 461.6
  integer, parameter :: r8 = 8
end module consts

subroutine physics(n, t, p, qv, flag, out8)
  use consts
  implicit none
  integer, intent(in) :: n
  real, intent(in) :: t(n), p(n)
  real, intent(inout) :: qv(n)
  logical, intent(in) :: flag
  real(r8), intent(out) :: out8(n)
  integer :: i, m
  real :: es, x

!$stencil region
  do i = 1, n
    es = 611.2 * exp(17.67 * (t(i) - 273.15) / (t(i) - 29.65))
    x = max(qv(i), 1.0e-12, 0.622 * es / (p(i) - es))
    m = nint(x * 1.0e6) + mod(i, 3) - int(-2.5)
    if (flag .eqv. (t(i) .gt. 273.15) .and. .not. (x >= 1.0)) then
      qv(i) = sign(x, p(i) - 5.0e4) ** 2 + real(m) * 1.0e-9
    else if (t(i) < 200.0) then
      qv(i) = abs(x) ** 1.5 / sqrt(p(i))
    else
      qv(i) = min(x, xlv / rv * 1.0e-6)
    end if
    out8(i) = dble(x) * 2.0_r8 + 1.0d-3 * merge(1.0d0, -1.0d0, flag)
  end do
!$stencil end region
end subroutine physics
