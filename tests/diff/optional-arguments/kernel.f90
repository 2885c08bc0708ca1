! optional-arguments: a column routine with OPTIONAL dummies guarded by
! present(), called twice from the j loop, once with a keyword argument and
! once without; each inlined copy keeps only the branches its call takes, and
! both copies' i loops fuse into one thread per column.
module opt
  implicit none
contains
  subroutine outer(n, m, a, b, rain)
    integer, intent(in) :: n, m
    real, intent(inout) :: a(n, m)
    real, intent(in) :: b(n, m)
    real, intent(inout) :: rain(n, m)
    integer :: j
!$stencil region
    do j = 1, m
      call column(a(1,j), b(1,j), n, rainfall=rain(1,j))
      call column(a(1,j), b(1,j), n)
    end do
!$stencil end region
  end subroutine outer

  subroutine column(a, b, n, rainfall, snowfall)
    integer, intent(in) :: n
    real, intent(inout) :: a(n)
    real, intent(in) :: b(n)
    real, intent(inout), optional :: rainfall(n), snowfall(n)
    integer :: i
    do i = 1, n
      a(i) = a(i) + 0.5 * b(i)
      if (present(rainfall)) then
        rainfall(i) = rainfall(i) + 0.1 * a(i)
      end if
      if (present(snowfall) .and. a(i) > 1.0) snowfall(i) = 0.0
    end do
  end subroutine column
end module opt
