! A call in a region of a subroutine not in this file: refused; only same-file routines inline.
subroutine tend(n, m, a, b)
  implicit none
  integer, intent(in) :: n, m
  real, intent(inout) :: a(n, m), b(n, m)
  integer :: i, j
  real :: s

!$stencil region
  do j = 1, m
    do i = 1, n
      call saturate(a(i,j))
    end do
  end do
!$stencil end region
end subroutine tend
