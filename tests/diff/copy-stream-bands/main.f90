! Driver of copy-stream-bands: two bands of 11 rows of 37 x 9, 6 steps; the
! host repeats the steps on the whole field (22 rows and the domain's fixed
! halo rows) and checks both bands to 1e-5 (relative); they are dumped whole
! (the tendencies live on the device only: `create`).
program bands
  use bands_kernel, only: steps
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'copy-stream-bands'
  integer, parameter :: ni = 37, nk = 9, nb = 11, nsteps = 6
  integer :: i, j, k, step
  real, allocatable :: ta(:,:,:), tb(:,:,:), tenda(:,:,:), tendb(:,:,:), t(:,:,:), tend(:,:,:)
  character(len=512) :: path

  call get_dump_path(path)
  allocate(ta(0:ni+1, nk, 0:nb+1), tb(0:ni+1, nk, 0:nb+1), t(0:ni+1, nk, 0:2*nb+1))
  allocate(tenda(0:ni+1, nk, 0:nb+1), tendb(0:ni+1, nk, 0:nb+1), tend(0:ni+1, nk, 0:2*nb+1))
  do j = 0, 2*nb + 1
    do k = 1, nk
      do i = 0, ni + 1
        t(i,k,j) = 280.0 + 10.0*noise(i, k, j)
      end do
    end do
  end do
  ta = t(:, :, 0:nb+1)
  tb = t(:, :, nb:2*nb+1)
  tenda = 0.0
  tendb = 0.0
  tend = 0.0
  call steps(ta, tb, tenda, tendb, 0,ni+1, 1,nk, nb, 1,ni, 1,nk, nsteps)

  do step = 1, nsteps
    do j = 1, 2*nb
      do k = 1, nk
        do i = 1, ni
          tend(i,k,j) = 0.1*((t(i+1,k,j) - t(i,k,j)) - (t(i,k,j) - t(i-1,k,j))  &
                           + (t(i,k,j+1) - t(i,k,j)) - (t(i,k,j) - t(i,k,j-1)))
        end do
      end do
    end do
    t(1:ni, :, 1:2*nb) = t(1:ni, :, 1:2*nb) + tend(1:ni, :, 1:2*nb)
  end do
  call check_tolerance(name, 'max relative error of band a', &
                       maxval(abs(ta(:, :, 1:nb) - t(:, :, 1:nb)))/maxval(abs(t)), 1.0e-5, &
                       'band a differs from the whole field')
  call check_tolerance(name, 'max relative error of band b', &
                       maxval(abs(tb(:, :, 1:nb) - t(:, :, nb+1:2*nb)))/maxval(abs(t)), 1.0e-5, &
                       'band b differs from the whole field')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('ta', ta)
  call s2s_dump_array('tb', tb)
  call s2s_dump_close()
end program bands
