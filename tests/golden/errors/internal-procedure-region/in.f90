! A region in an internal procedure (after CONTAINS of a program): its loops use the procedure's
! own index k, which the host scope its directives are read in does not have; one error at the
! region (before: "'k' has no IMPLICIT type"), none for the rest of the procedure.
program p
  implicit none
  real :: a(6), b(6)
  integer :: i
  a = [(real(i), i = 1, 6)]
  call inner()
  print *, b
contains
  subroutine inner()
    integer :: k
!$stencil region
    do k = 1, 6
      b(k) = 2.0*a(k)
    end do
!$stencil end region
!$stencil update host(b)
  end subroutine inner
end program p
