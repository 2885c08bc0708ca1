!WRF:MODEL_LAYER:PHYSICS
!
! wsm5.f90 -- a single-moment, five-class (vapour, cloud water, cloud ice,
! rain, snow) cloud microphysics written for this sample, with the structure
! of WRF's WSM5:
!
!   wsm5      the outer routine: for every j, copy the slab into temporaries
!             (t = th*pii, qci(:,:,1:2) = qc, qi, qrs(:,:,1:2) = qr, qs),
!             call the 2-D routine with the j-th slab of each 3-D field
!             (array-element actuals such as q(ims,kms,j)), copy back.
!   wsm52d    the 2-D routine: minor time steps of at most dtcldcr, in each
!             of them sedimentation (rain sub-stepped in every column under
!             the cross-column maximum of sub-steps, snow semi-Lagrangian),
!             instantaneous melting/freezing, the source terms (autoconversion,
!             accretion, evaporation, deposition/sublimation, melting,
!             freezing), their limitation to the mass available, the update,
!             and a saturation adjustment.  All work arrays are (i,k), (i,k,2)
!             or (i); every nest runs i innermost.
!   slfall    semi-Lagrangian sedimentation of one species in a set of
!             columns, iterating the departure points (a GOTO loop).
!   wsm5init  sets the derived coefficients of module_wsm5_constants.
!
! The physics is our own, simplified where WSM5 is elaborate, but every
! process moves mass from one class to another: water is conserved up to the
! surface precipitation, and no class goes negative.
!
! The only change for the GPU is the region directive around the j loop.
!
module module_mp_wsm5s
  use module_wsm5_kinds, only: kind_phys
  use module_wsm5_constants
  implicit none
  private
  public :: wsm5init, wsm5

  integer, parameter :: nsliter = 2   ! departure-point iterations of slfall

contains

!-------------------------------------------------------------------------------
  subroutine wsm5(th, q, qc, qr, qi, qs, den, p, delz, delt,                  &
                  rain, rainncv, sr,                                           &
                  ids, ide, jds, jde, kds, kde,                                &
                  ims, ime, jms, jme, kms, kme,                                &
                  its, ite, jts, jte, kts, kte,                                &
                  snow, snowncv)
!-------------------------------------------------------------------------------
  implicit none
!-------------------------------------------------------------------------------
!  th        potential temperature (K)
!  q         water vapour mixing ratio (kg kg-1)
!  qc, qi    cloud water and cloud ice mixing ratios (kg kg-1)
!  qr, qs    rain and snow mixing ratios (kg kg-1)
!  den       air density (kg m-3), p pressure (Pa), delz layer depth (m)
!  delt      time step (s)
!  rain      accumulated surface precipitation (mm), rainncv that of this call
!  sr        fraction of this call's precipitation that fell as snow
!  snow      accumulated surface snow (mm), snowncv that of this call: optional
!-------------------------------------------------------------------------------
  integer, intent(in) :: ids, ide, jds, jde, kds, kde,                        &
                         ims, ime, jms, jme, kms, kme,                        &
                         its, ite, jts, jte, kts, kte
  real(kind_phys), dimension(ims:ime, kms:kme, jms:jme), intent(inout) ::     &
                   th, q, qc, qr, qi, qs
  real(kind_phys), dimension(ims:ime, kms:kme, jms:jme), intent(in) ::        &
                   den, p, delz
  real(kind_phys), intent(in) :: delt
  real(kind_phys), dimension(ims:ime, jms:jme), intent(inout) :: rain, rainncv, sr
  real(kind_phys), dimension(ims:ime, jms:jme), optional, intent(inout) ::    &
                   snow, snowncv
! local
  real(kind_phys), dimension(its:ite, kts:kte) :: t, pii
  real(kind_phys), dimension(its:ite, kts:kte, 2) :: qci, qrs
  integer :: i, j, k
!-------------------------------------------------------------------------------
! the tile must lie inside the domain and inside memory
  if (its < max(ids, ims) .or. ite > min(ide, ime) .or.                        &
      jts < max(jds, jms) .or. jte > min(jde, jme) .or.                        &
      kts < max(kds, kms) .or. kte > min(kde, kme)) then
    write(*,'(a)') 'wsm5: the tile is not inside the domain and memory bounds'
    stop 1
  endif
!
!$stencil region
  do j = jts, jte
    do k = kts, kte
      do i = its, ite
        pii(i,k) = (p(i,k,j)/p0)**rcp
        t(i,k) = th(i,k,j)*pii(i,k)
        qci(i,k,1) = qc(i,k,j)
        qci(i,k,2) = qi(i,k,j)
        qrs(i,k,1) = qr(i,k,j)
        qrs(i,k,2) = qs(i,k,j)
      enddo
    enddo
    ! The optional snow arrays are passed on whole (absent stays absent);
    ! wsm52d indexes them with lat = j.
    call wsm52d(t, q(ims,kms,j), qci, qrs,                                     &
                den(ims,kms,j), p(ims,kms,j), delz(ims,kms,j),                 &
                delt, j,                                                       &
                rain(ims,j), rainncv(ims,j), sr(ims,j),                        &
                ims, ime, jms, jme, kms, kme,                                  &
                its, ite, kts, kte,                                            &
                snow, snowncv)
    do k = kts, kte
      do i = its, ite
        th(i,k,j) = t(i,k)/pii(i,k)
        qc(i,k,j) = qci(i,k,1)
        qi(i,k,j) = qci(i,k,2)
        qr(i,k,j) = qrs(i,k,1)
        qs(i,k,j) = qrs(i,k,2)
      enddo
    enddo
  enddo
