! host_data use_device(a) of an assumed-shape dummy: before the call, a test that stops the run
! when a is not contiguous (a strided section would be passed as a temporary copy, whose
! device address would be nothing's); the pointer takes a's run-time shape and lower bounds.
subroutine scale_and_send(a, n, m)
  implicit none
  integer, intent(in) :: n, m
  real, intent(inout) :: a(:,:)
  integer :: i, j
  external :: send
!$stencil data copy(a)
!$stencil region
  do j = 1, m
    do i = 1, n
      a(i,j) = 2.0*a(i,j)
    end do
  end do
!$stencil end region
!$stencil host_data use_device(a)
  call send(a, n*m)
!$stencil end host_data
!$stencil end data
end subroutine scale_and_send
