! The report line of each data clause of an OpenACC data region around a time
! loop: what is moved where, and the two regions inside that find a and b
! present; the update inside it.
subroutine smooth(a, b, n, nsteps)
  implicit none
  integer, intent(in) :: n, nsteps
  real, intent(inout) :: a(n), b(n)
  integer :: i, s
!$acc data copy(a) create(b)
  do s = 1, nsteps
!$acc kernels
  do i = 2, n - 1
    b(i) = 0.5 * (a(i-1) + a(i+1))
  end do
!$acc end kernels
!$acc kernels
  do i = 2, n - 1
    a(i) = b(i)
  end do
!$acc end kernels
  end do
!$acc update host(a)
!$acc end data
end subroutine smooth
