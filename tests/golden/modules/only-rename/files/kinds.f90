! The kinds of the modules/ golden cases: kind_phys is real(8).
module kinds
  implicit none
  integer, parameter :: kind_phys = 8
end module kinds
