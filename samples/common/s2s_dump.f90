! s2s_dump.f90 -- write a program's output arrays to one file, for comparison.
!
! The Fortran twin of s2s_dump.c: the original program and its translation
! write the same dump, and tests/s2s_compare checks them element by element.
!
! File format: no file header; a sequence of records, one per array:
!
!   offset  size  field
!        0    32  name, ASCII, padded with blanks
!       32     4  int32 type code: 1 real(4), 2 real(8), 3 integer(4)
!       36     8  int64 element count n
!       44     *  the n elements, raw, in memory (column-major) order
!
! written with access='stream', form='unformatted' (no record markers), in
! the machine's byte order.
!
! Usage:
!   call s2s_dump_open(path)
!   call s2s_dump_array('t', t)         ! generic: real(4)/real(8)/integer, rank 1 to 3
!   call s2s_dump_f32('t', t, size(t))  ! any rank, by sequence association
!   call s2s_dump_close()
! Sections work too, e.g. call s2s_dump_array('tend', tend(its:ite,kts:kte,jts:jte)):
! the compiler passes a contiguous copy.  (The generic cannot be named
! s2s_dump: that is the module's name.)  I/O errors stop the program.
module s2s_dump
  use, intrinsic :: iso_fortran_env, only: int32, int64, real32, real64, error_unit
  implicit none
  private
  public :: s2s_dump_open, s2s_dump_close, s2s_dump_array
  public :: s2s_dump_f32, s2s_dump_f64, s2s_dump_i32

  integer, parameter :: name_len = 32
  integer(int32), parameter :: code_real4 = 1, code_real8 = 2, code_int32 = 3
  integer, save :: dump_unit = 0           ! from open(newunit=): a negative number
  logical, save :: dump_is_open = .false.

  interface s2s_dump_array
    module procedure dump_f32_1, dump_f32_2, dump_f32_3
    module procedure dump_f64_1, dump_f64_2, dump_f64_3
    module procedure dump_i32_1, dump_i32_2, dump_i32_3
  end interface s2s_dump_array

contains

  subroutine s2s_dump_open(path)
    character(len=*), intent(in) :: path
    integer :: ios
    open(newunit=dump_unit, file=path, access='stream', form='unformatted', &
         status='replace', action='write', iostat=ios)
    if (ios /= 0) call dump_fail('cannot open ' // trim(path), ios)
    dump_is_open = .true.
  end subroutine s2s_dump_open

  subroutine s2s_dump_close()
    integer :: ios
    if (.not. dump_is_open) call dump_fail('close before s2s_dump_open', 0)
    close(dump_unit, iostat=ios)
    if (ios /= 0) call dump_fail('close failed', ios)
    dump_is_open = .false.
  end subroutine s2s_dump_close

  ! ---- specific writers: any rank, the caller gives the element count ----

  subroutine s2s_dump_f32(name, a, n)
    character(len=*), intent(in) :: name
    real(real32), intent(in) :: a(*)
    integer, intent(in) :: n
    integer :: ios
    call write_header(name, code_real4, n)
    write(dump_unit, iostat=ios) a(1:n)
    if (ios /= 0) call dump_fail('write of ' // trim(name) // ' failed', ios)
  end subroutine s2s_dump_f32

  subroutine s2s_dump_f64(name, a, n)
    character(len=*), intent(in) :: name
    real(real64), intent(in) :: a(*)
    integer, intent(in) :: n
    integer :: ios
    call write_header(name, code_real8, n)
    write(dump_unit, iostat=ios) a(1:n)
    if (ios /= 0) call dump_fail('write of ' // trim(name) // ' failed', ios)
  end subroutine s2s_dump_f64

  subroutine s2s_dump_i32(name, a, n)
    character(len=*), intent(in) :: name
    integer(int32), intent(in) :: a(*)
    integer, intent(in) :: n
    integer :: ios
    call write_header(name, code_int32, n)
    write(dump_unit, iostat=ios) a(1:n)
    if (ios /= 0) call dump_fail('write of ' // trim(name) // ' failed', ios)
  end subroutine s2s_dump_i32

  ! ---- the generic s2s_dump_array: pass the array, the count is its size ----

  subroutine dump_f32_1(name, a)
    character(len=*), intent(in) :: name
    real(real32), intent(in) :: a(:)
    call s2s_dump_f32(name, a, size(a))
  end subroutine dump_f32_1

  subroutine dump_f32_2(name, a)
    character(len=*), intent(in) :: name
    real(real32), intent(in) :: a(:,:)
    call s2s_dump_f32(name, a, size(a))
  end subroutine dump_f32_2

  subroutine dump_f32_3(name, a)
    character(len=*), intent(in) :: name
    real(real32), intent(in) :: a(:,:,:)
    call s2s_dump_f32(name, a, size(a))
  end subroutine dump_f32_3

  subroutine dump_f64_1(name, a)
    character(len=*), intent(in) :: name
    real(real64), intent(in) :: a(:)
    call s2s_dump_f64(name, a, size(a))
  end subroutine dump_f64_1

  subroutine dump_f64_2(name, a)
    character(len=*), intent(in) :: name
    real(real64), intent(in) :: a(:,:)
    call s2s_dump_f64(name, a, size(a))
  end subroutine dump_f64_2

  subroutine dump_f64_3(name, a)
    character(len=*), intent(in) :: name
    real(real64), intent(in) :: a(:,:,:)
    call s2s_dump_f64(name, a, size(a))
  end subroutine dump_f64_3

  subroutine dump_i32_1(name, a)
    character(len=*), intent(in) :: name
    integer(int32), intent(in) :: a(:)
    call s2s_dump_i32(name, a, size(a))
  end subroutine dump_i32_1

  subroutine dump_i32_2(name, a)
    character(len=*), intent(in) :: name
    integer(int32), intent(in) :: a(:,:)
    call s2s_dump_i32(name, a, size(a))
  end subroutine dump_i32_2

  subroutine dump_i32_3(name, a)
    character(len=*), intent(in) :: name
    integer(int32), intent(in) :: a(:,:,:)
    call s2s_dump_i32(name, a, size(a))
  end subroutine dump_i32_3

  ! ---- helpers ----

  subroutine write_header(name, code, n)
    character(len=*), intent(in) :: name
    integer(int32), intent(in) :: code
    integer, intent(in) :: n
    character(len=name_len) :: padded
    integer :: ios
    if (.not. dump_is_open) call dump_fail('write of ' // trim(name) // ' before s2s_dump_open', 0)
    if (len_trim(name) > name_len .or. n < 0) &
      call dump_fail('bad name or count for ' // trim(name), 0)
    padded = name                      ! assignment pads with blanks
    write(dump_unit, iostat=ios) padded, code, int(n, int64)
    if (ios /= 0) call dump_fail('write of ' // trim(name) // ' failed', ios)
  end subroutine write_header

  subroutine dump_fail(what, ios)
    character(len=*), intent(in) :: what
    integer, intent(in) :: ios
    write(error_unit, '(a,a,a,i0,a)') 's2s_dump: ', what, ' (iostat ', ios, ')'
    error stop 1
  end subroutine dump_fail

end module s2s_dump