!$stencil end region
  end subroutine wsm5

!-------------------------------------------------------------------------------
  subroutine wsm52d(t, q, qci, qrs, den, p, delz, delt, lat,                  &
                    rain, rainncv, sr,                                         &
                    ims, ime, jms, jme, kms, kme,                              &
                    its, ite, kts, kte,                                        &
                    snow, snowncv)
!-------------------------------------------------------------------------------
  implicit none
!-------------------------------------------------------------------------------
!  One j slab.  t (K), qci(:,:,1:2) cloud water/ice, qrs(:,:,1:2) rain/snow
!  are the caller's temporaries; q, den, p, delz, rain, rainncv, sr are the
!  j-th slabs of the 3-D fields (their rows start at ims).
!-------------------------------------------------------------------------------
  integer, intent(in) :: ims, ime, jms, jme, kms, kme,                        &
                         its, ite, kts, kte, lat
  real(kind_phys), dimension(its:ite, kts:kte), intent(inout) :: t
  real(kind_phys), dimension(its:ite, kts:kte, 2), intent(inout) :: qci, qrs
  real(kind_phys), dimension(ims:ime, kms:kme), intent(inout) :: q
  real(kind_phys), dimension(ims:ime, kms:kme), intent(in) :: den, p, delz
  real(kind_phys), intent(in) :: delt
  real(kind_phys), dimension(ims:ime), intent(inout) :: rain, rainncv, sr
  real(kind_phys), dimension(ims:ime, jms:jme), optional, intent(inout) ::    &
                   snow, snowncv
! local work arrays: (i,k,2) for the two liquid/two ice classes,
! index 1 water (cloud water, rain), index 2 ice (cloud ice, snow)
  real(kind_phys), dimension(its:ite, kts:kte, 2) ::                          &
                   rh, qs, rslope, rslope2, rslope3, rslopeb, vt, work1
! (i,k)
  real(kind_phys), dimension(its:ite, kts:kte) ::                             &
                   denfac, xl, cpm, work2, n0sfac, xni, falk,                  &
                   den_tmp, delz_tmp,                                          &
                   praut, pracw, prevp, psacw, psmlt,                          &
                   pigen, pidep, psdep, psaut, psaci, pfrzr, pcond
! (i)
  real(kind_phys), dimension(its:ite) :: tvec1, tvec2, delqrs1, delqrs2,       &
                   snowsum
  integer, dimension(its:ite) :: mstep, numdt
! scalars
  real(kind_phys) :: dtcld, dts, frac, supice, supsat, sink, factor,          &
                     coeres, xmi, diameter, xni0, eacrs, tcold,               &
                     dqc, dqr, dqi, dqs, precip
  integer :: i, k, n, loop, loops, mstepmax, nrow
! statement-function dummies and statement functions
  real(kind_phys) :: x, y, z, a, b, c, d, e
  real(kind_phys) :: cpmcal, xlcal, diffus, viscos, xka, diffac, venfac,      &
                     conden, lamdar, lamdas, esw, esi
!-------------------------------------------------------------------------------
! moist heat capacity; latent heat of vaporization (Kirchhoff)
  cpmcal(x) = cp*(1. - max(x,qmin)) + max(x,qmin)*cpv
  xlcal(x) = xlv0 - xlv1*(x - t0c)
! saturation vapour pressure over water and over ice (Magnus forms), x = t
  esw(x) = psat*exp(17.67*(x - t0c)/(x - 29.65))
  esi(x) = psat*exp(21.875*(x - t0c)/(x - 7.66))
! diffusivity of water vapour (m2 s-1), x = t, y = p
  diffus(x,y) = 2.11e-5*exp(1.94*log(x/t0c))*(101325./y)
! kinematic viscosity of air (Sutherland; m2 s-1), x = t, y = den
  viscos(x,y) = 1.458e-6*x*sqrt(x)/(x + 110.4)/y
! thermal conductivity of air from the viscosity, Prandtl number 0.71
  xka(x,y) = cp*viscos(x,y)*y/0.71
! thermodynamic factor of diffusional growth (times den), in mixing-ratio form:
! a = latent heat, b = p, c = t, d = den, e = saturation mixing ratio
  diffac(a,b,c,d,e) = d*a*a/(xka(c,d)*rv*c*c) + 1./(e*diffus(c,b))
! ventilation factor: Sc**(1/3)/sqrt(nu), times the fall-speed density
! correction's square root; a = p, b = t, c = den
  venfac(a,b,c) = exp(log(viscos(b,c)/diffus(b,a))/3.)/sqrt(viscos(b,c))      &
                  *sqrt(sqrt(den0/c))
! condensation needed to reach saturation, linearized in the latent heating:
! a = t, b = q, c = qs, d = latent heat, e = cpm
  conden(a,b,c,d,e) = (max(b,qmin) - c)/(1. + d*d/(rv*e)*c/(a*a))
