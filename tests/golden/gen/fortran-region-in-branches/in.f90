! Regions in every branch of IF / ELSE IF / ELSE and of SELECT CASE,
! including one nested in an IF inside an ELSE: tree-sitter attaches the
! comment after a clause's last statement to the enclosing construct.
subroutine branches(a, b, n, mode)
  implicit none
  integer, intent(in) :: n, mode
  real, intent(in) :: b(n)
  real, intent(inout) :: a(n)
  integer :: i
  if (mode == 1) then
!$stencil region
    do i = 1, n
      a(i) = b(i)
    end do
!$stencil end region
  else if (mode == 2) then
!$stencil region
    do i = 1, n
      a(i) = 2.0 * b(i)
    end do
!$stencil end region
  else
    if (mode == 3) then
!$stencil region
      do i = 1, n
        a(i) = 3.0 * b(i)
      end do
!$stencil end region
    else
!$stencil region
      do i = 1, n
        a(i) = 4.0 * b(i)
      end do
!$stencil end region
    end if
  end if
  select case (mode)
  case (5)
!$stencil region
    do i = 1, n
      a(i) = 5.0 * b(i)
    end do
!$stencil end region
  case default
!$stencil region
    do i = 1, n
      a(i) = a(i) + 1.0
    end do
!$stencil end region
  end select
end subroutine branches
