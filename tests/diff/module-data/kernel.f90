! module-data: a constants module as weather codes write it (PARAMETERs of
! default real, real(kind=8) and real(kind_phys), one computed from two
! others; saved scalars and coefficient arrays set by an init routine), read
! in a region: PARAMETERs become named constants, read-only scalars are passed
! by value, small arrays read alike by every thread go to constant memory, a
! lookup table read at a data-dependent index moves by its data clause, the
! per-iteration temporary is a local (a module scalar written in a region is
! refused: see tests/golden/unsupported/module-variable-temporary), and a
! module array the region writes is copied back.  An inlined helper brings its own
! PARAMETER 'n', beside the caller's dummy 'n'.
module md_constants
  implicit none
  integer, parameter :: kind_phys = selected_real_kind(12)
  real, parameter :: cp = 1004.5, cpv = 1846.4
  real(kind=8), parameter :: ep2 = 0.622d0
  real(kind_phys), parameter :: rd = 287.04_kind_phys, rv = 461.6_kind_phys
  real(kind_phys), parameter :: eps = rd / rv
  integer, parameter :: ncoef = 3, ntab = 64
  real, save :: xlv, qmin
  real :: coef(ncoef)
  real(kind_phys) :: wts(2, ncoef)
  real :: table(ntab)
  real :: colmax(200)
contains
  subroutine md_init()
    integer :: m
    xlv = 2.5e6
    qmin = 1.0e-3
    coef = (/ 0.5, 0.25, 0.125 /)
    do m = 1, ncoef
      wts(1, m) = 1.0_kind_phys / real(m, kind_phys)
      wts(2, m) = 0.5_kind_phys ** m
    end do
    do m = 1, ntab
      table(m) = 1.0 + 0.01 * real(m)
    end do
  end subroutine md_init
end module md_constants

module md_physics
  implicit none
contains
  subroutine md_column(t, q, th, n, ims,ime, kms,kme, its,ite, kts,kte)
    use md_constants
    integer, intent(in) :: n, ims,ime, kms,kme, its,ite, kts,kte
    real, intent(inout) :: t(ims:ime, kms:kme), q(ims:ime, kms:kme)
    real(kind_phys), intent(out) :: th(ims:ime, kms:kme)
    integer :: i, k, m, it
    real :: s, scratch
!$stencil region
    do k = kts, kte
      do i = its, ite
        scratch = t(i,k) * cpv / cp
        s = 0.0
        do m = 1, ncoef
          s = s + coef(m) * q(i,k) ** m
        end do
        it = min(ntab, max(1, int(t(i,k))))
        t(i,k) = scratch * 0.001 + s * table(it) + real(n)
        q(i,k) = max(q(i,k), qmin) * (1.0 + xlv * 1.0e-9)
        th(i,k) = ep2 * real(t(i,k), kind_phys) * eps + wts(1,2) * wts(2,3)
        call md_scale(t(i,k))
      end do
    end do
    do i = its, ite
      colmax(i) = t(i,kts) + q(i,kte)
    end do
!$stencil end region
  end subroutine md_column

  subroutine md_scale(x)
    real, intent(inout) :: x
    integer, parameter :: n = 4
    x = x * real(n) / 4.5
  end subroutine md_scale
end module md_physics
