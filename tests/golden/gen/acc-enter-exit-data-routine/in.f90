! OpenACC enter/exit data in one routine: the region between them finds a and
! w present (report), the update host(a) after the enter data has no warning,
! if/async/wait are ignored (notes), finalize is honoured, and the update
! after the exit data warns (a is no longer held).
subroutine smooth(a, b, w, n)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n), w(n)
  integer :: i
!$acc enter data copyin(a) create(w) if(n > 1) async(1)
!$acc kernels
  do i = 2, n - 1
    w(i) = 0.5 * (a(i-1) + a(i+1))
    b(i) = w(i) - a(i)
  end do
!$acc end kernels
!$acc update host(a) wait(1)
!$acc exit data copyout(a) delete(w) finalize
!$acc update host(a)
end subroutine smooth
