! A name twice in the dummy argument list (found by fuzzing: the routine
! had fewer symbols than dummies, and the IR broke after parsing): one error
! at the second occurrence, as gfortran gives.
subroutine smooth(ims, ime, jms, kme, jms, jme, its, ite, kts, kte, jts, jte, c, f, g)
  implicit none
  integer, intent(in) :: ims, ime, kms, kme, jms, jme
  integer, intent(in) :: its, ite, kts, kte, jts, jte
  real, intent(in) :: c
  real, dimension(ims:ime, kms:kme, jms:jme), intent(in) :: f
  real, dimension(ims:ime, kms:kme, jms:jme), intent(out) :: g
  integer :: i, j, k

!$stencil region
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        g(i,k,j) = f(i,k,j) + c * (f(i-1,k,j) + f(i+1,k,j) - 2.0 * f(i,k,j))
      end do
    end do
  end do
!$stencil end region
end subroutine smooth
