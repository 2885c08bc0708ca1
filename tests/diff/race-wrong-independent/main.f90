! Driver of race-wrong-independent: s starts with s(its,j) = a(its,j) and
! a sentinel elsewhere; the host checks every s(i,j) against the sum of
! a(its:i,j) (relative 1e-12).  Dumps s, whole.
program race_wrong_independent
  use race_kernel, only: row_prefix_sum, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'race-wrong-independent'
  integer, parameter :: ni = 150, nj = 7, halo = 2
  real(r8), parameter :: sentinel = -1.0_r8, tolerance = 1.0e-12_r8

  integer :: ims, ime, jms, jme, its, ite, jts, jte, i, j
  real(r8), allocatable :: a(:,:), s(:,:)
  real(r8) :: err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte, first_i=3)
  allocate(a(ims:ime, jms:jme), s(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      a(i,j) = 0.01_r8 + 0.02_r8*(noise_r8(i, 0, j) + 0.5_r8)
    end do
  end do
  s = sentinel
  s(its,jts:jte) = a(its,jts:jte)

  call row_prefix_sum(a, s, ims,ime, jms,jme, its,ite, jts,jte)

  err = 0.0_r8
  do j = jts, jte
    do i = its, ite
      err = max(err, abs(s(i,j) - sum(a(its:i,j)))/sum(a(its:i,j)))
    end do
  end do
  call check_tolerance(name, 'max relative error', err, tolerance, 'wrong prefix sums')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('s', s)
  call s2s_dump_close()

end program race_wrong_independent
