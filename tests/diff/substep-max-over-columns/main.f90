! Driver of substep-max-over-columns: fall speeds that need 1 to 6 sub-steps
! in different columns, runs substep_fall, reruns the same sub-stepping on
! the host column by column (each column its own mstep, the shape the GPU
! runs; the same operations, so exactly equal) and dumps q and fall.
program substep_max_over_columns
  use smc_kernel, only: substep_fall
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'substep-max-over-columns'
  integer, parameter :: ni = 37, nj = 11, nk = 24, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k, n, ms
  real, allocatable :: q(:,:,:), den(:,:,:), vt(:,:,:), delz(:,:,:), fall(:,:,:), q0(:,:,:)
  real :: dt, err, fk(200), qq(200), fl(200)
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(q(ims:ime, kms:kme, jms:jme), den(ims:ime, kms:kme, jms:jme), vt(ims:ime, kms:kme, jms:jme))
  allocate(delz(ims:ime, kms:kme, jms:jme), fall(ims:ime, kms:kme, jms:jme))
  dt = 60.0
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        q(i,k,j) = 1.0e-3 * (0.6 + noise(i, k, j))
        den(i,k,j) = 1.2 - 0.02 * k
        delz(i,k,j) = 200.0 + 50.0 * noise(k, i, j)
        vt(i,k,j) = (0.5 + 0.49 * noise(j, k, i)) * 5.0 * (1 + mod(i + 2 * j, 6)) * 200.0 / 60.0
      end do
    end do
  end do
  fall = -1.0
  q0 = q
  call substep_fall(q, den, vt, delz, fall, dt, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  err = 0.0
  do j = jts, jte
    do i = its, ite
      ms = 1
      do k = kte, kts, -1
        ms = max(ms, int(vt(i,k,j) * dt / delz(i,k,j) + 1.))
        qq(k) = q0(i,k,j)
        fl(k) = 0.
      end do
      do n = 1, ms
        do k = kte, kts, -1
          fk(k) = den(i,k,j) * qq(k) * vt(i,k,j) / delz(i,k,j)
          fl(k) = fl(k) + fk(k)
          if (k == kte) then
            qq(k) = max(qq(k) - fk(k) * dt / ms / den(i,k,j), 0.)
          else
            qq(k) = max(qq(k) - (fk(k) - fk(k+1) * delz(i,k+1,j) / delz(i,k,j)) * dt / ms / den(i,k,j), 0.)
          end if
        end do
      end do
      do k = kts, kte
        err = max(err, abs(q(i,k,j) - qq(k)) / 1.0e-3, abs(fall(i,k,j) - fl(k)) / 1.0e-3)
      end do
    end do
  end do
  call check_tolerance(name, 'max error / 1e-3', err, 1.0e-5, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_array('fall', fall)
  call s2s_dump_close()
end program substep_max_over_columns