! slopes of the exponential size distributions, x = q, y = den, z = n0s factor
  lamdar(x,y) = sqrt(sqrt(pidn0r/(x*y)))
  lamdas(x,y,z) = sqrt(sqrt(pidn0s*z/(x*y)))
!-------------------------------------------------------------------------------
!
! initialize the work arrays (WSM5 clears them with array assignments)
!
  rh = 0.
  qs = 0.
  rslope = 0.
  rslope2 = 0.
  rslope3 = 0.
  rslopeb = 0.
  vt = 0.
  work1 = 0.
  work2 = 0.
  falk = 0.
  numdt = 1
  mstep = 1
  snowsum = 0.
  nrow = ite - its + 1
!
! precipitation of this call
!
  do i = its, ite
    rainncv(i) = 0.
    sr(i) = 0.
    if (present(snowncv)) snowncv(i,lat) = 0.
  enddo
!
! denfac = sqrt(den0/den): the fall-speed correction for air density,
! with the vector helpers, one row at a time
!
  do k = kts, kte
    call vsrec(tvec1(its), den(its,k), nrow)
    do i = its, ite
      tvec1(i) = tvec1(i)*den0
    enddo
    call vssqrt(denfac(its,k), tvec1(its), nrow)
  enddo
!
! copies of density and depth for the semi-Lagrangian sedimentation,
! which works on contiguous (i,k) blocks
!
  do k = kts, kte
    do i = its, ite
      den_tmp(i,k) = den(i,k)
      delz_tmp(i,k) = delz(i,k)
    enddo
  enddo
!
! minor time steps of at most dtcldcr
!
  loops = max(nint(delt/dtcldcr), 1)
  dtcld = delt/loops
  if (delt <= dtcldcr) dtcld = delt
!
  do loop = 1, loops
!
!---------------------------------------------------------------------------
! latent heat, heat capacity and saturation
!---------------------------------------------------------------------------
    do k = kts, kte
      do i = its, ite
        cpm(i,k) = cpmcal(q(i,k))
        xl(i,k) = xlcal(t(i,k))
      enddo
    enddo
!
    do k = kts, kte
      do i = its, ite
        qs(i,k,1) = min(esw(t(i,k)), 0.5*p(i,k))
        qs(i,k,1) = ep2*qs(i,k,1)/(p(i,k) - qs(i,k,1))
        qs(i,k,1) = max(qs(i,k,1), qmin)
        rh(i,k,1) = max(q(i,k)/qs(i,k,1), qmin)
        if (t(i,k) < t0c) then
          qs(i,k,2) = min(esi(t(i,k)), 0.5*p(i,k))
          qs(i,k,2) = ep2*qs(i,k,2)/(p(i,k) - qs(i,k,2))
        else
          qs(i,k,2) = qs(i,k,1)
        endif
        qs(i,k,2) = max(qs(i,k,2), qmin)
        rh(i,k,2) = max(q(i,k)/qs(i,k,2), qmin)
      enddo
    enddo
!
!---------------------------------------------------------------------------
! intercept of snow, rising as the temperature falls: n0s*exp(alpha*(t0c-t))
! between 1 and n0smax/n0s times n0s
!---------------------------------------------------------------------------
    do k = kts, kte
      do i = its, ite
        tvec1(i) = alpha*(t0c - t(i,k))
      enddo
      call vsexp(tvec2(its), tvec1(its), nrow)
      do i = its, ite
        n0sfac(i,k) = max(min(tvec2(i), n0smax/n0s), 1.)
      enddo
    enddo
!
!---------------------------------------------------------------------------
! slopes and mass-weighted fall speeds of rain and snow
!---------------------------------------------------------------------------
    do k = kts, kte
      do i = its, ite
        if (qrs(i,k,1) <= qcrmin) then
          rslope(i,k,1) = rslopermax
          rslopeb(i,k,1) = rsloperbmax
          rslope2(i,k,1) = rsloper2max
          rslope3(i,k,1) = rsloper3max
        else
          rslope(i,k,1) = 1./lamdar(qrs(i,k,1), den(i,k))
          rslopeb(i,k,1) = rslope(i,k,1)**bvtr
          rslope2(i,k,1) = rslope(i,k,1)*rslope(i,k,1)
          rslope3(i,k,1) = rslope2(i,k,1)*rslope(i,k,1)
        endif
        if (qrs(i,k,2) <= qcrmin) then
          rslope(i,k,2) = rslopesmax
          rslopeb(i,k,2) = rslopesbmax
          rslope2(i,k,2) = rslopes2max
          rslope3(i,k,2) = rslopes3max
        else
          rslope(i,k,2) = 1./lamdas(qrs(i,k,2), den(i,k), n0sfac(i,k))
          rslopeb(i,k,2) = rslope(i,k,2)**bvts
          rslope2(i,k,2) = rslope(i,k,2)*rslope(i,k,2)
          rslope3(i,k,2) = rslope2(i,k,2)*rslope(i,k,2)
        endif
        vt(i,k,1) = pvtr*rslopeb(i,k,1)*denfac(i,k)
        vt(i,k,2) = pvts*rslopeb(i,k,2)*denfac(i,k)
        if (qrs(i,k,1) <= 0.) vt(i,k,1) = 0.
        if (qrs(i,k,2) <= 0.) vt(i,k,2) = 0.
      enddo
    enddo
