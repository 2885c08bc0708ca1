! tests/modules.sh: the file with the region; everything it uses is in the
! other files (kinds, constants, helper_sqrt).
module physics
  use kinds, only: kp => kind_phys
  use constants, only: cp, rd
  implicit none
contains
  subroutine step(ims, ime, jms, jme, its, ite, jts, jte, t, q, f)
    integer, intent(in) :: ims, ime, jms, jme, its, ite, jts, jte
    real(kp), intent(inout) :: t(ims:ime, jms:jme), f(ims:ime, jms:jme)
    real(kp), intent(in) :: q(ims:ime, jms:jme)
    integer :: i, j
!$stencil region
    do j = jts, jte
      call helper_sqrt(ims, ime, its, ite, f(ims, j), q(ims, j))
      do i = its, ite
        t(i, j) = t(i, j) + f(i, j) * rd / cp
      end do
    end do
!$stencil end region
  end subroutine step
end module physics
