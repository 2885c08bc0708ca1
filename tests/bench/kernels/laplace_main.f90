! laplace_main.f90 -- driver of kernels.sh case 1 (laplace.f90): a smooth
! field with noise, one call of the one-core build (laplace_cpu, the same
! source compiled by gfortran -O3) as the reference, then CALLS timed calls
! of the variant with the data resident on the device, the result compared.
!   usage: laplace [NX NY NZ [CALLS]]     default 512 512 256, 20 calls
program laplace_main
  use laplace_kernel, only: laplace
  use laplace_kernel_cpu, only: laplace_cpu
  use bench_util, only: read_sizes, clock_ms, report, compare, real64
  implicit none
  real(real64), parameter :: w = 0.1_real64
  integer :: nx, ny, nz, ncalls, i, j, k, n
  real(real64), allocatable :: u(:,:,:), unew(:,:,:), uref(:,:,:)
  real(real64) :: t0, t1

  nx = 512
  ny = 512
  nz = 256
  ncalls = 20
  call read_sizes('laplace', nx, ny, nz, ncalls)
  allocate(u(nx, ny, nz), unew(nx, ny, nz), uref(nx, ny, nz))
  do k = 1, nz
    do j = 1, ny
      do i = 1, nx
        u(i,j,k) = 1.0_real64 + sin(0.05_real64*i)*cos(0.07_real64*j)          &
                   + 0.01_real64*k + 0.1_real64*noise(i, j, k)
      end do
    end do
  end do
  unew = -1.0_real64
  uref = -1.0_real64
  call report('laplace', 'points', real(nx, real64)*ny*nz)
  ! compulsory bytes: u read once, the interior of unew written once
  call report('laplace', 'bytes', 8.0_real64*(real(nx, real64)*ny*nz                &
                                         + real(nx - 2, real64)*(ny - 2)*(nz - 2)))

  t0 = clock_ms()
  call laplace_cpu(nx, ny, nz, u, uref, w)
  call report('laplace', 'cpu_ms', clock_ms() - t0)

!$stencil data copyin(u) copy(unew)
!$acc data copyin(u) copy(unew)
  call laplace(nx, ny, nz, u, unew, w)                  ! warm-up, not timed
!$stencil update host(unew(1:1,1,1))
!$acc update host(unew(1:1,1,1))
  t0 = clock_ms()
  do n = 1, ncalls
    call laplace(nx, ny, nz, u, unew, w)
  end do
  ! wait for the device (the translation queues its kernels)
!$stencil update host(unew(1:1,1,1))
!$acc update host(unew(1:1,1,1))
  t1 = clock_ms()
!$acc end data
!$stencil end data
  call report('laplace', 'calls', real(ncalls, real64))
  call report('laplace', 'ms_per_call', (t1 - t0)/ncalls)
  call compare('laplace', unew, uref, 1.0e-12_real64)

contains

  ! deterministic noise in [-0.5, 0.5)
  real(real64) function noise(i, j, k)
    integer, intent(in) :: i, j, k
    integer(8) :: h

    h = modulo(73856093_8*i + 19349663_8*k + 83492791_8*j, 1000003_8)
    h = modulo(h*h + 12345_8, 1000003_8)
    noise = real(h, real64)/1000003.0_real64 - 0.5_real64
  end function noise

end program laplace_main
