! Driver of pgi-accelerator-port: steps micro four times inside an
! `!$acc data region`, brings q to the host halfway with `!$acc update
! host`, recomputes every step on the host column by column and compares
! (relative 1e-5).  Dumps q and rain, whole.  To gfortran the !$acc lines
! are comments.
program pgi_accelerator_port
  use pgi_port_kernel, only: micro
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  integer, parameter :: ni = 71, nj = 29, nk = 17, halo = 2, nsteps = 4
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k, step
  real, allocatable :: t(:,:,:), q(:,:,:), rain(:,:), eq(:,:,:), erain(:,:)
  real :: w(nk), qc, flux, numdt, err, mid
  real, parameter :: delt = 3.0
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, kms:kme, jms:jme), q(ims:ime, kms:kme, jms:jme), eq(ims:ime, kms:kme, jms:jme))
  allocate(rain(ims:ime, jms:jme), erain(ims:ime, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 260.0 + 30.0 * noise(i, k, j)
        q(i,k,j) = 0.5 + noise(j, i, k)
      end do
    end do
  end do
  rain = 0.0
  eq = q
  erain = rain
  do step = 1, nsteps
    do j = jts, jte
      do i = its, ite
        numdt = max(1.0, delt * 0.5)
        do k = kts, kte
          qc = max(eq(i,k,j) - 1.0e-3 * (t(i,k,j) - 273.15), 0.0)
          w(k) = qc * 0.01 * numdt
        end do
        flux = 0.0
        do k = kte, kts, -1
          eq(i,k,j) = eq(i,k,j) - w(k) + flux
          flux = w(k)
        end do
        erain(i,j) = erain(i,j) + flux
      end do
    end do
  end do

!$acc data region copyin(t) copy(q, rain)
  do step = 1, nsteps
    call micro(t, q, rain, delt, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    if (step == nsteps / 2) then
!$acc update host(rain)
      mid = sum(rain(its:ite, jts:jte))
      write(*,'(a,es14.6)') 'pgi-accelerator-port: rain halfway ', mid
    end if
  end do
!$acc end data region

  err = maxval(abs(q - eq) / max(abs(eq), 1.0))
  call check_tolerance('pgi-accelerator-port', 'max relative error of q', err, 1.0e-5, 'wrong q')
  err = maxval(abs(rain - erain) / max(abs(erain), 1.0))
  call check_tolerance('pgi-accelerator-port', 'max relative error of rain', err, 1.0e-5, 'wrong rain')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_array('rain', rain)
  call s2s_dump_close()
end program pgi_accelerator_port
