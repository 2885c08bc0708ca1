! acc-unsupported-clause: an OpenACC clause the translation cannot honour
! (firstprivate, deviceptr) is an error naming what to do instead.
subroutine fp(a, s, n)
  integer :: n, i
  real :: a(n), s
!$acc parallel loop firstprivate(s)
  do i = 1, n
    a(i) = a(i) + s
  end do
end subroutine fp
