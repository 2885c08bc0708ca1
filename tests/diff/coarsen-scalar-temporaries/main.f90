! Driver of coarsen-scalar-temporaries (also coarsen-odd-factor): q smooth
! plus noise with a halo of 2, so that the limiter clips some fx and zeroes
! some fy; out starts as a sentinel outside the tile.  The host recomputes
! every point (1e-5 relative).  Dumps out, whole.
program coarsen_scalar_temporaries
  use smooth_kernel, only: smooth
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_2d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'coarsen-scalar-temporaries'
  integer, parameter :: ni = 45, nj = 16, halo = 2
  real, parameter :: lim = 0.8, sentinel = -1.0
  integer :: ims,ime, jms,jme, its,ite, jts,jte, i, j
  real, allocatable :: q(:,:), w(:,:), out(:,:)
  real :: err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte)
  allocate(q(ims:ime, jms:jme), w(ims:ime, jms:jme), out(ims:ime, jms:jme))
  do j = jms, jme
    do i = ims, ime
      q(i,j) = 10.0 + 3.0*sin(0.4*i)*cos(0.3*j) + 2.0*noise(i, 0, j)
      w(i,j) = 0.05 + 0.02*noise(j, 1, i)
    end do
  end do
  out = sentinel
  call smooth(q, w, out, lim, ims,ime, jms,jme, its,ite, jts,jte)
  err = 0.0
  do j = jts, jte
    do i = its, ite
      err = max(err, abs(out(i,j) - want(i, j)) / abs(want(i, j)))
    end do
  end do
  call check_tolerance(name, 'max relative error of out', err, 1.0e-5, 'wrong out')
  if (any(out(ims:its-1, :) /= sentinel) .or. any(out(:, jte+1:jme) /= sentinel)) &
    call check_tolerance(name, 'points outside the tile written', 1.0, 0.0, 'halo written')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('out', out)
  call s2s_dump_close()

contains

  real function lap(i, j)
    integer, intent(in) :: i, j
    lap = 4.0*q(i,j) - q(i+1,j) - q(i-1,j) - q(i,j+1) - q(i,j-1)
  end function lap

  real function want(i, j)
    integer, intent(in) :: i, j
    real :: fx, fy
    fx = lap(i+1,j) - 2.0*lap(i,j) + lap(i-1,j)
    if (abs(fx) > lim) then
      fx = sign(lim, fx)
    else
      fx = 0.5*fx
    end if
    fy = lap(i,j+1) - 2.0*lap(i,j) + lap(i,j-1)
    if (fy*(q(i,j+1) - q(i,j-1)) > 0.0) fy = 0.0
    want = q(i,j) - w(i,j)*(fx + fy)
  end function want
end program coarsen_scalar_temporaries
