! A DO WHILE at the top of a region, in no counted DO: error at it saying to write a counted DO (GPU threads need an index) or move it.
subroutine s(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$stencil region

  do while (i <= n)
    a(i) = 0.0
    i = i + 1
  end do
!$stencil end region
end subroutine s
