! An optional dummy used where no present() test guards it: the variant where it is absent would use it; refused.
subroutine accumulate(n, a, extra, scale)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  real, intent(in), optional :: extra(n)
  real, intent(in), optional :: scale
  integer :: i
  logical :: have
!$stencil region
  do i = 1, n
    have = present(extra)
    if (have) a(i) = a(i) + extra(i)
    if (present(scale)) a(i) = a(i) * scale
  end do
!$stencil end region
end subroutine accumulate
