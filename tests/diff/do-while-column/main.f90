! Driver of do-while-column: runs the same iterations here with counted
! loops and an EXIT and checks niter exactly, t within 1e-5 (and that the roots
! solve x**3 = r + 2).  Dumps t and niter.
program do_while_column
  use dwc_kernel, only: solve_columns
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, fail, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'do-while-column'
  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte, i, j, k, n
  real, allocatable :: t(:,:,:), r(:,:,:), et(:,:,:)
  integer, allocatable :: niter(:,:), en(:,:)
  real(8) :: x, f
  real :: err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(37, 5, 9, 1, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime,kms:kme,jms:jme), r(ims:ime,kms:kme,jms:jme))
  allocate(niter(ims:ime,jms:jme), en(ims:ime,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        r(i,k,j) = noise(i, k, j)
        t(i,k,j) = noise(k, i, j)
      end do
    end do
  end do
  niter = -3
  et = t
  en = niter
  err = 0.
  do j = jts, jte
    do i = its, ite
      en(i,j) = 0
      do k = kts, kte
        x = 1.0d0 + r(i,k,j)
        f = x * x * x - r(i,k,j) - 2.0d0
        do n = 0, 39
          if (.not. abs(f) > 1.d-5) exit
          x = x - f / (3.0d0 * x * x)
          f = x * x * x - r(i,k,j) - 2.0d0
        end do
        et(i,k,j) = real(x)
        en(i,j) = en(i,j) + n
        err = max(err, real(abs(x**3 - r(i,k,j) - 2.0d0)))
      end do
      do k = kte, kts, -1
        if (et(i,k,j) > 1.3) exit
        et(i,k,j) = et(i,k,j) + 10.0
      end do
    end do
  end do
  call check_tolerance(name, 'root residual', err, 1.e-4, 'Newton did not converge')

  call solve_columns(t, r, niter, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)

  ! the GPU contracts x*x*x - r and x - f/(3x^2) into fused multiply-adds:
  ! the roots agree to a few ulps, not bit for bit
  call check_tolerance(name, 'max relative error of t', maxval(abs(t - et) / abs(et)), 1.e-5, 'wrong t')
  if (any(niter /= en)) call fail(name, 'wrong niter')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('niter', niter)
  call s2s_dump_close()
end program do_while_column
