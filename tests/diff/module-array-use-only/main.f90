! Driver of module-array-use-only: fields of 37 x 23 with lower bounds 0
! and -2 (a halo the tile 1:35, 1:21 leaves alone); double q, 5 steps of
! relax; the host checks both against its own loops (1e-6 relative); t and
! q are dumped whole.
program module_arrays
  use fields, only: t, q
  use physics, only: relax, double_q
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'module-array-use-only'
  real, allocatable :: rt(:,:), rq(:,:)
  integer :: i, j, step
  character(len=512) :: path

  call get_dump_path(path)
  allocate(t(0:36, -2:20), q(0:36, -2:20))
  do j = -2, 20
    do i = 0, 36
      t(i,j) = 280.0 + 5.0*noise(i, j, 1)
      q(i,j) = 270.0 + 5.0*noise(i, j, 2)
    end do
  end do
  rt = t
  rq = q
  call double_q(1, 35, 1, 18)
  call relax(1, 35, 1, 18, 5)
  rq(1:35, 1:18) = 2.0*rq(1:35, 1:18)
  do step = 1, 5
    rt(1:35, 1:18) = rt(1:35, 1:18) + 0.25*(rq(1:35, 1:18) - rt(1:35, 1:18))
  end do
  call check_tolerance(name, 'max relative error of t', maxval(abs(t - rt))/maxval(abs(rt)), &
                       1.0e-6, 't differs from the host loops')
  call check_tolerance(name, 'max relative error of q', maxval(abs(q - rq))/maxval(abs(rq)), &
                       1.0e-6, 'q differs from the host loops')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('q', q)
  call s2s_dump_close()
end program module_arrays
