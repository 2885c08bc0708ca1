! -Kieee (in `args`): every real product in the kernel becomes __dmul_rn or __fmul_rn (a
! real(4) operand of a real(8) product converted first), which nvcc never contracts into an
! FMA; sums, the division and sqrt stay as they are (IEEE by nvcc's defaults), and so do
! the integer product and the PARAMETER's product (a constexpr).  The recursive __device__
! function multiplies through s2s_dmul_rn.  The banner says how to compile the file, and
! the report has one line per kernel.
module strict
  implicit none
  real(8), parameter :: half_dt = 0.5d0 * 60.0d0
contains
  subroutine tendency(n, m, t, w, tend, q, kappa)
    integer, intent(in) :: n, m
    real(8), intent(in) :: t(n, m), kappa
    real, intent(in) :: w(n, m)
    real(8), intent(out) :: tend(n, m)
    real, intent(out) :: q(n, m)
    integer :: i, j
!$stencil region
    do j = 2, m - 1
      do i = 2, n - 1
        tend(i,j) = kappa * (t(i+1,j) - 2.0d0 * t(i,j) + t(i-1,j)) + half_dt * w(i,j) * t(i,j)
        q(i,j) = sqrt(w(i,j) * w(i,j) + 1.0) / w(i-1,j) + real(i * j) + horner(t(i,j), 3)
      end do
    end do
!$stencil end region
  end subroutine tendency

  ! 1 + x + x**2 + ... + x**k, as x * (the sum to k - 1) + 1.
  recursive real(8) function horner(x, k) result(s)
    real(8), intent(in) :: x
    integer, intent(in) :: k
    if (k == 0) then
      s = 1.0d0
    else
      s = x * horner(x, k - 1) + 1.0d0
    end if
  end function horner
end module strict
