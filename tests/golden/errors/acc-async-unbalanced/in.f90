! acc-async-unbalanced: an `async(` left open on an `!$acc update` is one
! error at the end of the directive, with a note at the '(' it should
! close; no output is written.
subroutine s(a, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
!$acc data copy(a)
!$acc update host(a) async(1
!$acc end data
end subroutine s
