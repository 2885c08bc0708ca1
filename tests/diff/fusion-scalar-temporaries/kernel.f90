! fusion-scalar-temporaries: k loops inside each column that share a scalar.
! Fusing two loops is legal for a scalar both use when each loop assigns it
! before reading it in an iteration (a temporary, like WSM5's `coeres` set
! under IFs in several microphysics loops) and nothing reads the value the
! loops leave behind; it is illegal when that value is read after them
! (`last`, stored in top(i,j)) or at the start of the next iteration of a
! loop around them (`carry`, stored in e(i,n,j)): which loop assigned it last
! would change.
module fst_kernel
  implicit none
  private
  public :: temporaries, r8
  integer, parameter :: r8 = 8

contains

  subroutine temporaries(t, qr, a, b, c, d, f, g, e, top,            &
                         ims,ime, jms,jme, kms,kme,                  &
                         its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme
    integer, intent(in) :: its,ite, jts,jte, kts,kte
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(in)    :: t, qr
    real(r8), dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: a, b, c, d, f, g
    real(r8), dimension(ims:ime, 2, jms:jme), intent(inout)       :: e
    real(r8), dimension(ims:ime, jms:jme), intent(inout)          :: top

    integer :: i, j, k, n
    real(r8) :: tmp, last, carry

!$stencil region
    do j = jts, jte
      do i = its, ite
        do k = kts, kte
          if (qr(i,k,j) > 0.0_r8) then
            tmp = sqrt(qr(i,k,j))
            a(i,k,j) = tmp*t(i,k,j)
          end if
        end do
        do k = kts, kte
          if (t(i,k,j) > 273.0_r8) then
            tmp = t(i,k,j) - 273.0_r8
            b(i,k,j) = tmp*2.0_r8 + qr(i,k,j)
          end if
        end do
        last = -1.0_r8
        do k = kts, kte
          if (qr(i,k,j) > 0.3_r8) then
            last = qr(i,k,j)
            c(i,k,j) = last
          end if
        end do
        do k = kts, kte
          if (t(i,k,j) > 280.0_r8) then
            last = t(i,k,j)
            d(i,k,j) = 0.5_r8*last
          end if
        end do
        top(i,j) = last
        carry = 0.0_r8
        do n = 1, 2
          e(i,n,j) = carry
          do k = kts, kte
            if (qr(i,k,j) > 0.25_r8*n) then
              carry = qr(i,k,j)*n
              f(i,k,j) = f(i,k,j) + carry
            end if
          end do
          do k = kts, kte
            if (t(i,k,j) > 284.0_r8 + n) then
              carry = t(i,k,j)
              g(i,k,j) = g(i,k,j) + carry
            end if
          end do
        end do
      end do
    end do
!$stencil end region
  end subroutine temporaries

end module fst_kernel
