! implicit-vertical-diffusion: one implicit step of vertical diffusion of q,
! as boundary-layer schemes write it.  In one region: the tridiagonal
! coefficients from the diffusivity kv (given at the w-levels: kv(i,k,j)
! between levels k-1 and k) and the layer depths dz, zero flux at the bottom
! and the top; then the Thomas solve in place (q is the right-hand side and
! the solution).  Loops j outermost (WRF's dynamics habit); inside j the
! solve has three sibling nests, two of them k loops carrying a dependence.
!
! Legal GPU shape: one kernel over (i,j) (or two: coefficients, then solve),
! the k loops sequential and in order inside each thread.
module ivd_kernel
  implicit none
  private
  public :: vertical_diffusion

contains

  subroutine vertical_diffusion(q, kv, dz, dt, a, b, c, cp, dp,       &
                                ims,ime, jms,jme, kms,kme,             &
                                its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: q
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: kv, dz
    real, intent(in) :: dt
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: a, b, c, cp, dp

    integer :: i, j, k
    real :: rlo, rhi, den

!$stencil region
    ! Coefficients: a couples level k to k-1, c to k+1.
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          if (k > kts) then
            rlo = dt*kv(i,k,j)/(dz(i,k,j)*0.5*(dz(i,k,j) + dz(i,k-1,j)))
          else
            rlo = 0.0
          end if
          if (k < kte) then
            rhi = dt*kv(i,k+1,j)/(dz(i,k,j)*0.5*(dz(i,k,j) + dz(i,k+1,j)))
          else
            rhi = 0.0
          end if
          a(i,k,j) = -rlo
          c(i,k,j) = -rhi
          b(i,k,j) = 1.0 + rlo + rhi
        end do
      end do
    end do
    ! The solve, column by column inside each j.
    do j = jts, jte
      do i = its, ite
        cp(i,kts,j) = c(i,kts,j)/b(i,kts,j)
        dp(i,kts,j) = q(i,kts,j)/b(i,kts,j)
      end do
      do k = kts+1, kte
        do i = its, ite
          den = b(i,k,j) - a(i,k,j)*cp(i,k-1,j)
          cp(i,k,j) = c(i,k,j)/den
          dp(i,k,j) = (q(i,k,j) - a(i,k,j)*dp(i,k-1,j))/den
        end do
      end do
      do i = its, ite
        q(i,kte,j) = dp(i,kte,j)
      end do
      do k = kte-1, kts, -1
        do i = its, ite
          q(i,k,j) = dp(i,k,j) - cp(i,k,j)*q(i,k+1,j)
        end do
      end do
    end do
!$stencil end region
  end subroutine vertical_diffusion

end module ivd_kernel
