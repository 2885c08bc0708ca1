! module-array-use-only: a module's allocatable fields used by the regions
! of another module's routines that import them with USE ... ONLY, one of
! them renamed (qv => q).  The launchers take the arrays' run-time bounds:
! the host passes lbound/ubound of the arrays as the routine names them
! (the hidden bound scalars are no names of module fields to USE: that was
! "Symbol 's2s_ub2_q' referenced at (1) not found in module 'fields'").
module fields
  implicit none
  real, allocatable :: t(:,:), q(:,:)
end module fields

module physics
  implicit none
contains
  ! nsteps steps of a relaxation of t toward q (as renamed), inside a data region
  subroutine relax(its, ite, jts, jte, nsteps)
    use fields, only: t, qv => q
    integer, intent(in) :: its, ite, jts, jte, nsteps
    integer :: i, j, step
!$stencil data copy(t) copyin(qv)
    do step = 1, nsteps
!$stencil region
      do j = jts, jte
        do i = its, ite
          t(i,j) = t(i,j) + 0.25*(qv(i,j) - t(i,j))
        end do
      end do
!$stencil end region
    end do
!$stencil end data
  end subroutine relax

  ! q = 2 q on the tile, a region without a data region
  subroutine double_q(its, ite, jts, jte)
    use fields, only: q
    integer, intent(in) :: its, ite, jts, jte
    integer :: i, j
!$stencil region
    do j = jts, jte
      do i = its, ite
        q(i,j) = 2.0*q(i,j)
      end do
    end do
!$stencil end region
  end subroutine double_q
end module physics
