! Driver of firstprivate-scalar: checks b = 2*c0*a and a + 3 on the host
! (relative 1e-6).  Dumps a and b, whole.
program firstprivate_scalar
  use firstprivate_kernel, only: scale_rows
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'firstprivate-scalar'
  integer, parameter :: ni = 83, nj = 41, halo = 1
  real, parameter :: c0 = 1.25
  integer :: ims,ime, jms,jme, its,ite, jts,jte, i, j
  real, allocatable :: a(:,:), b(:,:), a0(:,:)
  real :: err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte)
  allocate(a(ims:ime, jms:jme), b(ims:ime, jms:jme), a0(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      a(i,j) = 1.0 + noise(i, 0, j)
    end do
  end do
  a0 = a
  b = -1.0
  call scale_rows(a, b, c0, ims,ime, jms,jme, its,ite, jts,jte)
  err = 0.0
  do j = jts, jte
    do i = its, ite
      err = max(err, abs(b(i,j) - 2.0*c0*a0(i,j)) / abs(2.0*c0*a0(i,j)), &
                abs(a(i,j) - (a0(i,j) + 3.0)) / abs(a0(i,j) + 3.0))
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-6, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
  call s2s_dump_array('b', b)
  call s2s_dump_close()
end program firstprivate_scalar
