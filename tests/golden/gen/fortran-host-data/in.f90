! host_data use_device(a, w) in a time loop: a BLOCK with the device addresses, pointers of
! a's declared bounds (0:n+1) and of w's assumed-size shape (extent 1 in its last dimension),
! an ASSOCIATE that gives them the arrays' names, and the end call after END ASSOCIATE.
subroutine smooth(a, b, w, n, nsteps)
  implicit none
  integer, intent(in) :: n, nsteps
  real(8), intent(inout) :: a(0:n+1), b(n)
  integer, intent(inout) :: w(2, *)
  integer :: i, step
  external :: halo_exchange
!$stencil data copy(a, b) copyin(w(1:2, 1:n))
  do step = 1, nsteps
!$stencil host_data use_device(a, w)
    call halo_exchange(a(0), a(n), a(n+1), a(1), w(1, 1))
!$stencil end host_data
!$stencil region
    do i = 1, n
      b(i) = 0.5d0 * a(i) + 0.25d0 * (a(i-1) + a(i+1)) + w(1, i)
    end do
!$stencil end region
!$stencil region
    do i = 1, n
      a(i) = b(i)
    end do
!$stencil end region
  end do
!$stencil end data
end subroutine smooth
