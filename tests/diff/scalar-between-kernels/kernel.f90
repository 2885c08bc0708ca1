! scalar-between-kernels: a scalar assigned between two nests at the top of
! the region (`scale = 0.5*dt`) and read by a later nest, where the region
! must split into kernels before the nest after the assignment (it reads
! its predecessor's field at i-1 and i+1).  Each kernel's threads have their
! own scalars: the assignment must start the kernel that reads it, not end
! the kernel before (where the reader would see the host's value at region
! entry: the miscompile this case guards against, found while testing pass
! recompute).  The host sets `scale` to -99 before the region.
module sbk_kernel
  implicit none
  private
  public :: smooth_and_scale, r8
  integer, parameter :: r8 = 8

contains

  subroutine smooth_and_scale(u, v, w, dt,                            &
                              ims,ime, jms,jme, kms,kme,              &
                              its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real(r8), intent(in) :: dt
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: u
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: v, w

    integer :: i, j, k
    real(r8) :: scale

    scale = -99.0_r8     ! the host's value at region entry: never the one to use
!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its-1, ite+1
          v(i,k,j) = 2.0_r8*u(i,k,j)
        end do
      end do
    end do
    scale = 0.5_r8*dt
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          w(i,k,j) = scale*(v(i-1,k,j) + v(i+1,k,j))
        end do
      end do
    end do
!$stencil end region
  end subroutine smooth_and_scale

end module sbk_kernel
