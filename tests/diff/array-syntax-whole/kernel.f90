! array-syntax-whole: WSM5-style whole-array initialization of work arrays
! inside the j loop (`numdt = 1`, `zfix = .false.`, `work = 0.`: integer,
! logical and real), and in a column routine the region calls (its own
! local `cnt = 0`, and its dummy `dz = 2.0`).  Pass normalize turns each into
! a loop over the array's bounds, indexed like the user's own loops (`do i =
! its, ite`), before inlining; the callee's work arrays are kept per thread.
module whole_kernel
  implicit none
  private
  public :: micro
contains
  subroutine micro(t, q, nsteps, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, intent(in) :: t(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    integer, intent(out) :: nsteps(ims:ime, jms:jme)
    integer :: numdt(its:ite)
    logical :: zfix(its:ite)
    real :: work(its:ite, kts:kte)
    integer :: i, j, k
!$stencil region
    do j = jts, jte
      numdt = 1
      zfix = .false.
      work = 0.
      do k = kts, kte
        do i = its, ite
          numdt(i) = numdt(i) + merge(1, 0, t(i,k,j) > 285.0)
          zfix(i) = zfix(i) .or. q(i,k,j) < 0.0
          work(i,k) = work(i,k) + 0.01 * t(i,k,j)
        end do
      end do
      call column(q(ims,kms,j), work, ims,ime, kms,kme, its,ite, kts,kte)
      do i = its, ite
        nsteps(i,j) = merge(-numdt(i), numdt(i), zfix(i))
      end do
    end do
!$stencil end region
  end subroutine micro

  subroutine column(q, dz, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(inout) :: q(ims:ime, kms:kme)
    real, intent(inout) :: dz(its:ite, kts:kte)
    integer :: cnt(its:ite)
    logical :: neg(its:ite, kts:kte)
    integer :: i, k
    cnt = 0
    do k = kts, kte
      do i = its, ite
        neg(i,k) = q(i,k) < 0.0
        cnt(i) = cnt(i) + merge(1, 0, neg(i,k))
      end do
    end do
    do k = kts, kte
      do i = its, ite
        if (neg(i,k)) q(i,k) = dz(i,k) * real(cnt(i))
      end do
    end do
    dz = 2.0
  end subroutine column
end module whole_kernel
