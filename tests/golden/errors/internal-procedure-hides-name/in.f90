! An update directive in an internal procedure naming its own dummy 'b', which hides the host
! program's 'b': directives there are read in the host's scope, so it is refused at the name.
! An update of a host array in another internal procedure (exchange) is accepted.
program p
  implicit none
  real :: a(6), b(6)
  integer :: i
  a = [(real(i), i = 1, 6)]
!$stencil data copy(a) create(b)
!$stencil region
  do i = 1, 6
    b(i) = 2.0*a(i)
  end do
!$stencil end region
  call exchange()
!$stencil end data
contains
  subroutine exchange()
!$stencil update host(b)
    b(1) = b(1) + 100.0
  end subroutine exchange
  subroutine other(b)
    real :: b(:)
!$stencil update host(b)
  end subroutine other
end program p
