! A number (2) in the list of copyout: error, an array name expected.
subroutine zero_tend(rthraten, rqvblten, its, ite, kts, kte)
  implicit none
  integer, intent(in) :: its, ite, kts, kte
  real, intent(out) :: rthraten(its:ite, kts:kte), rqvblten(its:ite, kts:kte)
  integer :: i, k

!$stencil region copyout(rthraten, 2)
  do k = kts, kte
    do i = its, ite
      rthraten(i,k) = 0.
      rqvblten(i,k) = 0.
    end do
  end do
!$stencil end region
end subroutine zero_tend
