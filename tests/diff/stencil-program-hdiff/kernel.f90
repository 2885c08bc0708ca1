! stencil-program-hdiff: COSMO's 4th-order horizontal diffusion with a flux
! limiter, as a chain of nests inside one k loop: a Laplacian, fluxes in i
! and in j that read it at i+1 and j+1 (zeroed where they would sharpen the
! field), and the update that reads the fluxes at i-1 and j-1.  lap, flx
! and fly are automatic work arrays of the routine.
!
! Each nest is parallel over (i, j, k), but a thread of one nest reads what
! neighbouring threads of the nest before wrote: one kernel per column of
! (i, j) would need a barrier across the grid.  Keeping lap, flx, fly per
! thread would tie the nests into one kernel parallel over k alone, each
! thread sweeping a whole level.  By default the tool computes lap, flx and
! fly where they are read (stencil inlining: one kernel over (i, j, k) that
! reads inp with its halo and writes outp); with -Mnorecompute (the case
! stencil-program-hdiff-stored) it distributes the k loop over the nests and
! makes kernels parallel over (i, j, k), with the work arrays created on the
! device (never copied).
module hdiff_kernel
  implicit none
  private
  public :: hdiff

contains

  subroutine hdiff(inp, coeff, outp,                                   &
                   ims,ime, jms,jme, kms,kme,                          &
                   its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: inp, coeff
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: outp

    real :: lap(its-1:ite+1, kts:kte, jts-1:jte+1)
    real :: flx(its-1:ite, kts:kte, jts:jte)
    real :: fly(its:ite, kts:kte, jts-1:jte)
    integer :: i, j, k

!$stencil region
    do k = kts, kte
      do j = jts-1, jte+1
        do i = its-1, ite+1
          lap(i,k,j) = 4.0*inp(i,k,j) - (inp(i+1,k,j) + inp(i-1,k,j)       &
                                       + inp(i,k,j+1) + inp(i,k,j-1))
        end do
      end do
      do j = jts, jte
        do i = its-1, ite
          flx(i,k,j) = lap(i+1,k,j) - lap(i,k,j)
          if (flx(i,k,j)*(inp(i+1,k,j) - inp(i,k,j)) > 0.0) flx(i,k,j) = 0.0
        end do
      end do
      do j = jts-1, jte
        do i = its, ite
          fly(i,k,j) = lap(i,k,j+1) - lap(i,k,j)
          if (fly(i,k,j)*(inp(i,k,j+1) - inp(i,k,j)) > 0.0) fly(i,k,j) = 0.0
        end do
      end do
      do j = jts, jte
        do i = its, ite
          outp(i,k,j) = inp(i,k,j) - coeff(i,k,j)*(flx(i,k,j) - flx(i-1,k,j)     &
                                                 + fly(i,k,j) - fly(i,k,j-1))
        end do
      end do
    end do
!$stencil end region
  end subroutine hdiff

end module hdiff_kernel
