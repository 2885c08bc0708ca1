! main.f90 -- driver of the physics sample: sets the constants through the
! init routine, builds a moist, partly supersaturated atmosphere on a WRF
! tile with a halo, runs the physics once and dumps every field, whole
! (halo included), for tests/s2s_compare.
!
!   usage: physics OUT.dat [NI NJ NK]     (default 70 40 30)
program physics_main
  use ccpp_kind_types, only: kind_phys
  use physcons, only: physcons_init
  use physcol, only: physics
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  implicit none
  integer, parameter :: halo = 2
  real(kind_phys), parameter :: sentinel = -1.0_kind_phys
  integer :: ni, nj, nk, i, j, k
  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  real(kind_phys), allocatable :: t(:,:,:), qv(:,:,:), qc(:,:,:), p(:,:,:), th(:,:,:), vt(:,:,:)
  real(kind_phys) :: z, rh
  character(len=512) :: path, arg

  ni = 70
  nj = 40
  nk = 30
  if (command_argument_count() < 1) stop 'usage: physics OUT.dat [NI NJ NK]'
  call get_command_argument(1, path)
  if (command_argument_count() >= 4) then
    call get_command_argument(2, arg); read(arg, *) ni
    call get_command_argument(3, arg); read(arg, *) nj
    call get_command_argument(4, arg); read(arg, *) nk
  end if
  its = 1; ite = ni; jts = 1; jte = nj; kts = 1; kte = nk
  ims = its - halo; ime = ite + halo; jms = jts - halo; jme = jte + halo; kms = kts; kme = kte + 1
  allocate(t(ims:ime, kms:kme, jms:jme), qv(ims:ime, kms:kme, jms:jme), qc(ims:ime, kms:kme, jms:jme))
  allocate(p(ims:ime, kms:kme, jms:jme), th(ims:ime, kms:kme, jms:jme), vt(ims:ime, kms:kme, jms:jme))
  t = sentinel; qv = sentinel; qc = sentinel; th = sentinel; vt = sentinel
  p = 1.0e5_kind_phys             ! also outside the tile: the helpers never divide by it there
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        z = 300.0_kind_phys * (k - 1) + 10.0_kind_phys * mod(i * 7 + j * 3, 11)
        p(i,k,j) = 1.0e5_kind_phys * exp(-z / 8000.0_kind_phys)
        t(i,k,j) = 300.0_kind_phys - 6.5e-3_kind_phys * z + 0.5_kind_phys * sin(0.3_kind_phys * i + 0.2_kind_phys * j)
        rh = 0.8_kind_phys + 0.4_kind_phys * mod(i + 2 * j + 3 * k, 7) / 6.0_kind_phys   ! 0.8 .. 1.2
        qv(i,k,j) = rh * 0.622_kind_phys * 610.78_kind_phys * exp(17.67_kind_phys * (t(i,k,j) - 273.15_kind_phys) &
                    / (t(i,k,j) - 29.65_kind_phys)) / p(i,k,j)
        qc(i,k,j) = 1.0e-4_kind_phys * mod(i + j + k, 3)
      end do
    end do
  end do
  call physcons_init(2.5e6_kind_phys)
  call physics(t, qv, qc, p, th, vt, ims, ime, kms, kme, jms, jme, its, ite, kts, kte, jts, jte)
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('qv', qv)
  call s2s_dump_array('qc', qc)
  call s2s_dump_array('th', th)
  call s2s_dump_array('vt', vt)
  call s2s_dump_close()
end program physics_main
