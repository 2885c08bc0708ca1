! The advice pass: a data region for each innermost host loop that runs
! regions.  Loop 1 (time steps) runs two regions: t and tend go in the
! advised clause; q is left out (the host halves it inside the loop); w is
! an OPTIONAL dummy (may be absent: never named).  Loop 2 is inside a data
! region that already holds a: no advice.  Loop 3 has no region: no advice.
subroutine steps(t, tend, q, a, n, m, nsteps, w)
  implicit none
  integer, intent(in) :: n, m, nsteps
  real, intent(inout) :: t(n, m), q(n, m), a(n)
  real, intent(out) :: tend(n, m)
  real, intent(inout), optional :: w(n)
  integer :: i, j, it
  real :: s
  do it = 1, nsteps
!$stencil region
    do j = 1, m
      do i = 2, n - 1
        tend(i, j) = t(i+1, j) - 2.0 * t(i, j) + t(i-1, j) + q(i, j)
      end do
    end do
!$stencil end region
!$stencil region
    do j = 1, m
      do i = 2, n - 1
        t(i, j) = t(i, j) + 0.1 * tend(i, j)
        if (present(w)) w(i) = t(i, j)
      end do
    end do
!$stencil end region
    q = 0.5 * q
  end do
!$stencil data copy(a)
  do it = 1, nsteps
!$stencil region
    do i = 1, n
      a(i) = 2.0 * a(i)
    end do
!$stencil end region
  end do
!$stencil end data
  s = 0.0
  do it = 1, n
    s = s + a(it)
  end do
end subroutine steps
