! Driver of openacc-enter-exit-data: 33 steps on a 61 x 37 tile with a
! halo of 1 that stays fixed, between device_init and device_finish; the
! host computes the same steps itself and checks t, tend and the means of
! t taken every 7th step (1e-5 relative); t, tend, q and the means are
! dumped (tend outside the tile keeps its sentinel).  33 is no multiple
! of 7: the last t comes back only through the exit data's copyout.
program enter_exit_data
  use eed_kernel, only: device_init, integrate, device_finish
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'openacc-enter-exit-data'
  integer, parameter :: ni = 61, nj = 37, nsteps = 33
  real, parameter :: sentinel = -7.0
  integer :: ims, ime, jms, jme, its, ite, jts, jte, i, j, step
  real, allocatable :: t(:,:), tend(:,:), q(:,:), t0(:,:), tend0(:,:), q0(:,:)
  real :: tmean(nsteps/7), tmean0(nsteps/7)
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nj, 1, ims,ime, jms,jme, its,ite, jts,jte, first_i=2, first_j=3)
  allocate(t(ims:ime, jms:jme), tend(ims:ime, jms:jme), q(ims:ime, jms:jme))
  allocate(t0(ims:ime, jms:jme), tend0(ims:ime, jms:jme), q0(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      t(i,j) = 280.0 + 10.0*noise(i, j, 1)
      q(i,j) = noise(j, i, 2)
    end do
  end do
  tend = sentinel
  t0 = t
  q0 = q
  tend0 = tend
  call device_init(t, tend, q, ims,ime, jms,jme)
  call integrate(t, tend, q, tmean, ims,ime, jms,jme, its,ite, jts,jte, nsteps)
  call device_finish(t, tend, q, ims,ime, jms,jme)

  ! the same steps on the host
  do step = 1, nsteps
    do j = jts, jte
      do i = its, ite
        tend0(i,j) = 0.2*((t0(i+1,j) - t0(i,j)) - (t0(i,j) - t0(i-1,j))) &
                   + 0.1*((t0(i,j+1) - t0(i,j)) - (t0(i,j) - t0(i,j-1)))
      end do
    end do
    do j = jts, jte
      do i = its, ite
        t0(i,j) = t0(i,j) + tend0(i,j) + 0.01*q0(i,j)
      end do
    end do
    if (mod(step, 7) == 0) &
      tmean0(step/7) = sum(t0(its:ite, jts:jte)) / real((ite-its+1)*(jte-jts+1))
    if (mod(step, 10) == 0) q0 = 0.5*q0
  end do
  call check_tolerance(name, 'max relative error of t', maxval(abs(t - t0))/maxval(abs(t0)), 1.0e-5, &
                       't differs from the host computation')
  call check_tolerance(name, 'max error of tend', maxval(abs(tend - tend0)), 1.0e-3, &
                       'tend differs from the host computation')
  call check_tolerance(name, 'max relative error of the means of t', &
                       maxval(abs(tmean - tmean0))/maxval(abs(tmean0)), 1.0e-5, &
                       'a mean of t differs: update host(t) did not bring the current t')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('tend', tend)
  call s2s_dump_array('q', q)
  call s2s_dump_array('tmean', tmean)
  call s2s_dump_close()
end program enter_exit_data
