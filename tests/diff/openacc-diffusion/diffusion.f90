! openacc-diffusion: samples/diffusion spelled in OpenACC: `kernels` ...
! `end kernels` for both regions, a `loop independent` on k; the driver's
! `data copy(t) create(tend)` with `update self`.  Expected: as the sample.
! diffusion.f90 -- horizontal diffusion of temperature, written the way WRF
! writes its dynamics and physics routines.
!
! WRF hands every routine three sets of index bounds:
!   ids:ide, jds:jde, kds:kde   the whole domain
!   ims:ime, jms:jme, kms:kme   the memory this process holds: its patch plus
!                               a halo of points that belong to its neighbours
!   its:ite, jts:jte, kts:kte   the tile this call computes, inside the patch
! Fields are declared with the memory bounds in the order (i,k,j): i (west-
! east) is contiguous, k (vertical) next, j (south-north) outermost.  The
! loops run j, k, i, so that a CPU walks memory in order and vectorizes i.
!
! On a GPU that order is wrong: every (i,j) column is independent, so i and j
! should be the parallel loops, i on threadIdx.x (neighbouring threads read
! neighbouring addresses) and j on the grid; k may run inside each thread.
! s2s-cuda finds that out by itself: the user only marks the regions, and
! the code keeps its CPU shape for every other compiler (to gfortran the
! !$stencil lines are comments).
module module_diffusion
  implicit none
  private
  public :: horizontal_diffusion, update_t

  ! Horizontal grid spacing (m) and the largest heating rate the limiter lets
  ! through (K/s).  Module parameters: the kernel must see their values.
  real, parameter :: dx = 3000.0
  real, parameter :: tend_max = 5.0e-4
  ! The top sponge_depth levels of the domain damp strongly.
  integer, parameter :: sponge_depth = 5

contains

  ! tend = kh * (horizontal Laplacian of t), limited to +-tend_max, on the tile.
  subroutine horizontal_diffusion(t, tend, kh,                       &
                                  ids,ide, jds,jde, kds,kde,          &
                                  ims,ime, jms,jme, kms,kme,          &
                                  its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ids,ide, jds,jde, kds,kde
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)  :: t
    real, dimension(ims:ime, kms:kme, jms:jme), intent(out) :: tend
    real, intent(in) :: kh

    integer :: i, j, k
    real :: rdx2, kh_k, lap, rate

    ! The stencil reads one point beyond the tile on every side: the halo.
    call check_bounds('horizontal_diffusion', 1,                     &
                      ids,ide, jds,jde, kds,kde, ims,ime, jms,jme, kms,kme, &
                      its,ite, jts,jte, kts,kte)
    rdx2 = 1.0/(dx*dx)

    ! One region around the whole j/k/i nest.  i and j are parallel; k is
    ! parallel too, but kh_k, lap and rate are scalars reused by every
    ! iteration: the tool must give each thread its own copy.  kh_k is set
    ! between the k and i loops, so the nest is not perfect: moving i and j
    ! outermost means computing kh_k inside each thread.
!$acc kernels
    do j = jts, jte
!$acc loop independent
      do k = kts, kte
        ! Mixing weakens with height, from kh at the ground to kh/2 at the
        ! top (integer and real arithmetic mixed, as physics code does),
        ! except in the sponge layer under the model top.
        if (k <= kde - sponge_depth) then
          kh_k = kh*(1.0 - 0.5*(k - kds)/real(kde - kds + 1))
        else
          kh_k = 2.0*kh
        end if
        do i = its, ite
          ! 5-point horizontal Laplacian, as differences of neighbour
          ! differences (the flux form WRF uses; it loses less precision than
          ! summing 300 K temperatures).  At the tile's edges it reads the halo.
          lap = (t(i+1,k,j) - t(i,k,j)) - (t(i,k,j) - t(i-1,k,j))          &
              + (t(i,k,j+1) - t(i,k,j)) - (t(i,k,j) - t(i,k,j-1))
          rate = kh_k*lap*rdx2
          ! Limiter: clip the rate to +-tend_max.
          if (abs(rate) .lt. tend_max) then
            tend(i,k,j) = rate
          else
            tend(i,k,j) = max(-tend_max, min(tend_max, rate))
          end if
        end do
      end do
    end do
!$acc end kernels
  end subroutine horizontal_diffusion

  ! t = t + dt*tend on the tile: every point independent, all three loops parallel.
  subroutine update_t(t, tend, dt,                                   &
                      ids,ide, jds,jde, kds,kde,                      &
                      ims,ime, jms,jme, kms,kme,                      &
                      its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ids,ide, jds,jde, kds,kde
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: t
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: tend
    real, intent(in) :: dt

    integer :: i, j, k

    call check_bounds('update_t', 0,                                 &
                      ids,ide, jds,jde, kds,kde, ims,ime, jms,jme, kms,kme, &
                      its,ite, jts,jte, kts,kte)
!$acc kernels
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          t(i,k,j) = t(i,k,j) + dt*tend(i,k,j)
        end do
      end do
    end do
!$acc end kernels
  end subroutine update_t

  ! Stop unless the tile lies inside the domain and, with `halo` more points
  ! in i and j, inside the memory bounds.  (Host code: not offloaded.)
  subroutine check_bounds(routine, halo,                             &
                          ids,ide, jds,jde, kds,kde,                  &
                          ims,ime, jms,jme, kms,kme,                  &
                          its,ite, jts,jte, kts,kte)
    character(len=*), intent(in) :: routine
    integer, intent(in) :: halo
    integer, intent(in) :: ids,ide, jds,jde, kds,kde
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte

    if (its < ids .or. ite > ide .or. jts < jds .or. jte > jde .or. &
        kts < kds .or. kte > kde) then
      write(*,*) routine, ': tile outside the domain'
      stop 1
    end if
    if (its - halo .lt. ims .or. ite + halo .gt. ime .or.          &
        jts - halo .lt. jms .or. jte + halo .gt. jme .or.          &
        kts .lt. kms .or. kte .gt. kme) then
      write(*,*) routine, ': tile and halo outside the memory bounds'
      stop 1
    end if
  end subroutine check_bounds

end module module_diffusion
