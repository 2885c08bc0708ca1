! present-two-optionals: OPTIONAL snow qs and ice qi tested by present()
! inside the loops, alone, together, negated and with a condition on the
! data, and qi named in a user clause; called with all four combinations
! (keywords included).  Four kernel variants: the absent ones are never
! moved, and the host's IF chain launches the one that matches.
module freeze_mod
  implicit none
contains
  subroutine freeze(its, ite, kts, kte, t, qc, qs, qi)
    integer, intent(in) :: its, ite, kts, kte
    real, intent(inout) :: t(its:ite, kts:kte), qc(its:ite, kts:kte)
    real, intent(inout), optional :: qs(its:ite, kts:kte), qi(its:ite, kts:kte)
    integer :: i, k
    real :: frz
!$stencil region copy(qi)
    do k = kts, kte
      do i = its, ite
        frz = 0.02 * max(273.15 - t(i,k), 0.0) * qc(i,k)
        if (present(qs) .and. present(qi)) then
          qs(i,k) = qs(i,k) + 0.5 * frz
          qi(i,k) = qi(i,k) + 0.5 * frz
        else if (present(qs)) then
          qs(i,k) = qs(i,k) + frz
        else if (.not. present(qi)) then
          frz = 0.5 * frz
        end if
        if (present(qi) .and. t(i,k) < 263.15) qi(i,k) = qi(i,k) + 0.001
        if (.not. present(qs) .and. present(qi)) qi(i,k) = qi(i,k) + frz
        qc(i,k) = qc(i,k) - frz
        t(i,k) = t(i,k) + 300.0 * frz
      end do
    end do
!$stencil end region
  end subroutine freeze
end module freeze_mod
