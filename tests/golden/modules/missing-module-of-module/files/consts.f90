! Constants of the modules/ golden cases, in a kind of another file (kinds.f90).
module consts
  use kinds, only: kind_phys
  implicit none
  real(kind_phys), parameter :: cp = 1004.5_kind_phys
  real(kind_phys), parameter :: rd = 287.04_kind_phys
end module consts
