! A section with a stride, q(its:ite:2,k), as the actual of an inlined call: refused by the front end.
module m
  implicit none
contains
  subroutine outer(q, its, ite, kts, kte)
    integer, intent(in) :: its, ite, kts, kte
    real, intent(inout) :: q(its:ite, kts:kte)
    integer :: k
!$stencil region
    do k = kts, kte
      call first(q(its:ite:2,k))
    end do
!$stencil end region
  end subroutine outer

  subroutine first(x)
    real, intent(inout) :: x(:)
    x(1) = 0.0
  end subroutine first
end module m
