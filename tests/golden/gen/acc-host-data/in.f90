! OpenACC's host_data use_device(q) if_present with an MPI call inside, after enter data: the
! report says the clauses are honoured; if_present gives the runtime call its flag.
subroutine send_column(q, n, dest)
  use mpi
  implicit none
  integer, intent(in) :: n, dest
  real, intent(inout) :: q(n)
  integer :: ierr
!$acc enter data copyin(q)
!$acc host_data use_device(q) if_present
  call MPI_Send(q, n, MPI_REAL, dest, 0, MPI_COMM_WORLD, ierr)
!$acc end host_data
!$acc exit data delete(q)
end subroutine send_column
