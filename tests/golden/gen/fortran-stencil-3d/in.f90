! A WRF-style 3-D stencil: memory bounds ims:ime, tile bounds its:ite.
subroutine smooth(ims, ime, kms, kme, jms, jme, its, ite, kts, kte, jts, jte, c, f, g)
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
        g(i,k,j) = f(i,k,j) + c * (f(i-1,k,j) + f(i+1,k,j) + f(i,k,j-1) + f(i,k,j+1) &
                                   - 4.0 * f(i,k,j))
      end do
    end do
  end do
!$stencil end region
end subroutine smooth
