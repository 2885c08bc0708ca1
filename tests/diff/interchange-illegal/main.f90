! Driver of interchange-illegal: the host repeats the sweep with i running
! backwards inside j (legal: the i iterations of one j are independent) and
! checks that it gives the same a, bit for bit.  Dumps a, whole (the halo
! row and column it reads keep their values).
program interchange_illegal
  use ich_kernel, only: skewed_sweep, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'interchange-illegal'
  integer, parameter :: ni = 83, nj = 47, halo = 1

  integer :: ims, ime, jms, jme, its, ite, jts, jte, i, j
  real(r8), allocatable :: a(:,:), b(:,:), check(:,:)
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte)
  allocate(a(ims:ime, jms:jme), b(ims:ime, jms:jme), check(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      a(i,j) = 1.0_r8 + noise_r8(i, 1, j)
      b(i,j) = noise_r8(i, 2, j)
    end do
  end do
  check = a

  call skewed_sweep(a, b, ims,ime, jms,jme, its,ite, jts,jte)

  do j = jts, jte
    do i = ite, its, -1
      check(i,j) = 0.5_r8*check(i+1,j-1) + b(i,j)
    end do
  end do
  call check_tolerance(name, 'max |a - check| =', maxval(abs(a - check)), 0.0_r8, &
                       'the i order changed the result')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
  call s2s_dump_close()

end program interchange_illegal
