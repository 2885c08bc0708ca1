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
  interface
    subroutine s2s_physics_r1(t, qv, p, out8, n, flag) bind(C, name="s2s_physics_r1")
      use, intrinsic :: iso_c_binding, only: c_float, c_double, c_int
      real(c_float) :: t(*)
      real(c_float) :: qv(*)
      real(c_float) :: p(*)
      real(c_double) :: out8(*)
      integer(c_int) :: n
      type(*) :: flag
    end subroutine s2s_physics_r1
  end interface

  call s2s_physics_r1(t, qv, p, out8, n, flag)
end subroutine physics
