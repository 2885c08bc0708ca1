! Driver of fusion-scalar-temporaries: the outputs start as a sentinel; the
! host computes every output on its own (the same loops, serially) and
! compares.  Dumps every output array, whole.
program fusion_scalar_temporaries
  use fst_kernel, only: temporaries, r8
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise_r8, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'fusion-scalar-temporaries'
  integer, parameter :: ni = 45, nj = 11, nk = 23, halo = 1
  real(r8), parameter :: sentinel = -7.0_r8, tolerance = 1.0e-13_r8

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k, n
  real(r8), allocatable, dimension(:,:,:) :: t, qr, a, b, c, d, f, g, e
  real(r8), allocatable, dimension(:,:,:) :: ra, rb, rc, rd, rf, rg, re
  real(r8), allocatable :: top(:,:), rtop(:,:)
  real(r8) :: err, tmp, last, carry
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, kms:kme, jms:jme), qr(ims:ime, kms:kme, jms:jme))
  allocate(a, b, c, d, f, g, ra, rb, rc, rd, rf, rg, mold=t)
  allocate(e(ims:ime, 2, jms:jme), re(ims:ime, 2, jms:jme))
  allocate(top(ims:ime, jms:jme), rtop(ims:ime, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        qr(i,k,j) = 0.5_r8 + noise_r8(i, k, j)
        t(i,k,j) = 283.0_r8 + 12.0_r8*noise_r8(j, i, k)
      end do
    end do
  end do
  a = sentinel; b = sentinel; c = sentinel; d = sentinel
  f = 1.0_r8; g = 2.0_r8; e = sentinel; top = sentinel
  ra = a; rb = b; rc = c; rd = d; rf = f; rg = g; re = e; rtop = top

  call temporaries(t, qr, a, b, c, d, f, g, e, top,                   &
                   ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)

  ! the host's own run of the same computation, one column at a time
  do j = jts, jte
    do i = its, ite
      do k = kts, kte
        if (qr(i,k,j) > 0.0_r8) ra(i,k,j) = sqrt(qr(i,k,j))*t(i,k,j)
        if (t(i,k,j) > 273.0_r8) rb(i,k,j) = (t(i,k,j) - 273.0_r8)*2.0_r8 + qr(i,k,j)
      end do
      last = -1.0_r8
      do k = kts, kte
        if (qr(i,k,j) > 0.3_r8) then
          last = qr(i,k,j)
          rc(i,k,j) = last
        end if
      end do
      do k = kts, kte
        if (t(i,k,j) > 280.0_r8) then
          last = t(i,k,j)
          rd(i,k,j) = 0.5_r8*last
        end if
      end do
      rtop(i,j) = last
      carry = 0.0_r8
      do n = 1, 2
        re(i,n,j) = carry
        do k = kts, kte
          if (qr(i,k,j) > 0.25_r8*n) then
            carry = qr(i,k,j)*n
            rf(i,k,j) = rf(i,k,j) + carry
          end if
        end do
        do k = kts, kte
          if (t(i,k,j) > 284.0_r8 + n) then
            carry = t(i,k,j)
            rg(i,k,j) = rg(i,k,j) + carry
          end if
        end do
      end do
    end do
  end do
  err = max(maxval(abs(a - ra)), maxval(abs(b - rb)), maxval(abs(c - rc)),             &
            maxval(abs(d - rd)), maxval(abs(f - rf)), maxval(abs(g - rg)),             &
            maxval(abs(e - re)), maxval(abs(top - rtop)))
  tmp = err
  call check_tolerance(name, 'max error of the outputs', tmp, tolerance, 'wrong outputs')

  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
  call s2s_dump_array('b', b)
  call s2s_dump_array('c', c)
  call s2s_dump_array('d', d)
  call s2s_dump_array('f', f)
  call s2s_dump_array('g', g)
  call s2s_dump_array('e', e)
  call s2s_dump_array('top', top)
  call s2s_dump_close()

end program fusion_scalar_temporaries
