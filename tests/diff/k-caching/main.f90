! Driver of k-caching: random diagonally dominant systems and a field u with
! both signs; ktop(i,j) from kts-1 to kte (no iteration of the last loop in
! the columns where ktop(i,j) <= kts).  Two calls: the whole tile, checked
! on the host (A x = d to 1e-12, every other output against the host's own
! sweep to 1e-12, and every level of the tile written), then a degenerate
! tile of one level, kts = kte = the level above the first tile, where
! every k loop runs zero times and only the statements around the loops
! store.  Dumps every output whole: outside the tiles they keep a sentinel.
program k_caching
  use kc_kernel, only: column_sweeps, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise_r8, check_tolerance, fail
  implicit none
  character(len=*), parameter :: name = 'k-caching'
  integer, parameter :: ni = 45, nj = 13, nk = 27, halo = 2
  real(r8), parameter :: sentinel = -3.0_r8, tolerance = 1.0e-12_r8

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k, top, zero_trip
  real(r8), allocatable :: a(:,:,:), b(:,:,:), c(:,:,:), d(:,:,:), u(:,:,:)
  real(r8), allocatable :: x(:,:,:), cp(:,:,:), dp(:,:,:), hit(:,:,:), lapu(:,:,:)
  real(r8), allocatable :: flux(:,:,:), sm(:,:,:), g(:,:,:), gl(:,:,:), acc(:,:,:)
  real(r8), allocatable :: sm0(:,:,:)
  integer, allocatable :: ktop(:,:)
  real(r8) :: err, t, f, worst
  character(len=512) :: path

  call get_dump_path(path)
  ! Tile (3:ni+2, 1:nk, 2:nj+1); memory two points wider in i and j and one
  ! level higher (kme = kte+1: the degenerate tile's level).
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, &
                   first_i=3, first_j=2, levels_above=1)
  allocate(a(ims:ime, kms:kme, jms:jme), b(ims:ime, kms:kme, jms:jme),       &
           c(ims:ime, kms:kme, jms:jme), d(ims:ime, kms:kme, jms:jme),       &
           u(ims:ime, kms:kme, jms:jme), x(ims:ime, kms:kme, jms:jme),       &
           cp(ims:ime, kms:kme, jms:jme), dp(ims:ime, kms:kme, jms:jme),     &
           hit(ims:ime, kms:kme, jms:jme), lapu(ims:ime, kms:kme, jms:jme),  &
           flux(ims:ime, kms:kme, jms:jme), sm(ims:ime, kms:kme, jms:jme),   &
           g(ims:ime, kms:kme, jms:jme), gl(ims:ime, kms:kme, jms:jme),      &
           acc(ims:ime, kms:kme, jms:jme), ktop(ims:ime, jms:jme),            &
           sm0(ims:ime, kms:kme, jms:jme))

  a = 0.0_r8
  b = 1.0_r8
  c = 0.0_r8
  x = sentinel
  cp = sentinel
  dp = sentinel
  hit = sentinel
  lapu = sentinel
  flux = sentinel
  sm = sentinel
  g = sentinel
  gl = sentinel
  acc = sentinel
  ktop = -100
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        if (k > kts) a(i,k,j) = -(0.6_r8 + noise_r8(i, k, j))
        if (k < kte) c(i,k,j) = -(0.6_r8 + noise_r8(j, i, k))
        b(i,k,j) = 1.0_r8 + abs(a(i,k,j)) + abs(c(i,k,j)) + 0.5_r8*noise_r8(k, j, i)
        d(i,k,j) = 2.0_r8 + noise_r8(i + 7, k, j) + 0.01_r8*k
        u(i,k,j) = noise_r8(i, j + 3, k) + 0.1_r8*sin(0.3_r8*k)
        ! sm where the kernel does not store keeps this: positive inside the
        ! tile, so that the next level's t depends on what memory holds
        if (i >= its .and. i <= ite .and. j >= jts .and. j <= jte .and. k <= kte) &
          sm(i,k,j) = 1.0_r8 + noise_r8(k, i, j + 5)
      end do
    end do
  end do
  sm0 = sm
  zero_trip = 0
  do j = jts, jte
    do i = its, ite
      ktop(i,j) = kts - 1 + modulo(7*i + 3*j, kte - kts + 2)
      if (ktop(i,j) <= kts) zero_trip = zero_trip + 1
    end do
  end do
  if (zero_trip == 0) call fail(name, 'no column where the last loop runs zero times')
  if (all(u(its:ite, kts:kte, jts:jte) >= -0.25_r8)) call fail(name, 'u never below -0.25')

  call column_sweeps(a, b, c, d, u, ktop, x, cp, dp, hit, lapu, flux, sm, g, gl, acc, &
                     ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  call check_tolerance(name, 'max |A x - d| / max |d| =', max_residual(), tolerance, &
                       'the solution does not solve the system')
  call check_tolerance(name, 'max error of hit, lapu, flux, sm, g, gl, acc =', host_error(), &
                       tolerance, 'a sweep differs from the host''s')

  ! The degenerate tile: one level, kts = kte = nk + 1.  The statements around
  ! the loops store at that level; no loop runs.
  top = kte + 1
  call column_sweeps(a, b, c, d, u, ktop, x, cp, dp, hit, lapu, flux, sm, g, gl, acc, &
                     ims,ime, jms,jme, kms,kme, its,ite, jts,jte, top, top)
  err = 0.0_r8
  do j = jts, jte
    do i = its, ite
      err = max(err, abs(cp(i,top,j) - c(i,top,j)/b(i,top,j)),             &
                abs(dp(i,top,j) - d(i,top,j)/b(i,top,j)),                  &
                abs(x(i,top,j) - dp(i,top,j)), abs(flux(i,top,j)),         &
                abs(sm(i,top,j) - u(i,top,j)), abs(g(i,top,j) - x(i,top,j)), &
                abs(acc(i,top,j) - u(i,top,j)))
      if (hit(i,top,j) /= sentinel .or. lapu(i,top,j) /= sentinel .or. gl(i,top,j) /= sentinel) &
        call fail(name, 'the degenerate tile ran a loop')
    end do
  end do
  call check_tolerance(name, 'max error on the degenerate tile =', err, tolerance, &
                       'the degenerate tile is wrong')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('x', x)
  call s2s_dump_array('cp', cp)
  call s2s_dump_array('dp', dp)
  call s2s_dump_array('hit', hit)
  call s2s_dump_array('lapu', lapu)
  call s2s_dump_array('flux', flux)
  call s2s_dump_array('sm', sm)
  call s2s_dump_array('g', g)
  call s2s_dump_array('gl', gl)
  call s2s_dump_array('acc', acc)
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

  ! The largest difference between the kernel's outputs (other than the
  ! solve) and the same sweeps run here, level by level, from memory; an
  ! element the kernel should not have stored must keep the sentinel.
  real(r8) function host_error()
    real(r8) :: smk, smprev, gprev, accprev

    worst = 0.0_r8
    do j = jts, jte
      do i = its, ite
        f = 0.0_r8
        smprev = u(i,kts,j)
        gprev = x(i,kts,j)
        accprev = u(i,kts,j)
        call near(flux(i,kte,j), 0.0_r8)
        call near(sm(i,kts,j), smprev)
        call near(acc(i,kts,j), accprev)
        do k = kts+1, kte
          if (d(i,k,j) > 2.0_r8) then
            call near(hit(i,k,j), cp(i,k-1,j) + dp(i,k,j))
          else
            call near(hit(i,k,j), sentinel)
          end if
          t = 0.5_r8*smprev + u(i,k,j)
          smk = sm0(i,k,j)
          if (t > 0.0_r8) smk = t
          call near(sm(i,k,j), smk)
          smprev = smk
          call near(g(i,k,j), d(i,k,j)*x(i,k,j))
          if (u(i,k,j) < 0.0_r8) then
            call near(gl(i,k,j), gprev - d(i,k,j)*x(i,k,j))
          else
            call near(gl(i,k,j), sentinel)
          end if
          gprev = d(i,k,j)*x(i,k,j)
          if (k <= ktop(i,j)) then
            accprev = 0.5_r8*accprev + u(i,k,j) - u(i,k-1,j)
            call near(acc(i,k,j), accprev)
          else
            call near(acc(i,k,j), sentinel)
          end if
        end do
        do k = kts+1, kte-1
          call near(lapu(i,k,j), u(i,k+1,j) - 2.0_r8*u(i,k,j) + 0.75_r8*u(i,k-1,j))
        end do
        do k = kte-1, kts+1, -1
          f = f + 0.5_r8*u(i,k+1,j) - u(i,k,j) + 0.25_r8*u(i,k-1,j)
          call near(flux(i,k,j), f)
        end do
      end do
    end do
    host_error = worst
  end function host_error

  subroutine near(got, want)
    real(r8), intent(in) :: got, want
    worst = max(worst, abs(got - want))
  end subroutine near

end program k_caching