!
!---------------------------------------------------------------------------
! sedimentation of rain: each column takes mstep(i) sub-steps, enough that
! no layer empties more than once per sub-step.  The sub-step loop runs to
! the largest mstep of the row, each column only while n <= mstep(i).
!---------------------------------------------------------------------------
    do i = its, ite
      mstep(i) = 1
    enddo
    do k = kte, kts, -1
      do i = its, ite
        numdt(i) = max(nint(vt(i,k,1)*dtcld/delz(i,k) + .5), 1)
        if (numdt(i) > mstep(i)) mstep(i) = numdt(i)
      enddo
    enddo
    mstepmax = 1
    do i = its, ite
      if (mstepmax < mstep(i)) mstepmax = mstep(i)
    enddo
    do i = its, ite
      delqrs1(i) = 0.
    enddo
!
    do n = 1, mstepmax
!     the top layer only loses rain
      k = kte
      do i = its, ite
        if (n <= mstep(i)) then
          dts = dtcld/mstep(i)
          frac = min(vt(i,k,1)*dts/delz(i,k), 1.)
          falk(i,k) = qrs(i,k,1)*frac*den(i,k)*delz(i,k)
          qrs(i,k,1) = qrs(i,k,1)*(1. - frac)
        endif
      enddo
!     below, every layer receives what left the layer above in this
!     sub-step: a recurrence downwards in k
      do k = kte - 1, kts, -1
        do i = its, ite
          if (n <= mstep(i)) then
            dts = dtcld/mstep(i)
            frac = min(vt(i,k,1)*dts/delz(i,k), 1.)
            falk(i,k) = qrs(i,k,1)*frac*den(i,k)*delz(i,k)
            qrs(i,k,1) = qrs(i,k,1)*(1. - frac)                               &
                         + falk(i,k+1)/(den(i,k)*delz(i,k))
          endif
        enddo
      enddo
!     what leaves the lowest layer reaches the ground (kg m-2)
      do i = its, ite
        if (n <= mstep(i)) then
          delqrs1(i) = delqrs1(i) + falk(i,kts)
        endif
      enddo
    enddo
!
!---------------------------------------------------------------------------
! sedimentation of snow: semi-Lagrangian, all columns of the row at once
!---------------------------------------------------------------------------
    call slfall(nrow, kte - kts + 1, den_tmp, delz_tmp, vt(its,kts,2),         &
                qrs(its,kts,2), delqrs2(its), dtcld, nsliter)
!
!---------------------------------------------------------------------------
! surface precipitation (mm: kg m-2 of water divided by denr, times 1000)
!---------------------------------------------------------------------------
    do i = its, ite
      precip = (delqrs1(i) + delqrs2(i))/denr*1000.
      if (precip > 0.) then
        rainncv(i) = rainncv(i) + precip
        rain(i) = rain(i) + precip
      endif
      snowsum(i) = snowsum(i) + delqrs2(i)/denr*1000.
      if (present(snow) .and. present(snowncv)) then
        if (delqrs2(i) > 0.) then
          snowncv(i,lat) = snowncv(i,lat) + delqrs2(i)/denr*1000.
          snow(i,lat) = snow(i,lat) + delqrs2(i)/denr*1000.
        endif
      endif
    enddo
!
!---------------------------------------------------------------------------
! instantaneous processes: cloud ice melts above t0c; cloud water freezes
! below thom (homogeneous freezing)
!---------------------------------------------------------------------------
    do k = kts, kte
      do i = its, ite
        if (t(i,k) >= t0c .and. qci(i,k,2) > 0.) then
          t(i,k) = t(i,k) - (xls - xl(i,k))*qci(i,k,2)/cpm(i,k)
          qci(i,k,1) = qci(i,k,1) + qci(i,k,2)
          qci(i,k,2) = 0.
        endif
        if (t(i,k) < thom .and. qci(i,k,1) > 0.) then
          t(i,k) = t(i,k) + (xls - xl(i,k))*qci(i,k,1)/cpm(i,k)
          qci(i,k,2) = qci(i,k,2) + qci(i,k,1)
          qci(i,k,1) = 0.
        endif
      enddo
    enddo
!
!---------------------------------------------------------------------------
! slopes again, after sedimentation, for the source terms
!---------------------------------------------------------------------------
    do k = kts, kte
      do i = its, ite
        if (qrs(i,k,1) <= qcrmin) then
          rslope(i,k,1) = rslopermax
          rslopeb(i,k,1) = rsloperbmax
          rslope2(i,k,1) = rsloper2max
          rslope3(i,k,1) = rsloper3max
        else
          rslope(i,k,1) = 1./lamdar(qrs(i,k,1), den(i,k))
          rslopeb(i,k,1) = exp(log(rslope(i,k,1))*bvtr)
          rslope2(i,k,1) = rslope(i,k,1)*rslope(i,k,1)
          rslope3(i,k,1) = rslope2(i,k,1)*rslope(i,k,1)
        endif
        if (qrs(i,k,2) <= qcrmin) then
          rslope(i,k,2) = rslopesmax
          rslopeb(i,k,2) = rslopesbmax
          rslope2(i,k,2) = rslopes2max
          rslope3(i,k,2) = rslopes3max
        else
          rslope(i,k,2) = 1./lamdas(qrs(i,k,2), den(i,k), n0sfac(i,k))
          rslopeb(i,k,2) = exp(log(rslope(i,k,2))*bvts)
          rslope2(i,k,2) = rslope(i,k,2)*rslope(i,k,2)
          rslope3(i,k,2) = rslope2(i,k,2)*rslope(i,k,2)
        endif
      enddo
    enddo
