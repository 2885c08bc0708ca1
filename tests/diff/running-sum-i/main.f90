! Driver of running-sum-i: the host checks every s(i,j) against the sum of
! a(its:i,j) computed with sum() (relative 1e-12).  s starts as a sentinel
! (a parallel i loop would read it).  Dumps s, whole.
program running_sum_i
  use rsum_kernel, only: row_prefix_sum, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'running-sum-i'
  integer, parameter :: ni = 150, nj = 37, halo = 2
  real(r8), parameter :: sentinel = -1.0_r8, tolerance = 1.0e-12_r8

  integer :: ims, ime, jms, jme, its, ite, jts, jte, i, j
  real(r8), allocatable :: a(:,:), s(:,:)
  real(r8) :: err
  character(len=512) :: path

  call get_dump_path(path)
  ! Tile (3:ni+2, 1:nj).
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte, first_i=3)
  allocate(a(ims:ime, jms:jme), s(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      a(i,j) = 0.01_r8 + 0.02_r8*(noise_r8(i, 0, j) + 0.5_r8)
    end do
  end do
  s = sentinel

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

end program running_sum_i
