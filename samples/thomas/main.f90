! main.f90 -- driver of the Thomas sample: vertical implicit diffusion of a
! tracer, one tridiagonal solve per column and time step, with WRF-style
! bounds.  It checks the solution of the last solve (A x = d to 1e-5 of the
! largest |d|, computed on the host in double precision) and dumps x, cp and
! dp, whole (halo and unused top level included), so that the original build
! and the translated build can be compared element by element
! (tests/s2s_compare).  Points outside the tile hold a sentinel that the
! solver must not overwrite.
!
!   usage: thomas OUT.dat [NI NJ NK [STEPS]]
!          default: a 77 x 45 tile, 40 levels (39 solved), 4 steps
program thomas
  use module_thomas, only: thomas_solve
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none

  integer, parameter :: halo = 2           ! points beyond the tile in i and j
  real, parameter :: dt = 60.0             ! time step (s)
  ! Outside the tile, never written.  Not a huge value: s2s_compare's
  ! default absolute tolerance scales with the largest |element| of an array.
  ! x and dp are positive, and |cp| < 1 (diagonal dominance).
  real, parameter :: sentinel = -1.0
  real(real64), parameter :: tolerance = 1.0e-5_real64

  integer :: ids, ide, jds, jde, kds, kde
  integer :: ims, ime, jms, jme, kms, kme
  integer :: its, ite, jts, jte, kts, kte
  integer :: ni, nj, nk, nsteps, i, j, k, step
  real, allocatable :: a(:,:,:), b(:,:,:), c(:,:,:), d(:,:,:)
  real, allocatable :: x(:,:,:), cp(:,:,:), dp(:,:,:)
  real, allocatable :: dz(:), kw(:)
  real(real64) :: residual
  character(len=512) :: path

  ni = 77
  nj = 45
  nk = 40
  nsteps = 4
  call read_arguments()

  ! One tile covers the domain in i and j; memory adds a halo.  As for WRF's
  ! mass-point fields, the memory and the domain have nk levels and the tile
  ! solves the lowest nk-1 (kte = kde-1): level kme is never touched.
  ids = 1
  ide = ni
  jds = 1
  jde = nj
  kds = 1
  kde = nk
  its = ids
  ite = ide
  jts = jds
  jte = jde
  kts = kds
  kte = kde - 1
  ims = its - halo
  ime = ite + halo
  jms = jts - halo
  jme = jte + halo
  kms = kds
  kme = kde
  allocate(a(ims:ime, kms:kme, jms:jme), b(ims:ime, kms:kme, jms:jme),   &
           c(ims:ime, kms:kme, jms:jme), d(ims:ime, kms:kme, jms:jme),   &
           x(ims:ime, kms:kme, jms:jme), cp(ims:ime, kms:kme, jms:jme),  &
           dp(ims:ime, kms:kme, jms:jme))
  allocate(dz(kms:kme), kw(kms:kme))

  ! Layers thicken with height, from 40 m at the ground; kw(k) is the
  ! diffusivity at the interface between levels k and k+1 (m2/s), large in
  ! the boundary layer, small above.
  do k = kms, kme
    dz(k) = 40.0*1.08**(k - kms)
    kw(k) = 1.0 + 80.0*exp(-real(k - kms)/6.0)
  end do

  ! Coefficients of the implicit scheme (zero flux at the bottom and the top
  ! of the tile: a(kts) = c(kte) = 0).  b = 1 + |a| + |c| makes every system
  ! diagonally dominant.  The diffusivity varies a little with (i,j), so no
  ! two columns solve the same system.  Outside the tile: the identity.
  a = 0.0
  b = 1.0
  c = 0.0
  d = sentinel
  x = sentinel
  cp = sentinel
  dp = sentinel
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        if (k > kts) a(i,k,j) = -dt*kw(k-1)*(1.0 + 0.2*noise(i, k-1, j)) &
                                 /(dz(k)*0.5*(dz(k) + dz(k-1)))
        if (k < kte) c(i,k,j) = -dt*kw(k)*(1.0 + 0.2*noise(i, k, j))     &
                                 /(dz(k)*0.5*(dz(k) + dz(k+1)))
        b(i,k,j) = 1.0 - a(i,k,j) - c(i,k,j)
        ! A tracer (g/kg): a moist boundary layer, a dry layer above, and
        ! deterministic noise so that every point differs.
        d(i,k,j) = 8.0*exp(-real(k - kts)/8.0)                           &
                   *(1.0 + 0.3*sin(0.21*i)*cos(0.17*j)) + 0.5*noise(i, k, j) + 0.6
      end do
    end do
  end do

  ! Time steps: the solution of one step is the right-hand side of the next.
  do step = 1, nsteps
    if (step > 1) d(its:ite, kts:kte, jts:jte) = x(its:ite, kts:kte, jts:jte)
    call thomas_solve(a, b, c, d, x, cp, dp,                             &
                      ids,ide, jds,jde, kds,kde,                          &
                      ims,ime, jms,jme, kms,kme,                          &
                      its,ite, jts,jte, kts,kte)
  end do

  ! The last solve must satisfy A x = d.
  residual = max_residual()
  write(*,'(a,i0,a,i0,a,i0,a,i0,a,es16.8)') 'thomas: ', ni, ' x ', nj, ' x ', kte - kts + 1, &
       ', ', nsteps, ' solves, tile sum of x ', sum(real(x(its:ite, kts:kte, jts:jte), real64))
  write(*,'(a,es10.3,a,es10.3,a)') 'thomas: max |A x - d| / max |d| = ', residual, &
       ' (tolerance ', tolerance, ')'
  if (.not. (residual <= tolerance)) then
    write(*,'(a)') 'thomas: the solution does not solve the system'
    stop 1
  end if

  ! Every output, whole: the points outside the tile must still hold the
  ! sentinel.
  call s2s_dump_open(trim(path))
  call s2s_dump_array('x', x)
  call s2s_dump_array('cp', cp)
  call s2s_dump_array('dp', dp)
  call s2s_dump_close()

