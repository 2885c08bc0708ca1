! module-variable-of-callee: the constants of the case, in a file of their
! own: saved variables set by an init routine (as WRF's *_init routines do).
module mvc_consts
  implicit none
  real, save :: ep2, xlv, qmin
contains
  subroutine mvc_init()
    ep2 = 0.622
    xlv = 2.5e6
    qmin = 1.0e-6
  end subroutine mvc_init
end module mvc_consts
