! acc-pgi-clauses: the report line of every clause of PGI Accelerator
! directives (honoured, superseded, ignored), a parallel request the
! analysis disproves (a warning with the dependence; the loop runs in order
! in each thread), an unknown clause and a directive not understood
! (warnings), and `!$acc wait` (OpenACC's: it waits for async updates).
subroutine acc_clauses(a, b, w, n, m)
  integer :: n, m, i, k
  real :: a(n, m), b(n, m), w(n, m)
!$acc region copyin(b(:,:)) copy(a(:,:)) local(w) if(n > 100) &
!$acc& updatein(b)
!$acc do parallel vector(64) private(w) unroll(2)
  do i = 1, n
!$acc do parallel cache(a) frobnicate(3)
    do k = 2, m
      w(i,k) = b(i,k) * 2.0
      a(i,k) = a(i,k-1) + w(i,k)
    end do
  end do
!$acc end region
!$acc wait
!$acc mirror(a)
end subroutine acc_clauses