contains

  ! max over the tile of |a x(k-1) + b x(k) + c x(k+1) - d|, in double
  ! precision, relative to max |d|.
  real(real64) function max_residual()
    real(real64) :: r, dmax

    max_residual = 0.0_real64
    dmax = 0.0_real64
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          r = real(b(i,k,j), real64)*x(i,k,j) - d(i,k,j)
          if (k > kts) r = r + real(a(i,k,j), real64)*x(i,k-1,j)
          if (k < kte) r = r + real(c(i,k,j), real64)*x(i,k+1,j)
          max_residual = max(max_residual, abs(r))
          dmax = max(dmax, abs(real(d(i,k,j), real64)))
        end do
      end do
    end do
    if (dmax > 0.0_real64) max_residual = max_residual/dmax
  end function max_residual

  ! OUT.dat, then optional sizes and step count.
  subroutine read_arguments()
    integer :: nargs

    nargs = command_argument_count()
    if (nargs /= 1 .and. nargs /= 4 .and. nargs /= 5) then
      write(*,'(a)') 'usage: thomas OUT.dat [NI NJ NK [STEPS]]'
      stop 2
    end if
    call get_command_argument(1, path)
    if (nargs >= 4) then
      ni = int_argument(2, 1)
      nj = int_argument(3, 1)
      nk = int_argument(4, 3)
    end if
    if (nargs == 5) nsteps = int_argument(5, 1)
  end subroutine read_arguments

  integer function int_argument(n, lowest)
    integer, intent(in) :: n, lowest
    character(len=32) :: arg
    integer :: ios

    call get_command_argument(n, arg)
    read(arg, *, iostat=ios) int_argument
    if (ios /= 0 .or. int_argument < lowest) then
      write(*,'(a,a,a,i0)') 'thomas: bad argument ', trim(arg), ', want an integer >= ', lowest
      stop 2
    end if
  end function int_argument

  ! A deterministic "noise" in [-0.5, 0.5) from the grid index (no random
  ! numbers: the two builds must start from identical data).
  real function noise(i, k, j)
    integer, intent(in) :: i, k, j
    integer(int64), parameter :: p = 1000003_int64
    integer(int64) :: h

    h = modulo(73856093_int64*i + 19349663_int64*k + 83492791_int64*j, p)
    h = modulo(h*h + 12345_int64, p)
    noise = real(h)/real(p) - 0.5
  end function noise

end program thomas
