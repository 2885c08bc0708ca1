! Driver of modules-across-files: recomputes t and denfac on the host and
! compares (relative 1e-12).  Dumps t and denfac.
program modules_across_files
  use kinds, only: kind_phys
  use constants, only: cp, rd, den0
  use micro, only: driver
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'modules-across-files'
  integer, parameter :: ni = 61, nj = 33, nk = 24, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real(kind_phys), allocatable :: t(:,:,:), den(:,:,:), denfac(:,:,:), t0(:,:,:)
  real(kind_phys) :: want, err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime,kms:kme,jms:jme), den(ims:ime,kms:kme,jms:jme), denfac(ims:ime,kms:kme,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 280.0_kind_phys + 10.0_kind_phys * noise_r8(i, k, j)
        den(i,k,j) = 1.0_kind_phys + noise_r8(j, i, k)
        denfac(i,k,j) = -1.0_kind_phys
      end do
    end do
  end do
  t0 = t
  call driver(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, t, den, denfac)
  err = 0.0_kind_phys
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        want = sqrt(den0 / den(i,k,j))
        err = max(err, abs(denfac(i,k,j) - want) / want)
        want = t0(i,k,j) + want * rd / cp
        err = max(err, abs(t(i,k,j) - want) / want)
      end do
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-12_kind_phys, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('denfac', denfac)
  call s2s_dump_close()
end program modules_across_files
