! Driver of pure-function: recomputes qv on the host with its own
! saturation formula and compares (relative 1e-5).  Dumps qv.
program pure_function
  use satfn, only: condense
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'pure-function'
  integer, parameter :: ni = 61, nj = 33, nk = 24, halo = 2
  integer :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, i, j, k
  real, allocatable :: t(:,:,:), p(:,:,:), qv(:,:,:), qv0(:,:,:)
  real :: err, expect, qs
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(t(ims:ime,kms:kme,jms:jme), p(ims:ime,kms:kme,jms:jme), qv(ims:ime,kms:kme,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        t(i,k,j) = 285.0 + 10.0 * noise(i, k, j)
        p(i,k,j) = 1000.0 - 30.0 * real(k)
        qv(i,k,j) = 0.01 + 0.02 * noise(j, i, k)
      end do
    end do
  end do
  qv0 = qv
  call condense(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, t, p, qv)
  err = 0.0
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        qs = sat(t(i,k,j), p(i,k,j))
        if (qv0(i,k,j) > qs) then
          expect = qv0(i,k,j) - 0.5 * (qv0(i,k,j) - qs)
        else
          expect = qv0(i,k,j) + 0.1 * sat(t(i,k,j) - 1.0, p(i,k,j))
        end if
        err = max(err, abs(qv(i,k,j) - expect) / max(abs(expect), 1.0e-3))
      end do
    end do
  end do
  call check_tolerance(name, 'max relative error', err, 1.0e-5, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('qv', qv)
  call s2s_dump_close()
contains
  real function sat(tk, pmb)
    real, intent(in) :: tk, pmb
    real :: es
    es = 6.112 * exp(17.67 * (tk - 273.15) / (tk - 273.15 + 243.5))
    sat = 0.622 * es / (pmb - es)
  end function sat
end program pure_function
