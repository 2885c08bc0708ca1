! Driver of stencil-inlining-refused-input: u smooth with noise, res a
! sentinel outside the tile.  The host keeps a copy u0 of u, checks that u
! was overwritten on the tile (and only there) and res against the
! Laplacian of u0 (1e-12; the Laplacian of the new u differs by thousands).
! Dumps u and res, whole.
program stencil_inlining_refused_input
  use refused_input_kernel, only: refused_input
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'stencil-inlining-refused-input'
  integer, parameter :: ni = 53, nj = 19, halo = 2
  real(8), parameter :: sentinel = -3.0d0, tolerance = 1.0d-12

  integer :: ims, ime, jms, jme, its, ite, jts, jte
  integer :: i, j
  real(8), allocatable :: u(:,:), u0(:,:), res(:,:)
  real(8) :: err, want
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte)
  allocate(u(ims:ime, jms:jme), u0(ims:ime, jms:jme), res(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      u(i,j) = 2.0d0*cos(0.3d0*i)*sin(0.2d0*j) + noise_r8(i, 2, j)
    end do
  end do
  u0 = u
  res = sentinel

  call refused_input(u, res, ims,ime, jms,jme, its,ite, jts,jte)

  err = 0.0d0
  do j = jms, jme
    do i = ims, ime
      want = u0(i,j)
      if (i >= its .and. i <= ite .and. j >= jts .and. j <= jte)   &
        want = 1000.0d0*u0(i,j) + 3.0d0*i - 7.0d0*j
      err = max(err, abs(u(i,j) - want))
    end do
  end do
  do j = jts, jte
    do i = its, ite
      want = lap0(i+1,j) + lap0(i,j+1) - 2.0d0*lap0(i,j) + 1.0d-3*u(i,j)
      err = max(err, abs(res(i,j) - want))
    end do
  end do
  call check_tolerance(name, 'max error of u and res', err, tolerance, 'wrong u or res')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('u', u)
  call s2s_dump_array('res', res)
  call s2s_dump_close()

contains

  ! the Laplacian of the u passed in
  real(8) function lap0(i, j)
    integer, intent(in) :: i, j
    lap0 = 4.0d0*u0(i,j) - (u0(i+1,j) + u0(i-1,j) + u0(i,j+1) + u0(i,j-1))
  end function lap0

end program stencil_inlining_refused_input
