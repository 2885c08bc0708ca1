! A data directive names arrays declared with a kind from a module that is not found: one error, at the USE, naming the module and how to provide it, not one per array.
program driver
  use kinds_mod, only: rk
  implicit none
  real(rk), allocatable :: th(:,:), q(:,:)
  integer :: n
  n = 10
  allocate(th(n,n), q(n,n))
  th = 1.0
  q = 0.0
!$stencil data copy(th, q)
  th = th + q
!$stencil end data
  print *, th(1,1)
end program driver
