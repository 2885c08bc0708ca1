! fusion-illegal: two nests in one region; the second reads the first's
! result one level up, a(i,k+1,j).  Potential temperature, then its jump
! between neighbouring levels (a static-stability diagnostic).
!
! Every loop is parallel.  Fusing the two k loops into one (k outside both
! statements) would read a(i,k+1,j) before it is computed: illegal.  Legal:
! two kernels, or one kernel over (i,j) with the two k loops one after the
! other inside each thread (a(i,k+1,j) belongs to the same column).
module fus_kernel
  implicit none
  private
  public :: stability, r8
  ! real(8); spelled as a literal: the translator cannot evaluate kind(1.0d0) yet.
  integer, parameter :: r8 = 8
  real(r8), parameter :: p0 = 1000.0_r8, rcp = 0.2857_r8

contains

  subroutine stability(t, p, a, b,                                    &
                       ims,ime, jms,jme, kms,kme,                     &
                       its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: t, p
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: a, b

    integer :: i, j, k

!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          a(i,k,j) = t(i,k,j)*(p0/p(i,k,j))**rcp
        end do
      end do
    end do
    do j = jts, jte
      do k = kts, kte-1
        do i = its, ite
          b(i,k,j) = a(i,k+1,j) - a(i,k,j)
        end do
      end do
    end do
!$stencil end region
  end subroutine stability

end module fus_kernel
