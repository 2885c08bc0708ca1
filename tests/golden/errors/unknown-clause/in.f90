! A misspelled region clause 'copyinn': error listing the clauses of region.
subroutine hdiff2d(t, tten, khdif, its, ite, jts, jte, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, jts, jte, kts, kte
  real, intent(in)    :: t(its-1:ite+1, kts:kte, jts-1:jte+1)
  real, intent(inout) :: tten(its:ite, kts:kte, jts:jte)
  real, intent(in)    :: khdif
  integer :: i, j, k

!$stencil region copyinn(t) copy(tten)
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        tten(i,k,j) = tten(i,k,j) + khdif * (t(i+1,k,j) + t(i-1,k,j) &
                    + t(i,k,j+1) + t(i,k,j-1) - 4.0 * t(i,k,j))
      end do
    end do
  end do
!$stencil end region
end subroutine hdiff2d
