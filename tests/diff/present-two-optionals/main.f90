! Driver of present-two-optionals: calls freeze with (qs, qi), (qs), (qi=)
! and neither on four copies of one state, recomputes each on the host
! (relative 1e-5).  Dumps every array of every call.
program present_two_optionals
  use freeze_mod, only: freeze
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, noise, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'present-two-optionals'
  integer, parameter :: its = 3, ite = 81, kts = 1, kte = 11
  real, dimension(its:ite, kts:kte) :: t0, qc0, qs0, qi0
  real, dimension(its:ite, kts:kte, 4) :: t, qc, qs, qi, et, eqc, eqs, eqi
  real :: err
  integer :: i, k, c
  character(len=512) :: path

  call get_dump_path(path)
  do k = kts, kte
    do i = its, ite
      t0(i,k) = 268.15 + 20.0 * noise(i, k, 1)
      qc0(i,k) = 0.5 + noise(i, k, 2)
      qs0(i,k) = 0.5 + noise(i, k, 3)
      qi0(i,k) = 0.5 + noise(i, k, 4)
    end do
  end do
  do c = 1, 4
    t(:,:,c) = t0
    qc(:,:,c) = qc0
    qs(:,:,c) = qs0
    qi(:,:,c) = qi0
  end do
  et = t
  eqc = qc
  eqs = qs
  eqi = qi
  call expected(et(:,:,1), eqc(:,:,1), eqs(:,:,1), eqi(:,:,1), .true., .true.)
  call expected(et(:,:,2), eqc(:,:,2), eqs(:,:,2), eqi(:,:,2), .true., .false.)
  call expected(et(:,:,3), eqc(:,:,3), eqs(:,:,3), eqi(:,:,3), .false., .true.)
  call expected(et(:,:,4), eqc(:,:,4), eqs(:,:,4), eqi(:,:,4), .false., .false.)
  call freeze(its, ite, kts, kte, t(:,:,1), qc(:,:,1), qs(:,:,1), qi(:,:,1))
  call freeze(its, ite, kts, kte, t(:,:,2), qc(:,:,2), qs(:,:,2))
  call freeze(its, ite, kts, kte, t(:,:,3), qc(:,:,3), qi=qi(:,:,3))
  call freeze(its, ite, kts, kte, t(:,:,4), qc(:,:,4))
  err = max(maxval(abs(t - et) / abs(et)), maxval(abs(qc - eqc) / max(abs(eqc), 1.0)), &
            maxval(abs(qs - eqs) / max(abs(eqs), 1.0)), maxval(abs(qi - eqi) / max(abs(eqi), 1.0)))
  call check_tolerance(name, 'max relative error', err, 1.0e-5, 'wrong result')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('t', t)
  call s2s_dump_array('qc', qc)
  call s2s_dump_array('qs', qs)
  call s2s_dump_array('qi', qi)
  call s2s_dump_close()

contains

  ! freeze as the host computes it, with has_qs / has_qi for present().
  subroutine expected(t, qc, qs, qi, has_qs, has_qi)
    real, intent(inout) :: t(its:ite, kts:kte), qc(its:ite, kts:kte)
    real, intent(inout) :: qs(its:ite, kts:kte), qi(its:ite, kts:kte)
    logical, intent(in) :: has_qs, has_qi
    real :: frz
    do k = kts, kte
      do i = its, ite
        frz = 0.02 * max(273.15 - t(i,k), 0.0) * qc(i,k)
        if (has_qs .and. has_qi) then
          qs(i,k) = qs(i,k) + 0.5 * frz
          qi(i,k) = qi(i,k) + 0.5 * frz
        else if (has_qs) then
          qs(i,k) = qs(i,k) + frz
        else if (.not. has_qi) then
          frz = 0.5 * frz
        end if
        if (has_qi .and. t(i,k) < 263.15) qi(i,k) = qi(i,k) + 0.001
        if (.not. has_qs .and. has_qi) qi(i,k) = qi(i,k) + frz
        qc(i,k) = qc(i,k) - frz
        t(i,k) = t(i,k) + 300.0 * frz
      end do
    end do
  end subroutine expected
end program present_two_optionals
