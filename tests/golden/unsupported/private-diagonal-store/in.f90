! One loop storing the diagonal w(kk,kk) does not store the whole plane that the next nest reads, so w cannot be kept per thread: the j loop is refused with that reason.
subroutine t(n, b, c3)
  implicit none
  integer :: n, i, j, k, kk
  real :: b(100), c3(100,100,100)
  real :: w(100,100)
!$stencil region
  do j = 1, n
    do kk = 1, n
      w(kk,kk) = b(kk)
    end do
    do k = 1, n
      do i = 1, n
        c3(i,k,j) = w(i,k)
      end do
    end do
  end do
!$stencil end region
end subroutine t
