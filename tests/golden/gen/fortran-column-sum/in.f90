! A column sum: the inner i loop (the sum into s) runs sequentially in each thread;
! one kernel over (k,j).
subroutine red(im, km, jm, a, b)
  implicit none
  integer, intent(in) :: im, km, jm
  real, intent(in) :: a(im, km, jm)
  real, intent(out) :: b(km, jm)
  integer :: i, j, k
  real :: s
!$stencil region
  do j = 1, jm
    do k = 1, km
      s = 0.0
      do i = 1, im
        s = s + a(i,k,j)
      end do
      b(k,j) = s
    end do
  end do
!$stencil end region
end subroutine red
