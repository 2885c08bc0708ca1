! tracer-tridiagonal: an implicit vertical diffusion of nt tracers, as
! boundary-layer schemes write it: `do it = 1, nt` around a Thomas solve
! written k-outer with i innermost, its work arrays cp(i,k), dp(i,k) without
! the tracer index (the first level peeled, the forward sweep from kts+1,
! the back substitution from kte-1 down to kts).
!
! Legal GPU shape: one kernel over (i, it): cp and dp kept per thread (each
! tracer's sweep stores every level before reading it: the back
! substitution's cp(i,kts) comes from the peeled level, the others from the
! forward sweep), k in order inside each thread.
module ttd_kernel
  implicit none
contains
  subroutine diffuse_tracers(q, a, b, c, nt, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: nt, ims,ime, kms,kme, its,ite, kts,kte
    real(8), intent(inout) :: q(ims:ime, kms:kme, nt)
    real(8), intent(in) :: a(ims:ime, kms:kme), b(ims:ime, kms:kme), c(ims:ime, kms:kme)
    real(8) :: cp(its:ite, kts:kte), dp(its:ite, kts:kte), m
    integer :: i, k, it

!$stencil region
    do it = 1, nt
      do i = its, ite
        cp(i,kts) = c(i,kts) / b(i,kts)
        dp(i,kts) = q(i,kts,it) / b(i,kts)
      end do
      do k = kts + 1, kte
        do i = its, ite
          m = b(i,k) - cp(i,k-1) * a(i,k)
          cp(i,k) = c(i,k) / m
          dp(i,k) = (q(i,k,it) - dp(i,k-1) * a(i,k)) / m
        end do
      end do
      do i = its, ite
        q(i,kte,it) = dp(i,kte)
      end do
      do k = kte - 1, kts, -1
        do i = its, ite
          q(i,k,it) = dp(i,k) - cp(i,k) * q(i,k+1,it)
        end do
      end do
    end do
!$stencil end region
  end subroutine diffuse_tracers
end module ttd_kernel
