! Driver of goto-iteration-loop: runs the same fall steps here as a DO loop
! with an EXIT and checks q and the step counts exactly (and that every
! column either converged or hit the limit).  Dumps q and nsteps.
program goto_iteration_loop
  use gil_kernel, only: settle
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, fail, check_tolerance
  implicit none
  character(len=*), parameter :: name = 'goto-iteration-loop'
  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte, i, j, k, n
  real, allocatable :: q(:,:,:), v(:,:,:), eq(:,:,:)
  integer, allocatable :: nsteps(:,:), en(:,:)
  real :: flux, moved
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(37, 5, 11, 1, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(q(ims:ime,kms:kme,jms:jme), v(ims:ime,kms:kme,jms:jme), nsteps(ims:ime,jms:jme))
  allocate(en(ims:ime,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        q(i,k,j) = 1.0 + noise(i, k, j)
        v(i,k,j) = 0.05 + 0.4 * (noise(k, j, i) + 0.5)
      end do
    end do
  end do
  nsteps = -7
  eq = q
  en = nsteps
  do j = jts, jte
    do i = its, ite
      n = 0
      do
        n = n + 1
        moved = 0.
        do k = kts, kte - 1
          flux = 0.5 * abs(v(i,k,j)) * eq(i,k+1,j)
          eq(i,k+1,j) = eq(i,k+1,j) - flux
          eq(i,k,j) = eq(i,k,j) + flux
          moved = moved + flux
        end do
        if (.not. (moved > 1.e-3 .and. n < 25)) exit
      end do
      en(i,j) = n
    end do
  end do

  call settle(q, v, nsteps, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)

  ! the GPU rounds 0.5*abs(v)*q as one fused multiply-add: q agrees to a few
  ! ulps of its largest value, not bit for bit
  call check_tolerance(name, 'max error of q / max q', maxval(abs(q - eq)) / maxval(abs(eq)), 1.e-5, 'wrong q')
  if (any(nsteps /= en)) call fail(name, 'wrong step counts')
  if (minval(nsteps(its:ite,jts:jte)) < 2 .or. maxval(nsteps(its:ite,jts:jte)) > 25) &
    call fail(name, 'step counts out of range')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_array('nsteps', nsteps)
  call s2s_dump_close()
end program goto_iteration_loop
