! Driver of vector-helper-in-2d-routine: recomputes denfac = sqrt(den0/rho) on the
! host and compares (relative 1e-6).  Dumps denfac.
program vector_helper_in_2d_routine
  use vhelp, only: slopes, den0
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'vector-helper-in-2d-routine'
  integer, parameter :: ni = 61, nj = 33, nk = 24, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real, allocatable :: rho(:,:,:), denfac(:,:,:)
  real :: err, expect
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(rho(ims:ime,kms:kme,jms:jme), denfac(ims:ime,kms:kme,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        rho(i,k,j) = 1.0 + 0.5 * noise(i, k, j)
        denfac(i,k,j) = -999.0
      end do
    end do
  end do
  call slopes(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, rho, denfac)
  err = 0.0
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        expect = sqrt((1.0 / rho(i,k,j)) * den0)
        err = max(err, abs(denfac(i,k,j) - expect) / expect)
      end do
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-6, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('denfac', denfac)
  call s2s_dump_close()
end program vector_helper_in_2d_routine
