! 17 nested loops in a region: one error at the 17th loop, not an internal error in the dependence analysis.
subroutine deep(a, m)
  implicit none
  integer, intent(in) :: m
  real, intent(inout) :: a(m)
  integer :: i0, i1, i2, i3, i4, i5, i6, i7, i8, i9, i10, i11, i12, i13, i14, i15, i16
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
                    do i9 = 1, m
                      do i10 = 1, m
                        do i11 = 1, m
                          do i12 = 1, m
                            do i13 = 1, m
                              do i14 = 1, m
                                do i15 = 1, m
                                  do i16 = 1, m
                                    a(i16) = a(i16) + 1.0
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
    end do
  end do
!$stencil end region
end subroutine deep
