! A GOTO into an IF construct inside a region: refused at the GOTO (only jumps to a label of the same or an enclosing statement list are structured).
subroutine into(a, b, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: a(its:ite, kts:kte)
  real, intent(in) :: b(its:ite, kts:kte)
  integer :: i, k
!$stencil region
  do i = its, ite
    do k = kts, kte
      if (b(i,k) < 0.) go to 10
      if (b(i,k) > 0.5) then
        a(i,k) = 1.0
10      a(i,k) = a(i,k) + b(i,k)
      end if
    end do
  end do
!$stencil end region
end subroutine into
