! Driver of default-real-8: checks that default REAL is real(8) here too
! (the reference must be built with -fdefault-real-8), then every b(i,j)
! and d(i,j) against the same formula computed here (relative 1e-13: a
! real(4) translation is off by about 1e-7) and w against real(4)'s.  The
! outputs start as a sentinel.  Dumps b, d and w, whole.
program default_real_8
  use dr8_kernel, only: smooth
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise, check_tolerance, fail
  implicit none
  character(len=*), parameter :: name = 'default-real-8'
  integer, parameter :: ni = 77, nj = 41, halo = 2
  real, parameter :: sentinel = -1.0

  integer :: ims, ime, jms, jme, its, ite, jts, jte, i, j
  real, allocatable :: a(:,:), b(:,:)
  double precision, allocatable :: d(:,:)
  real(4), allocatable :: w(:,:)
  real :: alpha, want, err
  character(len=512) :: path

  if (kind(alpha) /= 8 .or. kind(1.0) /= 8 .or. kind(1.0d0) /= 8) &
    call fail(name, 'default REAL is not real(8): build with -fdefault-real-8 -fdefault-double-8')
  call get_dump_path(path)
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte)
  allocate(a(ims:ime, jms:jme), b(ims:ime, jms:jme), d(ims:ime, jms:jme), w(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      a(i,j) = 1.0 + noise(i, 0, j)
    end do
  end do
  b = sentinel
  d = sentinel
  w = sentinel
  alpha = 0.7

  call smooth(alpha, a, b, d, w, ims,ime, jms,jme, its,ite, jts,jte)

  err = 0.0
  do j = jts, jte
    do i = its, ite
      want = alpha * (1.0 / 3.0) * (a(i-1,j) + a(i,j) + a(i+1,j)) + real(i) * 1.0e-10
      err = max(err, abs(b(i,j) - want) / abs(want), abs(d(i,j) - 2.0d0 * want) / abs(2.0d0 * want))
      if (w(i,j) /= real(a(i,j), 4) * 0.5_4) call fail(name, 'w is not real(4) a/2')
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-13, 'not computed in real(8)')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('b', b)
  call s2s_dump_array('d', d)
  call s2s_dump_array('w', w)
  call s2s_dump_close()

end program default_real_8
