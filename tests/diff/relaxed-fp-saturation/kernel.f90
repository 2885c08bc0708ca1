! relaxed-fp-saturation: WSM5-style thermodynamics in real(4) translated with
! -Mfprelaxed (`flags`): saturation vapour pressure (exp of a quotient), the
! saturation mixing ratio (a division), potential temperature (a real power)
! and log pressure become __expf, __fdividef, __powf and __logf in the kernel.
! In emulation they are the standard functions again; on a GPU (diff.sh
! --build) they differ from IEEE by a few ulp, within `compare`'s tolerance.
module relaxed_kernel
  implicit none
  private
  public :: saturation
  real, parameter :: svp1 = 0.6112, svp2 = 17.67, svp3 = 29.65, svpt0 = 273.15
  real, parameter :: ep2 = 0.622, p0 = 1.0e5, rcp = 0.2857
contains
  subroutine saturation(t, p, qs, th, lnp, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: t(ims:ime, kms:kme, jms:jme), p(ims:ime, kms:kme, jms:jme)
    real, intent(out) :: qs(ims:ime, kms:kme, jms:jme), th(ims:ime, kms:kme, jms:jme)
    real, intent(out) :: lnp(ims:ime, kms:kme, jms:jme)
    real :: es
    integer :: i, k, j
!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          es = 1000. * svp1 * exp(svp2 * (t(i,k,j) - svpt0) / (t(i,k,j) - svp3))
          qs(i,k,j) = ep2 * es / (p(i,k,j) - es)
          th(i,k,j) = t(i,k,j) * (p0 / p(i,k,j)) ** rcp
          lnp(i,k,j) = log(p(i,k,j))
        end do
      end do
    end do
!$stencil end region
  end subroutine saturation
end module relaxed_kernel
