! 'independent' on a tracer loop whose iterations all write the local array dm,
! which cannot be kept per thread (dm(km) is read but never stored): the assertion is refused.
subroutine fill(q, delp, im, km, nq)
  implicit none
  integer, intent(in) :: im, km, nq
  real, intent(inout) :: q(im, km, nq)
  real, intent(in) :: delp(im, km)
  real :: dm(km)
  integer :: i, k, ic
!$stencil region
!$stencil do independent
  do ic = 1, nq
    do i = 1, im
      do k = 1, km - 1
        dm(k) = delp(i,k) * q(i,k,ic)
      end do
      do k = 1, km - 1
        if (q(i,k,ic) < 0.) then
          q(i,k,ic) = 0.
          q(i,k+1,ic) = q(i,k+1,ic) + dm(k+1) / delp(i,k+1)
        end if
      end do
    end do
  end do
!$stencil end region
end subroutine
