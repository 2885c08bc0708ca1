! present-one-optional: a WSM5-style routine with an OPTIONAL snow field qs
! tested by present() inside its i/k loops, called with and without it; the
! region becomes two kernel variants (qs present: qs moved and updated; qs
! absent: no trace of it) and the host launches the matching one, inside a
! data region that keeps t and qr on the device across the steps.
module melt_mod
  implicit none
contains
  subroutine melt(n, nk, nsteps, t, qr, qs)
    integer, intent(in) :: n, nk, nsteps
    real, intent(inout) :: t(n, nk), qr(n, nk)
    real, intent(inout), optional :: qs(n, nk)
    integer :: i, k, step
    real :: dq
!$stencil data copy(t, qr)
    do step = 1, nsteps
!$stencil region
      do k = 1, nk
        do i = 1, n
          dq = 0.01 * max(t(i,k) - 273.15, 0.0)
          if (present(qs)) then
            dq = min(dq, qs(i,k))
            qs(i,k) = qs(i,k) - dq
          end if
          qr(i,k) = qr(i,k) + dq
          t(i,k) = t(i,k) - 80.0 * dq
        end do
      end do
!$stencil end region
    end do
!$stencil end data
  end subroutine melt
end module melt_mod
