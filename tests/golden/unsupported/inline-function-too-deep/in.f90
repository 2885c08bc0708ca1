! A function whose 16 loops inside the region's loop would nest too deep, and which reads a module variable, so it cannot be a __device__ function either: one error naming both.
module m
  implicit none
  real :: weight
contains
  subroutine outer(n, a)
    integer, intent(in) :: n
    real, intent(inout) :: a(n)
    integer :: i
!$stencil region
    do i = 1, n
      a(i) = a(i) + deep(2)
    end do
!$stencil end region
  end subroutine outer

  real function deep(m)
    integer, intent(in) :: m
    integer :: l1, l2, l3, l4, l5, l6, l7, l8, l9, l10, l11, l12, l13, l14, l15, l16
    deep = 0.0
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
                   do l16 = 1, m
                     deep = deep + weight
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
  end function deep
end module m