!
!---------------------------------------------------------------------------
! diffusional growth factors over water and ice, ventilation factor
!---------------------------------------------------------------------------
    do k = kts, kte
      do i = its, ite
        work1(i,k,1) = diffac(xl(i,k), p(i,k), t(i,k), den(i,k), qs(i,k,1))
        work1(i,k,2) = diffac(xls, p(i,k), t(i,k), den(i,k), qs(i,k,2))
        work2(i,k) = venfac(p(i,k), t(i,k), den(i,k))
      enddo
    enddo
!
!---------------------------------------------------------------------------
! number of ice crystals (Fletcher-like, from the ice content):
! xni = 5.38e7*(den*qi)**0.75 between 1e3 and 1e6 m-3, with the helpers
!---------------------------------------------------------------------------
    do k = kts, kte
      do i = its, ite
        tvec1(i) = den(i,k)*max(qci(i,k,2), qmin)
      enddo
      call vslog(tvec2(its), tvec1(its), nrow)
      do i = its, ite
        tvec1(i) = 0.75*tvec2(i)
      enddo
      call vsexp(xni(its,k), tvec1(its), nrow)
      do i = its, ite
        xni(i,k) = min(max(5.38e7*xni(i,k), 1.e3), 1.e6)
      enddo
    enddo
!
!---------------------------------------------------------------------------
! the source terms (kg kg-1 s-1): all cleared, then set where they act
!---------------------------------------------------------------------------
    praut = 0.
    pracw = 0.
    prevp = 0.
    psacw = 0.
    psmlt = 0.
    pigen = 0.
    pidep = 0.
    psdep = 0.
    psaut = 0.
    psaci = 0.
    pfrzr = 0.
    pcond = 0.
!
! warm rain, at every temperature: autoconversion of cloud water above the
! content of droplets of radius r0, accretion of cloud water by rain,
! evaporation of rain in subsaturated air
!
    do k = kts, kte
      do i = its, ite
        if (qci(i,k,1) > qc0/den(i,k)) then
          praut(i,k) = (qci(i,k,1) - qc0/den(i,k))/tauaut
        endif
        if (qrs(i,k,1) > qcrmin .and. qci(i,k,1) > qmin) then
          pracw(i,k) = pacrr*rslope3(i,k,1)*rslopeb(i,k,1)*denfac(i,k)        &
                       *qci(i,k,1)
        endif
        if (qrs(i,k,1) > 0. .and. rh(i,k,1) < 1.) then
          coeres = rslope2(i,k,1)*sqrt(rslope(i,k,1)*rslopeb(i,k,1))
          prevp(i,k) = (rh(i,k,1) - 1.)*(precr1*rslope2(i,k,1)                 &
                       + precr2*work2(i,k)*coeres)/work1(i,k,1)
          prevp(i,k) = max(prevp(i,k), -qrs(i,k,1)/dtcld,                     &
                           (q(i,k) - qs(i,k,1))/dtcld)
        endif
      enddo
    enddo
!
! cold processes (t < t0c): ice initiation, deposition on ice and snow,
! aggregation of ice to snow, collection of ice and cloud water by snow,
! freezing of rain
!
    do k = kts, kte
      do i = its, ite
        if (t(i,k) < t0c) then
          supice = q(i,k) - qs(i,k,2)
          tcold = min(t0c - t(i,k), 60.)
!         initiation of cloud ice on ice nuclei, when supersaturated over ice
          if (supice > 0.) then
            xni0 = 1.e3*exp(0.1*tcold)
            pigen(i,k) = max(0., (xm0*xni0/den(i,k) - max(qci(i,k,2), 0.))/dtcld)
            pigen(i,k) = min(pigen(i,k), supice/dtcld)
          endif
!         deposition/sublimation of cloud ice
          if (qci(i,k,2) > 0.) then
            xmi = den(i,k)*qci(i,k,2)/xni(i,k)
            diameter = min(dicon*sqrt(xmi), dimax)
            pidep(i,k) = 4.*diameter*xni(i,k)*(rh(i,k,2) - 1.)/work1(i,k,2)
            if (supice > 0.) then
              pidep(i,k) = min(pidep(i,k), supice/dtcld)
            else
              pidep(i,k) = max(pidep(i,k), -qci(i,k,2)/dtcld, supice/dtcld)
            endif
          endif
!         deposition/sublimation of snow
          if (qrs(i,k,2) > 0.) then
            coeres = rslope2(i,k,2)*sqrt(rslope(i,k,2)*rslopeb(i,k,2))
            psdep(i,k) = (rh(i,k,2) - 1.)*n0sfac(i,k)*(precs1*rslope2(i,k,2)  &
                         + precs2*work2(i,k)*coeres)/work1(i,k,2)
            if (supice > 0.) then
              psdep(i,k) = min(psdep(i,k), supice/dtcld)
            else
              psdep(i,k) = max(psdep(i,k), -qrs(i,k,2)/dtcld, supice/dtcld)
            endif
          endif
