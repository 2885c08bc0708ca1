! k-caching: the column sweeps pass kcache keeps in registers, and those it
! must leave alone, in one region over the columns (i,j), real(8):
!  - a Thomas forward sweep (cp, dp: recurrences on the element the
!    previous iteration stored), with a second read of cp(i,k-1,j) under IF;
!  - the back substitution downwards (x(i,k+1,j));
!  - a read-only window of u upwards (a weighted second difference);
!  - a downward sweep accumulating a flux from the top (a recurrence at
!    k+1) with a window of u led by k-1;
!  - sm written under IF (its register would not hold what memory holds)
!    and g read at k-1 only under IF (no load at every iteration): neither
!    cached, both must stay right;
!  - a per-column loop to ktop(i,j), which runs zero times in some columns.
! The driver also calls it on a degenerate tile (kts == kte): every k loop
! runs zero times, and the registers are filled only under "it runs".
!
! Legal GPU shape: one kernel over (i,j), every k loop in order inside each
! thread.
module kc_kernel
  implicit none
  private
  public :: column_sweeps, r8
  integer, parameter :: r8 = 8

contains

  subroutine column_sweeps(a, b, c, d, u, ktop, x, cp, dp, hit, lapu, flux, sm, g, gl, acc, &
                           ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: a, b, c, d, u
    integer,  dimension(ims:ime, jms:jme),          intent(in)    :: ktop
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: x, cp, dp, hit, lapu
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: flux, sm, g, gl, acc

    integer :: i, j, k
    real(r8) :: t

!$stencil region
    do j = jts, jte
      do i = its, ite
        ! Thomas, forward
        cp(i,kts,j) = c(i,kts,j)/b(i,kts,j)
        dp(i,kts,j) = d(i,kts,j)/b(i,kts,j)
        do k = kts+1, kte
          cp(i,k,j) = c(i,k,j)/(b(i,k,j) - a(i,k,j)*cp(i,k-1,j))
          dp(i,k,j) = (d(i,k,j) - a(i,k,j)*dp(i,k-1,j))/(b(i,k,j) - a(i,k,j)*cp(i,k-1,j))
          if (d(i,k,j) > 2.0_r8) hit(i,k,j) = cp(i,k-1,j) + dp(i,k,j)
        end do
        ! Thomas, back substitution
        x(i,kte,j) = dp(i,kte,j)
        do k = kte-1, kts, -1
          x(i,k,j) = dp(i,k,j) - cp(i,k,j)*x(i,k+1,j)
        end do
        ! a weighted second difference of u, upwards
        do k = kts+1, kte-1
          lapu(i,k,j) = u(i,k+1,j) - 2.0_r8*u(i,k,j) + 0.75_r8*u(i,k-1,j)
        end do
        ! a flux summed from the top, downwards
        flux(i,kte,j) = 0.0_r8
        do k = kte-1, kts+1, -1
          flux(i,k,j) = flux(i,k+1,j) + 0.5_r8*u(i,k+1,j) - u(i,k,j) + 0.25_r8*u(i,k-1,j)
        end do
        ! sm stored only where t > 0; g(i,k-1,j) read only where u < 0
        sm(i,kts,j) = u(i,kts,j)
        g(i,kts,j) = x(i,kts,j)
        do k = kts+1, kte
          t = 0.5_r8*sm(i,k-1,j) + u(i,k,j)
          if (t > 0.0_r8) sm(i,k,j) = t
          g(i,k,j) = d(i,k,j)*x(i,k,j)
          if (u(i,k,j) < 0.0_r8) gl(i,k,j) = g(i,k-1,j) - g(i,k,j)
        end do
        ! up to a level of the column's own: no iteration where ktop(i,j) <= kts
        acc(i,kts,j) = u(i,kts,j)
        do k = kts+1, ktop(i,j)
          acc(i,k,j) = 0.5_r8*acc(i,k-1,j) + u(i,k,j) - u(i,k-1,j)
        end do
      end do
    end do
!$stencil end region
  end subroutine column_sweeps

end module kc_kernel
