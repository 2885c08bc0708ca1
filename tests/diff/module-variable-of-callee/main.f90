! Driver of module-variable-of-callee: initializes the constants, runs
! mvc_column, recomputes the result on the host (relative 1e-4: single-precision exp on the
! GPU) and dumps t and q.
program module_variable_of_callee
  use mvc_consts, only: mvc_init, ep2, xlv
  use mvc_physics, only: mvc_column
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'module-variable-of-callee'
  integer, parameter :: ni = 67, nk = 23
  real :: p(ni, nk), t(ni, nk), q(ni, nk), t0(ni, nk), q0(ni, nk)
  real :: es, qq, tt, err
  integer :: i, k
  character(len=512) :: path

  call get_dump_path(path)
  call mvc_init()
  do k = 1, nk
    do i = 1, ni
      p(i,k) = 1.0e5 - 3.0e3 * k + 100.0 * noise(i, k, 1)
      t(i,k) = 260.0 + 30.0 * noise(i, k, 2)
      q(i,k) = 0.01 * noise(k, i, 3)
    end do
  end do
  t0 = t
  q0 = q
  call mvc_column(p, t, q, ni, nk)
  err = 0.0
  do k = 1, nk
    do i = 1, ni
      es = 611.0 * exp(0.06 * (t0(i,k) - 273.0))
      qq = q0(i,k) + 0.1 * (ep2 * es / (p(i,k) - es) - q0(i,k))
      tt = t0(i,k) + xlv * 1.0e-7 * qq
      err = max(err, abs(q(i,k) - qq) / max(abs(qq), 1.0e-6), abs(t(i,k) - tt) / abs(tt))
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-4, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('q', q)
  call s2s_dump_close()
end program module_variable_of_callee
