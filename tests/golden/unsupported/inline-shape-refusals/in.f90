! Array actuals an inlined dummy cannot take: an element for x(:), a rank-2 array for x(:), a section for a scalar.
module m
  implicit none
contains
  subroutine outer(q, its, ite, kts, kte)
    integer, intent(in) :: its, ite, kts, kte
    real, intent(inout) :: q(its:ite, kts:kte)
    integer :: k
!$stencil region
    do k = kts, kte
      call first(q(its,k))
      call first(q)
      call bump(q(its:ite,k))
    end do
!$stencil end region
  end subroutine outer

  subroutine first(x)
    real, intent(inout) :: x(:)
    x(1) = 0.0
  end subroutine first

  subroutine bump(x)
    real, intent(inout) :: x
    x = x + 1.0
  end subroutine bump
end module m
