! Driver of split-two-kernels: b and c start as a sentinel (one fused kernel
! would read the sentinel of a neighbour not yet computed); the host checks
! c against u*a differenced on its own.  Dumps b and c, whole.
program split_two_kernels
  use split_kernel, only: flux_difference
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'split-two-kernels'
  integer, parameter :: ni = 67, nj = 21, nk = 11, halo = 2
  real, parameter :: sentinel = -1.0, tolerance = 1.0e-6

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k
  real, allocatable :: a(:,:,:), u(:,:,:), b(:,:,:), c(:,:,:)
  real :: err, want
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(a(ims:ime, kms:kme, jms:jme), u(ims:ime, kms:kme, jms:jme),   &
           b(ims:ime, kms:kme, jms:jme), c(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        a(i,k,j) = 1.0 + 0.3*sin(0.2*i + 0.1*k) + noise(i, k, j)
        u(i,k,j) = 2.0 + 0.5*k/real(nk) + noise(j, k, i)
      end do
    end do
  end do
  b = sentinel
  c = sentinel

  call flux_difference(a, u, b, c, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  err = 0.0
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        want = 0.5*(u(i-1,k,j)*a(i-1,k,j) - u(i+1,k,j)*a(i+1,k,j))
        err = max(err, abs(c(i,k,j) - want))
      end do
    end do
  end do
  call check_tolerance(name, 'max error of c', err, tolerance, 'wrong c')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('b', b)
  call s2s_dump_array('c', c)
  call s2s_dump_close()

end program split_two_kernels
