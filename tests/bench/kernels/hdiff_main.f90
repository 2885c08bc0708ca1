! hdiff_main.f90 -- driver of kernels.sh case 2 (hdiff.f90): a smooth
! temperature-like field with noise (so the limiter zeroes some fluxes and
! not others) on a WRF tile with a halo of 2, one call of the one-core build
! (hdiff_cpu: the same source, gfortran -O3) as the reference, then CALLS
! timed calls of the variant with inp, coeff and outp resident on the device,
! outp compared whole (halo included: it must not be written).
!   usage: hdiff [NI NJ NK [CALLS]]     default 512 512 80, 20 calls
program hdiff_main
  use hdiff_kernel, only: hdiff
  use hdiff_kernel_cpu, only: hdiff_cpu
  use bench_util, only: read_sizes, clock_ms, report, compare, real64
  implicit none
  integer, parameter :: halo = 2
  integer :: ni, nj, nk, ncalls, i, j, k, n
  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  real, allocatable :: inp(:,:,:), coeff(:,:,:), outp(:,:,:), oref(:,:,:)
  real(real64) :: t0, t1

  ni = 512
  nj = 512
  nk = 80
  ncalls = 20
  call read_sizes('hdiff', ni, nj, nk, ncalls)
  its = 1; ite = ni; jts = 1; jte = nj; kts = 1; kte = nk
  ims = its - halo; ime = ite + halo
  jms = jts - halo; jme = jte + halo
  kms = kts; kme = kte
  allocate(inp(ims:ime, kms:kme, jms:jme), coeff(ims:ime, kms:kme, jms:jme),   &
           outp(ims:ime, kms:kme, jms:jme), oref(ims:ime, kms:kme, jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        inp(i,k,j) = 280.0 + 5.0*sin(0.03*i)*cos(0.02*j) + 0.5*k + noise(i, k, j)
        coeff(i,k,j) = 0.02 + 0.01*noise(j, i, k)
      end do
    end do
  end do
  outp = -1.0
  oref = -1.0
  call report('hdiff', 'points', real(ni, real64)*nj*nk)
  ! compulsory bytes: inp over the tile and two halo points, coeff over the
  ! tile, read once; outp over the tile written once
  call report('hdiff', 'bytes', 4.0_real64*real(nk, real64)                       &
                                *(real(ni + 4, real64)*(nj + 4) + 2.0_real64*ni*nj))

  t0 = clock_ms()
  call hdiff_cpu(inp, coeff, oref, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  call report('hdiff', 'cpu_ms', clock_ms() - t0)

!$stencil data copyin(inp, coeff) copy(outp)
!$acc data copyin(inp, coeff) copy(outp)
  call hdiff(inp, coeff, outp, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)   ! warm-up
!$stencil update host(outp(its:its,kts,jts))
!$acc update host(outp(its:its,kts,jts))
  t0 = clock_ms()
  do n = 1, ncalls
    call hdiff(inp, coeff, outp, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  end do
  ! wait for the device (the translation queues its kernels)
!$stencil update host(outp(its:its,kts,jts))
!$acc update host(outp(its:its,kts,jts))
  t1 = clock_ms()
!$acc end data
!$stencil end data
  call report('hdiff', 'calls', real(ncalls, real64))
  call report('hdiff', 'ms_per_call', (t1 - t0)/ncalls)
  call compare('hdiff', outp, oref, 1.0e-5_real64)

contains

  ! deterministic noise in [-0.5, 0.5)
  real function noise(i, k, j)
    integer, intent(in) :: i, k, j
    integer(8) :: h

    h = modulo(73856093_8*i + 19349663_8*k + 83492791_8*j, 1000003_8)
    h = modulo(h*h + 12345_8, 1000003_8)
    noise = real(h)/1000003.0 - 0.5
  end function noise

end program hdiff_main
