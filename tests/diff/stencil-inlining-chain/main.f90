! Driver of stencil-inlining-chain: u and v smooth with noise (so that the
! IF of sgrad zeroes some points and not others), the outputs starting as a
! sentinel outside the tile.  The host computes div, dif and lim point by
! point from u and v, without work arrays, and checks them (1e-12).  Dumps
! div, dif and lim, whole.
program stencil_inlining_chain
  use chain_kernel, only: chain
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise_r8, check_tolerance, fail
  implicit none
  character(len=*), parameter :: name = 'stencil-inlining-chain'
  integer, parameter :: ni = 45, nj = 29, halo = 2
  real(8), parameter :: sentinel = -7.0d0, tolerance = 1.0d-12

  integer :: ims, ime, jms, jme, its, ite, jts, jte
  integer :: i, j, nzero
  real(8), allocatable :: u(:,:), v(:,:), div(:,:), dif(:,:), lim(:,:)
  real(8) :: err, want
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte, 3, 2)
  allocate(u(ims:ime, jms:jme), v(ims:ime, jms:jme), div(ims:ime, jms:jme),   &
           dif(ims:ime, jms:jme), lim(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      u(i,j) = 3.0d0*sin(0.25d0*i)*cos(0.15d0*j) + noise_r8(i, 0, j)
      v(i,j) = 1.0d0 + 0.5d0*cos(0.1d0*i + 0.2d0*j) + noise_r8(j, 1, i)
    end do
  end do
  div = sentinel
  dif = sentinel
  lim = sentinel

  call chain(u, v, div, dif, lim, ims,ime, jms,jme, its,ite, jts,jte)

  ! the IF of sgrad must matter: some points of the tile zeroed, not all
  nzero = 0
  do j = jts-1, jte+1
    do i = its, ite
      if (smoothed(i,j) == 0.0d0) nzero = nzero + 1
    end do
  end do
  if (nzero == 0 .or. nzero == ni*(nj+2)) call fail(name, 'the IF of sgrad is not exercised')

  err = 0.0d0
  do j = jts, jte
    do i = its, ite
      want = smoothed(i,j+1) - smoothed(i,j-1) + v(i,j)
      err = max(err, abs(div(i,j) - want))
      want = work(i+1,j) - work(i,j)
      err = max(err, abs(dif(i,j) - want))
      want = flux(i,j)
      if (i > its) want = want - 0.5d0*flux(i-1,j)
      if (j > jts) want = want - 0.25d0*flux(i,j-1)
      err = max(err, abs(lim(i,j) - want))
    end do
  end do
  call check_tolerance(name, 'max error of div, dif, lim', err, tolerance, 'wrong outputs')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('div', div)
  call s2s_dump_array('dif', dif)
  call s2s_dump_array('lim', lim)
  call s2s_dump_close()

contains

  real(8) function gradient(i, j)
    integer, intent(in) :: i, j
    gradient = 0.5d0*(u(i+1,j) - u(i-1,j))
  end function gradient

  real(8) function smoothed(i, j)
    integer, intent(in) :: i, j
    smoothed = 0.25d0*gradient(i-1,j) + 0.5d0*gradient(i,j) + 0.25d0*gradient(i+1,j)
    if (abs(smoothed) < 0.05d0) smoothed = 0.0d0
  end function smoothed

  real(8) function work(i, j)
    integer, intent(in) :: i, j
    work = (v(i,j) - u(i,j))**2 + 0.1d0*v(i,j)
  end function work

  real(8) function flux(i, j)
    integer, intent(in) :: i, j
    flux = u(i,j)*v(i,j) - 0.5d0*u(i,j+1)
  end function flux

end program stencil_inlining_chain
