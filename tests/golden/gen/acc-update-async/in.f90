! acc-update-async: OpenACC asynchrony.  `update host(...) async(1)` and
! `update self(...) async` are s2s_update_host_async (queued, the host goes
! on; the report says all queues are one), `wait(1)` and `wait` call
! s2s_wait_updates; `update device ... async(1)` is a plain s2s_update_device
! (a note: not needed); async(q) may be acc_async_sync, async(acc_async_sync)
! is: both plain s2s_update_host; async/wait on kernels are notes.
subroutine exchange(t, ni, nk, nj, nsteps, q)
  implicit none
  integer, intent(in) :: ni, nk, nj, nsteps, q
  real, intent(inout) :: t(ni, nk, nj)
  integer :: i, j, k, step
!$acc data copy(t)
  do step = 1, nsteps
!$acc update host(t(2:ni-1, :, 1:1)) async(1)
!$acc kernels async(1) wait(1)
    do j = 2, nj - 1
      do k = 1, nk
        do i = 1, ni
          t(i,k,j) = t(i,k,j) + 0.5
        end do
      end do
    end do
!$acc end kernels
!$acc update self(t(:, :, nj-1:nj-1)) async
!$acc wait(1)
    t(:, :, nj) = t(:, :, 1)
!$acc update device(t(:, :, nj:nj)) async(1)
!$acc update host(t(:, :, 2:2)) async(q)
!$acc update host(t(:, :, 3:3)) async(acc_async_sync)
!$acc wait
  end do
!$acc end data
end subroutine exchange
