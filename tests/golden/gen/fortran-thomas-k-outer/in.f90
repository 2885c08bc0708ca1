! A Thomas solve written k outermost: j and i are interchanged outward and the four nests fuse
! into one kernel over (i,j); the k recurrences run sequentially in each thread.
subroutine tri(im, km, jm, a, b, c, d, cp, dp, x)
  implicit none
  integer, intent(in) :: im, km, jm
  real, dimension(im, km, jm), intent(in) :: a, b, c, d
  real, dimension(im, km, jm), intent(out) :: cp, dp, x
  integer :: i, j, k
  real :: m
!$stencil region
  do j = 1, jm
    do i = 1, im
      cp(i,1,j) = c(i,1,j) / b(i,1,j)
      dp(i,1,j) = d(i,1,j) / b(i,1,j)
    end do
  end do
  do k = 2, km
    do j = 1, jm
      do i = 1, im
        m = 1.0 / (b(i,k,j) - a(i,k,j) * cp(i,k-1,j))
        cp(i,k,j) = c(i,k,j) * m
        dp(i,k,j) = (d(i,k,j) - a(i,k,j) * dp(i,k-1,j)) * m
      end do
    end do
  end do
  do j = 1, jm
    do i = 1, im
      x(i,km,j) = dp(i,km,j)
    end do
  end do
  do k = km - 1, 1, -1
    do j = 1, jm
      do i = 1, im
        x(i,k,j) = dp(i,k,j) - cp(i,k,j) * x(i,k+1,j)
      end do
    end do
  end do
!$stencil end region
end subroutine tri
