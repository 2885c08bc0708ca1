! What a CUDA engineer reads in the kernel: expressions printed by C's precedence (a - (b - c),
! a / (b * c), -(a * b), integer division and MOD where Fortran put them), the PARAMETER
! kept by name, the user's comments above statements carried over (a trailing backslash
! dropped so it cannot continue the // comment), a long statement wrapped near 100 columns,
! and #line directives to this file.
subroutine tend(n, km, t, q, out)
  implicit none
  integer, intent(in) :: n, km
  real, intent(in) :: t(n, km), q(n, km)
  real, intent(out) :: out(n, km)
  integer, parameter :: top = 3
  integer :: i, k
!$stencil region
  do k = 1, km
    do i = 1, n
      ! the sponge: the top levels damp \
      if (k > km - top) then
        out(i, k) = t(i, k) - (q(i, k) - t(i, k)) / (2.0 * real(km - k + 1))
      else
        ! negative of a product, and an integer quotient
        out(i, k) = -t(i, k) * q(i, k) + real(mod(k, 4) * (k / 2)) / (q(i, k) * t(i, k) + 1.0)  &
                    + 0.125 * (t(i, k) + q(i, k)) * (t(i, k) - q(i, k)) - t(i, k) / (q(i, k) + 2.0)
      end if
    end do
  end do
!$stencil end region
end subroutine tend
