! A data region (copy u, create v) around a time loop of two regions, then 'update host' of a
! section of u: begin/end and update entry points, and one kernel per region.
program relax
  implicit none
  integer, parameter :: n = 64, nsteps = 4
  real, allocatable :: u(:,:), v(:,:)
  integer :: i, j, step
  real :: total

  allocate(u(0:n+1, 0:n+1), v(0:n+1, 0:n+1))
  u = 1.0
  v = 0.0
!$stencil data copy(u) create(v)
  do step = 1, nsteps
!$stencil region
    do j = 1, n
      do i = 1, n
        v(i,j) = 0.25 * (u(i-1,j) + u(i+1,j) + u(i,j-1) + u(i,j+1))
      end do
    end do
!$stencil end region
!$stencil region
    do j = 1, n
      do i = 1, n
        u(i,j) = v(i,j)
      end do
    end do
!$stencil end region
  end do
!$stencil update host(u(1:n,1:n))
  total = sum(u(1:n,1:n))
!$stencil end data
  print *, total
end program relax
