! Driver of privatize-work-arrays: recomputes q on the host column by column
! with its own work arrays and compares (relative 1e-6).  Dumps q, whole.
program privatize_work_arrays
  use privatize_kernel, only: micro
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'privatize-work-arrays'
  integer, parameter :: ni = 71, nj = 29, nk = 17, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k, n
  real, allocatable :: t(:,:,:), q(:,:,:), expect(:,:,:)
  real :: w(nk), nd, tp(4), err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, kms:kme, jms:jme), q(ims:ime, kms:kme, jms:jme), expect(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 280.0 + 10.0 * noise(i, k, j)
        q(i,k,j) = 0.5 + noise(j, i, k)
      end do
    end do
  end do
  expect = q
  do j = jts, jte
    do i = its, ite
      nd = 1.0 + 0.5 * real(j)
      do k = kts, kte
        w(k) = t(i,k,j) * 2.0 - nd
      end do
      do n = 1, 4
        tp(n) = real(n) * nd + w(kts)
      end do
      do k = kte, kts, -1
        expect(i,k,j) = w(k) + nd * expect(i,k,j)
      end do
      do n = 1, 4
        expect(i,n,j) = expect(i,n,j) + tp(n)
      end do
    end do
  end do

  call micro(t, q, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  err = maxval(abs(q - expect) / max(abs(expect), 1.0))
  call check_tolerance(name, 'max relative error', err, 1.0e-6, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_close()
end program privatize_work_arrays
