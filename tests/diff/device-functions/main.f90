! Driver of device-functions: checks the roots against x + x**3 = t
! (1e-5), fib by iteration and nsum by counting the l's that are 2
! (exactly).  Dumps q, tsum and nfib.
program device_functions
  use devfn, only: column_roots
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance, fail
  implicit none
  character(len=*), parameter :: name = 'device-functions'
  integer, parameter :: ni = 61, nj = 33, nk = 24, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k, m
  real, allocatable :: t(:,:,:), q(:,:,:), tsum(:,:)
  integer, allocatable :: nfib(:,:)
  real :: err, x, s
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime,kms:kme,jms:jme), q(ims:ime,kms:kme,jms:jme))
  allocate(tsum(ims:ime,jms:jme), nfib(ims:ime,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 6.0 * noise(i, k, j)
      end do
    end do
  end do
  q = -99.0
  tsum = -99.0
  nfib = -99
  call column_roots(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, t, q, tsum, nfib)
  err = 0.0
  do j = jts, jte
    do i = its, ite
      s = 0.0
      do k = kts, kte
        x = q(i,k,j)
        err = max(err, abs(x + x**3 - t(i,k,j)) / (1.0 + 3.0 * x**2))
        s = s + x
      end do
      err = max(err, abs(tsum(i,j) - s))
      m = 1
      if (mod(i + j, 7) == 0) m = 2
      if (nfib(i,j) /= fib_loop(mod(i + 2*j, 15)) + nsum_count(m, mod(i, 3))) &
        call fail(name, 'wrong nfib')
    end do
  end do
  call check_tolerance(name, 'max root error', err, 1.0e-5, 'wrong root')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_array('tsum', tsum)
  call s2s_dump_array('nfib', nfib)
  call s2s_dump_close()
contains
  integer function fib_loop(n)
    integer, intent(in) :: n
    integer :: a, b, c, l
    a = 0
    b = 1
    do l = 1, n
      c = a + b
      a = b
      b = c
    end do
    fib_loop = a
  end function fib_loop

  ! m = 1: one term; m = 2: choose(15, c) terms with c of the l's equal to 2.
  integer function nsum_count(m, s)
    integer, intent(in) :: m, s
    integer :: c, choose
    if (m == 1) then
      nsum_count = mod(15 + s, 3)
      return
    end if
    nsum_count = 0
    choose = 1
    do c = 0, 15
      nsum_count = nsum_count + choose * mod(15 + c + s, 3)
      choose = choose * (15 - c) / (c + 1)
    end do
  end function nsum_count
end program device_functions
