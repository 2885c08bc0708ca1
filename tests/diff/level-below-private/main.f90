! Driver of level-below-private: noise in, every output dumped whole; the
! host checks one column by hand.
program lbp_main
  use lbp_kernel, only: layers
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, fail
  implicit none
  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte, i, j, k
  real, allocatable, dimension(:,:,:) :: a1, o2
  real :: want
  character(len=512) :: path
  call get_dump_path(path)
  call set_tile_3d(37, 5, 9, 1, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, &
                   levels_above=1)
  allocate(a1(ims:ime,kms:kme,jms:jme), o2(ims:ime,kms:kme,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        a1(i,k,j) = noise(i, k, j)
        o2(i,k,j) = noise(k, j, i)
      end do
    end do
  end do
  call layers(a1, o2, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  do k = kts+1, kte
    want = (a1(its,k+1,jts) - a1(its,k,jts)) - (a1(its,k,jts) - a1(its,k-1,jts))
    if (abs(o2(its,k,jts) - want) > 1.e-6) call fail('layers', 'wrong layer difference')
  end do
  call s2s_dump_open(trim(path))
  call s2s_dump_array('o2', o2)
  call s2s_dump_close()
end program lbp_main
