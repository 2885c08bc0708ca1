! Driver of sedimentation-downward: three steps; after each, the host
! checks that every column conserves water (sum(rho*qr*dz) + rain, relative
! change <= 1e-5) and that qr stays positive.  Dumps qr, flux and rain,
! whole: outside the tile they keep a sentinel.
program sedimentation_downward
  use sed_kernel, only: sediment
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance, fail
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  character(len=*), parameter :: name = 'sedimentation-downward'
  integer, parameter :: ni = 53, nj = 19, nk = 41, halo = 3, nsteps = 3
  ! Outside the tile: sentinels of about the size of the data (s2s_compare's
  ! default absolute tolerance scales with the largest |element| of an array).
  real, parameter :: dt = 20.0, sentinel = -1.0, rain_sentinel = -0.25
  real(real64), parameter :: tolerance = 1.0e-5_real64

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k, step
  real, allocatable :: qr(:,:,:), rho(:,:,:), dz(:,:,:), vt(:,:,:), flux(:,:,:)
  real, allocatable :: rain(:,:)
  real(real64), allocatable :: water(:,:)
  real(real64) :: drift, worst_drift
  logical :: negative
  character(len=512) :: path

  call get_dump_path(path)
  ! Tile (4:ni+3, 1:nk, 2:nj+1); memory one level higher (kme = kte+1).
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, &
                   first_i=4, first_j=2, levels_above=1)
  allocate(qr(ims:ime, kms:kme, jms:jme), rho(ims:ime, kms:kme, jms:jme),  &
           dz(ims:ime, kms:kme, jms:jme), vt(ims:ime, kms:kme, jms:jme),    &
           flux(ims:ime, kms:kme, jms:jme), rain(ims:ime, jms:jme),         &
           water(its:ite, jts:jte))

  ! Rain (g/kg) in a layer in the middle of the column, heavier in some columns;
  ! fall speeds of a few m/s, enough to cross several levels in 3 steps.
  qr = sentinel
  flux = sentinel
  rain = rain_sentinel
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        dz(i,k,j) = 50.0 + 10.0*k + 5.0*noise(i, k, j)
        rho(i,k,j) = 1.2*exp(-real(k)/25.0)
        vt(i,k,j) = 4.0 + 3.0*noise(j, k, i)
      end do
    end do
  end do
  do j = jts, jte
    rain(its:ite, j) = 0.0
    do k = kts, kte
      do i = its, ite
        qr(i,k,j) = exp(-((k - 0.6*nk)/6.0)**2)*(1.2 + noise(k, i, j)) + 1.0e-3
      end do
    end do
  end do

  worst_drift = 0.0_real64
  negative = .false.
  do step = 1, nsteps
    call column_water()
    call sediment(qr, rho, dz, vt, flux, rain, dt,                     &
                  ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    drift = 0.0_real64
    do j = jts, jte
      do i = its, ite
        drift = max(drift, abs(water_of(i, j) - water(i,j))/water(i,j))
      end do
    end do
    worst_drift = max(worst_drift, drift)
    negative = negative .or. any(qr(its:ite, kts:kte, jts:jte) < 0.0)
  end do
  write(*,'(2a,es12.5)') name, ': max rain (g/m2) ', maxval(rain(its:ite, jts:jte))
  call check_tolerance(name, 'max column water drift', worst_drift, tolerance, 'water not conserved')
  if (negative) call fail(name, 'negative qr')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('qr', qr)
  call s2s_dump_array('flux', flux)
  call s2s_dump_array('rain', rain)
  call s2s_dump_close()

contains

  subroutine column_water()
    do j = jts, jte
      do i = its, ite
        water(i,j) = water_of(i, j)
      end do
    end do
  end subroutine column_water

  ! Water in column (i,j), in the air and on the ground (g/m2).
  real(real64) function water_of(i, j)
    integer, intent(in) :: i, j
    integer :: kk
    water_of = rain(i,j)
    do kk = kts, kte
      water_of = water_of + real(rho(i,kk,j), real64)*qr(i,kk,j)*dz(i,kk,j)
    end do
  end function water_of

end program sedimentation_downward
