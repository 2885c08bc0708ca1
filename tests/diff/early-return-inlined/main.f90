! Driver of early-return-inlined: fills the columns here with flags instead
! of the RETURNs and checks q and nfix exactly.  Dumps q and nfix.
program early_return_inlined
  use eri_kernel, only: fill_all
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, fail
  implicit none
  character(len=*), parameter :: name = 'early-return-inlined'
  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte, i, j, k
  real, allocatable :: q(:,:,:), eq(:,:,:)
  integer, allocatable :: nfix(:,:), en(:,:)
  logical :: done
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(37, 5, 9, 1, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(q(ims:ime,kms:kme,jms:jme), nfix(ims:ime,jms:jme), en(ims:ime,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        q(i,k,j) = noise(i, k, j) + 0.2
      end do
    end do
  end do
  nfix = -1
  eq = q
  en = nfix
  do j = jts, jte
    do i = its, ite
      en(i,j) = 0
      if (eq(i,kte,j) >= 0. .and. eq(i,kte-1,j) >= 0.) cycle
      done = .false.
      do k = kte, kts + 1, -1
        if (eq(i,k,j) < 0.) then
          eq(i,k-1,j) = eq(i,k-1,j) + eq(i,k,j)
          eq(i,k,j) = 0.
          en(i,j) = en(i,j) + 1
          if (eq(i,k-1,j) >= 0. .and. k - 1 > kts) then
            done = .true.
            exit
          end if
        end if
      end do
      if (.not. done .and. eq(i,kts,j) < 0.) eq(i,kts,j) = 0.
    end do
  end do
  if (count(en(its:ite,jts:jte) == 0) == 0 .or. count(en(its:ite,jts:jte) > 0) == 0) &
    call fail(name, 'the data do not take both ways out of the routine')

  call fill_all(q, nfix, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)

  if (any(q /= eq)) call fail(name, 'wrong q')
  if (any(nfix /= en)) call fail(name, 'wrong nfix')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_array('nfix', nfix)
  call s2s_dump_close()
end program early_return_inlined
