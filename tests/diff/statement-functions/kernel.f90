! statement-functions: the WSM5 habit of statement functions (cpmcal, xlcal,
! diffus) used inside the loops of a region: each use is expanded with the
! actual in place of the dummy, converted to the dummy's type.
module sfm
  implicit none
contains
  subroutine physics(n, m, a, t, p)
    integer, intent(in) :: n, m
    real, intent(out) :: a(n, m)
    real, intent(in) :: t(n, m), p(n, m)
    real, parameter :: cpd = 1004.5, cpv = 1846.4, qmin = 1.e-15, xlv0 = 3.15e6, xlv1 = 2370., t0c = 273.15
    integer :: i, j
    real :: x, y, cpmcal, xlcal, diffus
    cpmcal(x) = cpd*(1.-max(x,qmin))+max(x,qmin)*cpv
    xlcal(x) = xlv0-xlv1*(x-t0c)
    diffus(x,y) = 8.794e-5*x**1.81/y
!$stencil region
    do j = 1, m
      do i = 1, n
        a(i,j) = cpmcal(t(i,j)*1.e-3) + xlcal(t(i,j)) * 1.e-6 + diffus(t(i,j), p(i,j))
      end do
    end do
!$stencil end region
  end subroutine physics
end module sfm
