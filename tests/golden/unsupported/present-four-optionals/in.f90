! present() of four optional dummies in one region: 16 kernel variants would be needed; refused.
subroutine mix(n, a, qr, qs, qi, qg)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  real, intent(in), optional :: qr(n), qs(n), qi(n), qg(n)
  integer :: i
!$stencil region
  do i = 1, n
    if (present(qr)) a(i) = a(i) + qr(i)
    if (present(qs)) a(i) = a(i) + qs(i)
    if (present(qi) .and. present(qr)) a(i) = a(i) + qi(i)
    if (present(qg)) a(i) = a(i) + qg(i)
  end do
!$stencil end region
end subroutine mix
