! main.f90 -- driver of the pgiport sample: ./prog OUT.dat [NI NJ NK [STEPS]]
! (default 96 64 35, 6 steps).  A WRF-like tile with a halo, a moist warm
! atmosphere; micro is called STEPS times inside an `!$acc data region`
! (the fields stay on the device between the calls), with `!$acc update
! host(rain)` halfway for a diagnostic.  Checks that total water (vapour,
! cloud, rain in the air and on the ground) is conserved to 1e-5 and that
! no mixing ratio went negative; dumps every field, whole.  To gfortran the
! !$acc lines are comments.
program pgiport
  use pgiport_micro, only: micro
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  implicit none
  integer :: ni = 96, nj = 64, nk = 35, nsteps = 6, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k, step, nargs
  real, allocatable :: t(:,:,:), q(:,:,:), qc(:,:,:), qr(:,:,:), den(:,:,:), delz(:,:,:)
  real, allocatable :: rain(:,:)
  real, parameter :: dt = 20.0
  double precision :: water0, water1
  real :: mid
  character(len=512) :: path, arg

  nargs = command_argument_count()
  if (nargs < 1) then
    write(*,'(a)') 'usage: pgiport OUT.dat [NI NJ NK [STEPS]]'
    stop 2
  end if
  call get_command_argument(1, path)
  if (nargs >= 4) then
    call get_command_argument(2, arg); read(arg, *) ni
    call get_command_argument(3, arg); read(arg, *) nj
    call get_command_argument(4, arg); read(arg, *) nk
  end if
  if (nargs >= 5) then
    call get_command_argument(5, arg); read(arg, *) nsteps
  end if
  its = 1; ite = ni; jts = 1; jte = nj; kts = 1; kte = nk
  ims = its - halo; ime = ite + halo; jms = jts - halo; jme = jte + halo; kms = kts; kme = kte
  allocate(t(ims:ime, kms:kme, jms:jme), q(ims:ime, kms:kme, jms:jme), qc(ims:ime, kms:kme, jms:jme))
  allocate(qr(ims:ime, kms:kme, jms:jme), den(ims:ime, kms:kme, jms:jme), delz(ims:ime, kms:kme, jms:jme))
  allocate(rain(ims:ime, jms:jme))
  ! -1 outside the tile: the kernel must not touch it
  t = -1.0; q = -1.0; qc = -1.0; qr = -1.0; den = 1.0; delz = 1.0; rain = -1.0
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        t(i,k,j) = 300.0 - 6.5e-3 * 250.0 * real(k) + 3.0 * sin(0.3 * real(i) + 0.2 * real(j))
        den(i,k,j) = 1.2 * exp(-real(k) / 40.0)
        delz(i,k,j) = 200.0 + 10.0 * real(k) + 5.0 * cos(0.1 * real(i * j))
        q(i,k,j) = 0.016 * exp(-real(k) / 12.0) * (1.0 + 0.3 * sin(0.17 * real(i) - 0.11 * real(j)))
        qc(i,k,j) = 2.0e-4 * (1.0 + cos(0.05 * real(i + j + k)))
        qr(i,k,j) = 1.0e-4 * real(mod(i * 7 + j * 3 + k, 5))
      end do
    end do
    do i = its, ite
      rain(i,j) = 0.0
    end do
  end do
  water0 = total_water()

!$acc data region copyin(den, delz) copy(t, q, qc, qr, rain)
  do step = 1, nsteps
    call micro(t, q, qc, qr, den, delz, rain, dt, &
               ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    if (step == (nsteps + 1) / 2) then
!$acc update host(rain)
      mid = real(sum(dble(rain(its:ite, jts:jte))))
      write(*,'(a,i0,a,es14.6)') 'pgiport: step ', step, ', surface rain so far ', mid
    end if
  end do
!$acc end data region

  water1 = total_water()
  write(*,'(a,i0,a,i0,a,i0,a,i0,a,es14.6,a,es14.6)') 'pgiport: ', ni, ' x ', nj, ' x ', nk, &
      ', ', nsteps, ' steps: total water ', water0, ' -> ', water1
  if (abs(water1 - water0) > 1.0d-5 * water0) then
    write(*,'(a)') 'pgiport: total water not conserved'
    stop 1
  end if
  if (minval(q(its:ite,:,jts:jte)) < 0.0 .or. minval(qc(its:ite,:,jts:jte)) < 0.0 .or. &
      minval(qr(its:ite,:,jts:jte)) < 0.0) then
    write(*,'(a)') 'pgiport: negative mixing ratio'
    stop 1
  end if
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('q', q)
  call s2s_dump_array('qc', qc)
  call s2s_dump_array('qr', qr)
  call s2s_dump_array('rain', rain)
  call s2s_dump_close()
contains
  ! Water in the air (kg/m^2 over the tile) plus what reached the ground.
  double precision function total_water()
    integer :: ii, jj, kk
    total_water = 0.0d0
    do jj = jts, jte
      do ii = its, ite
        do kk = kts, kte
          total_water = total_water + dble(den(ii,kk,jj)) * dble(delz(ii,kk,jj)) * &
              (dble(q(ii,kk,jj)) + dble(qc(ii,kk,jj)) + dble(qr(ii,kk,jj)))
        end do
        total_water = total_water + dble(rain(ii,jj))
      end do
    end do
  end function total_water
end program pgiport
