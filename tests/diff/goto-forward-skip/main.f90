! Driver of goto-forward-skip: computes a, c and ktop here with IFs and an
! EXIT instead of the GOTOs and checks them exactly.  Dumps a, c and ktop.
program goto_forward_skip
  use gfs_kernel, only: skip_some
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, fail
  implicit none
  character(len=*), parameter :: name = 'goto-forward-skip'
  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte, i, j, k, kk
  real, allocatable :: a(:,:,:), b(:,:,:), c(:,:,:), ea(:,:,:), ec(:,:,:)
  integer, allocatable :: ktop(:,:), ek(:,:)
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(37, 5, 9, 1, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(a(ims:ime,kms:kme,jms:jme), b(ims:ime,kms:kme,jms:jme), c(ims:ime,kms:kme,jms:jme))
  allocate(ktop(ims:ime,jms:jme), ek(ims:ime,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        b(i,k,j) = noise(i, k, j)
        a(i,k,j) = noise(k, i, j)
        c(i,k,j) = noise(j, k, i)
      end do
    end do
  end do
  ktop = -9
  ea = a
  ec = c
  ek = ktop
  do j = jts, jte
    do i = its, ite
      do k = kts, kte
        ea(i,k,j) = b(i,k,j)
        if (b(i,k,j) >= -0.3) then
          ea(i,k,j) = 2.0 * ea(i,k,j)
          if (b(i,k,j) > 0.2) ec(i,k,j) = 1.0
          if (b(i,k,j) > 0.4) cycle
        end if
        ec(i,k,j) = ec(i,k,j) + ea(i,k,j)
      end do
      kk = kts - 1
      do k = kte, kts, -1
        if (b(i,k,j) > 0.3) then
          kk = k
          exit
        end if
        ec(i,k,j) = -ec(i,k,j)
      end do
      if (kk == kts - 1) ea(i,kts,j) = ea(i,kts,j) + 100.0
      ek(i,j) = kk
    end do
  end do

  call skip_some(a, b, c, ktop, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)

  if (any(a /= ea)) call fail(name, 'wrong a')
  if (any(c /= ec)) call fail(name, 'wrong c')
  if (any(ktop /= ek)) call fail(name, 'wrong ktop')
  if (count(ek(its:ite,jts:jte) == kts - 1) == 0) call fail(name, 'no column without a level')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
  call s2s_dump_array('c', c)
  call s2s_dump_array('ktop', ktop)
  call s2s_dump_close()
end program goto_forward_skip
