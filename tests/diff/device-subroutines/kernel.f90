! device-subroutines: subroutines a region calls that cannot be inlined
! become __device__ functions, the arguments they assign passed by pointer.
! bisect(lo, hi, c, depth, x, nsteps) (recursive) assigns x (INTENT(OUT))
! and counts its steps in nsteps (INTENT(INOUT)): two results, so its body
! runs once for each.  gcd_steps(a, b, g) (recursive) assigns only g.
! descend(n, acc) (recursive) adds to acc through add_to(acc, v), itself a
! __device__ subroutine then, the pointer passed on.  count15(m, s, acc) has
! 15 nested loops (17 with the region's) and adds into acc, given an array
! element (no INTENT: read and assigned).  One kernel over (i,j).
module devsub
  implicit none
  integer, parameter :: depth_max = 24
contains
  subroutine column_solve(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, t, q, &
                          steps, g, acc)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: t(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    integer, intent(out) :: steps(ims:ime, jms:jme), g(ims:ime, jms:jme)
    integer, intent(inout) :: acc(ims:ime, jms:jme)
    integer :: i, j, k, n, m
    real :: x
!$stencil region
    do j = jts, jte
      do i = its, ite
        n = 0
        do k = kts, kte
          call bisect(-2.0, 2.0, t(i,k,j), depth_max, x, n)
          q(i,k,j) = x
        end do
        steps(i,j) = n
        call gcd_steps(12 + i, 18 + j, g(i,j))
        call descend(mod(i + j, 9), acc(i,j))
        m = 1
        if (mod(i + j, 7) == 0) m = 2
        call count15(m, mod(i, 3), acc(i,j))
      end do
    end do
!$stencil end region
  end subroutine column_solve

  recursive subroutine bisect(lo, hi, c, depth, x, nsteps)
    real, intent(in) :: lo, hi, c
    integer, intent(in) :: depth
    real, intent(out) :: x
    integer, intent(inout) :: nsteps
    real :: mid
    mid = 0.5 * (lo + hi)
    nsteps = nsteps + 1
    if (depth <= 0) then
      x = mid
    else if (mid + mid * mid * mid > c) then
      call bisect(lo, mid, c, depth - 1, x, nsteps)
    else
      call bisect(mid, hi, c, depth - 1, x, nsteps)
    end if
  end subroutine bisect

  recursive subroutine gcd_steps(a, b, g)
    integer, intent(in) :: a, b
    integer, intent(out) :: g
    if (b == 0) then
      g = a
    else
      call gcd_steps(b, mod(a, b), g)
    end if
  end subroutine gcd_steps

  ! acc + n + (n-1) + ... + 1
  recursive subroutine descend(n, acc)
    integer, intent(in) :: n
    integer, intent(inout) :: acc
    if (n > 0) then
      call add_to(acc, n)
      call descend(n - 1, acc)
    end if
  end subroutine descend

  subroutine add_to(acc, v)
    integer, intent(inout) :: acc
    integer, intent(in) :: v
    acc = acc + v
  end subroutine add_to

  ! acc + the sum of mod(l1 + ... + l15 + s, 3) over l1..l15 in 1..m.
  subroutine count15(m, s, acc)
    integer :: m, s, acc
    integer :: l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15
    do l1 = 1, m
     do l2 = 1, m
      do l3 = 1, m
       do l4 = 1, m
        do l5 = 1, m
         do l6 = 1, m
          do l7 = 1, m
           do l8 = 1, m
            do l9 = 1, m
             do l10 = 1, m
              do l11 = 1, m
               do l12 = 1, m
                do l13 = 1, m
                 do l14 = 1, m
                  do l15 = 1, m
                    acc = acc + mod(l1 + l2 + l3 + l4 + l5 + l6 + l7 + l8 + l9 + l10 + l11 &
                                    + l12 + l13 + l14 + l15 + s, 3)
                  end do
                 end do
                end do
               end do
              end do
             end do
            end do
           end do
          end do
         end do
        end do
       end do
      end do
     end do
    end do
  end subroutine count15
end module devsub
