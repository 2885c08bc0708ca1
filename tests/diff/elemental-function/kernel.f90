! elemental-function: elemental module functions applied element-wise to
! array elements inside a region: a one-line limiter (its expression takes
! the reference's place), a function calling it, and an external elemental
! function outside the module that the routine declares.  All are inlined
! into the thread's statements; one kernel over (i,k,j).
module limiters
  implicit none
contains
  subroutine limit(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, a, b, c)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: a(ims:ime, kms:kme, jms:jme), b(ims:ime, kms:kme, jms:jme)
    real, intent(out) :: c(ims:ime, kms:kme, jms:jme)
    real, external :: blend
    integer :: i, j, k
!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          c(i,k,j) = clip(a(i,k,j), 0.25) + minmod(a(i,k,j), b(i,k,j)) &
                     + blend(a(i,k,j), b(i,k,j), 0.3)
        end do
      end do
    end do
!$stencil end region
  end subroutine limit

  elemental real function clip(x, cap)
    real, intent(in) :: x, cap
    clip = max(-cap, min(cap, x))
  end function clip

  elemental real function minmod(x, y)
    real, intent(in) :: x, y
    if (x * y <= 0.0) then
      minmod = 0.0
    else
      minmod = sign(1.0, x) * min(abs(x), abs(clip(y, 0.4)))
    end if
  end function minmod
end module limiters

elemental real function blend(x, y, w)
  real, intent(in) :: x, y, w
  blend = (1.0 - w) * x + w * y
end function blend
