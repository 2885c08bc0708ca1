! module-variable-of-callee: a pure function in a module of its own that
! reads the saved variable ep2 of mvc_consts, which the caller never names.
module mvc_funcs
  use mvc_consts, only: ep2
  implicit none
contains
  pure function qsat(p, es) result(qs)
    real, intent(in) :: p, es
    real :: qs
    qs = ep2 * es / (p - es)
  end function qsat
end module mvc_funcs
