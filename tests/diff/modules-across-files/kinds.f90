! Kinds of modules-across-files, in a file of their own (as ccpp_kind_types).
module kinds
  implicit none
  integer, parameter :: kind_phys = 8
end module kinds
