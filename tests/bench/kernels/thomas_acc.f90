! thomas_acc.f90 -- kernels.sh case 3 for GCC's OpenACC: the tridiagonal
! solve of samples/thomas/thomas.f90 (which kernels.sh compiles as it is for
! s2s-cuda and for the reference) as an OpenACC user ports it: the sample
! puts k outermost, which a parallel loop cannot run (each level needs the
! one before), so the loops are turned into one column loop,
! `parallel loop gang vector collapse(2)` over (j, i) with private(m), and
! the sample's k loops inside it unchanged (sequential in each thread).
! The arrays are present: the driver's data region holds them.
module module_thomas
  implicit none
  private
  public :: thomas_solve

contains

  subroutine thomas_solve(a, b, c, d, x, cp, dp,                     &
                          ids,ide, jds,jde, kds,kde,                  &
                          ims,ime, jms,jme, kms,kme,                  &
                          its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ids,ide, jds,jde, kds,kde
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: a, b, c, d
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: x
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: cp, dp

    integer :: i, j, k
    real :: m

    if (its < ims .or. ite > ime .or. jts < jms .or. jte > jme .or. &
        kts < kms .or. kte > kme .or. kts < kds .or. kte > kde .or. &
        its < ids .or. ite > ide .or. jts < jds .or. jte > jde) then
      write(*,*) 'thomas_solve: tile outside the domain or the memory bounds'
      stop 1
    end if

!$acc parallel loop gang vector collapse(2) private(m) present(a, b, c, d, x, cp, dp)
    do j = jts, jte
      do i = its, ite
        cp(i,kts,j) = c(i,kts,j)/b(i,kts,j)
        dp(i,kts,j) = d(i,kts,j)/b(i,kts,j)
        do k = kts+1, kte
          m = 1.0/(b(i,k,j) - a(i,k,j)*cp(i,k-1,j))
          cp(i,k,j) = c(i,k,j)*m
          dp(i,k,j) = (d(i,k,j) - a(i,k,j)*dp(i,k-1,j))*m
        end do
        x(i,kte,j) = dp(i,kte,j)
        do k = kte-1, kts, -1
          x(i,k,j) = dp(i,k,j) - cp(i,k,j)*x(i,k+1,j)
        end do
      end do
    end do
  end subroutine thomas_solve

end module module_thomas
