! modules-across-files: a region file whose kind, constants and helper come
! from other files, built one source at a time: kinds.f90 and constants.f90
! (modules, ONLY lists with a rename), helpers.f90 (a procedure outside any
! module, called on the j-th slab as WSM5 calls its vector helpers).  The
! helper is inlined from its summary and the region is one kernel over (i,j).
module micro
  use kinds, only: kp => kind_phys
  use constants, only: cp, rd, den0
  implicit none
contains
  subroutine driver(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, t, den, denfac)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real(kp), intent(inout) :: t(ims:ime, kms:kme, jms:jme), denfac(ims:ime, kms:kme, jms:jme)
    real(kp), intent(in) :: den(ims:ime, kms:kme, jms:jme)
    integer :: i, j, k
!$stencil region
    do j = jts, jte
      call ratio_sqrt(ims,ime, kms,kme, its,ite, kts,kte, denfac(ims,kms,j), den(ims,kms,j), den0)
      do k = kts, kte
        do i = its, ite
          t(i,k,j) = t(i,k,j) + denfac(i,k,j) * rd / cp
        end do
      end do
    end do
!$stencil end region
  end subroutine driver
end module micro
