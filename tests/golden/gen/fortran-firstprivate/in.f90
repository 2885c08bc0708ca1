! A scalar set on the host, read by one loop and reassigned before the next: the two loops fuse
! and s is firstprivate (each thread starts from the host's value).
subroutine ex(n, a, b)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
  real :: s
  s = 1.0
!$stencil region
  do i = 1, n
    b(i) = s
  end do
  s = 2.0
  do i = 1, n
    a(i) = s
  end do
!$stencil end region
end subroutine ex
