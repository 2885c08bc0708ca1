! stencil-inlining-refused-input: a Laplacian lap of u, read at i+1 and j+1
! by a later nest, but between the two a nest overwrites u on the tile with
! values about 1000 times larger.  lap must stay stored: computed where it is
! read (stencil inlining), the consumer would take the Laplacian of the new
! u, off by thousands, where the original uses the one of the old u.  The
! driver's check (1e-12 against the Laplacian of the u it passed in, kept in
! a copy) and the dump of lap's consumer would both see that.  The feedback
! asserts the refusal note (lap's nest reads 'u', which the region writes).
! Checked by hand: this kernel with lap computed at the consumer (a function
! of u called in place of each lap(...) read, the producer nest removed),
! built with gfortran and this driver, stops with 'wrong u or res' (max error
! 1.1e4).
module refused_input_kernel
  implicit none
  private
  public :: refused_input

contains

  subroutine refused_input(u, res, ims,ime, jms,jme, its,ite, jts,jte)
    integer, intent(in) :: ims,ime, jms,jme, its,ite, jts,jte
    real(8), dimension(ims:ime, jms:jme), intent(inout) :: u, res

    real(8) :: lap(its-1:ite+1, jts-1:jte+1)
    integer :: i, j

!$stencil region
    do j = jts-1, jte+1
      do i = its-1, ite+1
        lap(i,j) = 4.0d0*u(i,j) - (u(i+1,j) + u(i-1,j) + u(i,j+1) + u(i,j-1))
      end do
    end do
    do j = jts, jte
      do i = its, ite
        u(i,j) = 1000.0d0*u(i,j) + 3.0d0*i - 7.0d0*j
      end do
    end do
    do j = jts, jte
      do i = its, ite
        res(i,j) = lap(i+1,j) + lap(i,j+1) - 2.0d0*lap(i,j) + 1.0d-3*u(i,j)
      end do
    end do
!$stencil end region
  end subroutine refused_input

end module refused_input_kernel
