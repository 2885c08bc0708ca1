! A missing ',' in a subscript on the third line of a directive continued with '!$stencil&' (and
! a comment after the first '&'): the error's line, column and excerpt are those of the third line.
subroutine wsm5_tend(t, q, qci, qrs, rslope, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: t(its:ite, kts:kte), q(its:ite, kts:kte)
  real, intent(inout) :: qci(its:ite, kts:kte, 2), qrs(its:ite, kts:kte, 2)
  real, intent(out)   :: rslope(its:ite, kts:kte, 2)
  integer :: i, k

  !$stencil region copy(t, q) &    ! state
  !$stencil&       copy(qci(its:ite, kts:kte, 1:2), &
  !$stencil&            qrs(its:ite, kts:kte 1:2)) copyout(rslope)
  do k = kts, kte
    do i = its, ite
      rslope(i,k,1) = qrs(i,k,1) / max(qci(i,k,1), 1.e-9)
      rslope(i,k,2) = qrs(i,k,2) / max(qci(i,k,2), 1.e-9)
    end do
  end do
  !$stencil end region
end subroutine wsm5_tend
