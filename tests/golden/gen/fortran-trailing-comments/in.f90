! Comments after the code of a line inside a region are carried into the
! kernel after the statement's line marker (once per line, not inside
! character strings; directives are not comments).
subroutine clip(a, b, n)
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
  do i = 1, n
    b(i) = a(i) * 2.0   ! doubled, not 'tripled!'
    if (b(i) > 1.0) then ! above one
      b(i) = 1.0 ! clipped
    end if
  end do
!$stencil end region
end subroutine clip
