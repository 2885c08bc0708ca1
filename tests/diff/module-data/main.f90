! Driver of module-data: initializes the constants module, runs md_column and
! recomputes every output on the host (relative 1e-5; th 1e-6, computed in double from the single-precision t that the GPU rounds differently).  Dumps t, q,
! th and the module array colmax.
program module_data
  use md_constants
  use md_physics, only: md_column
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'module-data'
  integer, parameter :: ni = 83, nk = 29, halo = 2
  integer :: ims,ime, kms,kme, its,ite, kts,kte, i, k, m, it
  real, allocatable :: t(:,:), q(:,:), t0(:,:), q0(:,:)
  real(kind_phys), allocatable :: th(:,:)
  real :: s, tt, qq, err
  real(kind_phys) :: errd, thh
  character(len=512) :: path

  call get_dump_path(path)
  call md_init()
  call set_tile_2d(ni, nk, halo, ims,ime, kms,kme, its,ite, kts,kte)
  allocate(t(ims:ime, kms:kme), q(ims:ime, kms:kme), th(ims:ime, kms:kme))
  do k = kms, kme
    do i = ims, ime
      t(i,k) = 40.0 + 60.0 * noise(i, k, 1)
      q(i,k) = 0.01 + 0.02 * noise(k, i, 2)
    end do
  end do
  th = -1.0_kind_phys
  colmax = -1.0
  t0 = t
  q0 = q
  call md_column(t, q, th, 3, ims,ime, kms,kme, its,ite, kts,kte)
  err = 0.0
  errd = 0.0_kind_phys
  do k = kts, kte
    do i = its, ite
      s = 0.0
      do m = 1, ncoef
        s = s + coef(m) * q0(i,k) ** m
      end do
      it = min(ntab, max(1, int(t0(i,k))))
      tt = (t0(i,k) * cpv / cp) * 0.001 + s * table(it) + 3.0
      qq = max(q0(i,k), qmin) * (1.0 + xlv * 1.0e-9)
      thh = ep2 * real(tt, kind_phys) * eps + wts(1,2) * wts(2,3)
      tt = tt * 4.0 / 4.5
      err = max(err, abs(t(i,k) - tt) / abs(tt), abs(q(i,k) - qq) / abs(qq))
      errd = max(errd, abs(th(i,k) - thh) / abs(thh))
    end do
  end do
  do i = its, ite
    err = max(err, abs(colmax(i) - (t(i,kts) + q(i,kte))) / abs(t(i,kts) + q(i,kte)))
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-5, 'wrong result')
  call check_tolerance(name, 'max relative error of th', errd, 1.0e-6_kind_phys, 'wrong th')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('q', q)
  call s2s_dump_array('th', th)
  call s2s_dump_array('colmax', colmax)
  call s2s_dump_close()
end program module_data
