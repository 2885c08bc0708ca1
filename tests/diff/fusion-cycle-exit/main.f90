! Driver of fusion-cycle-exit: checks every element of a, c and d against
! values computed here point by point (c must be 2*b+1 everywhere in the
! tile, whatever the CYCLE and EXIT of the neighbouring loops did).
! Dumps a, c and d.
program fusion_cycle_exit
  use fce_kernel, only: skip_and_stop
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise, fail
  implicit none
  character(len=*), parameter :: name = 'fusion-cycle-exit'
  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte, i, j, k
  real, allocatable, dimension(:,:,:) :: a, b, c, d, ea, ec, ed
  character(len=512) :: path
  logical :: stopped

  call get_dump_path(path)
  call set_tile_3d(37, 5, 9, 1, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  allocate(a(ims:ime,kms:kme,jms:jme), b(ims:ime,kms:kme,jms:jme), c(ims:ime,kms:kme,jms:jme), &
           d(ims:ime,kms:kme,jms:jme))
  do j = jms, jme
    do k = kms, kme
      do i = ims, ime
        b(i,k,j) = noise(i, k, j)
        a(i,k,j) = noise(k, i, j)
        c(i,k,j) = noise(j, k, i)
        d(i,k,j) = noise(i, j, k)
      end do
    end do
  end do
  ea = a
  ec = c
  ed = d
  do j = jts, jte
    do k = kts, kte
      stopped = .false.
      do i = its + 1, ite
        if (b(i,k,j) >= -0.2) ea(i,k,j) = ea(i-1,k,j) + b(i,k,j)
        ec(i,k,j) = 2.0*b(i,k,j) + 1.0
        stopped = stopped .or. b(i,k,j) > 0.4
        if (.not. stopped) ed(i,k,j) = ed(i-1,k,j) - b(i,k,j)
      end do
    end do
  end do

  call skip_and_stop(a, b, c, d, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)

  if (any(a /= ea)) call fail(name, 'wrong a')
  if (any(c /= ec)) call fail(name, 'wrong c (a CYCLE or EXIT skipped a fused statement)')
  if (any(d /= ed)) call fail(name, 'wrong d')
  call s2s_dump_open(trim(path))
  call s2s_dump_array('a', a)
  call s2s_dump_array('c', c)
  call s2s_dump_array('d', d)
  call s2s_dump_close()
end program fusion_cycle_exit
