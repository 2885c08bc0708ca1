! A CHARACTER named constant in a routine with directives, used only by
! host code (a driver's name for its messages): translated, not refused
! (it stays a character variable; a region that used it would be refused
! at the use, as errors/character-complex-variables shows).
program p
  implicit none
  character(len=*), parameter :: name = 'demo'
  integer, parameter :: n = 10
  real :: a(n)
  integer :: i
  a = 1.0
!$stencil data copy(a)
!$stencil region
  do i = 1, n
    a(i) = 2.0 * a(i)
  end do
!$stencil end region
!$stencil update host(a)
!$stencil end data
  print *, name, a(1)
end program
