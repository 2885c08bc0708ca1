! main_mpi.f90 -- the diffusion sample decomposed over MPI ranks as WRF
! decomposes its domain: each rank owns a band of j (its tile jts:jte), holds
! it with a halo of 3 points in memory, and computes the same steps as
! main.f90 on it.  Built with Debian's Open MPI as the host compiler
! (S2S_FC=mpif90), run with `mpirun -np N`; each rank's runtime takes the
! GPU of its node-local rank (one rank per GPU).
!
!   usage: mpirun -np N diffusion_mpi OUT.dat [NI NJ NK [STEPS]]
!          default: 100 x 60 x 35, 10 steps (the serial sample's)
!
! Inside the data region around the time loop, t lives on the device.
! Each step the ranks exchange their edge planes: `update host` of the
! planes the neighbours need, MPI on the host, `update device` of the halo
! planes received (the halo is staged through the host; every plane
! t(:,:,j) is contiguous, so each update moves one block).  As WRF's halo
! exchanges do, a step exchanges only the width its stencil reads (`width`:
! horizontal_diffusion reads t at j-1 and j+1), not the whole memory halo.
! The exchange overlaps the interior: the copies of the edge planes are
! queued (`update host ... async`), then the diffusion of every row that
! needs no halo from a neighbour and the update of every row that no edge
! row's diffusion reads; the host posts its receives, waits for its planes
! only (`wait`), sends, and queues the halo planes, the edge rows next to
! a neighbour and their update, which follow on the GPU once the halo is
! there.  The runtime copies the planes on a stream of their own, beside
! the interior's kernels (they write no row the copies read), so the GPU
! spends on the exchange only the halo planes' copy and the edge rows.
! With an MPI that reads and writes device memory (a CUDA-aware MPI:
! s2s_mpi_device_aware() asks the library, S2S_MPI_DEVICE=0 or 1 decides)
! the planes go from device to device instead: inside `host_data
! use_device(t)` the name t stands for the device copy, MPI is handed its
! planes, and every row is diffused and updated once the halo is there
! (the construct waits for the kernels queued before it).
! The domain's own edges keep their initial halo (a fixed boundary, as in
! the serial sample).  At the end rank 0 gathers t and tend
! and writes the same dump as the serial driver: the two must agree bit for
! bit, which tests/mpi.sh checks against the serial program built with
! gfortran.
program diffusion_mpi
  use mpi
  use module_diffusion, only: horizontal_diffusion, update_t
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use, intrinsic :: iso_fortran_env, only: int64, real64
  use, intrinsic :: iso_c_binding, only: c_int
  implicit none
  interface
    ! the s2s-cuda runtime: does MPI read and write device memory?
    integer(c_int) function s2s_mpi_device_aware() bind(C, name="s2s_mpi_device_aware")
      import :: c_int
    end function s2s_mpi_device_aware
  end interface

  integer, parameter :: halo = 3           ! points beyond the tile in i and j
  integer, parameter :: width = 1          ! planes the stencil reads beyond the tile in j
  real, parameter :: kh = 2.0e4            ! horizontal diffusivity (m2/s)
  real, parameter :: dt = 40.0             ! time step (s)
  real, parameter :: pi = 3.14159265

  integer :: ids, ide, jds, jde, kds, kde
  integer :: ims, ime, jms, jme, kms, kme
  integer :: its, ite, jts, jte, kts, kte
  integer :: ni, nj, nk, nsteps, step, ierr, rank, nranks, south, north
  integer :: j0, j1                        ! rows diffused before the halo arrives
  integer :: u0, u1                        ! rows updated before the halo arrives
  integer :: requests(4)                   ! the halo exchange's receives and sends
  real, allocatable :: t(:,:,:), tend(:,:,:)
  real(real64) :: t0, t1, tw, t_queue, t_wait, t_mpi, t_halo, t_rest   ! host time in a step's parts
  logical :: device_mpi                    ! MPI exchanges the device's planes
  character(len=512) :: path

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, rank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, nranks, ierr)
  ni = 100
  nj = 60
  nk = 35
  nsteps = 10
  call read_arguments()
  device_mpi = s2s_mpi_device_aware() /= 0
  if (nj / nranks < halo) then
    if (rank == 0) write(*,'(a,i0,a,i0,a)') 'diffusion_mpi: ', nj, ' rows for ', nranks, &
                                           ' ranks: each needs at least 3'
    call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
  end if

  ! The domain, and this rank's band of j: as even as the division allows.
  ids = 1
  ide = ni
  jds = 1
  jde = nj
  kds = 1
  kde = nk
  call band(rank, jts, jte)
  its = ids
  ite = ide
  kts = kds
  kte = kde
  ims = its - halo
  ime = ite + halo
  jms = jts - halo
  jme = jte + halo
  kms = kds
  kme = kde
  south = merge(MPI_PROC_NULL, rank - 1, rank == 0)
  north = merge(MPI_PROC_NULL, rank + 1, rank == nranks - 1)
  j0 = merge(jts, jts + 1, south == MPI_PROC_NULL)
  j1 = merge(jte, jte - 1, north == MPI_PROC_NULL)
  ! An edge row's diffusion reads t one row further in: those rows are
  ! updated after it (all rows, when a band is too narrow to have others).
  u0 = merge(jts, jts + 2, south == MPI_PROC_NULL)
  u1 = merge(jte, jte - 2, north == MPI_PROC_NULL)
  if (u0 > u1) then
    u0 = jte + 1
    u1 = jte
  end if
  allocate(t(ims:ime, kms:kme, jms:jme), tend(ims:ime, kms:kme, jms:jme))
  call initial_field(t, ims, ime, jms, jme)   ! halo included: the same values as serial
  tend = 0.0

  ! Start-up before the timed loop: the first data directive sets up the
  ! device (a CUDA context takes a few hundred milliseconds).