!         aggregation of cloud ice into snow, faster when warmer
          if (qci(i,k,2) > roqimax/den(i,k)) then
            psaut(i,k) = 1.e-3*exp(-0.025*tcold)                              &
                         *(qci(i,k,2) - roqimax/den(i,k))
          endif
!         collection of cloud ice by snow (efficiency falls with temperature)
          if (qrs(i,k,2) > qcrmin .and. qci(i,k,2) > qmin) then
            eacrs = exp(-0.07*tcold)
            psaci(i,k) = pacrs*n0sfac(i,k)*rslope3(i,k,2)*rslopeb(i,k,2)      &
                         *denfac(i,k)*eacrs*qci(i,k,2)
          endif
!         riming: collection of supercooled cloud water by snow
          if (qrs(i,k,2) > qcrmin .and. qci(i,k,1) > qmin) then
            psacw(i,k) = pacrs*n0sfac(i,k)*rslope3(i,k,2)*rslopeb(i,k,2)      &
                         *denfac(i,k)*qci(i,k,1)
          endif
!         freezing of rain (Bigg), the frozen drops join the snow
          if (qrs(i,k,1) > qcrmin) then
            pfrzr(i,k) = pfrz1*(exp(pfrz2*tcold) - 1.)                        &
                         *rslope3(i,k,1)*rslope3(i,k,1)*rslope(i,k,1)/den(i,k)
            pfrzr(i,k) = min(pfrzr(i,k), qrs(i,k,1)/dtcld)
          endif
        endif
      enddo
    enddo
!
! warm snow (t >= t0c): melting, and cloud water collected by the melting
! snow, which joins the rain
!
    do k = kts, kte
      do i = its, ite
        if (t(i,k) >= t0c .and. qrs(i,k,2) > 0.) then
          coeres = rslope2(i,k,2)*sqrt(rslope(i,k,2)*rslopeb(i,k,2))
          psmlt(i,k) = xka(t(i,k), den(i,k))/(xls - xl(i,k))*(t0c - t(i,k))   &
                       *n0sfac(i,k)*(precs1*rslope2(i,k,2)                     &
                       + precs2*work2(i,k)*coeres)/den(i,k)
          psmlt(i,k) = max(psmlt(i,k), -qrs(i,k,2)/dtcld)
          if (qrs(i,k,2) > qcrmin .and. qci(i,k,1) > qmin) then
            psacw(i,k) = pacrs*n0sfac(i,k)*rslope3(i,k,2)*rslopeb(i,k,2)      &
                         *denfac(i,k)*qci(i,k,1)
          endif
        endif
      enddo
    enddo
!
!---------------------------------------------------------------------------
! limit every sink to the mass available in the minor step: scale all the
! terms that drain a class by one factor.  A term scaled down also gives
! less to the class it feeds, so no class can go negative.
!---------------------------------------------------------------------------
    do k = kts, kte
      do i = its, ite
!       vapour: deposition and initiation at most the supersaturation over ice
        if (t(i,k) < t0c) then
          supice = max(q(i,k) - qs(i,k,2), 0.)
          sink = (pigen(i,k) + max(pidep(i,k), 0.) + max(psdep(i,k), 0.))*dtcld
          if (sink > supice) then
            factor = supice/sink
            pigen(i,k) = pigen(i,k)*factor
            if (pidep(i,k) > 0.) pidep(i,k) = pidep(i,k)*factor
            if (psdep(i,k) > 0.) psdep(i,k) = psdep(i,k)*factor
          endif
        endif
!       cloud water
        sink = (praut(i,k) + pracw(i,k) + psacw(i,k))*dtcld
        if (sink > qci(i,k,1)) then
          factor = qci(i,k,1)/sink
          praut(i,k) = praut(i,k)*factor
          pracw(i,k) = pracw(i,k)*factor
          psacw(i,k) = psacw(i,k)*factor
        endif
!       cloud ice
        sink = (psaut(i,k) + psaci(i,k) - min(pidep(i,k), 0.))*dtcld
        if (sink > qci(i,k,2)) then
          factor = qci(i,k,2)/sink
          psaut(i,k) = psaut(i,k)*factor
          psaci(i,k) = psaci(i,k)*factor
          if (pidep(i,k) < 0.) pidep(i,k) = pidep(i,k)*factor
        endif
!       rain
        sink = (pfrzr(i,k) - prevp(i,k))*dtcld
        if (sink > qrs(i,k,1)) then
          factor = qrs(i,k,1)/sink
          pfrzr(i,k) = pfrzr(i,k)*factor
          prevp(i,k) = prevp(i,k)*factor
        endif
!       snow
        sink = (-min(psdep(i,k), 0.) - psmlt(i,k))*dtcld
        if (sink > qrs(i,k,2)) then
          factor = qrs(i,k,2)/sink
          if (psdep(i,k) < 0.) psdep(i,k) = psdep(i,k)*factor
          psmlt(i,k) = psmlt(i,k)*factor
        endif
      enddo
    enddo
