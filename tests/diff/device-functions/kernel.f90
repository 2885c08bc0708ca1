! device-functions: functions a region calls that cannot be inlined become
! __device__ functions.  fib(n) (integer, recursive) and root3(lo, hi, c,
! depth) (a recursive bisection for the root of x + x**3 = c) are called per
! point and per column; nsum(m, s) has 15 nested loops, which inside the
! region's j and i loops would make a nest of 17, deeper than the analyses
! support.  All three take scalars and touch nothing else: one kernel over
! (i,j), k sequential in each thread.
module devfn
  implicit none
  integer, parameter :: depth_max = 24
contains
  subroutine column_roots(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, t, q, tsum, nfib)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: t(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)
    real, intent(out) :: tsum(ims:ime, jms:jme)
    integer, intent(out) :: nfib(ims:ime, jms:jme)
    integer :: i, j, k, m
!$stencil region
    do j = jts, jte
      do i = its, ite
        tsum(i,j) = 0.0
        do k = kts, kte
          q(i,k,j) = root3(-2.0, 2.0, t(i,k,j), depth_max)
          tsum(i,j) = tsum(i,j) + q(i,k,j)
        end do
        m = 1
        if (mod(i + j, 7) == 0) m = 2
        nfib(i,j) = fib(mod(i + 2*j, 15)) + nsum(m, mod(i, 3))
      end do
    end do
!$stencil end region
  end subroutine column_roots

  recursive integer function fib(n) result(f)
    integer, intent(in) :: n
    if (n < 2) then
      f = n
    else
      f = fib(n - 1) + fib(n - 2)
    end if
  end function fib

  recursive real function root3(lo, hi, c, depth) result(x)
    real, intent(in) :: lo, hi, c
    integer, intent(in) :: depth
    real :: mid
    mid = 0.5 * (lo + hi)
    if (depth <= 0) then
      x = mid
    else if (mid + mid * mid * mid > c) then
      x = root3(lo, mid, c, depth - 1)
    else
      x = root3(mid, hi, c, depth - 1)
    end if
  end function root3

  ! The sum of mod(l1 + ... + l15 + s, 3) over l1..l15 in 1..m.
  integer function nsum(m, s)
    integer, intent(in) :: m, s
    integer :: l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15
    nsum = 0
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
                    nsum = nsum + mod(l1 + l2 + l3 + l4 + l5 + l6 + l7 + l8 + l9 + l10 + l11 &
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
  end function nsum
end module devfn
