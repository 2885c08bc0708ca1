! main.f90 -- driver of the diffusion sample: set up WRF-style bounds and a
! temperature field, run a few time steps of horizontal diffusion, and dump
! t and the last tendency so that the original build and the translated
! build can be compared element by element (tests/s2s_compare).
!
!   usage: diffusion OUT.dat [NI NJ NK [STEPS]]
!          default: a 100 x 60 tile, 35 levels, 10 steps
!
! The data region around the time loop keeps t and tend on the GPU for all
! the steps: without it, each call of the two routines would copy both
! arrays in and out, every step.  tend is only needed between the two
! routines, so it is created on the device and never copied (create); t is
! copied in once and back once (copy).  Inside the data region the host
! copies are stale: `update host` brings the device's values over, halfway
! for a diagnostic and at the end for tend, which create never copies back.
! To gfortran all !$acc lines are comments.
program diffusion
  use module_diffusion, only: horizontal_diffusion, update_t
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use, intrinsic :: iso_fortran_env, only: int64, real64
  implicit none

  integer, parameter :: halo = 3           ! points beyond the tile in i and j
  real, parameter :: kh = 2.0e4            ! horizontal diffusivity (m2/s)
  real, parameter :: dt = 40.0             ! time step (s)
  real, parameter :: pi = 3.14159265

  integer :: ids, ide, jds, jde, kds, kde
  integer :: ims, ime, jms, jme, kms, kme
  integer :: its, ite, jts, jte, kts, kte
  integer :: ni, nj, nk, nsteps, i, j, k, step
  real, allocatable :: t(:,:,:), tend(:,:,:)
  character(len=512) :: path

  ni = 100
  nj = 60
  nk = 35
  nsteps = 10
  call read_arguments()

  ! One tile covers the whole domain; memory adds the halo around it in i
  ! and j (in a parallel run the halo would hold the neighbours' points).
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
  kte = kde
  ims = its - halo
  ime = ite + halo
  jms = jts - halo
  jme = jte + halo
  kms = kds
  kme = kde
  allocate(t(ims:ime, kms:kme, jms:jme), tend(ims:ime, kms:kme, jms:jme))

  ! A stable lapse rate, a smooth warm anomaly and a little deterministic
  ! noise, halo included (the halo stays fixed: a boundary condition).
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 300.0 - 0.6*k                                        &
                   + 3.0*sin(2.0*pi*i/ni)*cos(2.0*pi*j/nj)             &
                   + 0.5*noise(i, k, j)
      end do
    end do
  end do
  tend = 0.0

!$acc data copy(t) create(tend)
  do step = 1, nsteps
    call horizontal_diffusion(t, tend, kh,                             &
                              ids,ide, jds,jde, kds,kde,                &
                              ims,ime, jms,jme, kms,kme,                &
                              its,ite, jts,jte, kts,kte)
    call update_t(t, tend, dt,                                         &
                  ids,ide, jds,jde, kds,kde,                            &
                  ims,ime, jms,jme, kms,kme,                            &
                  its,ite, jts,jte, kts,kte)
    if (step == nsteps/2) then
      ! Halfway: bring t to the host for a diagnostic; it stays on the device.
!$acc update self(t)
      write(*,'(a,i0,a,es16.8)') 'diffusion: step ', step, ', tile sum of t ', tile_sum()
    end if
  end do
  ! tend lives on the device only: fetch the last tendency for the dump.
!$acc update self(tend)
!$acc end data

  write(*,'(a,i0,a,i0,a,i0,a,i0,a,es16.8)') 'diffusion: ', ni, ' x ', nj, ' x ', nk, &
       ', ', nsteps, ' steps, tile sum of t ', tile_sum()

  ! Every output: t whole (halo included), tend on the tile (the only
  ! points the routine defines).
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('tend', tend(its:ite, kts:kte, jts:jte))
  call s2s_dump_close()

contains

  ! OUT.dat, then optional sizes and step count.
  subroutine read_arguments()
    integer :: nargs

    nargs = command_argument_count()
    if (nargs /= 1 .and. nargs /= 4 .and. nargs /= 5) then
      write(*,'(a)') 'usage: diffusion OUT.dat [NI NJ NK [STEPS]]'
      stop 2
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
      write(*,'(a,a,a,i0)') 'diffusion: bad argument ', trim(arg), ', want an integer >= ', lowest
      stop 2
    end if
  end function int_argument

  ! A deterministic "noise" in [-0.5, 0.5) from the grid index (no random
  ! numbers: the two builds must start from identical fields).  It makes
  ! every point different, so a kernel that reads a wrong neighbour cannot
  ! go unnoticed.
  real function noise(i, k, j)
    integer, intent(in) :: i, k, j
    integer(int64), parameter :: p = 1000003_int64
    integer(int64) :: h

    h = modulo(73856093_int64*i + 19349663_int64*k + 83492791_int64*j, p)
    h = modulo(h*h + 12345_int64, p)
    noise = real(h)/real(p) - 0.5
  end function noise

  ! Sum of t over the tile, in double precision.
  real(real64) function tile_sum()
    tile_sum = sum(real(t(its:ite, kts:kte, jts:jte), real64))
  end function tile_sum

end program diffusion
