! Driver of interchange-illegal: the host repeats the sweep with i running
! backwards inside j (legal: the i iterations of one j are independent) and
! checks that it gives the same a, bit for bit.  Dumps a, whole (the halo
! row and column it reads keep their values).
program interchange_illegal
  use ich_kernel, only: skewed_sweep, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use, intrinsic :: iso_fortran_env, only: int64
  implicit none
  integer, parameter :: ni = 83, nj = 47, halo = 1

  integer :: ims, ime, jms, jme, its, ite, jts, jte, i, j
  real(r8), allocatable :: a(:,:), b(:,:), check(:,:)
  character(len=512) :: path

  if (command_argument_count() /= 1) then
    write(*,'(a)') 'usage: prog OUT.dat'
    stop 2
  end if
  call get_command_argument(1, path)

  its = 1
  ite = ni
  jts = 1
  jte = nj
  ims = its - halo
  ime = ite + halo
  jms = jts - halo
  jme = jte + halo
  allocate(a(ims:ime, jms:jme), b(ims:ime, jms:jme), check(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      a(i,j) = 1.0_r8 + noise(i, j, 1)
      b(i,j) = noise(i, j, 2)
    end do
  end do
  check = a

  call skewed_sweep(a, b, ims,ime, jms,jme, its,ite, jts,jte)

  do j = jts, jte
    do i = ite, its, -1
      check(i,j) = 0.5_r8*check(i+1,j-1) + b(i,j)
    end do
  end do
  write(*,'(a,es10.3)') 'interchange-illegal: max |a - check| = ', maxval(abs(a - check))
  if (maxval(abs(a - check)) > 0.0_r8) then
    write(*,'(a)') 'interchange-illegal: the i order changed the result'
    stop 1
  end if

  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
  call s2s_dump_close()

contains

  ! Deterministic noise in [-0.5, 0.5) from three integers.
  real(r8) function noise(i, j, n)
    integer, intent(in) :: i, j, n
    integer(int64), parameter :: q = 1000003_int64
    integer(int64) :: h

    h = modulo(73856093_int64*i + 19349663_int64*n + 83492791_int64*j, q)
    h = modulo(h*h + 12345_int64, q)
    noise = real(h, r8)/real(q, r8) - 0.5_r8
  end function noise

end program interchange_illegal
