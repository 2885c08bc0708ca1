! acc-region-without-end: an OpenACC `parallel` construct needs its `end
! parallel` in the same block; the error names the end directives.
subroutine noend(a, n)
  integer :: n, i
  real :: a(n)
!$acc parallel
  do i = 1, n
    a(i) = 0.0
  end do
end subroutine noend
