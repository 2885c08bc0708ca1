! A summary written by another version of s2s-cuda (format 99): one error at the USE, saying to translate its file again.
subroutine heat(n, t)
  use consts, only: cp
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: t(n)
  integer :: i

!$stencil region
  do i = 1, n
    t(i) = t(i) / cp
  end do
!$stencil end region
end subroutine heat
