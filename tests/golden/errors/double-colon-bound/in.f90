! A section 'kts::' in a clause: error at the extra ':'; a section is lo:hi, lo:, :hi or :.
subroutine vert_avg(w, wavg, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(in)  :: w(its:ite, kts:kte+1)
  real, intent(out) :: wavg(its:ite, kts:kte)
  integer :: i, k

!$stencil region copyin(w(its:ite, kts::)) copyout(wavg)
  do k = kts, kte
    do i = its, ite
      wavg(i,k) = 0.5 * (w(i,k) + w(i,k+1))
    end do
  end do
!$stencil end region
end subroutine vert_avg
