! Driver of independent-tracer: tracers with negative values in places;
! checks that no level above the bottom stays negative and that the column
! mass sum(q*delp) is conserved (1e-4 relative), as dq says.  Dumps q and dq.
program independent_tracer
  use tracer_kernel, only: fill_negative
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance, fail
  implicit none
  character(len=*), parameter :: name = 'independent-tracer'
  integer, parameter :: im = 45, km = 17, nq = 7
  real :: q(im, km, nq), dq(im, km, nq), delp(im, km), mass0(im, nq), err
  integer :: i, k, ic
  character(len=512) :: path

  call get_dump_path(path)
  do k = 1, km
    do i = 1, im
      delp(i,k) = 10.0 + 5.0*noise(i, k, 0)
    end do
  end do
  do ic = 1, nq
    do k = 1, km
      do i = 1, im
        q(i,k,ic) = 1.0e-3*(noise(i, k, ic) + 0.3)
      end do
    end do
  end do
  do ic = 1, nq
    mass0(:,ic) = sum(q(:,:,ic)*delp, dim=2)
  end do

  call fill_negative(q, dq, delp, im, km, nq)

  if (any(q(:, 1:km-1, :) < 0.0)) call fail(name, 'negative values left above the bottom level')
  err = 0.0
  do ic = 1, nq
    err = max(err, maxval(abs(sum(q(:,:,ic)*delp, dim=2) - mass0(:,ic))/maxval(abs(mass0))))
  end do
  call check_tolerance(name, 'column mass change', err, 1.0e-4, 'mass not conserved')
  err = maxval(abs(sum(dq, dim=2)))/maxval(abs(mass0))
  call check_tolerance(name, 'mass moved, summed over each column', err, 1.0e-4, 'wrong dq')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_array('dq', dq)
  call s2s_dump_close()
end program independent_tracer
