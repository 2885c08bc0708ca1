! Three j/k/i nests: the k loops of the first two fuse, the third's would run a dependence
! backwards and does not; j and i fuse across all three, k runs sequentially in each thread.
subroutine fu(im, km, jm, a, b, c)
  implicit none
  integer, intent(in) :: im, km, jm
  real, intent(inout), dimension(im,km,jm) :: a, b, c
  integer :: i, j, k
!$stencil region
  do j = 1, jm
  do k = 1, km - 1
    do i = 1, im
      a(i,k,j) = c(i,k,j) * 2.0
    end do
  end do
  end do
  do j = 1, jm
  do k = 1, km - 1
    do i = 1, im
      b(i,k,j) = a(i,k,j) + 1.0
    end do
  end do
  end do
  do j = 1, jm
  do k = 1, km - 1
    do i = 1, im
      c(i,k,j) = a(i,k+1,j) - b(i,k,j)
    end do
  end do
  end do
!$stencil end region
end subroutine fu
