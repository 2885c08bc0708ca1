! Driver of inline-column-routine: recomputes th and qv on the host with an
! independent column loop and compares (relative 1e-6).  Dumps th and qv.
program inline_column_routine
  use micro, only: driver, den0
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'inline-column-routine'
  integer, parameter :: ni = 61, nj = 33, nk = 24, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real, allocatable :: th(:,:,:), qv(:,:,:), pii(:,:,:), th0(:,:,:), qv0(:,:,:)
  real :: t(nk), q(nk), work(nk), supsat, err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(th(ims:ime,kms:kme,jms:jme), qv(ims:ime,kms:kme,jms:jme), pii(ims:ime,kms:kme,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        th(i,k,j) = 290.0 + 5.0 * noise(i, k, j)
        qv(i,k,j) = 0.006 + 0.01 * noise(j, i, k)
        pii(i,k,j) = 1.0 - 0.01 * real(k)
      end do
    end do
  end do
  th0 = th
  qv0 = qv
  call driver(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, th, qv, pii)
  err = 0.0
  do j = jts, jte
    do i = its, ite
      do k = kts, kte
        t(k) = th0(i,k,j) * pii(i,k,j)
        q(k) = qv0(i,k,j)
        work(k) = max(q(k), 0.0) * den0
      end do
      do k = kte, kts + 1, -1
        supsat = work(k) - 0.001 * t(k)
        if (supsat > 0.0) then
          q(k) = q(k) - 0.5 * supsat
          q(k-1) = q(k-1) + 0.5 * supsat
          t(k) = t(k) + 2.5 * supsat
        end if
      end do
      do k = kts, kte
        err = max(err, abs(th(i,k,j) - t(k)/pii(i,k,j)) / abs(t(k)/pii(i,k,j)), &
                  abs(qv(i,k,j) - q(k)) / max(abs(q(k)), 1.0e-3))
      end do
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-6, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('th', th)
  call s2s_dump_array('qv', qv)
  call s2s_dump_close()
end program inline_column_routine
