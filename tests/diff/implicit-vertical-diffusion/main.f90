! Driver of implicit-vertical-diffusion: three implicit steps; after each,
! the host checks that the new q solves the system built from the old q
! (relative residual <= 1e-5) and that every column keeps its content
! sum(q*dz) (zero-flux boundaries: relative change <= 1e-5).  Dumps q and
! every work array, whole: outside the tile they keep a sentinel.
program implicit_vertical_diffusion
  use ivd_kernel, only: vertical_diffusion
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  use, intrinsic :: iso_fortran_env, only: real64
  implicit none
  character(len=*), parameter :: name = 'implicit-vertical-diffusion'
  integer, parameter :: ni = 45, nj = 29, nk = 28, halo = 2, nsteps = 3
  real, parameter :: dt = 30.0, sentinel = -1.0
  real(real64), parameter :: tolerance = 1.0e-5_real64

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k, step
  real, allocatable :: q(:,:,:), q_old(:,:,:), kv(:,:,:), dz(:,:,:)
  real, allocatable :: a(:,:,:), b(:,:,:), c(:,:,:), cp(:,:,:), dp(:,:,:)
  real(real64) :: residual, drift, worst_residual, worst_drift
  character(len=512) :: path

  call get_dump_path(path)
  ! Tile (1:ni, 1:nk-1, 1:nj); memory one level higher (kme = kte+1).
  call set_tile_3d(ni, nj, nk - 1, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, &
                   levels_above=1)
  allocate(q(ims:ime, kms:kme, jms:jme), q_old(ims:ime, kms:kme, jms:jme), &
           kv(ims:ime, kms:kme, jms:jme), dz(ims:ime, kms:kme, jms:jme),   &
           a(ims:ime, kms:kme, jms:jme), b(ims:ime, kms:kme, jms:jme),     &
           c(ims:ime, kms:kme, jms:jme), cp(ims:ime, kms:kme, jms:jme),    &
           dp(ims:ime, kms:kme, jms:jme))

  ! Layers thicken with height; the diffusivity peaks in the boundary layer.
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        dz(i,k,j) = 30.0*1.1**(k - kms)*(1.0 + 0.1*noise(i, k, j))
        kv(i,k,j) = 2.0 + 60.0*exp(-real(k - kms)/5.0)*(1.0 + 0.4*noise(j, i, k))
        q(i,k,j) = 9.0*exp(-real(k - kms)/7.0) + 0.8*noise(k, j, i) + 1.0
      end do
    end do
  end do
  q(:, kte+1:kme, :) = sentinel
  q(:ims+halo-1, :, :) = sentinel
  q(ite+1:, :, :) = sentinel
  q(:, :, :jms+halo-1) = sentinel
  q(:, :, jte+1:) = sentinel
  a = sentinel
  b = sentinel
  c = sentinel
  cp = sentinel
  dp = sentinel

  worst_residual = 0.0_real64
  worst_drift = 0.0_real64
  do step = 1, nsteps
    q_old = q
    call vertical_diffusion(q, kv, dz, dt, a, b, c, cp, dp,          &
                            ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    call check_step(residual, drift)
    worst_residual = max(worst_residual, residual)
    worst_drift = max(worst_drift, drift)
  end do
  call check_tolerance(name, 'max residual', worst_residual, tolerance, 'wrong solution')
  call check_tolerance(name, 'max column drift', worst_drift, tolerance, 'column content not conserved')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_array('a', a)
  call s2s_dump_array('b', b)
  call s2s_dump_array('c', c)
  call s2s_dump_array('cp', cp)
  call s2s_dump_array('dp', dp)
  call s2s_dump_close()

contains

  ! Residual of A q = q_old relative to max |q_old|, and the largest relative
  ! change of a column's sum(q*dz), in double precision.
  subroutine check_step(residual, drift)
    real(real64), intent(out) :: residual, drift
    real(real64) :: r, qmax, before, after

    residual = 0.0_real64
    drift = 0.0_real64
    qmax = 0.0_real64
    do j = jts, jte
      do i = its, ite
        before = 0.0_real64
        after = 0.0_real64
        do k = kts, kte
          r = real(b(i,k,j), real64)*q(i,k,j) - q_old(i,k,j)
          if (k > kts) r = r + real(a(i,k,j), real64)*q(i,k-1,j)
          if (k < kte) r = r + real(c(i,k,j), real64)*q(i,k+1,j)
          residual = max(residual, abs(r))
          qmax = max(qmax, abs(real(q_old(i,k,j), real64)))
          before = before + real(q_old(i,k,j), real64)*dz(i,k,j)
          after = after + real(q(i,k,j), real64)*dz(i,k,j)
        end do
        drift = max(drift, abs(after - before)/abs(before))
      end do
    end do
    residual = residual/qmax
  end subroutine check_step

end program implicit_vertical_diffusion
