! Driver of same-condition-scratch: temperatures on both sides of t0, the
! result recomputed on the host (exact) and out dumped whole.
program same_condition_scratch
  use scs_kernel, only: phase_scratch
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'same-condition-scratch'
  integer, parameter :: ni = 47, nj = 7, nk = 19, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real, allocatable :: t(:,:,:), q(:,:,:), out(:,:,:)
  real :: t0, e, err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, kms:kme, jms:jme), q(ims:ime, kms:kme, jms:jme), out(ims:ime, kms:kme, jms:jme))
  t0 = 273.15
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 273.0 + 10.0 * noise(i, k, j)
        q(i,k,j) = 1.0e-3 * (1.0 + noise(k, i, j))
      end do
    end do
  end do
  out = -1.0
  call phase_scratch(t, q, out, t0, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  err = 0.0
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        e = q(i,k,j)
        if (t(i,k,j) > t0) e = e + 2.0 * ((t(i,k,j) - t0) * q(i,k,j))
        err = max(err, abs(out(i,k,j) - e))
      end do
    end do
  end do
  call check_tolerance(name, 'max abs error', err, 0.0, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('out', out)
  call s2s_dump_close()
end program same_condition_scratch
