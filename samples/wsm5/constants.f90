! constants.f90 -- constants of the wsm5 sample.  Physical constants and the
! tunable parameters of the scheme are PARAMETERs; the coefficients derived
! from them (gamma-function values of the size distributions, the slopes at
! the distribution limits, the collection and ventilation factors) are
! saved module variables that wsm5init (module_mp_wsm5s) sets once at
! start-up, as WRF's microphysics init routines do.
module module_wsm5_constants
  use module_wsm5_kinds, only: kind_phys
  implicit none

  !--- physical constants (SI)
  real(kind_phys), parameter :: pi    = 3.1415926535897932  ! pi
  real(kind_phys), parameter :: g     = 9.81      ! gravity (m s-2)
  real(kind_phys), parameter :: rd    = 287.04    ! gas constant of dry air (J kg-1 K-1)
  real(kind_phys), parameter :: rv    = 461.6     ! gas constant of water vapour (J kg-1 K-1)
  real(kind_phys), parameter :: cp    = 1004.5    ! cp of dry air (J kg-1 K-1)
  real(kind_phys), parameter :: cpv   = 1846.4    ! cp of water vapour (J kg-1 K-1)
  real(kind_phys), parameter :: cliq  = 4190.     ! specific heat of liquid water (J kg-1 K-1)
  real(kind_phys), parameter :: cice  = 2106.     ! specific heat of ice (J kg-1 K-1)
  real(kind_phys), parameter :: xlv0  = 2.501e6   ! latent heat of vaporization at t0c (J kg-1)
  real(kind_phys), parameter :: xlv1  = cliq - cpv ! its decrease with temperature (J kg-1 K-1)
  real(kind_phys), parameter :: xls   = 2.834e6   ! latent heat of sublimation (J kg-1)
  real(kind_phys), parameter :: xlf0  = xls - xlv0 ! latent heat of fusion at t0c (J kg-1)
  real(kind_phys), parameter :: t0c   = 273.15    ! melting point (K)
  real(kind_phys), parameter :: p0    = 1.e5      ! reference pressure of theta (Pa)
  real(kind_phys), parameter :: rcp   = rd/cp     ! Exner exponent
  real(kind_phys), parameter :: ep2   = rd/rv     ! ratio of the gas constants
  real(kind_phys), parameter :: psat  = 611.2     ! saturation vapour pressure at t0c (Pa)

  !--- densities and size-distribution intercepts
  real(kind_phys), parameter :: den0  = 1.28      ! reference air density (kg m-3)
  real(kind_phys), parameter :: denr  = 1000.     ! density of rain (kg m-3)
  real(kind_phys), parameter :: dens  = 100.      ! density of snow (kg m-3)
  real(kind_phys), parameter :: n0r   = 8.e6      ! intercept of rain (m-4)
  real(kind_phys), parameter :: n0s   = 2.e6      ! intercept of snow at t0c (m-4)
  real(kind_phys), parameter :: n0smax = 1.e11    ! largest intercept of snow (m-4)
  real(kind_phys), parameter :: alpha = .12       ! temperature dependence of n0s (K-1)

  !--- terminal velocity v(D) = a D**b (m s-1, D in m)
  real(kind_phys), parameter :: avtr  = 841.9     ! rain
  real(kind_phys), parameter :: bvtr  = 0.8
  real(kind_phys), parameter :: avts  = 11.72     ! snow
  real(kind_phys), parameter :: bvts  = 0.41

  !--- thresholds and process parameters
  real(kind_phys), parameter :: qmin   = 1.e-15   ! smallest mixing ratio considered (kg kg-1)
  real(kind_phys), parameter :: qcrmin = 1.e-9    ! below: rain/snow at the limit slope
  real(kind_phys), parameter :: lamdarmax = 8.e4  ! largest slope of rain (m-1)
  real(kind_phys), parameter :: lamdasmax = 1.e5  ! largest slope of snow (m-1)
  real(kind_phys), parameter :: dtcldcr = 120.    ! longest step of the microphysics (s)
  real(kind_phys), parameter :: r0     = 10.e-6   ! autoconversion: critical droplet radius (m)
  real(kind_phys), parameter :: xncr   = 3.e8     ! cloud droplet number (m-3)
  real(kind_phys), parameter :: tauaut = 1000.    ! autoconversion time scale of cloud water (s)
  real(kind_phys), parameter :: roqimax = 1.e-4   ! ice content above which ice turns to snow (kg m-3)
  real(kind_phys), parameter :: xm0    = 1.e-12   ! mass of a new ice crystal (kg)
  real(kind_phys), parameter :: dicon  = 11.9     ! ice diameter from its mass: d = dicon*sqrt(m)
  real(kind_phys), parameter :: dimax  = 500.e-6  ! largest ice diameter (m)
  real(kind_phys), parameter :: biggb  = 100.     ! Bigg freezing of rain (m-3 s-1)
  real(kind_phys), parameter :: bigga  = 0.66     ! Bigg freezing of rain (K-1)
  real(kind_phys), parameter :: thom   = 233.15   ! homogeneous freezing of cloud water (K)

  !--- derived coefficients, set by wsm5init
  real(kind_phys), save :: bvtr1, bvtr2, bvtr3, bvtr4
  real(kind_phys), save :: g1pbr, g3pbr, g4pbr, g5pbro2
  real(kind_phys), save :: pvtr, pacrr, precr1, precr2, pidn0r
  real(kind_phys), save :: rslopermax, rsloperbmax, rsloper2max, rsloper3max
  real(kind_phys), save :: bvts1, bvts2, bvts3, bvts4
  real(kind_phys), save :: g1pbs, g3pbs, g4pbs, g5pbso2
  real(kind_phys), save :: pvts, pacrs, precs1, precs2, pidn0s
  real(kind_phys), save :: rslopesmax, rslopesbmax, rslopes2max, rslopes3max
  real(kind_phys), save :: qc0, pfrz1, pfrz2
end module module_wsm5_constants
