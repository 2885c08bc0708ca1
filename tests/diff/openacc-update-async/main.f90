! Driver of openacc-update-async: 41 x 15 x 11, 4 steps; the host repeats the
! steps and checks t and the per-step sums of the edge planes (what the host
! read after each wait) to 1e-5 (relative); t and the sums are dumped.
program acc_update_async
  use acc_async_kernel, only: steps
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'openacc-update-async'
  integer, parameter :: ni = 41, nk = 15, nj = 11, nsteps = 4
  integer :: i, j, k, step
  real, allocatable :: t(:,:,:), t0(:,:,:)
  real :: sums(nsteps), sums0(nsteps)
  character(len=512) :: path

  call get_dump_path(path)
  allocate(t(ni,nk,nj), t0(ni,nk,nj))
  do j = 1, nj
    do k = 1, nk
      do i = 1, ni
        t(i,k,j) = 280.0 + 10.0*noise(i, k + 20*j, 2)
      end do
    end do
  end do
  t0 = t
  call steps(t, sums, 1,ni, 1,nk, 1,nj, 1,ni, 1,nk, 1,nj, nsteps)

  do step = 1, nsteps
    do j = 1, nj
      do k = 1, nk
        do i = 1, ni
          t0(i,k,j) = 0.99*t0(i,k,j) + 0.01*real(k + step)
        end do
      end do
    end do
    t0(:, :, 2:nj) = t0(:, :, 2:nj) + 0.5
    sums0(step) = sum(t0(2:ni-1, :, 1)) + 0.5*sum(t0(:, :, nj))
  end do
  call check_tolerance(name, 'max relative error of t', maxval(abs(t - t0))/maxval(abs(t0)), 1.0e-5, &
                       't differs from the host computation')
  call check_tolerance(name, 'max relative error of the edge sums', &
                       maxval(abs(sums - sums0))/maxval(abs(sums0)), 1.0e-5, &
                       'the host read the edge planes before their copies arrived')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('sums', sums)
  call s2s_dump_close()
end program acc_update_async
