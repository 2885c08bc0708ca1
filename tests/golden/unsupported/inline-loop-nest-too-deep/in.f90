! 9 loops around a call of a routine with 9 loops: inlining makes a nest of 18, one error at the 17th loop.
module m
  implicit none
contains
  subroutine outer(a, m)
    integer, intent(in) :: m
    real, intent(inout) :: a(m)
    integer :: i0, i1, i2, i3, i4, i5, i6, i7, i8
!$stencil region
    do i0 = 1, m
      do i1 = 1, m
        do i2 = 1, m
          do i3 = 1, m
            do i4 = 1, m
              do i5 = 1, m
                do i6 = 1, m
                  do i7 = 1, m
                    do i8 = 1, m
                      call inner(a, m)
                    end do
                  end do
                end do
              end do
            end do
          end do
        end do
      end do
    end do
!$stencil end region
  end subroutine outer

  subroutine inner(a, m)
    integer, intent(in) :: m
    real, intent(inout) :: a(m)
    integer :: i0, i1, i2, i3, i4, i5, i6, i7, i8
    do i0 = 1, m
      do i1 = 1, m
        do i2 = 1, m
          do i3 = 1, m
            do i4 = 1, m
              do i5 = 1, m
                do i6 = 1, m
                  do i7 = 1, m
                    do i8 = 1, m
                      a(i8) = a(i8) + 1.0
                    end do
                  end do
                end do
              end do
            end do
          end do
        end do
      end do
    end do
  end subroutine inner
end module m
