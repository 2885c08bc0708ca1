! array-syntax-column: sections inside the column loop, as column physics
! writes them: `dz(:) = dzl(i,:)` (a k loop inside the thread), the
! self-referencing `wa(1:km) = 0.5*(wa(1:km)+was(1:km))` (element for
! element: any order), a strided section `out(i,1:km:2,j) = ...`, the shifted
! `out(i,2:km,j) = out(i,1:km-1,j)` (run downwards, so each element is read
! before it is stored), `dzl(i,:,j) = max(dz - 0.25, 0.)` with an elemental
! intrinsic; and, in a region of its own, a plane `out(its:ite,k,j) = 0.`
! in a k loop.  The regions are inside the host's j loop (a per-column
! scratch dz(km) is not privatized yet inside a j loop in the region, nor in
! a region split into kernels, nor with a shifted or strided access to it,
! with or without array syntax).
module column_kernel
  implicit none
  private
  public :: sweep
contains
  subroutine sweep(dzl, q, out, ims,ime, jms,jme, km, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, km, its,ite, jts,jte
    real, intent(inout) :: dzl(ims:ime, km, jms:jme)
    real, intent(in) :: q(ims:ime, km, jms:jme)
    real, intent(out) :: out(ims:ime, km, jms:jme)
    real :: dz(km), wa(km), was(km)
    integer :: i, j, k
    do j = jts, jte
!$stencil region
      do k = 1, km
        out(its:ite,k,j) = 0.
      end do
!$stencil end region
!$stencil region
      do i = its, ite
        dz(:) = dzl(i,:,j)
        was(1:km) = q(i,1:km,j) * 0.5
        wa(1:km) = dz(1:km)
        wa(1:km) = 0.5 * (wa(1:km) + was(1:km))
        dzl(i,:,j) = max(dz - 0.25, 0.)
        do k = 1, km
          out(i,k,j) = out(i,k,j) + wa(k)
        end do
        out(i,1:km:2,j) = out(i,1:km:2,j) + 1.0
        out(i,2:km,j) = out(i,1:km-1,j)
      end do
!$stencil end region
    end do
  end subroutine sweep
end module column_kernel
