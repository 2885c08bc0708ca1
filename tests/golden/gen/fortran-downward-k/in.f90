! A sedimentation-style downward sweep: k carries a recurrence, i and j do not.
subroutine sweep(im, km, jm, q, flux)
  implicit none
  integer, intent(in) :: im, km, jm
  real, intent(inout) :: q(im, km, jm)
  real, intent(in) :: flux(im, km, jm)
  integer :: i, j, k

!$stencil region
  do j = 1, jm
    do i = 1, im
      do k = km - 1, 1, -1
        q(i,k,j) = q(i,k,j) + 0.5 * (q(i,k+1,j) - flux(i,k,j))
      end do
    end do
  end do
!$stencil end region
end subroutine sweep
