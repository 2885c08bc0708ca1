! acc-openacc-forced: with --directives=openacc, a PGI Accelerator line
! (`!$acc region`) is not a directive: a warning with its line; the
! OpenACC `kernels loop` is translated.
subroutine forced(a, b, n)
  integer :: n, i
  real :: a(n), b(n)
!$acc region
!$acc kernels loop independent
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
end subroutine forced
