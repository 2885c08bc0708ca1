! Driver of host-data-device-copy: two bands of 11 rows of 37 x 9, 6 steps;
! the host repeats the steps on two bands of its own (halo rows from the
! other band, band a's row 0 from the forcing, the same order) and checks
! both bands to 1e-5 (relative); they are dumped whole (the tendencies
! live on the device only: `create`).
program device_copy_driver
  use device_copy_kernel, only: steps
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'host-data-device-copy'
  integer, parameter :: ni = 37, nk = 9, nb = 11, nsteps = 6
  integer :: i, j, k, step
  real, allocatable :: ta(:,:,:), tb(:,:,:), tenda(:,:,:), tendb(:,:,:), f(:,:)
  real, allocatable :: ra(:,:,:), rb(:,:,:), rtend(:,:,:)
  character(len=512) :: path

  call get_dump_path(path)
  allocate(ta(0:ni+1, nk, 0:nb+1), tb(0:ni+1, nk, 0:nb+1), f(0:ni+1, nk))
  allocate(tenda(0:ni+1, nk, 0:nb+1), tendb(0:ni+1, nk, 0:nb+1))
  allocate(ra(0:ni+1, nk, 0:nb+1), rb(0:ni+1, nk, 0:nb+1), rtend(0:ni+1, nk, 0:nb+1))
  do j = 0, nb + 1
    do k = 1, nk
      do i = 0, ni + 1
        ta(i,k,j) = 280.0 + 10.0*noise(i, k, j)
        tb(i,k,j) = 280.0 + 10.0*noise(i, k, j + nb)
      end do
    end do
  end do
  ra = ta
  rb = tb
  tenda = 0.0
  tendb = 0.0
  f = 0.0
  call steps(ta, tb, tenda, tendb, f, 0,ni+1, 1,nk, nb, 1,ni, 1,nk, nsteps)

  rtend = 0.0
  do step = 1, nsteps
    do k = 1, nk
      do i = 0, ni + 1
        f(i,k) = 0.01*real(step*mod(i + 2*k, 5))
      end do
    end do
    ra(:, :, nb+1) = rb(:, :, 1)
    rb(:, :, 0) = ra(:, :, nb)
    call reference_step(ra)
    call reference_step(rb)
    ! row 0 of band a, the forcing: read by the next step (the kernels
    ! diffuse row 1 before the exchange)
    ra(:, :, 0) = f
  end do
  call check_tolerance(name, 'max relative error of band a', &
                       maxval(abs(ta(:, :, 1:nb) - ra(:, :, 1:nb)))/maxval(abs(ra)), 1.0e-5, &
                       'band a differs from the host reference')
  call check_tolerance(name, 'max relative error of band b', &
                       maxval(abs(tb(:, :, 1:nb) - rb(:, :, 1:nb)))/maxval(abs(rb)), 1.0e-5, &
                       'band b differs from the host reference')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('ta', ta)
  call s2s_dump_array('tb', tb)
  call s2s_dump_close()

contains

  ! One step of a band whose halo rows are current: diffuse rows 1:nb, then add.
  subroutine reference_step(t)
    real, intent(inout) :: t(0:ni+1, nk, 0:nb+1)
    do j = 1, nb
      do k = 1, nk
        do i = 1, ni
          rtend(i,k,j) = 0.1*((t(i+1,k,j) - t(i,k,j)) - (t(i,k,j) - t(i-1,k,j))  &
                            + (t(i,k,j+1) - t(i,k,j)) - (t(i,k,j) - t(i,k,j-1)))
        end do
      end do
    end do
    t(1:ni, :, 1:nb) = t(1:ni, :, 1:nb) + rtend(1:ni, :, 1:nb)
  end subroutine reference_step
end program device_copy_driver
