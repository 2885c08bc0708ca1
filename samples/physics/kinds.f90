! kinds.f90 -- the kinds module of the physics sample, as CCPP physics
! declares it (ccpp_kind_types).  Compiled on its own, before everything
! that uses it.
module ccpp_kind_types
  implicit none
  integer, parameter :: kind_phys = 8
end module ccpp_kind_types
