! partial-writes: regions that write an array they never read, but not
! every element of the box their loops span.  Inferring copyout for them
! would copy the unwritten elements back from uninitialised device memory
! over the host's values; the translator must use copy and say why.  One
! region per shape: a level loop of step 2, an i loop of step 2, a j loop
! of step -2, a triangular i loop, a triangular k loop, an EXIT and a
! CYCLE before the write, an upper bound read from an array, and a write
! under an IF.  The last region writes every element: copyout is right.
module partial_kernel
  implicit none
  private
  public :: every_other_level, every_other_point, every_other_row_down, triangle_i, &
            triangle_k, stop_at_negative, skip_negative, up_to_top, where_positive, whole_tile

contains

  subroutine every_other_level(a, b, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(in) :: b(ims:ime, kms:kme)
    real, intent(inout) :: a(ims:ime, kms:kme)
    integer :: i, k
!$stencil region
    do k = kts, kte, 2
      do i = its, ite
        a(i,k) = 2.0*b(i,k)
      end do
    end do
!$stencil end region
  end subroutine every_other_level

  subroutine every_other_point(a, b, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(in) :: b(ims:ime, kms:kme)
    real, intent(inout) :: a(ims:ime, kms:kme)
    integer :: i, k
!$stencil region
    do k = kts, kte
      do i = its, ite, 2
        a(i,k) = b(i,k) + 1.0
      end do
    end do
!$stencil end region
  end subroutine every_other_point

  subroutine every_other_row_down(a, b, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: b(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: a(ims:ime, kms:kme, jms:jme)
    integer :: i, k, j
!$stencil region
    do j = jte, jts, -2
      do k = kts, kte
        do i = its, ite
          a(i,k,j) = b(i,k,j) - 1.0
        end do
      end do
    end do
!$stencil end region
  end subroutine every_other_row_down

  subroutine triangle_i(a, b, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(in) :: b(ims:ime, kms:kme)
    real, intent(inout) :: a(ims:ime, kms:kme)
    integer :: i, k
!$stencil region
    do k = kts, kte
      do i = its, ite - k + kts
        a(i,k) = 3.0*b(i,k)
      end do
    end do
!$stencil end region
  end subroutine triangle_i

  subroutine triangle_k(a, b, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: b(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: a(ims:ime, kms:kme, jms:jme)
    integer :: i, k, j
!$stencil region
    do j = jts, jte
      do k = kts, min(kte, kts + j - jts)
        do i = its, ite
          a(i,k,j) = b(i,k,j)*b(i,k,j)
        end do
      end do
    end do
!$stencil end region
  end subroutine triangle_k

  subroutine stop_at_negative(a, b, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(in) :: b(ims:ime, kms:kme)
    real, intent(inout) :: a(ims:ime, kms:kme)
    integer :: i, k
!$stencil region
    do i = its, ite
      do k = kts, kte
        if (b(i,k) < -0.3) exit
        a(i,k) = b(i,k) + 10.0
      end do
    end do
!$stencil end region
  end subroutine stop_at_negative

  subroutine skip_negative(a, b, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(in) :: b(ims:ime, kms:kme)
    real, intent(inout) :: a(ims:ime, kms:kme)
    integer :: i, k
!$stencil region
    do k = kts, kte
      do i = its, ite
        if (b(i,k) < 0.0) then
          cycle
        end if
        a(i,k) = b(i,k) + 20.0
      end do
    end do
!$stencil end region
  end subroutine skip_negative

  subroutine up_to_top(a, b, ktop, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(in) :: b(ims:ime, kms:kme)
    integer, intent(in) :: ktop(ims:ime)
    real, intent(inout) :: a(ims:ime, kms:kme)
    integer :: i, k
!$stencil region
    do i = its, ite
      do k = kts, ktop(i)
        a(i,k) = b(i,k) + 30.0
      end do
    end do
!$stencil end region
  end subroutine up_to_top

  subroutine where_positive(a, b, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(in) :: b(ims:ime, kms:kme)
    real, intent(inout) :: a(ims:ime, kms:kme)
    integer :: i, k
!$stencil region
    do k = kts, kte
      do i = its, ite
        if (b(i,k) > 0.0) a(i,k) = b(i,k) + 40.0
      end do
    end do
!$stencil end region
  end subroutine where_positive

  subroutine whole_tile(a, b, ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte)
    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte
    real, intent(in) :: b(ims:ime, kms:kme, jms:jme)
    real, intent(inout) :: a(ims:ime, kms:kme, jms:jme)
    integer :: i, k, j
!$stencil region
    do j = jte, jts, -1
      do k = kts, kte
        do i = its, ite
          a(i,k,j) = b(i,k,j) + 50.0
        end do
      end do
    end do
!$stencil end region
  end subroutine whole_tile

end module partial_kernel
