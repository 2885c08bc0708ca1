! Driver of present-one-optional: calls melt with qs and without it on two
! copies of the same state, recomputes both on the host (relative 1e-5).
! Dumps t, qr, qs (with qs) and t2, qr2 (without).
program present_one_optional
  use melt_mod, only: melt
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'present-one-optional'
  integer, parameter :: n = 77, nk = 13, nsteps = 3
  real, dimension(n, nk) :: t, qr, qs, t2, qr2, et, eqr, eqs, et2, eqr2
  real :: dq, err
  integer :: i, k, step
  character(len=512) :: path

  call get_dump_path(path)
  do k = 1, nk
    do i = 1, n
      t(i,k) = 273.15 + 20.0 * noise(i, k, 1)
      qr(i,k) = 0.5 + noise(i, k, 2)
      qs(i,k) = 0.01 * (0.5 + noise(i, k, 3))
    end do
  end do
  t2 = t
  qr2 = qr
  et = t
  eqr = qr
  eqs = qs
  et2 = t
  eqr2 = qr
  do step = 1, nsteps
    do k = 1, nk
      do i = 1, n
        dq = min(0.01 * max(et(i,k) - 273.15, 0.0), eqs(i,k))
        eqs(i,k) = eqs(i,k) - dq
        eqr(i,k) = eqr(i,k) + dq
        et(i,k) = et(i,k) - 80.0 * dq
        dq = 0.01 * max(et2(i,k) - 273.15, 0.0)
        eqr2(i,k) = eqr2(i,k) + dq
        et2(i,k) = et2(i,k) - 80.0 * dq
      end do
    end do
  end do
  call melt(n, nk, nsteps, t, qr, qs)
  call melt(n, nk, nsteps, t2, qr2)
  err = max(maxval(abs(t - et) / abs(et)), maxval(abs(qr - eqr) / max(abs(eqr), 1.0)), &
            maxval(abs(qs - eqs)), maxval(abs(t2 - et2) / abs(et2)), &
            maxval(abs(qr2 - eqr2) / max(abs(eqr2), 1.0)))
  call check_tolerance(name, 'max relative error', err, 1.0e-5, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('qr', qr)
  call s2s_dump_array('qs', qs)
  call s2s_dump_array('t2', t2)
  call s2s_dump_array('qr2', qr2)
  call s2s_dump_close()
end program present_one_optional
