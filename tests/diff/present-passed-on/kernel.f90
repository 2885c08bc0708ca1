! present-passed-on: the region's routine passes its own OPTIONAL rain on to
! an inlined column routine whose present(rainfall) guards its use; whether
! rain is there is known only on the host, so the inlined test becomes
! present(rain) and the region two kernel variants.  Called with and without.
module pass_on
  implicit none
contains
  subroutine outer(n, m, a, b, rain)
    integer, intent(in) :: n, m
    real, intent(inout) :: a(n, m)
    real, intent(in) :: b(n, m)
    real, intent(inout), optional :: rain(n, m)
    integer :: j
!$stencil region
    do j = 1, m
      call column(a(1,j), b(1,j), n, j, m, rain)
    end do
!$stencil end region
  end subroutine outer

  subroutine column(a, b, n, j, m, rainfall)
    integer, intent(in) :: n, j, m
    real, intent(inout) :: a(n)
    real, intent(in) :: b(n)
    real, intent(inout), optional :: rainfall(n, m)
    integer :: i
    do i = 1, n
      a(i) = a(i) + 0.5 * b(i)
      if (present(rainfall)) rainfall(i,j) = rainfall(i,j) + 0.1 * a(i)
    end do
  end subroutine column
end module pass_on
