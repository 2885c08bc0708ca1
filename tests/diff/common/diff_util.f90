! diff_util.f90 -- what the drivers (main.f90) of the tests/diff/ cases share.
!
! A driver is run as `prog OUT.dat`.  It sets up a WRF-style tile with a halo,
! fills its inputs with deterministic noise, calls the kernel under test,
! checks the result on the host (stopping with status 1 when it is wrong, so
! that a broken reference cannot pass) and dumps its outputs with s2s_dump.
! The parts that are the same in every driver live here:
!
!   call get_dump_path(path)            the argument OUT.dat (else: usage, status 2)
!   call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte [, first_i, first_j])
!   call set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
!                    [, first_i, first_j, levels_above])
!   noise(i, k, j), noise_r8(i, k, j)   deterministic noise in [-0.5, 0.5), real / real(8)
!   call check_tolerance(name, what, err, tolerance, why)
!                                       print err; stop 1 unless err <= tolerance
!   call fail(name, why)                print why and stop 1
!
! It is host code only (no !$stencil region): s2s-cuda leaves it as it is.
! Build order: s2s_dump.f90 diff_util.f90 kernel.f90 main.f90.
module diff_util
  use, intrinsic :: iso_fortran_env, only: int64, real32, real64
  implicit none
  private
  public :: get_dump_path, set_tile_2d, set_tile_3d
  public :: noise, noise_r8, check_tolerance, fail

  integer(int64), parameter :: hash_modulus = 1000003_int64   ! a prime

  ! check_tolerance for a real or a real(8) error.
  interface check_tolerance
    module procedure check_tolerance_r4, check_tolerance_r8
  end interface check_tolerance

contains

  ! The one command-line argument, the file to dump the outputs into.
  subroutine get_dump_path(path)
    character(len=*), intent(out) :: path
    if (command_argument_count() /= 1) then
      write(*,'(a)') 'usage: prog OUT.dat'
      stop 2
    end if
    call get_command_argument(1, path)
  end subroutine get_dump_path

  ! A tile of ni x nj points starting at (first_i, first_j) (default (1,1)),
  ! in memory halo points wider on every side.
  subroutine set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte, first_i, first_j)
    integer, intent(in) :: ni, nj, halo
    integer, intent(out) :: ims,ime, jms,jme, its,ite, jts,jte
    integer, intent(in), optional :: first_i, first_j
    its = 1
    jts = 1
    if (present(first_i)) its = first_i
    if (present(first_j)) jts = first_j
    ite = its + ni - 1
    jte = jts + nj - 1
    ims = its - halo
    ime = ite + halo
    jms = jts - halo
    jme = jte + halo
  end subroutine set_tile_2d

  ! set_tile_2d, and nk levels kts = 1 .. kte = nk; memory has no halo in k,
  ! but levels_above (default 0) more levels above kte that the tile never
  ! touches (kms = 1, kme = kte + levels_above).
  subroutine set_tile_3d(ni, nj, nk, halo, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, &
                         first_i, first_j, levels_above)
    integer, intent(in) :: ni, nj, nk, halo
    integer, intent(out) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    integer, intent(in), optional :: first_i, first_j, levels_above
    call set_tile_2d(ni, nj, halo, ims,ime, jms,jme, its,ite, jts,jte, first_i, first_j)
    kts = 1
    kte = nk
    kms = kts
    kme = kte
    if (present(levels_above)) kme = kte + levels_above
  end subroutine set_tile_3d

  ! Deterministic noise in [-0.5, 0.5) from three integers (for two, pass 0
  ! as the third), in default real.
  pure real function noise(i, k, j)
    integer, intent(in) :: i, k, j
    noise = real(hash(i, k, j))/real(hash_modulus) - 0.5
  end function noise

  ! The same noise, in real(8).
  pure real(real64) function noise_r8(i, k, j)
    integer, intent(in) :: i, k, j
    noise_r8 = real(hash(i, k, j), real64)/real(hash_modulus, real64) - 0.5_real64
  end function noise_r8

  ! A hash of (i, k, j) in [0, hash_modulus).
  pure integer(int64) function hash(i, k, j)
    integer, intent(in) :: i, k, j
    hash = modulo(73856093_int64*i + 19349663_int64*k + 83492791_int64*j, hash_modulus)
    hash = modulo(hash*hash + 12345_int64, hash_modulus)
  end function hash

  ! Prints "NAME: WHAT ERR (tolerance TOLERANCE)"; then, unless
  ! ERR <= TOLERANCE (a NaN is not), fail(NAME, WHY).
  subroutine check_tolerance_r8(name, what, err, tolerance, why)
    character(len=*), intent(in) :: name, what, why
    real(real64), intent(in) :: err, tolerance
    write(*,'(4a,es10.3,a,es10.3,a)') name, ': ', what, ' ', err, ' (tolerance ', tolerance, ')'
    if (.not. (err <= tolerance)) call fail(name, why)
  end subroutine check_tolerance_r8

  ! The same for a real error (converted exactly to real(8)).
  subroutine check_tolerance_r4(name, what, err, tolerance, why)
    character(len=*), intent(in) :: name, what, why
    real(real32), intent(in) :: err, tolerance
    call check_tolerance_r8(name, what, real(err, real64), real(tolerance, real64), why)
  end subroutine check_tolerance_r4

  ! Prints "NAME: WHY" and stops with status 1: the case's own check failed.
  subroutine fail(name, why)
    character(len=*), intent(in) :: name, why
    write(*,'(3a)') name, ': ', why
    stop 1
  end subroutine fail

end module diff_util
