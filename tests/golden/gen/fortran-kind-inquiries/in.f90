! Kind parameters from kind(1.0d0), selected_real_kind(6) and iso_fortran_env's real64:
! real(dp) is double, 2.0_wp a double literal, 1.0_sp a float.
module kinds
  use iso_fortran_env, only: real64
  implicit none
  integer, parameter :: dp = kind(1.0d0), sp = selected_real_kind(6), wp = real64
end module kinds
subroutine s(n, a)
  use kinds
  implicit none
  integer :: n, i
  real(dp) :: a(n)
!$stencil region
  do i = 1, n
    a(i) = a(i) * 2.0_wp + real(1.0_sp, wp)
  end do
!$stencil end region
end subroutine s
