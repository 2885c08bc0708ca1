! An empty clause list copyout(): error at the ')'; name at least one array.
subroutine cloud_fraction(qc, qi, cldfra, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(in)  :: qc(its:ite, kts:kte), qi(its:ite, kts:kte)
  real, intent(out) :: cldfra(its:ite, kts:kte)
  integer :: i, k

!$stencil region copyin(qc, qi) copyout()
  do k = kts, kte
    do i = its, ite
      if (qc(i,k) + qi(i,k) > 1.e-6) then
        cldfra(i,k) = 1.
      else
        cldfra(i,k) = 0.
      end if
    end do
  end do
!$stencil end region
end subroutine cloud_fraction
