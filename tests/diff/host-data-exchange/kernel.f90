! host-data-exchange: the MPI diffusion driver's step with a CUDA-aware
! MPI, in one process.  Two bands of j rows, ta and tb (rows 1:nb, a halo
! row on each side), advance as two ranks would; their halo rows are
! filled on the device, as a CUDA-aware MPI fills them: inside
! `host_data use_device(ta, tb, f)` the host code names the device copies,
! and copy_plane (host code standing for MPI) reads and writes them there.
! Each halo row receives the other band's edge row plus a forcing f that
! the host sets every step and sends with `update device` just before the
! construct: the runtime queues that copy beside the kernels, and the
! emulation performs a queued copy only when something waits for it, so
! a host_data that did not wait for the thread's copies would read the
! forcing of the step before.  Names of the device copies keep the
! arrays' bounds (ta(ims, kms, nb+1) is the halo row).
module exchange_kernel
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

  ! What the message does: dst = src + f, n elements from the addresses
  ! passed (host code; inside host_data they are device addresses).
  subroutine copy_plane(dst, src, f, n)
    integer, intent(in) :: n
    real, intent(out) :: dst(n)
    real, intent(in) :: src(n), f(n)
    dst = src + f
  end subroutine copy_plane

  subroutine steps(ta, tb, tenda, tendb, f, ims,ime, kms,kme, nb, its,ite, kts,kte, nsteps)
    integer, intent(in) :: ims,ime, kms,kme, nb, its,ite, kts,kte, nsteps
    real, dimension(ims:ime, kms:kme, 0:nb+1), intent(inout) :: ta, tb, tenda, tendb
    real, dimension(ims:ime, kms:kme), intent(inout) :: f
    integer :: step, n, i, k

    n = (ime - ims + 1)*(kme - kms + 1)
!$stencil data copy(ta, tb) create(tenda, tendb) copyin(f)
    do step = 1, nsteps
      ! rows that read no halo from the other band, and the update of the
      ! rows no edge row's diffusion reads
      call diffuse(ta, tenda, ims,ime, kms,kme, nb, its,ite, kts,kte, 1, nb-1)
      call diffuse(tb, tendb, ims,ime, kms,kme, nb, its,ite, kts,kte, 2, nb)
      call advance(ta, tenda, ims,ime, kms,kme, nb, its,ite, kts,kte, 1, nb-2)
      call advance(tb, tendb, ims,ime, kms,kme, nb, its,ite, kts,kte, 3, nb)
      ! this step's forcing, set on the host
      do k = kms, kme
        do i = ims, ime
          f(i,k) = 0.01*real(step*mod(i + 2*k, 5))
        end do
      end do
!$stencil update device(f)
      ! the halo rows, written on the device
!$stencil host_data use_device(ta, tb, f)
      call copy_plane(ta(ims, kms, nb+1), tb(ims, kms, 1), f, n)
      call copy_plane(tb(ims, kms, 0), ta(ims, kms, nb), f, n)
!$stencil end host_data
      ! the edge rows, which read the halo rows
      call diffuse(ta, tenda, ims,ime, kms,kme, nb, its,ite, kts,kte, nb, nb)
      call diffuse(tb, tendb, ims,ime, kms,kme, nb, its,ite, kts,kte, 1, 1)
      call advance(ta, tenda, ims,ime, kms,kme, nb, its,ite, kts,kte, nb-1, nb)
      call advance(tb, tendb, ims,ime, kms,kme, nb, its,ite, kts,kte, 1, 2)
    end do
!$stencil end data
  end subroutine steps

end module exchange_kernel
