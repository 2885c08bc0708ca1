! Driver of device-subroutines: checks the roots against x + x**3 = t
! (1e-5), the step counts ((depth_max + 1) per level), the gcds by Euclid's
! loop and acc against its sums (exactly).  Dumps q, steps, g and acc.
program device_subroutines
  use devsub, only: column_solve, depth_max
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance, fail
  implicit none
  character(len=*), parameter :: name = 'device-subroutines'
  integer, parameter :: ni = 61, nj = 33, nk = 24, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k, m, n
  real, allocatable :: t(:,:,:), q(:,:,:)
  integer, allocatable :: steps(:,:), g(:,:), acc(:,:)
  real :: err, x
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime,kms:kme,jms:jme), q(ims:ime,kms:kme,jms:jme))
  allocate(steps(ims:ime,jms:jme), g(ims:ime,jms:jme), acc(ims:ime,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 6.0 * noise(i, k, j)
      end do
    end do
  end do
  q = -99.0
  steps = -99
  g = -99
  do j = jms, jme
    do i = ims, ime
      acc(i,j) = mod(3 * i + j, 11)
    end do
  end do
  call column_solve(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, t, q, steps, g, acc)
  err = 0.0
  do j = jts, jte
    do i = its, ite
      do k = kts, kte
        x = q(i,k,j)
        err = max(err, abs(x + x**3 - t(i,k,j)) / (1.0 + 3.0 * x**2))
      end do
      if (steps(i,j) /= (kte - kts + 1) * (depth_max + 1)) call fail(name, 'wrong steps')
      if (g(i,j) /= gcd_loop(12 + i, 18 + j)) call fail(name, 'wrong gcd')
      n = mod(i + j, 9)
      m = 1
      if (mod(i + j, 7) == 0) m = 2
      if (acc(i,j) /= mod(3 * i + j, 11) + n * (n + 1) / 2 + count_sum(m, mod(i, 3))) &
        call fail(name, 'wrong acc')
    end do
  end do
  call check_tolerance(name, 'max root error', err, 1.0e-5, 'wrong root')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_array('steps', steps)
  call s2s_dump_array('g', g)
  call s2s_dump_array('acc', acc)
  call s2s_dump_close()
contains
  integer function gcd_loop(a0, b0)
    integer, intent(in) :: a0, b0
    integer :: a, b, r
    a = a0
    b = b0
    do while (b /= 0)
      r = mod(a, b)
      a = b
      b = r
    end do
    gcd_loop = a
  end function gcd_loop

  ! m = 1: one term; m = 2: choose(15, c) terms with c of the l's equal to 2.
  integer function count_sum(m, s)
    integer, intent(in) :: m, s
    integer :: c, choose
    if (m == 1) then
      count_sum = mod(15 + s, 3)
      return
    end if
    count_sum = 0
    choose = 1
    do c = 0, 15
      count_sum = count_sum + choose * mod(15 + c + s, 3)
      choose = choose * (15 - c) / (c + 1)
    end do
  end function count_sum
end program device_subroutines
