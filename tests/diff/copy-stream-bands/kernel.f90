! copy-stream-bands: the MPI diffusion driver's step in one process.  Two
! bands of j rows, ta and tb (rows 1:nb, a halo row on each side), are
! advanced as two ranks would advance them: the edge rows each band sends
! the other go to the host with `update host ... async`, the interior rows
! are diffused and updated meanwhile, the host copies the edge rows into
! the other band's halo after the `wait`, `update device` sends the halos
! back, and the edge rows are diffused and updated last.  The runtime runs
! the two updates on its copy stream beside the interior's kernels (no
! queued kernel touches their rows); the edge rows' kernels read the halo
! rows and must wait for the update device.  The emulation performs a
! queued copy only when something waits for it, so a kernel that did not
! wait would read the halo of the step before.
module bands_kernel
  implicit none
  private
  public :: steps

contains

  ! tend = Laplacian of t in (i, j), rows j0:j1 (reads rows j0-1:j1+1).
  subroutine diffuse(t, tend, ims,ime, kms,kme, nb, its,ite, kts,kte, j0,j1)
    integer, intent(in) :: ims,ime, kms,kme, nb, its,ite, kts,kte, j0,j1
    real, dimension(ims:ime, kms:kme, 0:nb+1), intent(in) :: t
    real, dimension(ims:ime, kms:kme, 0:nb+1), intent(inout) :: tend
    integer :: i, j, k
!$stencil region
    do j = j0, j1
      do k = kts, kte
        do i = its, ite
          tend(i,k,j) = 0.1*((t(i+1,k,j) - t(i,k,j)) - (t(i,k,j) - t(i-1,k,j))  &
                           + (t(i,k,j+1) - t(i,k,j)) - (t(i,k,j) - t(i,k,j-1)))
        end do
      end do
    end do
!$stencil end region
  end subroutine diffuse

  ! t = t + tend on rows j0:j1.
  subroutine advance(t, tend, ims,ime, kms,kme, nb, its,ite, kts,kte, j0,j1)
    integer, intent(in) :: ims,ime, kms,kme, nb, its,ite, kts,kte, j0,j1
    real, dimension(ims:ime, kms:kme, 0:nb+1), intent(inout) :: t
    real, dimension(ims:ime, kms:kme, 0:nb+1), intent(in) :: tend
    integer :: i, j, k
!$stencil region
    do j = j0, j1
      do k = kts, kte
        do i = its, ite
          t(i,k,j) = t(i,k,j) + tend(i,k,j)
        end do
      end do
    end do
!$stencil end region
  end subroutine advance

  subroutine steps(ta, tb, tenda, tendb, ims,ime, kms,kme, nb, its,ite, kts,kte, nsteps)
    integer, intent(in) :: ims,ime, kms,kme, nb, its,ite, kts,kte, nsteps
    real, dimension(ims:ime, kms:kme, 0:nb+1), intent(inout) :: ta, tb, tenda, tendb
    integer :: step

!$stencil data copy(ta, tb) create(tenda, tendb)
    do step = 1, nsteps
      ! the edge rows the other band needs
!$stencil update host(ta(ims:ime, kms:kme, nb:nb)) async
!$stencil update host(tb(ims:ime, kms:kme, 1:1)) async
      ! rows that read no halo from the other band, and the update of the
      ! rows no edge row's diffusion reads
      call diffuse(ta, tenda, ims,ime, kms,kme, nb, its,ite, kts,kte, 1, nb-1)
      call diffuse(tb, tendb, ims,ime, kms,kme, nb, its,ite, kts,kte, 2, nb)
      call advance(ta, tenda, ims,ime, kms,kme, nb, its,ite, kts,kte, 1, nb-2)
      call advance(tb, tendb, ims,ime, kms,kme, nb, its,ite, kts,kte, 3, nb)
!$stencil wait
      ta(:, :, nb+1) = tb(:, :, 1)
      tb(:, :, 0) = ta(:, :, nb)
!$stencil update device(ta(ims:ime, kms:kme, nb+1:nb+1))
!$stencil update device(tb(ims:ime, kms:kme, 0:0))
      ! the edge rows, which read the halo rows just sent
      call diffuse(ta, tenda, ims,ime, kms,kme, nb, its,ite, kts,kte, nb, nb)
      call diffuse(tb, tendb, ims,ime, kms,kme, nb, its,ite, kts,kte, 1, 1)
      call advance(ta, tenda, ims,ime, kms,kme, nb, its,ite, kts,kte, nb-1, nb)
      call advance(tb, tendb, ims,ime, kms,kme, nb, its,ite, kts,kte, 1, 2)
    end do
!$stencil end data
  end subroutine steps

end module bands_kernel
