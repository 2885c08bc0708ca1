! tests/modules.sh: constants in a kind of another file, and a saved module
! variable set by an init routine (host code only).
module constants
  use kinds, only: kind_phys
  implicit none
  real(kind_phys), parameter :: cp = 1004.5_kind_phys
  real(kind_phys), parameter :: rd = 287.04_kind_phys
  real(kind_phys), save :: scale = 0.0_kind_phys
contains
  subroutine init_constants()
    scale = rd / cp
  end subroutine init_constants
end module constants
