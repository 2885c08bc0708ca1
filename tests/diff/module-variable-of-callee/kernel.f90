! module-variable-of-callee: module variables the kernel reads that the
! region's routine cannot name as they are: ep2, read only by the inlined
! qsat (the routine USEs mvc_funcs, not mvc_consts, and has a local of its
! own called ep2), and xlv, visible only under the rename lh.  The host file
! must still pass their values: the launcher call names them through a USE it
! adds (s2s_ep2) and through the rename (lh).
module mvc_physics
  implicit none
contains
  subroutine mvc_column(p, t, q, ni, nk)
    use mvc_funcs, only: qsat
    use mvc_consts, only: lh => xlv
    integer, intent(in) :: ni, nk
    real, intent(in) :: p(ni, nk)
    real, intent(inout) :: t(ni, nk), q(ni, nk)
    real :: ep2, es
    integer :: i, k

    ep2 = 99.0          ! the routine's own ep2, not mvc_consts'
!$stencil region
    do k = 1, nk
      do i = 1, ni
        es = 611.0 * exp(0.06 * (t(i,k) - 273.0))
        q(i,k) = q(i,k) + 0.1 * (qsat(p(i,k), es) - q(i,k))
        t(i,k) = t(i,k) + lh * 1.0e-7 * q(i,k)
      end do
    end do
!$stencil end region
    t(1,1) = t(1,1) + 0.0 * ep2
  end subroutine mvc_column
end module mvc_physics
