! hdiff_acc.f90 -- kernels.sh case 2 for GCC's OpenACC: hdiff.f90 as an
! OpenACC user ports it.  A parallel loop cannot run the four nests of one k
! iteration as they stand (each reads what other gangs' threads of the nest
! before wrote), so the k loop is distributed over the nests by hand, which
! s2s-cuda does by itself: four `parallel loop gang vector collapse(3)`
! nests, k outermost, the loop bodies and bounds unchanged.  The work arrays
! are created on the device for the call (`!$acc data create`); inp, coeff
! and outp are present (the driver's data region).
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

!$acc data create(lap, flx, fly) present(inp, coeff, outp)
!$acc parallel loop gang vector collapse(3)
    do k = kts, kte
      do j = jts-1, jte+1
        do i = its-1, ite+1
          lap(i,k,j) = 4.0*inp(i,k,j) - (inp(i+1,k,j) + inp(i-1,k,j)       &
                                       + inp(i,k,j+1) + inp(i,k,j-1))
        end do
      end do
    end do
!$acc parallel loop gang vector collapse(3)
    do k = kts, kte
      do j = jts, jte
        do i = its-1, ite
          flx(i,k,j) = lap(i+1,k,j) - lap(i,k,j)
          if (flx(i,k,j)*(inp(i+1,k,j) - inp(i,k,j)) > 0.0) flx(i,k,j) = 0.0
        end do
      end do
    end do
!$acc parallel loop gang vector collapse(3)
    do k = kts, kte
      do j = jts-1, jte
        do i = its, ite
          fly(i,k,j) = lap(i,k,j+1) - lap(i,k,j)
          if (fly(i,k,j)*(inp(i,k,j+1) - inp(i,k,j)) > 0.0) fly(i,k,j) = 0.0
        end do
      end do
    end do
!$acc parallel loop gang vector collapse(3)
    do k = kts, kte
      do j = jts, jte
        do i = its, ite
          outp(i,k,j) = inp(i,k,j) - coeff(i,k,j)*(flx(i,k,j) - flx(i-1,k,j)     &
                                                 + fly(i,k,j) - fly(i,k,j-1))
        end do
      end do
    end do
!$acc end data
  end subroutine hdiff

end module hdiff_kernel
