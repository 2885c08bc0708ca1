! main_mpi.f90 -- the wsm5 sample decomposed over MPI ranks as WRF
! decomposes its domain: each rank owns a band of j (its tile jts:jte) of
! the NI x NJ domain, with the serial driver's atmosphere on it (the same
! values at the same global (i, j)), and runs the same calls on it, on the
! GPU of its node-local rank.  Column physics needs no halo exchange.
! Built with S2S_FC=mpif90, run with `mpirun -np N`; rank 0 gathers every
! output field and writes the serial driver's dump (main.f90), which the
! two must agree on.  The time loop is timed between barriers: the slowest
! rank's time, data region included.
!
!   usage: mpirun -np N wsm5_mpi OUT.dat [NI NJ NK [STEPS]]   (default 100 80 40, 4 steps)
program wsm5_mpi
  use mpi
  use module_wsm5_kinds, only: kind_phys
  use module_wsm5_constants, only: rd, g, p0, rcp, psat, ep2, t0c
  use module_mp_wsm5s, only: wsm5init, wsm5
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none

  integer, parameter :: halo = 2                       ! points beyond the tile in i and j
  real(kind_phys), parameter :: sentinel = -1.         ! outside the tile: never touched
  real(kind_phys), parameter :: delt = 180.            ! time step (s): two minor steps
  real(real64), parameter :: tol_total = 1.e-5_real64  ! conservation, whole tile (relative)
  real(real64), parameter :: tol_column = 1.e-4_real64 ! conservation, each column (relative)
  real(real64), parameter :: twopi = 6.283185307179586_real64

  integer :: ids, ide, jds, jde, kds, kde
  integer :: ims, ime, jms, jme, kms, kme
  integer :: its, ite, jts, jte, kts, kte
  integer :: ni, nj, nk, nsteps, i, j, k, step, nsuper
  real(kind_phys), allocatable, dimension(:,:,:) :: th, q, qc, qr, qi, qs, den, p, delz
  real(kind_phys), allocatable, dimension(:,:) :: rain, rainncv, sr, snow, snowncv
  real(real64), allocatable :: wcol0(:,:)
  real(real64) :: w0, w1, wc, errcol, errtot, qneg, tmin, tmax, tsum
  integer(int64) :: c0, c1, rate, loop0, loop1
  character(len=512) :: path
  integer :: ierr, rank, nranks

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  ni = 100
  nj = 80
  nk = 40
  nsteps = 4
  call read_arguments()

  ! One tile covers the domain; memory adds a halo in i and j, and one
  ! level on top (WRF's staggered kde), none of which the physics touches.
  ids = 1;  ide = ni
  jds = 1;  jde = nj
  kds = 1;  kde = nk + 1
  its = ids; ite = ide
  call band(rank, jts, jte)
  kts = kds; kte = kde - 1
  ims = its - halo; ime = ite + halo
  jms = jts - halo; jme = jte + halo
  kms = kds; kme = kde
  allocate(th(ims:ime, kms:kme, jms:jme), q(ims:ime, kms:kme, jms:jme),       &
           qc(ims:ime, kms:kme, jms:jme), qr(ims:ime, kms:kme, jms:jme),      &
           qi(ims:ime, kms:kme, jms:jme), qs(ims:ime, kms:kme, jms:jme),      &
           den(ims:ime, kms:kme, jms:jme), p(ims:ime, kms:kme, jms:jme),      &
           delz(ims:ime, kms:kme, jms:jme))
  allocate(rain(ims:ime, jms:jme), rainncv(ims:ime, jms:jme), sr(ims:ime, jms:jme), &
           snow(ims:ime, jms:jme), snowncv(ims:ime, jms:jme))
  allocate(wcol0(its:ite, jts:jte))

  call wsm5init
  call set_atmosphere()

  ! water in every column (kg m-2) before the physics
  do j = jts, jte
    do i = its, ite
      wcol0(i,j) = column_water(i, j)
    end do
  end do
  w0 = sum(wcol0)
  write(*,'(a,i0,a,i0,a,i0,a,i0,a,f6.1,a)') 'wsm5: ', ni, ' x ', nj, ' x ', nk, &
       ', ', nsteps, ' steps of ', delt, ' s'
  write(*,'(a,i0,a,es14.6,a)') 'wsm5: ', nsuper, ' supersaturated points, water ', &
       w0/real(ni*nj, real64), ' kg m-2 per column'

  call system_clock(count_rate=rate)
  ! Start-up before the timed loop: the first data directive of a port sets
  ! up the device (a CUDA context takes a few hundred milliseconds).
!$stencil data copyin(den)
!$stencil end data
  ! The whole time loop is timed too: a port may queue a call's work and
  ! return before it is done (the data region's end waits for it).
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call system_clock(loop0)
!$stencil data copy(th, q, qc, qr, qi, qs, rain, rainncv, sr, snow, snowncv) copyin(den, p, delz)
  do step = 1, nsteps
    call system_clock(c0)
    call wsm5(th, q, qc, qr, qi, qs, den, p, delz, delt,                       &
              rain, rainncv, sr,                                               &
              ids, ide, jds, jde, kds, kde,                                    &
              ims, ime, jms, jme, kms, kme,                                    &
              its, ite, jts, jte, kts, kte,                                    &
              snow=snow, snowncv=snowncv)
    call system_clock(c1)
    write(*,'(a,i0,a,f10.3,a)') 'wsm5: call ', step, ': ', &
         1.e3_real64*real(c1 - c0, real64)/real(rate, real64), ' ms'
  end do
!$stencil end data
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  call system_clock(loop1)
  if (rank == 0) write(*,'(a,i0,a,i0,a,f10.3,a)') 'wsm5: time loop (', nsteps, &
       ' calls, data region included) on ', nranks, ' ranks: ', &
       1.e3_real64*real(loop1 - loop0, real64)/real(rate, real64), ' ms'

  !--- checks ------------------------------------------------------------------
  errcol = 0.
  w1 = 0.
  do j = jts, jte
    do i = its, ite
      wc = column_water(i, j) + real(rain(i,j), real64)
      w1 = w1 + wc
      errcol = max(errcol, abs(wc - wcol0(i,j))/wcol0(i,j))
    end do
  end do
  errtot = abs(w1 - w0)/w0
  qneg = min(minval(q(its:ite, kts:kte, jts:jte)), minval(qc(its:ite, kts:kte, jts:jte)), &
             minval(qr(its:ite, kts:kte, jts:jte)), minval(qi(its:ite, kts:kte, jts:jte)), &
             minval(qs(its:ite, kts:kte, jts:jte)))
  tmin = 1.e30_real64
  tmax = -1.e30_real64
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        tsum = th(i,k,j)*(p(i,k,j)/p0)**rcp
        tmin = min(tmin, tsum)
        tmax = max(tmax, tsum)
      end do
    end do
  end do
  write(*,'(a,es12.4,a,es12.4,a,es12.4)') 'wsm5: precipitation (mm) mean ', &
       sum(real(rain(its:ite, jts:jte), real64))/real(ni*nj, real64),            &
       ', max ', maxval(rain(its:ite, jts:jte)), ', snow mean ',                 &
       sum(real(snow(its:ite, jts:jte), real64))/real(ni*nj, real64)
  write(*,'(a,es10.3,a,es10.3,a,es11.3,a,f7.2,a,f7.2)') 'wsm5: water conservation error: total ', &
       errtot, ', worst column ', errcol, '; min mixing ratio ', qneg,            &
       '; t in ', tmin, ' .. ', tmax
  if (.not. all_finite()) call fail('a field holds NaN or Inf')
  if (qneg < 0.) call fail('a mixing ratio is negative')
  if (errtot > tol_total) call fail('water not conserved over the tile')
  if (errcol > tol_column) call fail('water not conserved in a column')
  if (tmin < 150. .or. tmax > 350.) call fail('temperature out of range')
  if (minval(sr(its:ite, jts:jte)) < 0. .or. maxval(sr(its:ite, jts:jte)) > 1.) &
    call fail('snow ratio out of [0,1]')
  if (any(snow(its:ite, jts:jte) > rain(its:ite, jts:jte)*1.0001 + 1.e-6)) &
    call fail('more snow than precipitation')
  write(*,'(a)') 'wsm5: checks passed'

  !--- every output field, whole --------------------------------------------------
  if (rank == 0) call s2s_dump_open(trim(path))
  call gather_3d('th', th)
  call gather_3d('q', q)
  call gather_3d('qc', qc)
  call gather_3d('qr', qr)
  call gather_3d('qi', qi)
  call gather_3d('qs', qs)
  call gather_2d('rain', rain)
  call gather_2d('rainncv', rainncv)
  call gather_2d('sr', sr)
  call gather_2d('snow', snow)
  call gather_2d('snowncv', snowncv)
  if (rank == 0) call s2s_dump_close()
  call MPI_Finalize(ierr)

contains

  ! Rows jts:jte of rank r: nj split as evenly as possible.
  subroutine band(r, j0, j1)
    integer, intent(in) :: r
    integer, intent(out) :: j0, j1
    integer :: base, extra
    base = nj / nranks
    extra = mod(nj, nranks)
    j0 = jds + r*base + min(r, extra)
    j1 = j0 + base - 1
    if (r < extra) j1 = j1 + 1
  end subroutine band

  ! Field f of every rank's band into the serial driver's whole array on
  ! rank 0 (sentinel outside the tiles, as there), dumped under `name`.
  subroutine gather_3d(name, f)
    character(len=*), intent(in) :: name
    real(kind_phys), intent(in) :: f(ims:ime, kms:kme, jms:jme)
    real(kind_phys), allocatable :: g(:,:,:)
    integer :: r, j0, j1, n, status(MPI_STATUS_SIZE)
    n = (ime - ims + 1)*(kme - kms + 1)
    if (rank /= 0) then
      call MPI_Send(f(ims, kms, jts), n*(jte - jts + 1), MPI_REAL, 0, 7, MPI_COMM_WORLD, ierr)
      return
    end if
    allocate(g(ims:ime, kms:kme, jds-halo:jde+halo))
    g = sentinel
    g(:, :, jts:jte) = f(:, :, jts:jte)
    do r = 1, nranks - 1
      call band(r, j0, j1)
      call MPI_Recv(g(ims, kms, j0), n*(j1 - j0 + 1), MPI_REAL, r, 7, MPI_COMM_WORLD, status, ierr)
    end do
    call s2s_dump_array(name, g)
  end subroutine gather_3d

  subroutine gather_2d(name, f)
    character(len=*), intent(in) :: name
    real(kind_phys), intent(in) :: f(ims:ime, jms:jme)
    real(kind_phys), allocatable :: g(:,:)
    integer :: r, j0, j1, n, status(MPI_STATUS_SIZE)
    n = ime - ims + 1
    if (rank /= 0) then
      call MPI_Send(f(ims, jts), n*(jte - jts + 1), MPI_REAL, 0, 8, MPI_COMM_WORLD, ierr)
      return
    end if
    allocate(g(ims:ime, jds-halo:jde+halo))
    g = sentinel
    g(:, jts:jte) = f(:, jts:jte)
    do r = 1, nranks - 1
      call band(r, j0, j1)
      call MPI_Recv(g(ims, j0), n*(j1 - j0 + 1), MPI_REAL, r, 8, MPI_COMM_WORLD, status, ierr)
    end do
    call s2s_dump_array(name, g)
  end subroutine gather_2d

  ! The analytic atmosphere.  Outside the tile every field holds the
  ! sentinel: the physics must leave it alone.
  subroutine set_atmosphere()
    real(real64) :: x, y, z, zc, dz, tsfc, tk, ps, pint, pk, rh, es, qsat, s1, s2, s3, s4
    th = sentinel; q = sentinel; qc = sentinel; qr = sentinel; qi = sentinel
    qs = sentinel; den = sentinel; p = sentinel; delz = sentinel
    rain = sentinel; rainncv = sentinel; sr = sentinel; snow = sentinel; snowncv = sentinel
    nsuper = 0
    do j = jts, jte
      do i = its, ite
        rain(i,j) = 0.; rainncv(i,j) = 0.; sr(i,j) = 0.
        snow(i,j) = 0.; snowncv(i,j) = 0.
        x = real(i - ids, real64)/real(ni, real64)            ! 0 .. 1 across the domain
        y = real(j - jds, real64)/real(nj, real64)
        s1 = sin(twopi*x)*cos(twopi*y)                         ! -1 .. 1, smooth
        s2 = 0.5_real64 + 0.5_real64*sin(twopi*(1.3_real64*x + 0.7_real64*y))   ! 0 .. 1
        s3 = max(0._real64, sin(twopi*(x - 0.4_real64*y) + 0.3_real64))        ! rain: 0 in places
        s4 = max(0._real64, cos(twopi*(0.8_real64*x + y)))                      ! snow: 0 in places
        tsfc = 284._real64 + 14._real64*s1                   ! 270 .. 298 K
        ps = 1.0e5_real64 - 1500._real64*(1._real64 + s1)
        pint = ps
        z = 0._real64
        do k = kts, kte
          dz = 150._real64 + 12._real64*(k - kts) + 10._real64*s2
          zc = z + 0.5_real64*dz
          tk = max(tsfc - 6.5e-3_real64*zc, tsfc - 6.5e-3_real64*11000._real64)
          pk = pint*exp(-g*0.5_real64*dz/(rd*tk))
          pint = pint*exp(-g*dz/(rd*tk))
          z = z + dz
          delz(i,k,j) = real(dz, kind_phys)
          p(i,k,j) = real(pk, kind_phys)
          den(i,k,j) = real(pk/(rd*tk), kind_phys)
          th(i,k,j) = real(tk*(p0/pk)**rcp, kind_phys)
          ! relative humidity over water: a moist boundary layer (up to 104 %),
          ! saturated in the cloud layer, drier aloft
          rh = 0.6_real64 + 0.3_real64*s2
          rh = rh + (0.38_real64 + 0.06_real64*s1 - 0.3_real64*s2)*exp(-(zc/1500._real64)**2)
          if (zc > 1500._real64 .and. zc < 4500._real64) rh = max(rh, 0.97_real64 + 0.04_real64*s1)
          rh = rh*exp(-max(zc - 9000._real64, 0._real64)/3000._real64)
          es = psat*exp(17.67_real64*(tk - t0c)/(tk - 29.65_real64))
          qsat = ep2*es/(pk - es)
          q(i,k,j) = real(rh*qsat, kind_phys)
          if (rh > 1._real64) nsuper = nsuper + 1
          ! cloud water, 1.5 .. 4.5 km, where warmer than -20 C
          qc(i,k,j) = 0.
          if (tk > t0c - 20._real64) qc(i,k,j) = real(4.e-4_real64*s2*bump(zc, 3000._real64, 1200._real64), kind_phys)
          ! cloud ice around 8 km, where colder than -15 C
          qi(i,k,j) = 0.
          if (tk < t0c - 15._real64) qi(i,k,j) = real(6.e-5_real64*(1._real64 - s2)*bump(zc, 8000._real64, 2000._real64), kind_phys)
          ! rain around 3 km; snow around 6 km, lower (down to 1.5 km) where
          ! the surface is cold, so that it reaches the ground there
          qr(i,k,j) = real(1.2e-3_real64*s3*bump(zc, 3000._real64, 1500._real64), kind_phys)
          qs(i,k,j) = real(8.e-4_real64*s4*bump(zc, 3750._real64 + 2250._real64*s1, 2000._real64), &
                           kind_phys)
        end do
      end do
    end do
  end subroutine set_atmosphere

  ! exp(-((z - zc)/w)**2), cut below 1e-6 so that the classes vanish cleanly
  real(real64) function bump(z, zc, w)
    real(real64), intent(in) :: z, zc, w
    bump = exp(-((z - zc)/w)**2)
    if (bump < 1.e-6_real64) bump = 0._real64
  end function bump

  ! water of all classes in column (i,j), kg m-2, in double precision
  real(real64) function column_water(i, j)
    integer, intent(in) :: i, j
    integer :: kk
    column_water = 0.
    do kk = kts, kte
      column_water = column_water + real(delz(i,kk,j), real64)*real(den(i,kk,j), real64) &
                     *(real(q(i,kk,j), real64) + real(qc(i,kk,j), real64)               &
                       + real(qi(i,kk,j), real64) + real(qr(i,kk,j), real64)            &
                       + real(qs(i,kk,j), real64))
    end do
  end function column_water

  logical function all_finite()
    real(kind_phys) :: big
    big = huge(1._kind_phys)
    all_finite = all(abs(th) <= big) .and. all(abs(q) <= big) .and. all(abs(qc) <= big) &
           .and. all(abs(qr) <= big) .and. all(abs(qi) <= big) .and. all(abs(qs) <= big) &
           .and. all(abs(rain) <= big) .and. all(abs(rainncv) <= big)                    &
           .and. all(abs(sr) <= big) .and. all(abs(snow) <= big) .and. all(abs(snowncv) <= big)
  end function all_finite

  subroutine fail(what)
    character(len=*), intent(in) :: what
    write(*,'(a,i0,a,a)') 'wsm5: rank ', rank, ': check failed: ', what
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end subroutine fail

  ! OUT.dat, then optional sizes and step count.
  subroutine read_arguments()
    integer :: nargs
    nargs = command_argument_count()
    if (nargs /= 1 .and. nargs /= 4 .and. nargs /= 5) then
      write(*,'(a)') 'usage: wsm5 OUT.dat [NI NJ NK [STEPS]]'
      stop 2
    end if
    call get_command_argument(1, path)
    if (nargs >= 4) then
      ni = int_argument(2, 1)
      nj = int_argument(3, 1)
      nk = int_argument(4, 2)
    end if
    if (nargs == 5) nsteps = int_argument(5, 0)
  end subroutine read_arguments

  integer function int_argument(n, lowest)
    integer, intent(in) :: n, lowest
    character(len=32) :: arg
    integer :: ios
    call get_command_argument(n, arg)
    read(arg, *, iostat=ios) int_argument
    if (ios /= 0 .or. int_argument < lowest) then
      write(*,'(a,a,a,i0)') 'wsm5: bad argument ', trim(arg), ', want an integer >= ', lowest
      stop 2
    end if
  end function int_argument

end program wsm5_mpi
