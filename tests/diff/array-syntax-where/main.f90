! Driver of array-syntax-where: recomputes t, q and flag on the host with
! explicit loops and IFs and compares (relative 1e-6).  Dumps them, whole.
program array_syntax_where
  use where_kernel, only: fix
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'array-syntax-where'
  integer, parameter :: ni = 45, nj = 19, nk = 23, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real, allocatable :: t(:,:,:), q(:,:,:), flag(:,:,:), et(:,:,:), eq(:,:,:), ef(:,:,:)
  real :: err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime, nk, jms:jme), q(ims:ime, nk, jms:jme), flag(ims:ime, nk, jms:jme))
  allocate(et(ims:ime, nk, jms:jme), eq(ims:ime, nk, jms:jme), ef(ims:ime, nk, jms:jme))
  do j = jms, jme
    do k = 1, nk
      do i = ims, ime
        t(i,k,j) = 285.0 + 20.0 * noise(i, k, j)
        q(i,k,j) = noise(j, i, k)
      end do
    end do
  end do
  flag = 9.0
  et = t
  eq = q
  ef = flag
  do j = jts, jte
    do i = its, ite
      do k = 1, nk
        if (eq(i,k,j) < 0.) eq(i,k,j) = 0.
      end do
    end do
    do k = 1, nk
      do i = its, ite
        if (et(i,k,j) > 290.) then
          ef(i,k,j) = 1.
          et(i,k,j) = 290. + 0.5 * (et(i,k,j) - 290.)
        else if (et(i,k,j) < 280.) then
          ef(i,k,j) = -1.
        else
          ef(i,k,j) = 0.
          eq(i,k,j) = eq(i,k,j) * 2.
        end if
      end do
    end do
  end do

  call fix(t, q, flag, ims,ime, jms,jme, nk, its,ite, jts,jte)

  err = max(maxval(abs(t - et) / max(abs(et), 1.0)), maxval(abs(q - eq) / max(abs(eq), 1.0)), &
            maxval(abs(flag - ef)))
  call check_tolerance(name, 'max relative error', err, 1.0e-6, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('q', q)
  call s2s_dump_array('flag', flag)
  call s2s_dump_close()
end program array_syntax_where
