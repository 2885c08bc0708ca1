! thomas-k-outer: a tridiagonal solve per column (i,j), every sweep written
! k outermost (k / j / i), as in samples/thomas but in real(8) and without
! the scalar m: the pivot is recomputed in both statements.
!
! Legal GPU shape: one kernel over (i,j), the four nests fused, every k loop
! in order inside each thread.  Illegal: a parallel k loop, or the back
! substitution (k+1 -> k) before the forward sweep has reached the top.
module tk_kernel
  implicit none
  private
  public :: solve_columns, r8
  ! real(8); spelled as a literal: the translator cannot evaluate kind(1.0d0) yet.
  integer, parameter :: r8 = 8

contains

  subroutine solve_columns(a, b, c, d, x, cp, dp,                    &
                           ims,ime, jms,jme, kms,kme,                 &
                           its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: a, b, c, d
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: x, cp, dp

    integer :: i, j, k

!$stencil region
    do j = jts, jte
      do i = its, ite
        cp(i,kts,j) = c(i,kts,j)/b(i,kts,j)
        dp(i,kts,j) = d(i,kts,j)/b(i,kts,j)
      end do
    end do
    do k = kts+1, kte
      do j = jts, jte
        do i = its, ite
          cp(i,k,j) = c(i,k,j)/(b(i,k,j) - a(i,k,j)*cp(i,k-1,j))
          dp(i,k,j) = (d(i,k,j) - a(i,k,j)*dp(i,k-1,j))/(b(i,k,j) - a(i,k,j)*cp(i,k-1,j))
        end do
      end do
    end do
    do j = jts, jte
      do i = its, ite
        x(i,kte,j) = dp(i,kte,j)
      end do
    end do
    do k = kte-1, kts, -1
      do j = jts, jte
        do i = its, ite
          x(i,k,j) = dp(i,k,j) - cp(i,k,j)*x(i,k+1,j)
        end do
      end do
    end do
!$stencil end region
  end subroutine solve_columns

end module tk_kernel
