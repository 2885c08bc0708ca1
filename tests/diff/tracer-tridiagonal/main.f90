! Driver of tracer-tridiagonal: a diagonally dominant system per column
! (b = 1 + 2K, a = c = -K), nt = 5 tracers, the solve redone on the host
! column by column and checked (relative 1e-12), q dumped whole.
program tracer_tridiagonal
  use ttd_kernel, only: diffuse_tracers
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'tracer-tridiagonal'
  integer, parameter :: ni = 53, nk = 31, nt = 5, halo = 2
  integer :: ims,ime, kms,kme, its,ite, kts,kte, i, k, it
  real(8), allocatable :: q(:,:,:), a(:,:), b(:,:), c(:,:), q0(:,:,:)
  real(8) :: cp(200), dp(200), x(200), m, err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nk, halo, ims,ime, kms,kme, its,ite, kts,kte)
  allocate(q(ims:ime, kms:kme, nt), a(ims:ime, kms:kme), b(ims:ime, kms:kme), c(ims:ime, kms:kme))
  do k = kms, kme
    do i = ims, ime
      a(i,k) = -(0.3d0 + 0.2d0 * noise_r8(i, k, 1))
      c(i,k) = -(0.3d0 + 0.2d0 * noise_r8(k, i, 2))
      b(i,k) = 1.0d0 - a(i,k) - c(i,k)
      do it = 1, nt
        q(i,k,it) = 1.0d0 + noise_r8(i, k, 10 + it)
      end do
    end do
  end do
  q0 = q
  call diffuse_tracers(q, a, b, c, nt, ims,ime, kms,kme, its,ite, kts,kte)
  err = 0.0d0
  do it = 1, nt
    do i = its, ite
      cp(kts) = c(i,kts) / b(i,kts)
      dp(kts) = q0(i,kts,it) / b(i,kts)
      do k = kts + 1, kte
        m = b(i,k) - cp(k-1) * a(i,k)
        cp(k) = c(i,k) / m
        dp(k) = (q0(i,k,it) - dp(k-1) * a(i,k)) / m
      end do
      x(kte) = dp(kte)
      do k = kte - 1, kts, -1
        x(k) = dp(k) - cp(k) * x(k+1)
      end do
      do k = kts, kte
        err = max(err, abs(q(i,k,it) - x(k)) / abs(x(k)))
      end do
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0d-12, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_close()
end program tracer_tridiagonal
