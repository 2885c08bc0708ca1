! A module of procedures for the modules/ golden cases: a column routine a region calls.
module thermo
  implicit none
  real, parameter :: kappa = 0.2857
contains
  subroutine to_theta(n, t, p)
    integer, intent(in) :: n
    real, intent(inout) :: t(n)
    real, intent(in) :: p(n)
    integer :: k
    do k = 1, n
      t(k) = t(k) * (1000.0 / p(k)) ** kappa
    end do
  end subroutine to_theta
end module thermo
