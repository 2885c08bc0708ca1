! Driver of elemental-function: recomputes c on the host and compares
! (relative 1e-5: single-precision functions differ by a few ulps between
! the GPU and the host).  Dumps c.
program elemental_function
  use limiters, only: limit
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'elemental-function'
  integer, parameter :: ni = 61, nj = 33, nk = 24, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real, allocatable :: a(:,:,:), b(:,:,:), c(:,:,:)
  real :: err, x, y, mm, expect
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(a(ims:ime,kms:kme,jms:jme), b(ims:ime,kms:kme,jms:jme), c(ims:ime,kms:kme,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        a(i,k,j) = noise(i, k, j)
        b(i,k,j) = noise(j, i, k)
        c(i,k,j) = -999.0
      end do
    end do
  end do
  call limit(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, a, b, c)
  err = 0.0
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        x = a(i,k,j)
        y = b(i,k,j)
        mm = 0.0
        if (x * y > 0.0) mm = sign(1.0, x) * min(abs(x), abs(max(-0.4, min(0.4, y))))
        expect = max(-0.25, min(0.25, x)) + mm + (0.7 * x + 0.3 * y)
        err = max(err, abs(c(i,k,j) - expect) / max(abs(expect), 1.0e-3))
      end do
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-5, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('c', c)
  call s2s_dump_close()
end program elemental_function