!
!---------------------------------------------------------------------------
! update the classes and the temperature: the latent heat follows the
! change of condensate, xl for liquid and xls for ice
!---------------------------------------------------------------------------
    do k = kts, kte
      do i = its, ite
        if (t(i,k) < t0c) then
          dqc = -(praut(i,k) + pracw(i,k) + psacw(i,k))*dtcld
          dqr = (praut(i,k) + pracw(i,k) + prevp(i,k) - pfrzr(i,k))*dtcld
          dqi = (pigen(i,k) + pidep(i,k) - psaut(i,k) - psaci(i,k))*dtcld
          dqs = (psaut(i,k) + psaci(i,k) + psacw(i,k) + psdep(i,k)            &
                 + pfrzr(i,k))*dtcld
        else
          dqc = -(praut(i,k) + pracw(i,k) + psacw(i,k))*dtcld
          dqr = (praut(i,k) + pracw(i,k) + psacw(i,k) + prevp(i,k)            &
                 - psmlt(i,k))*dtcld
          dqi = 0.
          dqs = psmlt(i,k)*dtcld
        endif
        dqc = max(qci(i,k,1) + dqc, 0.) - qci(i,k,1)
        dqr = max(qrs(i,k,1) + dqr, 0.) - qrs(i,k,1)
        dqi = max(qci(i,k,2) + dqi, 0.) - qci(i,k,2)
        dqs = max(qrs(i,k,2) + dqs, 0.) - qrs(i,k,2)
        qci(i,k,1) = qci(i,k,1) + dqc
        qrs(i,k,1) = qrs(i,k,1) + dqr
        qci(i,k,2) = qci(i,k,2) + dqi
        qrs(i,k,2) = qrs(i,k,2) + dqs
        q(i,k) = max(q(i,k) - (dqc + dqr + dqi + dqs), 0.)
        t(i,k) = t(i,k) + (xl(i,k)*(dqc + dqr) + xls*(dqi + dqs))/cpm(i,k)
      enddo
    enddo
!
!---------------------------------------------------------------------------
! saturation adjustment over water at the new temperature: condense the
! excess vapour into cloud water, or evaporate cloud water where the air
! is subsaturated
!---------------------------------------------------------------------------
    do k = kts, kte
      do i = its, ite
        cpm(i,k) = cpmcal(q(i,k))
        xl(i,k) = xlcal(t(i,k))
        qs(i,k,1) = min(esw(t(i,k)), 0.5*p(i,k))
        qs(i,k,1) = max(ep2*qs(i,k,1)/(p(i,k) - qs(i,k,1)), qmin)
      enddo
    enddo
!
    do k = kts, kte
      do i = its, ite
        supsat = conden(t(i,k), q(i,k), qs(i,k,1), xl(i,k), cpm(i,k))
        pcond(i,k) = supsat/dtcld
        if (pcond(i,k) > 0.) then
          pcond(i,k) = min(pcond(i,k), max(q(i,k), 0.)/dtcld)
        else
          pcond(i,k) = max(pcond(i,k), -qci(i,k,1)/dtcld)
        endif
        dqc = max(qci(i,k,1) + pcond(i,k)*dtcld, 0.) - qci(i,k,1)
        dqc = min(dqc, q(i,k))
        qci(i,k,1) = qci(i,k,1) + dqc
        q(i,k) = q(i,k) - dqc
        t(i,k) = t(i,k) + xl(i,k)*dqc/cpm(i,k)
      enddo
    enddo
!
  enddo                  ! minor time steps
!
!---------------------------------------------------------------------------
! snow ratio of this call's precipitation
!---------------------------------------------------------------------------
  do i = its, ite
    if (rainncv(i) > 0.) then
      sr(i) = min(snowsum(i)/rainncv(i), 1.)
    endif
  enddo
!
  end subroutine wsm52d

!-------------------------------------------------------------------------------
  subroutine slfall(im, km, denl, dzl, wwl, rql, precip, dt, niter)
!-------------------------------------------------------------------------------
! Semi-Lagrangian sedimentation of one precipitating class in im columns of
! km layers (layer 1 at the ground).  The layer interfaces fall with the
! fall speed for dt; their departure points are found by iterating a
! trapezoidal trajectory (speed where the interface starts, speed where it
! arrives), niter times after the first guess.  The mass of each Lagrangian
! layer, spread evenly over its new depth, is remapped onto the fixed
! layers; what falls below the ground is the precipitation.  Every layer's
! mass goes somewhere, so the column plus precip conserves the mass.
!
!  denl  air density (kg m-3)          dzl  layer depth (m)
!  wwl   fall speed, positive down (m s-1, at layer centres)
!  rql   mixing ratio (kg kg-1), updated
!  precip  mass that reached the ground in dt (kg m-2)
!-------------------------------------------------------------------------------
  implicit none
  integer, intent(in) :: im, km, niter
  real(kind_phys), intent(in) :: denl(im,km), dzl(im,km), wwl(im,km), dt
  real(kind_phys), intent(inout) :: rql(im,km)
  real(kind_phys), intent(out) :: precip(im)
! automatic arrays sized by the arguments
  real(kind_phys) :: zi(km+1), wi(km+1), za(km+1), wa(km+1), qa(km), qn(km)
  real(kind_phys) :: hb, ht, h, lo, hi, w
  integer :: i, k, m, n
!
  do i = 1, im
    precip(i) = 0.
!
!   interfaces of the fixed layers, and the mass of each layer (kg m-2)
    zi(1) = 0.
    do k = 1, km
      zi(k+1) = zi(k) + dzl(i,k)
      qa(k) = max(rql(i,k), 0.)*denl(i,k)*dzl(i,k)
      qn(k) = 0.
    enddo
