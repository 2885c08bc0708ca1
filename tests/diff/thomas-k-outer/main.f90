! Driver of thomas-k-outer: random diagonally dominant systems, two solves
! (the second with the first's solution as right-hand side), a host check
! of A x = d, and a dump of x, cp and dp, whole (outside the tile they must
! keep the sentinel).
program thomas_k_outer
  use tk_kernel, only: solve_columns, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'thomas-k-outer'
  integer, parameter :: ni = 37, nj = 23, nk = 19, halo = 1
  real(r8), parameter :: sentinel = -1.0_r8, tolerance = 1.0e-12_r8

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k, solve
  real(r8), allocatable :: a(:,:,:), b(:,:,:), c(:,:,:), d(:,:,:)
  real(r8), allocatable :: x(:,:,:), cp(:,:,:), dp(:,:,:)
  character(len=512) :: path

  call get_dump_path(path)
  ! Tile (2:ni+1, 1:nk-1, 3:nj+2), memory one point wider in i and j and
  ! one level higher (kme = kte+1, never touched).
  call set_tile_3d(ni, nj, nk - 1, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, &
                   first_i=2, first_j=3, levels_above=1)
  allocate(a(ims:ime, kms:kme, jms:jme), b(ims:ime, kms:kme, jms:jme),   &
           c(ims:ime, kms:kme, jms:jme), d(ims:ime, kms:kme, jms:jme),   &
           x(ims:ime, kms:kme, jms:jme), cp(ims:ime, kms:kme, jms:jme),  &
           dp(ims:ime, kms:kme, jms:jme))

  a = 0.0_r8
  b = 1.0_r8
  c = 0.0_r8
  d = sentinel
  x = sentinel
  cp = sentinel
  dp = sentinel
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        if (k > kts) a(i,k,j) = -(0.6_r8 + noise_r8(i, k, j))
        if (k < kte) c(i,k,j) = -(0.6_r8 + noise_r8(j, i, k))
        b(i,k,j) = 1.0_r8 + abs(a(i,k,j)) + abs(c(i,k,j)) + 0.5_r8*noise_r8(k, j, i)
        d(i,k,j) = 2.0_r8 + noise_r8(i + 7, k, j) + 0.1_r8*k
      end do
    end do
  end do

  do solve = 1, 2
    if (solve > 1) d(its:ite, kts:kte, jts:jte) = x(its:ite, kts:kte, jts:jte)
    call solve_columns(a, b, c, d, x, cp, dp,                          &
                       ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  end do

  call check_tolerance(name, 'max |A x - d| / max |d| =', max_residual(), tolerance, &
                       'the solution does not solve the system')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('x', x)
  call s2s_dump_array('cp', cp)
  call s2s_dump_array('dp', dp)
  call s2s_dump_close()

contains

  real(r8) function max_residual()
    real(r8) :: r, dmax

    max_residual = 0.0_r8
    dmax = 0.0_r8
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          r = b(i,k,j)*x(i,k,j) - d(i,k,j)
          if (k > kts) r = r + a(i,k,j)*x(i,k-1,j)
          if (k < kte) r = r + c(i,k,j)*x(i,k+1,j)
          max_residual = max(max_residual, abs(r))
          dmax = max(dmax, abs(d(i,k,j)))
        end do
      end do
    end do
    max_residual = max_residual/dmax
  end function max_residual

end program thomas_k_outer
