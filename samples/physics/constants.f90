! constants.f90 -- physical constants of the physics sample: PARAMETERs, and
! saved module variables that an init routine sets at start-up (as WRF's
! module_model_constants and the microphysics' *_init routines do).
module physcons
  use ccpp_kind_types, only: kind_phys
  implicit none
  real(kind_phys), parameter :: cp = 1004.5_kind_phys     ! J/kg/K
  real(kind_phys), parameter :: rd = 287.04_kind_phys     ! J/kg/K
  real(kind_phys), parameter :: rv = 461.6_kind_phys      ! J/kg/K
  real(kind_phys), parameter :: t0c = 273.15_kind_phys    ! K
  real(kind_phys), parameter :: psat = 610.78_kind_phys   ! Pa
  real(kind_phys), save :: ep2, xlv, qmin                 ! set by physcons_init
contains
  subroutine physcons_init(latent_heat)
    real(kind_phys), intent(in) :: latent_heat
    ep2 = rd / rv
    xlv = latent_heat
    qmin = 1.0e-12_kind_phys
  end subroutine physcons_init
end module physcons
