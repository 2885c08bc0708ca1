! Driver of level-search-bound: finds the levels here with explicit
! counters (not DO variables after their loops) and checks q and kinfo
! exactly; some columns have no level above qmin (ktop = kts - 1) and some
! none above 0.45 (kbot = kte + 1).  Dumps q and kinfo.
program level_search_bound
  use lsb_kernel, only: top_of_cloud
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, fail
  implicit none
  character(len=*), parameter :: name = 'level-search-bound'
  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte, i, j, k, ktop, kbot
  real, allocatable :: q(:,:,:), eq(:,:,:)
  integer, allocatable :: kinfo(:,:,:), ek(:,:,:)
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(37, 5, 9, 1, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(q(ims:ime,kms:kme,jms:jme), kinfo(ims:ime,4,jms:jme), ek(ims:ime,4,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        q(i,k,j) = noise(i, k, j)
      end do
    end do
  end do
  kinfo = -5
  eq = q
  ek = kinfo
  do j = jts, jte
    do i = its, ite
      ktop = kts - 1
      do k = kte, kts, -1
        if (eq(i,k,j) > 0.25) then
          ktop = k
          exit
        end if
      end do
      kbot = kte + 1
      do k = kts, kte
        if (eq(i,k,j) > 0.45) then
          kbot = k
          exit
        end if
      end do
      ek(i,1,j) = ktop
      ek(i,2,j) = kbot
      do k = kts, ktop
        eq(i,k,j) = eq(i,k,j) + 1.0
      end do
      do k = kbot, kte
        eq(i,k,j) = 2.0 * eq(i,k,j)
      end do
      ek(i,3,j) = kts + 2 * ((kte - kts + 2) / 2)
      ek(i,4,j) = ktop + 1
    end do
  end do
  if (count(ek(its:ite,1,jts:jte) == kts - 1) == 0 .or. count(ek(its:ite,2,jts:jte) == kte + 1) == 0) &
    call fail(name, 'the data do not leave every search both ways')

  call top_of_cloud(q, kinfo, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)

  if (any(q /= eq)) call fail(name, 'wrong q')
  if (any(kinfo /= ek)) call fail(name, 'wrong kinfo (a DO variable after its loop)')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('q', q)
  call s2s_dump_array('kinfo', kinfo)
  call s2s_dump_close()
end program level_search_bound