!
!   fall speed at the interfaces: depth-weighted mean of the two layers;
!   the ground takes the lowest layer's, the top the highest layer's
    wi(1) = wwl(i,1)
    do k = 2, km
      wi(k) = (wwl(i,k-1)*dzl(i,k) + wwl(i,k)*dzl(i,k-1))                     &
              /(dzl(i,k-1) + dzl(i,k))
    enddo
    wi(km+1) = wwl(i,km)
!
!   departure points: first guess with the speed where each interface
!   starts, then niter corrections with the mean of the speeds at the two
!   ends of its trajectory
    do k = 1, km + 1
      wa(k) = wi(k)
    enddo
    n = 0
100 continue
    n = n + 1
    do k = 1, km + 1
      za(k) = zi(k) - 0.5*(wi(k) + wa(k))*dt
    enddo
!   the speed where each interface arrives, interpolated between the
!   interfaces around it (below the ground: the speed at the ground)
    do k = 1, km + 1
      if (za(k) <= 0.) then
        wa(k) = wi(1)
      else
        do m = k, 2, -1
          if (za(k) >= zi(m-1)) exit
        enddo
        m = max(m, 2)
        w = (za(k) - zi(m-1))/(zi(m) - zi(m-1))
        w = min(max(w, 0.), 1.)
        wa(k) = wi(m-1) + w*(wi(m) - wi(m-1))
      endif
    enddo
    if (n <= niter) goto 100
!
!   a Lagrangian layer cannot overtake the one below it: keep every
!   interface above the one below (top down)
    do k = km, 1, -1
      za(k) = min(za(k), za(k+1) - 1.e-3*dzl(i,k))
    enddo
!
!   remap: Lagrangian layer k lies between za(k) and za(k+1), below its
!   old top, so it can only overlap the fixed layers k, k-1, ...
    do k = 1, km
      if (qa(k) <= 0.) cycle
      hb = za(k)
      ht = za(k+1)
      h = ht - hb
      if (ht <= 0.) then
        precip(i) = precip(i) + qa(k)
        cycle
      endif
      if (hb < 0.) precip(i) = precip(i) + qa(k)*(-hb)/h
      do m = k, 1, -1
        lo = max(hb, zi(m))
        hi = min(ht, zi(m+1))
        if (hi > lo) qn(m) = qn(m) + qa(k)*(hi - lo)/h
        if (zi(m) <= hb) exit
      enddo
    enddo
!
    do k = 1, km
      rql(i,k) = qn(k)/(denl(i,k)*dzl(i,k))
    enddo
  enddo
!
  end subroutine slfall

!-------------------------------------------------------------------------------
  subroutine wsm5init
!-------------------------------------------------------------------------------
! Derived coefficients of the size distributions N(D) = n0*exp(-lamda*D)
! with fall speeds v(D) = a*D**b: mass-weighted fall speed, collection,
! evaporation/deposition (capacitance and ventilation) and the limits of
! the slope 1/lamda.
!-------------------------------------------------------------------------------
  implicit none
!
! rain
  bvtr1 = 1. + bvtr
  bvtr2 = 2.5 + .5*bvtr
  bvtr3 = 3. + bvtr
  bvtr4 = 4. + bvtr
  g1pbr = gamma(bvtr1)
  g3pbr = gamma(bvtr3)
  g4pbr = gamma(bvtr4)
  g5pbro2 = gamma(bvtr2)
  pvtr = avtr*g4pbr/6.
  pacrr = pi*n0r*avtr*g3pbr*.25
  precr1 = 2.*pi*n0r*.78
  precr2 = 2.*pi*n0r*.31*avtr**.5*g5pbro2
  pidn0r = pi*denr*n0r
  rslopermax = 1./lamdarmax
  rsloperbmax = rslopermax**bvtr
  rsloper2max = rslopermax*rslopermax
  rsloper3max = rsloper2max*rslopermax
!
! snow (its intercept is multiplied by n0sfac where used)
  bvts1 = 1. + bvts
  bvts2 = 2.5 + .5*bvts
  bvts3 = 3. + bvts
  bvts4 = 4. + bvts
  g1pbs = gamma(bvts1)
  g3pbs = gamma(bvts3)
  g4pbs = gamma(bvts4)
  g5pbso2 = gamma(bvts2)
  pvts = avts*g4pbs/6.
  pacrs = pi*n0s*avts*g3pbs*.25
  precs1 = 4.*n0s*.65
  precs2 = 4.*n0s*.44*avts**.5*g5pbso2
  pidn0s = pi*dens*n0s
  rslopesmax = 1./lamdasmax
  rslopesbmax = rslopesmax**bvts
  rslopes2max = rslopesmax*rslopesmax
  rslopes3max = rslopes2max*rslopesmax
!
! autoconversion threshold (kg m-3): droplets of radius r0, xncr per m3
  qc0 = 4./3.*pi*denr*r0**3*xncr
!
! Bigg freezing of rain: 20 pi**2 biggb n0r denr/den (exp(bigga (t0c-t)) - 1) / lamda**7
  pfrz1 = 20.*pi*pi*biggb*n0r*denr
  pfrz2 = bigga
!
  end subroutine wsm5init

end module module_mp_wsm5s
