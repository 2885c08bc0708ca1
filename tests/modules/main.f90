! tests/modules.sh: the main program; dumps t and f with s2s_dump.
program modules_test
  use kinds, only: kind_phys
  use constants, only: init_constants, scale
  use physics, only: step
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  implicit none
  integer, parameter :: ims = 0, ime = 40, jms = 0, jme = 23
  real(kind_phys) :: t(ims:ime, jms:jme), q(ims:ime, jms:jme), f(ims:ime, jms:jme)
  character(len=256) :: path
  integer :: i, j
  call init_constants()
  do j = jms, jme
    do i = ims, ime
      t(i, j) = 280.0_kind_phys + real(mod(i * 7 + j * 13, 17), kind_phys)
      q(i, j) = 1.0_kind_phys + real(mod(i * 3 + j, 11), kind_phys) * scale
      f(i, j) = -1.0_kind_phys
    end do
  end do
  call step(ims, ime, jms, jme, 1, ime - 1, 1, jme - 1, t, q, f)
  call get_command_argument(1, path)
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('f', f)
  call s2s_dump_close()
end program modules_test
