! Driver of reduction-across-columns: the host checks that every row of b
! sums to 1 (1e-12).  Dumps b, whole (outside the tile: a sentinel).
program reduction_across_columns
  use red_kernel, only: normalize_rows, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'reduction-across-columns'
  integer, parameter :: ni = 93, nj = 15, nk = 22, halo = 1
  real(r8), parameter :: sentinel = -1.0_r8, tolerance = 1.0e-12_r8

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k
  real(r8), allocatable :: a(:,:,:), b(:,:,:)
  real(r8) :: err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(a(ims:ime, kms:kme, jms:jme), b(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        a(i,k,j) = 1.0_r8 + noise_r8(i, k, j)
      end do
    end do
  end do
  b = sentinel

  call normalize_rows(a, b, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  err = 0.0_r8
  do j = jts, jte
    do k = kts, kte
      err = max(err, abs(sum(b(its:ite,k,j)) - 1.0_r8))
    end do
  end do
  call check_tolerance(name, 'max |sum_i b - 1| =', err, tolerance, 'rows not normalized')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('b', b)
  call s2s_dump_close()

end program reduction_across_columns
