! openacc-thomas: samples/thomas/thomas.f90 spelled in OpenACC (`kernels`
! with data clauses and async, `loop seq` on a k sweep, `loop gang` and
! `loop vector(64) private(m)` on j and i, `wait(1)`); main.f90 is the
! sample's.  Expected: as the sample, one kernel over (i, j); copyout(x)
! made copy (the sample's driver checks that the halo keeps its values),
! vector(64) superseded by the length of the first i loop of the fusion.
! thomas.f90 -- a tridiagonal solve in every column (i,j), written k-outermost
! the way CPU codes write it.
!
! Implicit vertical schemes (diffusion in the boundary layer, vertically
! implicit sound waves, ...) solve one tridiagonal system per column:
!
!   a(i,k,j)*x(i,k-1,j) + b(i,k,j)*x(i,k,j) + c(i,k,j)*x(i,k+1,j) = d(i,k,j)
!
! for k = kts..kte (a at kts and c at kte are not used).  The Thomas
! algorithm eliminates downwards (forward sweep, modified coefficients cp
! and dp) and substitutes back upwards.  Both sweeps carry a dependence along
! k: level k needs level k-1 (forward) or k+1 (backward).  Every column is
! independent of every other.
!
! A CPU code puts k outermost and sweeps whole horizontal planes, i innermost
! (contiguous, vectorized), j in between:
!
!   do k = kts+1, kte          ! sequential: carries cp and dp from k-1
!     do j = jts, jte          ! parallel
!       do i = its, ite        ! parallel
!
! On a GPU that order is wrong: k cannot be parallel, and putting it
! outermost would mean one kernel launch per level.  The right shape is one
! kernel over (i,j), i on threadIdx.x and j on the grid, with every k loop of
! the region running in order inside each thread, the first level and the
! peeled top level included.  s2s-cuda has to find that by itself: it must
! move i and j outside every k loop (legal: the only dependences are along k,
! within one column) and fuse the nests of the region into one kernel.
!
! cp and dp are 3-D work arrays with the memory bounds, passed in by the
! caller (not 2-D arrays cp(i,k) private to a j iteration: privatizing work
! arrays is a later step).  Bounds follow WRF: domain ids:ide.., memory
! ims:ime.. (the patch and a halo), tile its:ite.. (what this call computes).
module module_thomas
  implicit none
  private
  public :: thomas_solve

contains

  ! Solve the tridiagonal system of every column of the tile.  The
  ! coefficients must make it diagonally dominant (|b| > |a| + |c|), so that
  ! no pivoting is needed.  Only the tile of x, cp and dp is written: the
  ! points outside it (the halo, the levels above kte) keep their values.
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

!$acc kernels copyin(a, b, c, d) copyout(x) async(1)
    ! Forward elimination, first level: cp = c/b, dp = d/b.
    do j = jts, jte
      do i = its, ite
        cp(i,kts,j) = c(i,kts,j)/b(i,kts,j)
        dp(i,kts,j) = d(i,kts,j)/b(i,kts,j)
      end do
    end do
    ! Forward elimination, the other levels, k outermost: each level needs
    ! the level below it (k-1), computed by the previous k iteration.
!$acc loop seq
    do k = kts+1, kte
!$acc loop gang
      do j = jts, jte
!$acc loop vector(64) private(m)
        do i = its, ite
          m = 1.0/(b(i,k,j) - a(i,k,j)*cp(i,k-1,j))
          cp(i,k,j) = c(i,k,j)*m
          dp(i,k,j) = (d(i,k,j) - a(i,k,j)*dp(i,k-1,j))*m
        end do
      end do
    end do
    ! Back substitution, top level peeled: x = dp there.
    do j = jts, jte
      do i = its, ite
        x(i,kte,j) = dp(i,kte,j)
      end do
    end do
    ! Back substitution downwards: each level needs the level above (k+1).
    do k = kte-1, kts, -1
      do j = jts, jte
        do i = its, ite
          x(i,k,j) = dp(i,k,j) - cp(i,k,j)*x(i,k+1,j)
        end do
      end do
    end do
!$acc end kernels
!$acc wait(1)
  end subroutine thomas_solve

end module module_thomas
