! Driver of openmp-tiles-split-i: a 71 x 23 x 19 patch cut into two tiles
! along i (36 and 35 columns), one per OpenMP thread (the reference build
! runs them one after the other, which gives the same numbers: the tiles
! share no column).  The host repeats the steps itself and checks t and q
! to 1e-5 (relative); t and q are dumped whole.
program openmp_tiles
  use split_kernel, only: tile_physics
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'openmp-tiles-split-i'
  integer, parameter :: ni = 71, nk = 23, nj = 19, nsteps = 4
  integer :: i, j, k, step, tile, its(2), ite(2)
  real, allocatable :: t(:,:,:), q(:,:,:), t0(:,:,:), q0(:,:,:)
  character(len=512) :: path

  call get_dump_path(path)
  allocate(t(ni,nk,nj), q(ni,nk,nj), t0(ni,nk,nj), q0(ni,nk,nj))
  do j = 1, nj
    do k = 1, nk
      do i = 1, ni
        t(i,k,j) = 280.0 + 10.0*noise(i, k + 30*j, 1)
        q(i,k,j) = 0.01 + 0.005*noise(k, i + 40*j, 2)
      end do
    end do
  end do
  t0 = t
  q0 = q
  its = [1, 37]
  ite = [36, ni]

!$omp parallel do private(tile) num_threads(2)
  do tile = 1, 2
    call tile_physics(t, q, 1,ni, 1,nk, 1,nj, its(tile),ite(tile), 1,nk, 1,nj, nsteps)
  end do
!$omp end parallel do

  ! the same steps on the host
  do step = 1, nsteps
    do j = 1, nj
      do k = 2, nk
        do i = 1, ni
          t0(i,k,j) = t0(i,k,j) + 0.25*(t0(i,k-1,j) - t0(i,k,j)) + 0.01*q0(i,k,j)
        end do
      end do
      do k = 1, nk
        do i = 1, ni
          q0(i,k,j) = 0.9*q0(i,k,j) + 0.001*t0(i,k,j)
        end do
      end do
    end do
  end do
  call check_tolerance(name, 'max relative error of t', maxval(abs(t - t0))/maxval(abs(t0)), 1.0e-5, &
                       't differs from the host computation')
  call check_tolerance(name, 'max relative error of q', maxval(abs(q - q0))/maxval(abs(q0)), 1.0e-5, &
                       'q differs from the host computation')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('q', q)
  call s2s_dump_close()
end program openmp_tiles
