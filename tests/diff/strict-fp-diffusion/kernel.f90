! strict-fp-diffusion: a horizontal diffusion tendency of temperatures near 300 K in
! real(8), translated with -Kieee (`flags`).  The tendency is the small difference of
! large products (cancellation): an FMA in kernel would round kappa*t(i+1) + ... once
! where the CPU rounds twice, which shows as a large relative error in tend.  With every
! product through __dmul_rn the kernel rounds as the CPU does, so `compare` asks for
! exact equality.  A real(4) wind speed (sqrt of a sum of products) and a division check
! the other strict operations.
module strict_kernel
  implicit none
  private
  public :: diffusion
contains
  subroutine diffusion(t, u, v, tend, speed, kappa, rdx2, ims,ime, kms,kme, jms,jme, &
                       its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real(8), intent(in) :: t(ims:ime, kms:kme, jms:jme), kappa, rdx2
    real, intent(in) :: u(ims:ime, kms:kme, jms:jme), v(ims:ime, kms:kme, jms:jme)
    real(8), intent(out) :: tend(ims:ime, kms:kme, jms:jme)
    real, intent(out) :: speed(ims:ime, kms:kme, jms:jme)
    integer :: i, k, j
!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          tend(i,k,j) = kappa * rdx2 * t(i+1,k,j) + kappa * rdx2 * t(i-1,k,j) &
                      + kappa * rdx2 * t(i,k,j+1) + kappa * rdx2 * t(i,k,j-1) &
                      - 4.0d0 * kappa * rdx2 * t(i,k,j)
          speed(i,k,j) = sqrt(u(i,k,j) * u(i,k,j) + v(i,k,j) * v(i,k,j)) &
                       / (1.0 + 0.1 * u(i,k,j) * v(i,k,j) * u(i,k,j) * v(i,k,j))
        end do
      end do
    end do
!$stencil end region
  end subroutine diffusion
end module strict_kernel
