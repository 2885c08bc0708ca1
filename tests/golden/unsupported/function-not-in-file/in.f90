! An external function declared by the routine but not in this file, called in a region: one error at the reference.
subroutine tend(n, t, q)
  implicit none
  integer, intent(in) :: n
  real, intent(in) :: t(n)
  real, intent(out) :: q(n)
  real, external :: qsat
  integer :: i
!$stencil region
  do i = 1, n
    q(i) = qsat(t(i))
  end do
!$stencil end region
end subroutine tend
