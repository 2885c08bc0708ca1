! private(w) on the column loop: w, stored under two tests the analysis does not pair, is kept per thread on the user's word; private(v) is not followed (v is only read: a warning says so).
subroutine pac(t, out, v, n, m)
  implicit none
  integer, intent(in) :: n, m
  real, intent(in) :: t(n, m)
  real, intent(out) :: out(n, m)
  real, intent(inout) :: v(m)
  real :: w(100)
  integer :: i, k
!$stencil region
!$stencil do private(w, v)
  do i = 1, n
    do k = 1, m
      if (t(i,k) > 0.) w(k) = t(i,k)
      if (t(i,k) <= 0.) w(k) = -t(i,k)
    end do
    do k = 1, m
      out(i,k) = w(k) + v(k)
    end do
  end do
!$stencil end region
end subroutine pac
