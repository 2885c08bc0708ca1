! Driver of array-syntax-whole: recomputes q and nsteps on the host column by
! column with explicit loops and compares (relative 1e-6, counts exactly).
! Dumps q and nsteps, whole.
program array_syntax_whole
  use whole_kernel, only: micro
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance, fail
  implicit none
  character(len=*), parameter :: name = 'array-syntax-whole'
  integer, parameter :: ni = 67, nj = 21, nk = 19, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k, nd, cnt
  real, allocatable :: t(:,:,:), q(:,:,:), expect(:,:,:)
  integer, allocatable :: nsteps(:,:), expect_steps(:,:)
  real :: w(nk), err
  logical :: fix
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, kms:kme, jms:jme), q(ims:ime, kms:kme, jms:jme), expect(ims:ime, kms:kme, jms:jme))
  allocate(nsteps(ims:ime, jms:jme), expect_steps(ims:ime, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 285.0 + 10.0 * noise(i, k, j)
        q(i,k,j) = 0.2 * noise(j, i, k)
      end do
    end do
  end do
  nsteps = -999
  expect_steps = -999
  expect = q
  do j = jts, jte
    do i = its, ite
      nd = 1
      fix = .false.
      cnt = 0
      do k = kts, kte
        if (t(i,k,j) > 285.0) nd = nd + 1
        if (expect(i,k,j) < 0.0) fix = .true.
        w(k) = 0.01 * t(i,k,j)
        if (expect(i,k,j) < 0.0) cnt = cnt + 1
      end do
      do k = kts, kte
        if (expect(i,k,j) < 0.0) expect(i,k,j) = w(k) * real(cnt)
      end do
      expect_steps(i,j) = nd
      if (fix) expect_steps(i,j) = -nd
    end do
  end do

  call micro(t, q, nsteps, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  err = maxval(abs(q - expect) / max(abs(expect), 1.0))
  call check_tolerance(name, 'max relative error', err, 1.0e-6, 'wrong result')
  if (any(nsteps /= expect_steps)) call fail(name, 'wrong step counts')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_array('nsteps', nsteps)
  call s2s_dump_close()
end program array_syntax_whole
