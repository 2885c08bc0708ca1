! `update host(...) async` and `wait`: the copy of the edge plane is
! s2s_update_host_async (queued, the host goes on), the interior's kernel
! is launched after it, and `wait` is s2s_wait_updates (the copies, not
! the kernel); `update device ... async` is a plain s2s_update_device (a
! staged copy to the device returns once queued anyway).
subroutine exchange_steps(t, ni, nk, nj, nsteps)
  implicit none
  integer, intent(in) :: ni, nk, nj, nsteps
  real, intent(inout) :: t(ni, nk, nj)
  integer :: i, j, k, step
!$stencil data copy(t)
  do step = 1, nsteps
!$stencil update host(t(:, :, 1:1)) async
!$stencil region
    do j = 2, nj - 1
      do k = 1, nk
        do i = 1, ni
          t(i,k,j) = t(i,k,j) + 0.5
        end do
      end do
    end do
!$stencil end region
!$stencil wait
    t(:, :, nj) = t(:, :, 1)
!$stencil update device(t(:, :, nj:nj)) async
  end do
!$stencil end data
end subroutine exchange_steps