!$stencil data copyin(t)
!$stencil end data
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t0 = MPI_Wtime()
  t_wait = 0.0_real64
  t_mpi = 0.0_real64
  t_halo = 0.0_real64
  t_queue = 0.0_real64
  t_rest = 0.0_real64
!$stencil data copy(t) create(tend)
  do step = 1, nsteps
    tw = MPI_Wtime()
    if (device_mpi) then
      ! MPI moves the planes between the device copies of t.
!$stencil host_data use_device(t)
      call exchange_planes(t)
!$stencil end host_data
      t_mpi = t_mpi + (MPI_Wtime() - tw)
      tw = MPI_Wtime()
      call horizontal_diffusion(t, tend, kh,                             &
                                ids,ide, jds,jde, kds,kde,                &
                                ims,ime, jms,jme, kms,kme,                &
                                its,ite, jts,jte, kts,kte)
      call update_t(t, tend, dt,                                         &
                    ids,ide, jds,jde, kds,kde,                            &
                    ims,ime, jms,jme, kms,kme,                            &
                    its,ite, jts,jte, kts,kte)
      t_rest = t_rest + (MPI_Wtime() - tw)
      cycle
    end if
    ! The edge planes the neighbours need, to the host (the device copy of
    ! t is current, the host's is not), queued: the host does not wait.
    if (south /= MPI_PROC_NULL) then
!$stencil update host(t(ims:ime, kms:kme, jts:jts+width-1)) async
    end if
    if (north /= MPI_PROC_NULL) then
!$stencil update host(t(ims:ime, kms:kme, jte-width+1:jte)) async
    end if
    ! The rows that need no halo from a neighbour (an edge row at the
    ! domain's boundary reads the fixed halo), and the update of the rows
    ! no edge row reads: their kernels run on the GPU while the host waits
    ! for the copies and exchanges the halo planes with the neighbours.
    call horizontal_diffusion(t, tend, kh,                             &
                              ids,ide, jds,jde, kds,kde,                &
                              ims,ime, jms,jme, kms,kme,                &
                              its,ite, j0,j1, kts,kte)
    call update_t(t, tend, dt,                                         &
                  ids,ide, jds,jde, kds,kde,                            &
                  ims,ime, jms,jme, kms,kme,                            &
                  its,ite, u0,u1, kts,kte)
    call post_receives()
    t_queue = t_queue + (MPI_Wtime() - tw)
    tw = MPI_Wtime()
!$stencil wait
    t_wait = t_wait + (MPI_Wtime() - tw)
    tw = MPI_Wtime()
    call send_and_complete()
    t_mpi = t_mpi + (MPI_Wtime() - tw)
    tw = MPI_Wtime()
    if (south /= MPI_PROC_NULL) then
!$stencil update device(t(ims:ime, kms:kme, jts-width:jts-1))
    end if
    if (north /= MPI_PROC_NULL) then
!$stencil update device(t(ims:ime, kms:kme, jte+1:jte+width))
    end if
    t_halo = t_halo + (MPI_Wtime() - tw)
    tw = MPI_Wtime()
    ! The edge rows next to a neighbour, which read the halo just received,
    ! then the update of the rows left: jts:u0-1 and u1+1:jte.
    if (south /= MPI_PROC_NULL) call horizontal_diffusion(t, tend, kh,  &
                              ids,ide, jds,jde, kds,kde,                &
                              ims,ime, jms,jme, kms,kme,                &
                              its,ite, jts,jts, kts,kte)
    if (north /= MPI_PROC_NULL) call horizontal_diffusion(t, tend, kh,  &
                              ids,ide, jds,jde, kds,kde,                &
                              ims,ime, jms,jme, kms,kme,                &
                              its,ite, jte,jte, kts,kte)
    if (u0 > jts) call update_t(t, tend, dt,                           &
                  ids,ide, jds,jde, kds,kde,                            &
                  ims,ime, jms,jme, kms,kme,                            &
                  its,ite, jts,u0-1, kts,kte)
    if (u1 < jte .and. u1 >= u0) call update_t(t, tend, dt,            &
                  ids,ide, jds,jde, kds,kde,                            &
                  ims,ime, jms,jme, kms,kme,                            &
                  its,ite, u1+1,jte, kts,kte)
    t_rest = t_rest + (MPI_Wtime() - tw)
  end do
!$stencil update host(tend)
!$stencil end data
  call MPI_Barrier(MPI_COMM_WORLD, ierr)
  t1 = MPI_Wtime()

  call gather_and_dump()
  if (rank == 0) write(*,'(a,i0,a,i0,a,i0,a,i0,a,i0,a,f10.3,a)') 'diffusion_mpi: ', ni, ' x ', &
       nj, ' x ', nk, ', ', nsteps, ' steps on ', nranks, ' ranks: ', (t1 - t0)*1.0e3, ' ms'
  if (rank == 0 .and. device_mpi) write(*,'(a)') &
       'diffusion_mpi: halo planes exchanged between the device copies (MPI reads device memory)'
  if (rank == 0 .and. .not. device_mpi) write(*,'(a)') &
       'diffusion_mpi: halo planes staged through the host (update host, MPI, update device)'
  ! Where rank 0's host spent each step (microseconds): queuing the edge
  ! planes' copies and the interior's kernel (and posting the receives),
  ! waiting for the planes, sending and completing the messages, queuing
  ! the halo planes, queuing the last kernels.
  if (rank == 0) write(*,'(a,5(f9.1,a))') 'diffusion_mpi: per step on rank 0: queue', &
       t_queue/nsteps*1.0e6, ' us, wait', t_wait/nsteps*1.0e6, ' us, exchange', &
       t_mpi/nsteps*1.0e6, ' us, update device', t_halo/nsteps*1.0e6, ' us, kernels', &
       t_rest/nsteps*1.0e6, ' us'
  call MPI_Finalize(ierr)

contains

  ! Rows jts:jte of rank r: nj split as evenly as possible, the first
  ! mod(nj, nranks) ranks one row more.
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

  ! On the host: the neighbours' edge planes into the halo.  The receives
  ! are posted before the host waits for its own planes, so that a
  ! neighbour's send finds them; MPI_PROC_NULL makes the domain's edges no-ops.
  subroutine post_receives()
    integer :: n
    n = (ime - ims + 1)*(kme - kms + 1)*width
    call MPI_Irecv(t(ims, kms, jts-width), n, MPI_REAL, south, 1, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Irecv(t(ims, kms, jte+1), n, MPI_REAL, north, 2, MPI_COMM_WORLD, requests(2), ierr)
  end subroutine post_receives

  ! The whole exchange on the planes of f (inside host_data, the device
  ! copy of t): the receives into the halo, the sends of the edge planes.
  subroutine exchange_planes(f)
    real, intent(inout) :: f(ims:ime, kms:kme, jms:jme)
    integer :: n, statuses(MPI_STATUS_SIZE, 4)
    n = (ime - ims + 1)*(kme - kms + 1)*width
    call MPI_Irecv(f(ims, kms, jts-width), n, MPI_REAL, south, 1, MPI_COMM_WORLD, requests(1), ierr)
    call MPI_Irecv(f(ims, kms, jte+1), n, MPI_REAL, north, 2, MPI_COMM_WORLD, requests(2), ierr)
    call MPI_Isend(f(ims, kms, jte-width+1), n, MPI_REAL, north, 1, MPI_COMM_WORLD, requests(3), ierr)
    call MPI_Isend(f(ims, kms, jts), n, MPI_REAL, south, 2, MPI_COMM_WORLD, requests(4), ierr)
    call MPI_Waitall(4, requests, statuses, ierr)
  end subroutine exchange_planes

  ! The edge planes to the neighbours, then wait for all four messages.
  subroutine send_and_complete()
    integer :: n, statuses(MPI_STATUS_SIZE, 4)
    n = (ime - ims + 1)*(kme - kms + 1)*width
    call MPI_Isend(t(ims, kms, jte-width+1), n, MPI_REAL, north, 1, MPI_COMM_WORLD, requests(3), ierr)
    call MPI_Isend(t(ims, kms, jts), n, MPI_REAL, south, 2, MPI_COMM_WORLD, requests(4), ierr)
    call MPI_Waitall(4, requests, statuses, ierr)
  end subroutine send_and_complete

  ! Rank 0 assembles the whole field (its halo rows as initialised, the
  ! other rows from their owners) and writes the serial driver's dump.
  subroutine gather_and_dump()
    real, allocatable :: tall(:,:,:), tendall(:,:,:)
    integer :: r, j0, j1, n, status(MPI_STATUS_SIZE)
    n = (ime - ims + 1)*(kme - kms + 1)
    if (rank /= 0) then
      call MPI_Send(t(ims, kms, jts), n*(jte - jts + 1), MPI_REAL, 0, 3, MPI_COMM_WORLD, ierr)
      call MPI_Send(tend(ims, kms, jts), n*(jte - jts + 1), MPI_REAL, 0, 4, MPI_COMM_WORLD, ierr)
      return
    end if
    allocate(tall(ims:ime, kms:kme, jds-halo:jde+halo), tendall(ims:ime, kms:kme, jds:jde))
    call initial_field(tall, ims, ime, jds-halo, jde+halo)
    tall(:, :, jts:jte) = t(:, :, jts:jte)
    tendall(:, :, jts:jte) = tend(:, :, jts:jte)
    do r = 1, nranks - 1
      call band(r, j0, j1)
      call MPI_Recv(tall(ims, kms, j0), n*(j1 - j0 + 1), MPI_REAL, r, 3, MPI_COMM_WORLD, status, ierr)
      call MPI_Recv(tendall(ims, kms, j0), n*(j1 - j0 + 1), MPI_REAL, r, 4, MPI_COMM_WORLD, &
                    status, ierr)
    end do
    write(*,'(a,es16.8)') 'diffusion_mpi: tile sum of t ', &
         sum(real(tall(ids:ide, kds:kde, jds:jde), real64))
    call s2s_dump_open(trim(path))
    call s2s_dump_array('t', tall)
    call s2s_dump_array('tend', tendall(ids:ide, kds:kde, jds:jde))
    call s2s_dump_close()
  end subroutine gather_and_dump

  ! The serial sample's initial field on rows j0:j1 (global indices).
  subroutine initial_field(f, i0, i1, j0, j1)
    integer, intent(in) :: i0, i1, j0, j1
    real, intent(out) :: f(i0:i1, kms:kme, j0:j1)
    integer :: i, j, k
    do j = j0, j1
      do k = kms, kme
        do i = i0, i1
          f(i,k,j) = 300.0 - 0.6*k                                        &
                     + 3.0*sin(2.0*pi*i/ni)*cos(2.0*pi*j/nj)             &
                     + 0.5*noise(i, k, j)
        end do
      end do
    end do
  end subroutine initial_field

  ! OUT.dat, then optional sizes and step count (as main.f90).
  subroutine read_arguments()
    integer :: nargs
    nargs = command_argument_count()
    if (nargs /= 1 .and. nargs /= 4 .and. nargs /= 5) then
      if (rank == 0) write(*,'(a)') 'usage: diffusion_mpi OUT.dat [NI NJ NK [STEPS]]'
      call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end if
    call get_command_argument(1, path)
    if (nargs >= 4) then
      ni = int_argument(2, 3)
      nj = int_argument(3, 3)
      nk = int_argument(4, 1)
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
      if (rank == 0) write(*,'(a,a,a,i0)') 'diffusion_mpi: bad argument ', trim(arg), &
                                          ', want an integer >= ', lowest
      call MPI_Abort(MPI_COMM_WORLD, 2, ierr)
    end if
  end function int_argument

  ! main.f90's deterministic noise, so both start from identical fields.
  real function noise(i, k, j)
    integer, intent(in) :: i, k, j
    integer(int64), parameter :: p = 1000003_int64
    integer(int64) :: h
    h = modulo(73856093_int64*i + 19349663_int64*k + 83492791_int64*j, p)
    h = modulo(h*h + 12345_int64, p)
    noise = real(h)/real(p) - 0.5
  end function noise

end program diffusion_mpi
