! Driver of statement-functions: recomputes a on the host with the formulas
! written out (relative 1e-6).  Dumps a.
program statement_functions
  use sfm, only: physics
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'statement-functions'
  integer, parameter :: n = 67, m = 29
  real, parameter :: cpd = 1004.5, cpv = 1846.4, qmin = 1.e-15, xlv0 = 3.15e6, xlv1 = 2370., t0c = 273.15
  real :: a(n, m), t(n, m), p(n, m), x, expect, err
  integer :: i, j
  character(len=512) :: path

  call get_dump_path(path)
  do j = 1, m
    do i = 1, n
      t(i,j) = 260.0 + 30.0 * (noise(i, 0, j) + 0.5)
      p(i,j) = 5.0e4 + 4.0e4 * (noise(j, 1, i) + 0.5)
    end do
  end do
  call physics(n, m, a, t, p)
  err = 0.0
  do j = 1, m
    do i = 1, n
      x = t(i,j) * 1.e-3
      expect = cpd*(1.-max(x,qmin)) + max(x,qmin)*cpv + (xlv0 - xlv1*(t(i,j)-t0c)) * 1.e-6 &
               + 8.794e-5*t(i,j)**1.81/p(i,j)
      err = max(err, abs(a(i,j) - expect) / abs(expect))
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-6, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
  call s2s_dump_close()
end program statement_functions
