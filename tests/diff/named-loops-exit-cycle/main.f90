! Driver of named-loops-exit-cycle: computes a and nfound here with logical
! flags instead of the named jumps and checks them exactly.  Dumps a and
! nfound.
program named_loops_exit_cycle
  use nlec_kernel, only: search_levels
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, fail
  implicit none
  character(len=*), parameter :: name = 'named-loops-exit-cycle'
  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte, i, j, k, m, n
  real, allocatable :: a(:,:,:), b(:,:,:), ea(:,:,:)
  integer, allocatable :: nfound(:,:), en(:,:)
  logical :: stop_levels, next_level
  character(len=512) :: path

  call get_dump_path(path)
  call set_tile_3d(37, 5, 9, 1, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(a(ims:ime,kms:kme,jms:jme), b(ims:ime,kms:kme,jms:jme))
  allocate(nfound(ims:ime,jms:jme), en(ims:ime,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        b(i,k,j) = noise(i, k, j)
        a(i,k,j) = noise(k, i, j)
      end do
    end do
  end do
  nfound = -1
  ea = a
  en = nfound
  do j = jts, jte
    do i = its, ite
      n = 0
      stop_levels = .false.
      do k = kts, kte
        next_level = .false.
        do m = 1, 4
          if (b(i,k,j) + 0.1 * m > 0.75) then
            stop_levels = .true.
            exit
          end if
          if (b(i,k,j) - 0.1 * m < -0.55) then
            next_level = .true.
            exit
          end if
          if (m == 3 .and. b(i,k,j) > 0.0) exit
          ea(i,k,j) = ea(i,k,j) + 0.25 * m
          if (.not. (m == 2 .and. b(i,k,j) < -0.2)) ea(i,k,j) = ea(i,k,j) * 0.5
        end do
        if (stop_levels) exit
        if (.not. next_level) n = n + 1
      end do
      en(i,j) = n
    end do
  end do

  call search_levels(a, b, nfound, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)

  if (any(a /= ea)) call fail(name, 'wrong a')
  if (any(nfound /= en)) call fail(name, 'wrong nfound')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
  call s2s_dump_array('nfound', nfound)
  call s2s_dump_close()
end program named_loops_exit_cycle
