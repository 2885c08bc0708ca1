! acc-directive-in-region: host directives inside an `!$acc kernels`
! region are errors that name them as written (`!$acc data`, `!$acc
! update`, `!$acc wait`, `!$acc parallel loop`), not as `!$stencil ...`;
! so are `!$acc loop` before a DO WHILE, an `!$acc end data` with no
! data open and an `!$acc data` left open.
subroutine s(a, n)
  implicit none
  integer, intent(inout) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$acc end data
!$acc kernels
!$acc data copy(a)
  do i = 1, n
    a(i) = 2.0 * a(i)
  end do
!$acc update host(a) async(1)
!$acc wait(1)
!$acc parallel loop
  do i = 1, n
    a(i) = a(i) + 1.0
  end do
!$acc end kernels
!$acc data copy(a)
!$acc kernels
!$acc loop
  do while (n > 1)
    n = n / 2
  end do
!$acc end kernels
end subroutine s
