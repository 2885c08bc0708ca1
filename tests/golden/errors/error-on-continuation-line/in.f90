! A misspelled clause (copyim) on the continuation line of a region directive: the error's
! line, column and excerpt are those of the continuation line, not the directive's first line.
subroutine wsm5_column(t, q, qci, qrs, den, delz, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(inout) :: t(its:ite, kts:kte), q(its:ite, kts:kte)
  real, intent(inout) :: qci(its:ite, kts:kte, 2), qrs(its:ite, kts:kte, 2)
  real, intent(in)    :: den(its:ite, kts:kte), delz(its:ite, kts:kte)
  integer :: i, k

!$stencil region copy(t, q, qci, qrs) &
!$stencil        copyim(den, delz)
  do k = kts, kte
    do i = its, ite
      qrs(i,k,1) = qrs(i,k,1) + qci(i,k,1) * den(i,k) / delz(i,k)
      qci(i,k,1) = 0.
    end do
  end do
!$stencil end region
end subroutine wsm5_column
