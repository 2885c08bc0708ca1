! Driver of precedence-mixed-arithmetic: the host computes every point with
! the same Fortran expressions and checks r (relative 1e-5) and m (exactly).
! Dumps r and m, whole; points outside the tile hold sentinels.
program precedence_mixed_arithmetic
  use prec_kernel, only: mixed
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise, check_tolerance, fail
  implicit none
  character(len=*), parameter :: name = 'precedence-mixed-arithmetic'
  integer, parameter :: ni = 70, nj = 23, halo = 1, shift = 3
  integer :: ims, ime, jms, jme, its, ite, jts, jte, i, j, mm
  real, allocatable :: a(:,:), b(:,:), c(:,:), r(:,:)
  integer, allocatable :: m(:,:)
  real :: err, rr
  logical :: big, pos
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte)
  allocate(a(ims:ime, jms:jme), b(ims:ime, jms:jme), c(ims:ime, jms:jme))
  allocate(r(ims:ime, jms:jme), m(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      a(i,j) = noise(i, 1, j)
      b(i,j) = noise(i, 2, j)
      c(i,j) = 0.5 + noise(i, 3, j)
    end do
  end do
  r = -999.0
  m = -999

  call mixed(a, b, c, r, m, ims,ime, jms,jme, its,ite, jts,jte)

  err = 0.0
  do j = jts, jte
    do i = its, ite
      big = a(i,j) - (b(i,j) - c(i,j)) > 0.25 .and. (b(i,j) < c(i,j) .or. a(i,j) >= 0.)
      pos = (a(i,j) > 0.) .eqv. (b(i,j) > 0.)
      rr = a(i,j) / (b(i,j) * c(i,j) + 2.0) - (-a(i,j)) * b(i,j)                  &
           - real(mod(i, 7) * (j / 3) - (i - j) / 2) / real(i + j + shift)       &
           - -a(i,j) * c(i,j)
      if (big .and. .not. pos) rr = -(rr - c(i,j)) * 0.5
      mm = i - (j - shift) * 2 - mod(i + j, 5) / 2 * 3 - i / (2 * j) - (-j)
      if (pos) mm = -mm
      if (m(i,j) /= mm) call fail(name, 'wrong integer result')
      err = max(err, abs(r(i,j) - rr) / max(abs(rr), 1.0))
    end do
  end do
  call check_tolerance(name, 'max relative error of r', err, 1.0e-5, 'wrong real result')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('r', r)
  call s2s_dump_array('m', m)
  call s2s_dump_close()
end program precedence_mixed_arithmetic
