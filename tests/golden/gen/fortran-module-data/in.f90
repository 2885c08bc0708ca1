! Module data in a region: PARAMETERs (real, real(kind=8), real(kind_phys)) as named constants, saved scalars by value, a coefficient array in constant memory, a local temporary.
module model_constants
  implicit none
  integer, parameter :: kind_phys = 8
  real, parameter :: cp = 1004.5, cpv = 1846.4
  real(kind=8), parameter :: ep2 = 0.622d0
  real(kind_phys), parameter :: rd = 287.0_kind_phys, rdocp = rd / 1004.5_kind_phys
  real, save :: xlv, qmin
  real :: coef(3)
contains
  subroutine init_constants()
    xlv = 2.5e6
    qmin = 1.0e-15
    coef = (/ 0.5, 0.25, 0.125 /)
  end subroutine init_constants
end module model_constants
subroutine moist(n, nk, t, q, th)
  use model_constants
  implicit none
  integer :: n, nk, i, k
  real :: t(n, nk), q(n, nk)
  real(kind_phys) :: th(n, nk)
  real :: tmp
!$stencil region
  do k = 1, nk
    do i = 1, n
      tmp = t(i,k) * cpv / cp
      q(i,k) = max(q(i,k), qmin) * xlv + coef(1) + coef(3)
      th(i,k) = ep2 * rdocp * tmp
    end do
  end do
!$stencil end region
end subroutine moist
