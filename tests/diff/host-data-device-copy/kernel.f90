! host-data-device-copy: host-data-exchange with the halo rows moved as a
! CUDA-aware MPI moves them, by the CUDA runtime (devcopy.c: cudaMemcpy
! with cudaMemcpyDefault, then a synchronize), so that the case also runs
! on a GPU (host-data-exchange's host code reads device memory, which
! only the emulation's is).  Inside `host_data use_device(ta, tb, f)` the
! host code hands device_copy the device addresses of the rows: each band's
! halo row takes the other band's edge row, and band a's boundary row 0
! takes the forcing f, which the host sets every step and sends with
! `update device` just before the construct (queued beside the kernels:
! the construct must wait for it; the copies are device to device, and
! the kernels after the construct read what they wrote).
module device_copy_kernel
  use, intrinsic :: iso_c_binding, only: c_long
  implicit none
  private
  public :: steps

  interface
    ! devcopy.c: bytes from src to dst, host or device addresses
    subroutine device_copy(dst, src, bytes) bind(C, name="device_copy")
      import :: c_long
      real :: dst(*), src(*)
      integer(c_long), intent(in) :: bytes
    end subroutine device_copy
  end interface

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


  subroutine steps(ta, tb, tenda, tendb, f, ims,ime, kms,kme, nb, its,ite, kts,kte, nsteps)
    integer, intent(in) :: ims,ime, kms,kme, nb, its,ite, kts,kte, nsteps
    real, dimension(ims:ime, kms:kme, 0:nb+1), intent(inout) :: ta, tb, tenda, tendb
    real, dimension(ims:ime, kms:kme), intent(inout) :: f
    integer :: step, i, k
    integer(c_long) :: bytes

    bytes = 4_c_long*(ime - ims + 1)*(kme - kms + 1)
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
      ! the halo rows and band a's boundary row, written on the device
!$stencil host_data use_device(ta, tb, f)
      call device_copy(ta(ims, kms, nb+1), tb(ims, kms, 1), bytes)
      call device_copy(tb(ims, kms, 0), ta(ims, kms, nb), bytes)
      call device_copy(ta(ims, kms, 0), f, bytes)
!$stencil end host_data
      ! the edge rows, which read the halo rows
      call diffuse(ta, tenda, ims,ime, kms,kme, nb, its,ite, kts,kte, nb, nb)
      call diffuse(tb, tendb, ims,ime, kms,kme, nb, its,ite, kts,kte, 1, 1)
      call advance(ta, tenda, ims,ime, kms,kme, nb, its,ite, kts,kte, nb-1, nb)
      call advance(tb, tendb, ims,ime, kms,kme, nb, its,ite, kts,kte, 1, 2)
    end do
!$stencil end data
  end subroutine steps

end module device_copy_kernel
