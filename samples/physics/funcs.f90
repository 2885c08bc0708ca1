! funcs.f90 -- thermodynamic functions of the physics sample: an elemental
! and a pure function in a module, reading PARAMETERs and a saved module
! variable of physcons.
module physfuncs
  use ccpp_kind_types, only: kind_phys
  use physcons, only: psat, t0c, ep2
  implicit none
contains
  ! saturation vapour pressure over water (Bolton), Pa
  elemental function esat(t) result(es)
    real(kind_phys), intent(in) :: t
    real(kind_phys) :: es
    es = psat * exp(17.67_kind_phys * (t - t0c) / (t - 29.65_kind_phys))
  end function esat

  ! saturation mixing ratio at pressure p (Pa) and temperature t (K)
  pure function qsat(p, t) result(qs)
    real(kind_phys), intent(in) :: p, t
    real(kind_phys) :: qs, es
    es = min(esat(t), 0.5_kind_phys * p)
    qs = ep2 * es / (p - es)
  end function qsat
end module physfuncs
