! Driver of partial-writes: before each region, a holds values of its own
! (a sentinel pattern unlike anything a region writes); after it, every
! element the region's loops skip must still hold that value, and every
! element they write the value written.  The expected array is computed
! here element by element from the conditions, not by the same loops.
! Dumps the result of every region.
program partial_writes
  use partial_kernel
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, fail
  implicit none
  character(len=*), parameter :: name = 'partial-writes'
  integer, parameter :: ni = 37, nj = 9, nk = 11, halo = 2

  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte
  integer :: i, j, k
  real, allocatable :: a2(:,:), b2(:,:), e2(:,:), a3(:,:,:), b3(:,:,:), e3(:,:,:)
  integer, allocatable :: ktop(:)
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, &
                   levels_above=2)
  allocate(a2(ims:ime, kms:kme), b2(ims:ime, kms:kme), e2(ims:ime, kms:kme))
  allocate(a3(ims:ime, kms:kme, jms:jme), b3(ims:ime, kms:kme, jms:jme), e3(ims:ime, kms:kme, jms:jme))
  allocate(ktop(ims:ime))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        b3(i,k,j) = noise(i, k, j)
      end do
    end do
  end do
  b2 = b3(:,:,jts)
  do i = ims, ime
    ktop(i) = kts + mod(3*i + 7, kte - kts + 2) - 1     ! kts-1 (no level) .. kte
  end do

  call s2s_dump_open(trim(path))

  call reset2()
  call every_other_level(a2, b2, ims,ime, kms,kme, its,ite, kts,kte)
  do k = kts, kte
    do i = its, ite
      if (mod(k - kts, 2) == 0) e2(i,k) = 2.0*b2(i,k)
    end do
  end do
  call check2('every_other_level')

  call reset2()
  call every_other_point(a2, b2, ims,ime, kms,kme, its,ite, kts,kte)
  do k = kts, kte
    do i = its, ite
      if (mod(i - its, 2) == 0) e2(i,k) = b2(i,k) + 1.0
    end do
  end do
  call check2('every_other_point')

  call reset3()
  call every_other_row_down(a3, b3, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
  do j = jts, jte
    if (mod(jte - j, 2) == 0) e3(its:ite, kts:kte, j) = b3(its:ite, kts:kte, j) - 1.0
  end do
  call check3('every_other_row_down')

  call reset2()
  call triangle_i(a2, b2, ims,ime, kms,kme, its,ite, kts,kte)
  do k = kts, kte
    do i = its, ite
      if (i - its <= ite - k + kts - its) e2(i,k) = 3.0*b2(i,k)
    end do
  end do
  call check2('triangle_i')

  call reset3()
  call triangle_k(a3, b3, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
  do j = jts, jte
    do k = kts, kte
      if (k - kts <= j - jts) e3(its:ite, k, j) = b3(its:ite, k, j)**2
    end do
  end do
  call check3('triangle_k')

  call reset2()
  call stop_at_negative(a2, b2, ims,ime, kms,kme, its,ite, kts,kte)
  do i = its, ite
    k = kts
    do while (k <= kte)
      if (b2(i,k) < -0.3) exit
      e2(i,k) = b2(i,k) + 10.0
      k = k + 1
    end do
  end do
  call check2('stop_at_negative')

  call reset2()
  call skip_negative(a2, b2, ims,ime, kms,kme, its,ite, kts,kte)
  where (b2(its:ite, kts:kte) >= 0.0) e2(its:ite, kts:kte) = b2(its:ite, kts:kte) + 20.0
  call check2('skip_negative')

  call reset2()
  call up_to_top(a2, b2, ktop, ims,ime, kms,kme, its,ite, kts,kte)
  do i = its, ite
    if (ktop(i) >= kts) e2(i, kts:ktop(i)) = b2(i, kts:ktop(i)) + 30.0
  end do
  call check2('up_to_top')

  call reset2()
  call where_positive(a2, b2, ims,ime, kms,kme, its,ite, kts,kte)
  where (b2(its:ite, kts:kte) > 0.0) e2(its:ite, kts:kte) = b2(its:ite, kts:kte) + 40.0
  call check2('where_positive')

  call reset3()
  call whole_tile(a3, b3, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
  e3(its:ite, kts:kte, jts:jte) = b3(its:ite, kts:kte, jts:jte) + 50.0
  call check3('whole_tile')

  call s2s_dump_close()

contains

  ! a and the expected e both start from the host's own values.
  subroutine reset2()
    do k = kms, kme
      do i = ims, ime
        a2(i,k) = -100.0 - real(i) - 0.01*real(k)
      end do
    end do
    e2 = a2
  end subroutine reset2

  subroutine reset3()
    do j = jms, jme
      do k = kms, kme
        do i = ims, ime
          a3(i,k,j) = -100.0 - real(i) - 0.01*real(k) - 0.0001*real(j)
        end do
      end do
    end do
    e3 = a3
  end subroutine reset3

  subroutine check2(what)
    character(len=*), intent(in) :: what
    if (any(a2 /= e2)) then
      write(*,'(4a,i0,a)') name, ': ', what, ' ', count(a2 /= e2), ' elements differ'
      call fail(name, 'wrong ' // what)
    end if
    call s2s_dump_array(what, a2)
  end subroutine check2

  subroutine check3(what)
    character(len=*), intent(in) :: what
    if (any(a3 /= e3)) then
      write(*,'(4a,i0,a)') name, ': ', what, ' ', count(a3 /= e3), ' elements differ'
      call fail(name, 'wrong ' // what)
    end if
    call s2s_dump_array(what, a3)
  end subroutine check3

end program partial_writes
