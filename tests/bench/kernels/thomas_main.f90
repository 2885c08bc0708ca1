! thomas_main.f90 -- driver of kernels.sh case 3 (samples/thomas/thomas.f90):
! the coefficients of the sample's implicit vertical diffusion (its main.f90)
! on a WRF tile with a halo of 2 and nk levels (nk-1 solved, as WRF's mass
! points), one call of the one-core build (thomas_solve_cpu: the sample's
! source, gfortran -O3) as the reference, then CALLS timed calls of the
! variant with every array resident on the device; x, cp and dp compared
! whole.  Each call solves the same system (no host work between calls).
!   usage: thomas [NI NJ NK [CALLS]]     default 512 512 64, 20 calls
program thomas_main
  use module_thomas, only: thomas_solve
  use module_thomas_cpu, only: thomas_solve_cpu
  use bench_util, only: read_sizes, clock_ms, report, compare, real64, int64
  implicit none
  integer, parameter :: halo = 2
  real, parameter :: dt = 60.0, sentinel = -1.0
  integer :: ids, ide, jds, jde, kds, kde
  integer :: ims, ime, jms, jme, kms, kme
  integer :: its, ite, jts, jte, kts, kte
  integer :: ni, nj, nk, ncalls, i, j, k, n
  real, allocatable, dimension(:,:,:) :: a, b, c, d, x, cp, dp, xr, cpr, dpr
  real, allocatable :: dz(:), kw(:)
  real(real64) :: t0, t1

  ni = 512
  nj = 512
  nk = 64
  ncalls = 20
  call read_sizes('thomas', ni, nj, nk, ncalls)
  if (nk < 3) then
    write(*,'(a)') 'thomas: NK must be 3 or more'
    stop 2
  end if
  ids = 1; ide = ni; jds = 1; jde = nj; kds = 1; kde = nk
  its = ids; ite = ide; jts = jds; jte = jde; kts = kds; kte = kde - 1
  ims = its - halo; ime = ite + halo
  jms = jts - halo; jme = jte + halo
  kms = kds; kme = kde
  allocate(a(ims:ime, kms:kme, jms:jme), b(ims:ime, kms:kme, jms:jme),   &
           c(ims:ime, kms:kme, jms:jme), d(ims:ime, kms:kme, jms:jme),   &
           x(ims:ime, kms:kme, jms:jme), cp(ims:ime, kms:kme, jms:jme),  &
           dp(ims:ime, kms:kme, jms:jme), xr(ims:ime, kms:kme, jms:jme), &
           cpr(ims:ime, kms:kme, jms:jme), dpr(ims:ime, kms:kme, jms:jme))
  allocate(dz(kms:kme), kw(kms:kme))
  do k = kms, kme
    dz(k) = 40.0*1.08**(k - kms)
    kw(k) = 1.0 + 80.0*exp(-real(k - kms)/6.0)
  end do
  a = 0.0
  b = 1.0
  c = 0.0
  d = sentinel
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        if (k > kts) a(i,k,j) = -dt*kw(k-1)*(1.0 + 0.2*noise(i, k-1, j)) &
                                 /(dz(k)*0.5*(dz(k) + dz(k-1)))
        if (k < kte) c(i,k,j) = -dt*kw(k)*(1.0 + 0.2*noise(i, k, j))     &
                                 /(dz(k)*0.5*(dz(k) + dz(k+1)))
        b(i,k,j) = 1.0 - a(i,k,j) - c(i,k,j)
        d(i,k,j) = 8.0*exp(-real(k - kts)/8.0)                           &
                   *(1.0 + 0.3*sin(0.21*i)*cos(0.17*j)) + 0.5*noise(i, k, j) + 0.6
      end do
    end do
  end do
  x = sentinel; cp = sentinel; dp = sentinel
  xr = sentinel; cpr = sentinel; dpr = sentinel
  call report('thomas', 'points', real(ni, real64)*nj*(kte - kts + 1))
  ! compulsory bytes: a, b, c, d read once, x, cp, dp (the routine's
  ! outputs) written once, over the tile
  call report('thomas', 'bytes', 4.0_real64*7.0_real64*real(ni, real64)*nj*(kte - kts + 1))

  t0 = clock_ms()
  call thomas_solve_cpu(a, b, c, d, xr, cpr, dpr, ids,ide, jds,jde, kds,kde, &
                        ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  call report('thomas', 'cpu_ms', clock_ms() - t0)

!$stencil data copyin(a, b, c, d) copy(x, cp, dp)
!$acc data copyin(a, b, c, d) copy(x, cp, dp)
  call thomas_solve(a, b, c, d, x, cp, dp, ids,ide, jds,jde, kds,kde,        &
                    ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)     ! warm-up
!$stencil update host(x(its:its,kts,jts))
!$acc update host(x(its:its,kts,jts))
  t0 = clock_ms()
  do n = 1, ncalls
    call thomas_solve(a, b, c, d, x, cp, dp, ids,ide, jds,jde, kds,kde,      &
                      ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  end do
  ! wait for the device (the translation queues its kernels)
!$stencil update host(x(its:its,kts,jts))
!$acc update host(x(its:its,kts,jts))
  t1 = clock_ms()
!$acc end data
!$stencil end data
  call report('thomas', 'calls', real(ncalls, real64))
  call report('thomas', 'ms_per_call', (t1 - t0)/ncalls)
  call compare('thomas', x, xr, 1.0e-4_real64)
  call compare('thomas', cp, cpr, 1.0e-4_real64)
  call compare('thomas', dp, dpr, 1.0e-4_real64)

contains

  ! the sample's deterministic noise in [-0.5, 0.5)
  real function noise(i, k, j)
    integer, intent(in) :: i, k, j
    integer(int64), parameter :: p = 1000003_int64
    integer(int64) :: h

    h = modulo(73856093_int64*i + 19349663_int64*k + 83492791_int64*j, p)
    h = modulo(h*h + 12345_int64, p)
    noise = real(h)/real(p) - 0.5
  end function noise

end program thomas_main
