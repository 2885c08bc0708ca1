! A local work array used only inside the region is scalarized (no device copy); keep, read
! after the region, is copied out.
subroutine loc(im, km, a, b)
  implicit none
  integer, intent(in) :: im, km
  real, intent(in) :: a(im, km)
  real, intent(out) :: b(im, km)
  real :: work(im, km), keep(im, km)
  integer :: i, k
!$stencil region
  do k = 1, km
    do i = 1, im
      work(i,k) = 2.0 * a(i,k)
      keep(i,k) = work(i,k)
    end do
  end do
  do k = 1, km
    do i = 1, im
      b(i,k) = work(i,k) + 1.0
    end do
  end do
!$stencil end region
  print *, keep(1,1)
end subroutine loc
