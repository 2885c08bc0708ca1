! Kinds from iso_c_binding: real(c_double) is double, real(c_float) float, integer(c_long) and
! integer(c_int64_t) long long, integer(c_int) int; a kind constant in a literal (2.0_c_double).
subroutine scale(n, a, b, counts, nlong)
  use, intrinsic :: iso_c_binding, only: c_double, c_float, c_int, c_long, c_int64_t
  implicit none
  integer(c_int), intent(in) :: n
  integer(c_long), intent(in) :: nlong
  real(c_double), intent(inout) :: a(n)
  real(c_float), intent(in) :: b(n)
  integer(c_int64_t), intent(out) :: counts(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = a(i) * 2.0_c_double + real(b(i), c_double)
    counts(i) = nlong + i
  end do
!$stencil end region
end subroutine scale
