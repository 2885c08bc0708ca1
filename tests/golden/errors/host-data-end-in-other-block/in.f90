! end host_data inside an IF block whose host_data is outside it: the BLOCK and ASSOCIATE the
! construct becomes must nest with the IF.
subroutine s(a, n, flag)
  implicit none
  integer, intent(in) :: n
  logical, intent(in) :: flag
  real, intent(inout) :: a(n)
  external :: use_it
!$stencil data copy(a)
!$stencil host_data use_device(a)
  if (flag) then
    call use_it(a, n)
!$stencil end host_data
  end if
!$stencil end data
end subroutine s
