! vector(4096), more threads than a CUDA block can have (1024): error at the length.
subroutine precip_sum(rain, rainncv, its, ite, jts, jte)
  implicit none
  integer, intent(in) :: its, ite, jts, jte
  real, intent(inout) :: rain(its:ite, jts:jte)
  real, intent(in)    :: rainncv(its:ite, jts:jte)
  integer :: i, j

!$stencil region copy(rain) copyin(rainncv)
  do j = jts, jte
!$stencil do parallel vector(4096)
    do i = its, ite
      rain(i,j) = rain(i,j) + rainncv(i,j)
    end do
  end do
!$stencil end region
end subroutine precip_sum
