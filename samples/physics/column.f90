! column.f90 -- the physics routine of the sample, the file a port touches:
! WRF's shape (memory bounds ims:ime, tile bounds its:ite; fields (i,k,j)),
! one region around the j loop that calls a 2-D routine per j with slab
! actuals t(ims,kms,j).  Everything it uses lives in other files: kinds
! (kinds.f90), constants set by an init routine (constants.f90), functions
! (funcs.f90) and MASS-style vector helpers outside any module (vmass.f90).
module physcol
  use ccpp_kind_types, only: kind_phys
  use physcons, only: cp, rd, rv, xlv, qmin
  use physfuncs, only: qsat
  implicit none
contains
  subroutine physics(t, qv, qc, p, th, vt, ims, ime, kms, kme, jms, jme, its, ite, kts, kte, &
                     jts, jte)
    integer, intent(in) :: ims, ime, kms, kme, jms, jme, its, ite, kts, kte, jts, jte
    real(kind_phys), intent(inout) :: t(ims:ime, kms:kme, jms:jme)
    real(kind_phys), intent(inout) :: qv(ims:ime, kms:kme, jms:jme)
    real(kind_phys), intent(inout) :: qc(ims:ime, kms:kme, jms:jme)
    real(kind_phys), intent(in) :: p(ims:ime, kms:kme, jms:jme)
    real(kind_phys), intent(out) :: th(ims:ime, kms:kme, jms:jme)
    real(kind_phys), intent(out) :: vt(ims:ime, kms:kme, jms:jme)
    integer :: j

!$stencil region
    do j = jts, jte
      call physics2d(t(ims,kms,j), qv(ims,kms,j), qc(ims,kms,j), p(ims,kms,j), th(ims,kms,j), &
                     vt(ims,kms,j), ims, ime, kms, kme, its, ite, kts, kte)
    end do
!$stencil end region
  end subroutine physics

  ! One j slab: saturation adjustment in every column, then diagnostics
  ! from the vector helpers' 1/p and sqrt(1/p).
  subroutine physics2d(t, qv, qc, p, th, vt, ims, ime, kms, kme, its, ite, kts, kte)
    integer, intent(in) :: ims, ime, kms, kme, its, ite, kts, kte
    real(kind_phys), intent(inout) :: t(ims:ime, kms:kme), qv(ims:ime, kms:kme)
    real(kind_phys), intent(inout) :: qc(ims:ime, kms:kme)
    real(kind_phys), intent(in) :: p(ims:ime, kms:kme)
    real(kind_phys), intent(out) :: th(ims:ime, kms:kme), vt(ims:ime, kms:kme)
    real(kind_phys) :: rp(its:ite, kts:kte), sqrp(its:ite, kts:kte)
    real(kind_phys) :: qs, gamma, dq
    integer :: i, k, n

    n = ite - its + 1
    do k = kts, kte
      call vrec(rp(its,k), p(its,k), n)
      call vsqrt(sqrp(its,k), rp(its,k), n)
    end do
    do k = kts, kte
      do i = its, ite
        qs = qsat(p(i,k), t(i,k))
        gamma = xlv * xlv * qs / (cp * rv * t(i,k) * t(i,k))
        dq = (qv(i,k) - qs) / (1.0_kind_phys + gamma)
        if (dq < 0.0_kind_phys) dq = max(dq, -qc(i,k))    ! evaporate at most the cloud water
        qv(i,k) = max(qv(i,k) - dq, qmin)
        qc(i,k) = qc(i,k) + dq
        t(i,k) = t(i,k) + xlv / cp * dq
      end do
    end do
    do k = kts, kte
      do i = its, ite
        th(i,k) = t(i,k) * (1.0e5_kind_phys * rp(i,k)) ** (rd / cp)
        vt(i,k) = 2.0_kind_phys * sqrt(1.0e5_kind_phys) * sqrp(i,k)
      end do
    end do
  end subroutine physics2d
end module physcol
