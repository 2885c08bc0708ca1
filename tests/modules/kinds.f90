! tests/modules.sh: the kinds of the program, in a file of their own.
module kinds
  implicit none
  integer, parameter :: kind_phys = 8
end module kinds
