! Driver of implicit-vertical-diffusion: three implicit steps; after each,
! the host checks that the new q solves the system built from the old q
! (relative residual <= 1e-5) and that every column keeps its content
! sum(q*dz) (zero-flux boundaries: relative change <= 1e-5).  Dumps q and
! every work array, whole: outside the tile they keep a sentinel.
program implicit_vertical_diffusion
  use ivd_kernel, only: vertical_diffusion
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none
  integer, parameter :: ni = 45, nj = 29, nk = 28, halo = 2, nsteps = 3
  real, parameter :: dt = 30.0, sentinel = -1.0
  real(real64), parameter :: tolerance = 1.0e-5_real64

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k, step
  real, allocatable :: q(:,:,:), q_old(:,:,:), kv(:,:,:), dz(:,:,:)
  real, allocatable :: a(:,:,:), b(:,:,:), c(:,:,:), cp(:,:,:), dp(:,:,:)
  real(real64) :: residual, drift, worst_residual, worst_drift
  character(len=512) :: path

  if (command_argument_count() /= 1) then
    write(*,'(a)') 'usage: prog OUT.dat'
    stop 2
  end if
  call get_command_argument(1, path)

  its = 1
  ite = ni
  jts = 1
  jte = nj
  kts = 1
  kte = nk - 1
  ims = its - halo
  ime = ite + halo
  jms = jts - halo
  jme = jte + halo
  kms = 1
  kme = nk
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
  write(*,'(a,es10.3,a,es10.3,a,es10.3,a)') 'implicit-vertical-diffusion: max residual ', &
       worst_residual, ', max column drift ', worst_drift, ' (tolerance ', tolerance, ')'
  if (.not. (worst_residual <= tolerance .and. worst_drift <= tolerance)) then
    write(*,'(a)') 'implicit-vertical-diffusion: wrong solution'
    stop 1
  end if

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

  ! Deterministic noise in [-0.5, 0.5) from three integers.
  real function noise(i, k, j)
    integer, intent(in) :: i, k, j
    integer(int64), parameter :: p = 1000003_int64
    integer(int64) :: h

    h = modulo(73856093_int64*i + 19349663_int64*k + 83492791_int64*j, p)
    h = modulo(h*h + 12345_int64, p)
    noise = real(h)/real(p) - 0.5
  end function noise

end program implicit_vertical_diffusion
