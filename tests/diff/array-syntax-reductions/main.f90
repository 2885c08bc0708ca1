! Driver of array-syntax-reductions: recomputes every statistic on the host
! with explicit loops (first occurrence for the positions, -huge for the
! maxval of no element) and compares (relative 1e-5, positions exactly).
! Dumps stats and kpos, whole.
program array_syntax_reductions
  use reductions_kernel, only: column_stats
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance, fail
  implicit none
  character(len=*), parameter :: name = 'array-syntax-reductions'
  integer, parameter :: ni = 61, nj = 17, nk = 29, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k, n, p
  real, allocatable :: t(:,:,:), q(:,:,:), stats(:,:,:), es(:,:,:)
  integer, allocatable :: kpos(:,:,:), ek(:,:,:)
  real :: err, mx, mn, s, best
  logical :: found
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, nk, jms:jme), q(ims:ime, nk, jms:jme))
  allocate(stats(ims:ime, 5, jms:jme), es(ims:ime, 5, jms:jme))
  allocate(kpos(ims:ime, 4, jms:jme), ek(ims:ime, 4, jms:jme))
  do j = jms, jme
    do k = 1, nk
      do i = ims, ime
        t(i,k,j) = 280.0 + real(mod(i + 3*k + 7*j, 11))   ! ties: first occurrence matters
        q(i,k,j) = noise(j, i, k)
      end do
    end do
  end do
  stats = -1.0
  es = -1.0
  kpos = -9
  ek = -9
  do j = jts, jte
    do i = its, ite
      mx = -huge(mx)
      mn = huge(mn)
      do k = 1, nk
        mx = max(mx, t(i,k,j))
        if (q(i,k,j) > 0.) mn = min(mn, t(i,k,j))
      end do
      es(i,1,j) = mx - mn
      s = 0.
      do k = 1, nk
        s = s + q(i,k,j)
      end do
      es(i,2,j) = s / real(nk)
      mx = -huge(mx)
      do k = 2, nk - 1
        if (t(i,k,j) > 500.) mx = max(mx, q(i,k,j))
      end do
      es(i,3,j) = mx
      found = .false.
      do k = 1, nk
        if (q(i,k,j) > 0.45) found = .true.
      end do
      es(i,4,j) = merge(1., 0., found)
      s = 0.
      do k = 1, nk
        if (q(i,k,j) < 0.) s = s + t(i,k,j) * q(i,k,j)
      end do
      es(i,5,j) = s
      n = 0
      do k = 1, nk
        if (q(i,k,j) < 0.) n = n + 1
      end do
      ek(i,1,j) = n
      p = 1
      do k = 2, nk
        if (t(i,k,j) > t(i,p,j)) p = k
      end do
      ek(i,2,j) = p
      p = 3
      do k = 4, nk
        if (t(i,k,j) < t(i,p,j)) p = k
      end do
      ek(i,3,j) = p - 2
      p = 0
      best = 0.
      do k = 1, nk, 2
        if (q(i,k,j) < -0.3 .and. (p == 0 .or. q(i,k,j) > best)) then
          p = (k - 1) / 2 + 1
          best = q(i,k,j)
        end if
      end do
      ek(i,4,j) = p
    end do
  end do

  call column_stats(t, q, stats, kpos, ims,ime, jms,jme, nk, its,ite, jts,jte)

  err = maxval(abs(stats - es) / max(abs(es), 1.0))
  call check_tolerance(name, 'max relative error', err, 1.0e-5, 'wrong statistics')
  if (any(kpos /= ek)) call fail(name, 'wrong positions or counts')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('stats', stats)
  call s2s_dump_array('kpos', kpos)
  call s2s_dump_close()
end program array_syntax_reductions
