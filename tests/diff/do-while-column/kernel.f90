! do-while-column: a Newton iteration per column in a DO WHILE (test before
! each iteration, a counter limit), and an endless `do ... end do` left by an
! EXIT (a level search); both run in order inside each thread of a kernel
! over (i,j).  The iteration is in real(8): its residual's rounding floor
! lies far below the test's 1e-5, so the GPU (whose fused multiply-adds
! round otherwise) stops at the same iteration as the CPU.
module dwc_kernel
  implicit none
  private
  public :: solve_columns

contains

  subroutine solve_columns(t, r, niter, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: r(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: t(ims:ime, kms:kme, jms:jme)
    integer, intent(inout) :: niter(ims:ime, jms:jme)
    integer :: i, k, j, n
    real(8) :: x, f
!$stencil region
    do j = jts, jte
      do i = its, ite
        niter(i,j) = 0
        do k = kts, kte
          x = 1.0d0 + r(i,k,j)
          f = x * x * x - r(i,k,j) - 2.0d0
          n = 0
          do while (abs(f) > 1.d-5 .and. n < 40)
            x = x - f / (3.0d0 * x * x)
            f = x * x * x - r(i,k,j) - 2.0d0
            n = n + 1
          end do
          t(i,k,j) = real(x)
          niter(i,j) = niter(i,j) + n
        end do
        k = kte
        do
          if (k < kts) exit
          if (t(i,k,j) > 1.3) exit
          t(i,k,j) = t(i,k,j) + 10.0
          k = k - 1
        end do
      end do
    end do
!$stencil end region
  end subroutine solve_columns

end module dwc_kernel
