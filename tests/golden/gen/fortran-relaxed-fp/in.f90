! -Mfprelaxed on a real(4) kernel: exp, log, ** and the divisions become __expf,
! __logf, __powf and __fdividef; the real(8) statement keeps exp and its division,
! and the PARAMETER's division stays a constexpr (an intrinsic is no constant expression).
subroutine relax(n, a, b, c, d)
  implicit none
  integer, intent(in) :: n
  real, intent(in) :: a(n), b(n)
  real, intent(out) :: c(n)
  real(8), intent(inout) :: d(n)
  real, parameter :: third = 1.0 / 3.0
  integer :: i
!$stencil region
  do i = 1, n
    c(i) = exp(a(i)) / (1.0 + log(b(i))) + a(i) ** b(i) * third
    d(i) = exp(d(i)) / 3.0d0 + a(i) ** 2
  end do
!$stencil end region
end subroutine relax
