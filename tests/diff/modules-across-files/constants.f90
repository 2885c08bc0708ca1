! Constants of modules-across-files, in a file of their own, in a kind of
! another file (as module_model_constants).
module constants
  use kinds, only: kind_phys
  implicit none
  real(kind_phys), parameter :: cp = 1004.5_kind_phys
  real(kind_phys), parameter :: rd = 287.04_kind_phys
  real(kind_phys), parameter :: den0 = 1.28_kind_phys
end module constants
