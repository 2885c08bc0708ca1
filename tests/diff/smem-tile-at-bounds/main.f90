! Driver of smem-tile-at-bounds: u allocated with exactly the halo the
! stencil reads (i-1..i+2, j-2..j+1), three levels of which the kernel
! reads the second; w a sentinel outside the tile.  The host checks w
! point by point.  Dumps w, whole.
program smem_tile_at_bounds
  use smooth_kernel, only: smooth
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'smem-tile-at-bounds'
  integer, parameter :: ni = 45, nj = 13, lev = 2
  real, parameter :: sentinel = -7.0, tolerance = 1.0e-5
  integer :: ims, ime, jms, jme, its, ite, jts, jte
  integer :: i, j, k
  real, allocatable :: u(:,:,:), w(:,:)
  real :: err, want
  character(len=512) :: path

  call get_dump_path(path)
  its = 1
  ite = ni
  jts = 1
  jte = nj
  ims = its - 1
  ime = ite + 2
  jms = jts - 2
  jme = jte + 1
  allocate(u(ims:ime, 3, jms:jme), w(ims:ime, jms:jme))
  do j = jms, jme
    do k = 1, 3
      do i = ims, ime
        u(i,k,j) = real(k) + 0.1*i - 0.05*j + noise(i, k, j)
      end do
    end do
  end do
  w = sentinel

  call smooth(u, w, ims,ime, jms,jme, its,ite, jts,jte, lev)

  err = 0.0
  do j = jms, jme
    do i = ims, ime
      if (i < its .or. i > ite .or. j < jts .or. j > jte) then
        want = sentinel
      else
        want = 0.25*(u(i-1,lev,j) + u(i+2,lev,j) + u(i,lev,j-2) + u(i,lev,j+1)) - u(i,lev,j)
        if (u(i+1,lev,j+1) > u(i,lev,j)) want = want + 0.5*u(i+1,lev,j+1)
      end if
      err = max(err, abs(w(i,j) - want))
    end do
  end do
  call check_tolerance(name, 'max error of w', err, tolerance, 'wrong w')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('w', w)
  call s2s_dump_close()
end program smem_tile_at_bounds
