! Driver of present-passed-on: calls outer with rain and without it,
! recomputes both on the host (relative 1e-6).  Dumps a, rain and a2.
program present_passed_on
  use pass_on, only: outer
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'present-passed-on'
  integer, parameter :: n = 71, m = 29
  real, dimension(n, m) :: a, b, rain, a2, ea, erain, ea2
  real :: err
  character(len=512) :: path
  integer :: i, j

  call get_dump_path(path)
  do j = 1, m
    do i = 1, n
      a(i,j) = 0.5 + noise(i, 0, j)
      b(i,j) = 0.5 + noise(j, 2, i)
      rain(i,j) = 0.01 * real(i)
    end do
  end do
  a2 = a
  ea = a + 0.5 * b
  erain = rain + 0.1 * ea
  ea2 = ea
  call outer(n, m, a, b, rain)
  call outer(n, m, a2, b)
  err = max(maxval(abs(a - ea) / max(abs(ea), 1.0)), maxval(abs(rain - erain) / max(abs(erain), 1.0)), &
            maxval(abs(a2 - ea2) / max(abs(ea2), 1.0)))
  call check_tolerance(name, 'max relative error', err, 1.0e-6, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
  call s2s_dump_array('rain', rain)
  call s2s_dump_array('a2', a2)
  call s2s_dump_close()
end program present_passed_on
