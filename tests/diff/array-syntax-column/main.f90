! Driver of array-syntax-column: recomputes dzl and out on the host with
! explicit loops (the shifted copy done from the top down) and compares
! (relative 1e-6).  Dumps dzl and out, whole.
program array_syntax_column
  use column_kernel, only: sweep
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'array-syntax-column'
  integer, parameter :: ni = 53, nj = 23, nk = 27, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real, allocatable :: dzl(:,:,:), q(:,:,:), out(:,:,:), edzl(:,:,:), eout(:,:,:)
  real :: dz(nk), wa(nk), was(nk), err
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(dzl(ims:ime, nk, jms:jme), q(ims:ime, nk, jms:jme), out(ims:ime, nk, jms:jme))
  allocate(edzl(ims:ime, nk, jms:jme), eout(ims:ime, nk, jms:jme))
  do j = jms, jme
    do k = 1, nk
      do i = ims, ime
        dzl(i,k,j) = 100.0 + 50.0 * noise(i, k, j)
        q(i,k,j) = noise(j, i, k)
      end do
    end do
  end do
  out = -1.0
  eout = -1.0
  edzl = dzl
  do j = jts, jte
    do i = its, ite
      do k = 1, nk
        dz(k) = edzl(i,k,j)
        was(k) = q(i,k,j) * 0.5
        wa(k) = 0.5 * (dz(k) + was(k))
      end do
      do k = 1, nk
        edzl(i,k,j) = max(dz(k) - 0.25, 0.)
        eout(i,k,j) = wa(k)
      end do
      do k = 1, nk, 2
        eout(i,k,j) = eout(i,k,j) + 1.0
      end do
      do k = nk, 2, -1
        eout(i,k,j) = eout(i,k-1,j)
      end do
    end do
  end do

  call sweep(dzl, q, out, ims,ime, jms,jme, nk, its,ite, jts,jte)

  err = max(maxval(abs(dzl - edzl) / max(abs(edzl), 1.0)), &
            maxval(abs(out - eout) / max(abs(eout), 1.0)))
  call check_tolerance(name, 'max relative error', err, 1.0e-6, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('dzl', dzl)
  call s2s_dump_array('out', out)
  call s2s_dump_close()
end program array_syntax_column
