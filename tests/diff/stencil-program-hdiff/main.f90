! Driver of stencil-program-hdiff: a smooth field with noise (so the limiter
! zeroes some fluxes and not others), outp starting as a sentinel outside
! the tile.  The host checks outp against the diffusion computed point by
! point from inp, without work arrays.  Dumps outp, whole.
program stencil_program_hdiff
  use hdiff_kernel, only: hdiff
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'stencil-program-hdiff'
  integer, parameter :: ni = 67, nj = 23, nk = 9, halo = 2
  ! outp is about 280: one unit in the last place of a real is 3.05e-5, and a
  ! GPU build contracts inp - coeff*(...) into an FMA (measured on an H100:
  ! 3.05e-5 off).  A few units in the last place.
  real, parameter :: sentinel = -1.0, tolerance = 1.5e-4

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k
  real, allocatable :: inp(:,:,:), coeff(:,:,:), outp(:,:,:)
  real :: err, want
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(inp(ims:ime, kms:kme, jms:jme), coeff(ims:ime, kms:kme, jms:jme),   &
           outp(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        inp(i,k,j) = 280.0 + 5.0*sin(0.3*i)*cos(0.2*j) + 0.5*k + noise(i, k, j)
        coeff(i,k,j) = 0.02 + 0.01*noise(j, i, k)
      end do
    end do
  end do
  outp = sentinel

  call hdiff(inp, coeff, outp, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  err = 0.0
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        want = inp(i,k,j) - coeff(i,k,j)*(flux_x(i,k,j) - flux_x(i-1,k,j)    &
                                         + flux_y(i,k,j) - flux_y(i,k,j-1))
        err = max(err, abs(outp(i,k,j) - want))
      end do
    end do
  end do
  call check_tolerance(name, 'max error of outp', err, tolerance, 'wrong outp')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('outp', outp)
  call s2s_dump_close()

contains

  real function laplacian(i, k, j)
    integer, intent(in) :: i, k, j
    laplacian = 4.0*inp(i,k,j) - (inp(i+1,k,j) + inp(i-1,k,j) + inp(i,k,j+1) + inp(i,k,j-1))
  end function laplacian

  real function flux_x(i, k, j)
    integer, intent(in) :: i, k, j
    flux_x = laplacian(i+1,k,j) - laplacian(i,k,j)
    if (flux_x*(inp(i+1,k,j) - inp(i,k,j)) > 0.0) flux_x = 0.0
  end function flux_x

  real function flux_y(i, k, j)
    integer, intent(in) :: i, k, j
    flux_y = laplacian(i,k,j+1) - laplacian(i,k,j)
    if (flux_y*(inp(i,k,j+1) - inp(i,k,j)) > 0.0) flux_y = 0.0
  end function flux_y

end program stencil_program_hdiff
