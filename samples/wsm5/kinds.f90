! kinds.f90 -- the kinds module of the wsm5 sample.  WRF runs its physics in
! single precision (REAL is 4 bytes unless it is built with -r8), so the
! physics kind here is the 4-byte real.  Compiled on its own, before
! everything that uses it.
module module_wsm5_kinds
  implicit none
  integer, parameter :: kind_phys = selected_real_kind(6)
end module module_wsm5_kinds
