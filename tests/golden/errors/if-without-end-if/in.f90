! An IF THEN without its END IF in a region: error at the IF (the parser reads the END DO as its end), not at the END DO.
subroutine s(a, b, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region
  do i = 1, n
    if (b(i) > 0.0) then
      a(i) = 2.0 * b(i)
  end do
!$stencil end region
end subroutine s
