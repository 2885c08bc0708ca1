! same-condition-scratch: scratch stored only where a phase applies
! (`if (t(i,k,j) > t0) work(i,k) = ...`) and read under the same test in a
! later nest, as microphysics does for its ice and liquid phases.  Where the
! test holds at the read it held at the store, so work is stored before it
! is read in every column: kept per thread, no device copy (a read under
! another test is not: tests/check_clause.c, other-condition).
module scs_kernel
  implicit none
contains
  subroutine phase_scratch(t, q, out, t0, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, intent(in) :: t(ims:ime, kms:kme, jms:jme), q(ims:ime, kms:kme, jms:jme), t0
    real, intent(out) :: out(ims:ime, kms:kme, jms:jme)
    real :: work(its:ite, kts:kte)
    integer :: i, j, k

!$stencil region
    do j = jts, jte
      do k = kts, kte
        do i = its, ite
          if (t(i,k,j) > t0) then
            work(i,k) = (t(i,k,j) - t0) * q(i,k,j)
          end if
        end do
      end do
      do k = kts, kte
        do i = its, ite
          out(i,k,j) = q(i,k,j)
          if (t(i,k,j) > t0) out(i,k,j) = out(i,k,j) + 2.0 * work(i,k)
        end do
      end do
    end do
!$stencil end region
  end subroutine phase_scratch
end module scs_kernel
