! Driver of optional-arguments: recomputes a and rain on the host
! (relative 1e-6).  Dumps a and rain.
program optional_arguments
  use opt, only: outer
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'optional-arguments'
  integer, parameter :: n = 73, m = 31
  real :: a(n, m), b(n, m), rain(n, m), a0(n, m), rain0(n, m), ea, er, err
  integer :: i, j
  character(len=512) :: path

  call get_dump_path(path)
  do j = 1, m
    do i = 1, n
      a(i,j) = 0.5 + noise(i, 0, j)
      b(i,j) = 0.5 + noise(j, 2, i)
      rain(i,j) = 0.01 * real(i)
    end do
  end do
  a0 = a
  rain0 = rain
  call outer(n, m, a, b, rain)
  err = 0.0
  do j = 1, m
    do i = 1, n
      ea = a0(i,j) + 0.5 * b(i,j)
      er = rain0(i,j) + 0.1 * ea
      ea = ea + 0.5 * b(i,j)
      err = max(err, abs(a(i,j) - ea) / max(abs(ea), 1.0), abs(rain(i,j) - er) / max(abs(er), 1.0))
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-6, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
  call s2s_dump_array('rain', rain)
  call s2s_dump_close()
end program optional_arguments
