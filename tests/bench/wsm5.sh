#!/usr/bin/env bash
# wsm5.sh — the samples/wsm5 benchmark (issue 10, item 4).  Not part of make
# check: it builds the sample seven ways and times them side by side.
#
#   wsm5.sh --build DIR   build everything into DIR (nvcc -arch=sm_90) and
#                         write DIR/run.sh, to carry to a GPU machine that has
#                         no compilers (the Fortran/OpenMP/OpenACC run-time
#                         libraries are copied into DIR/lib); there:
#                         DIR/run.sh [--ncu] [SIZES...]   (SIZES like 400x400)
#   wsm5.sh --emulate     build every variant in a scratch directory (the
#                         translation in emulation) and run all but the
#                         OpenACC ones on a small grid: each builds, runs and
#                         agrees with the original; the figures mean nothing
#                         (WSM5_KEEP=1 keeps the directory)
#
# The programs, all from the sources in samples/wsm5, each variant made from
# them by the edits named here (the sample itself is never modified):
#   ref_o3    the original, gfortran -O3, one core
#   ref_omp   the original with `!$omp parallel do` in place of the region
#             directive (the j loop over all cores), gfortran -O3 -fopenmp
#   s2s_res   the port: make FC=s2s-cuda, the data region around the driver's
#             time loop (the sample as it is)
#   s2s_copy  the port without the driver's data region: data copied each call
#   acc_res   the same loops through GCC's OpenACC offload (-O2 -fopenacc
#             -foffload=nvptx-none -misa=sm_80, PERFORMANCE.md), `!$acc data`
#             around the time loop
#   acc_copy  the same without the data region: copies each call
#   copy_bw   the device copy kernel and pinned copy bandwidths (the floors)
#
# The OpenACC spelling.  One GPU thread per column (i, j), as the 2009 PGI
# port of WSM5 had it: `!$acc parallel loop gang vector collapse(2)` over
# j and i, each thread copies its column into private arrays and calls the
# unchanged wsm52d with its = ite = 1 (`!$acc routine seq` on wsm52d, slfall
# and the vector helpers).  The coefficients wsm5init sets become PARAMETERs
# with the same expressions: GCC 12's `!$acc declare create` with `!$acc
# update device` leaves module variables zero on the device (a 40-line test
# on the H100, 2026-11-24).  GCC's nvptx back end cannot put automatic
# arrays on the stack ("sorry, unimplemented: target cannot support alloca"
# with -fstack-arrays) and otherwise allocates them with device malloc on
# every call; so in this build the work arrays of wsm52d and slfall have a
# fixed column length nkmax = 64 (the loops are untouched; their bounds
# still come from kts:kte).  The program stops if NK > 64.
#
# Environment: S2S (the translator; default build/s2s-cuda), top_builddir
# (default build/), FC (gfortran), CC, CXX, NVCC, NVCC_ARCH (sm_90),
# ACC_FLAGS (default the PERFORMANCE.md flags).
set -euo pipefail

# shellcheck source=bench_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench_common.sh"
FC=${FC:-gfortran}
ACC_FLAGS=${ACC_FLAGS:--O2 -fopenacc -foffload=nvptx-none -foffload-options=nvptx-none=-misa=sm_80 -fcf-protection=none -foffload-options=-lgfortran -foffload-options=-lm}
sample=$top_srcdir/samples/wsm5

# ---- the variants' sources --------------------------------------------------

# copy_sources DIR: the sample's sources and Makefile, and the dump routine.
copy_sources() {
  mkdir -p "$1"
  cp "$sample"/*.f90 "$sample/Makefile" "$top_srcdir/samples/common/s2s_dump.f90" "$1/"
}

# The OpenMP variant: the region directives become a parallel do over j.
make_openmp() {
  sed -i -e 's/^!\$stencil region$/!$omp parallel do private(i, k, t, pii, qci, qrs)/' \
         -e 's/^!\$stencil end region$/!$omp end parallel do/' "$1/wsm5.f90"
  grep -q '^!\$omp parallel do' "$1/wsm5.f90" || { echo "wsm5.sh: no region directive found" >&2; exit 1; }
}

# No data region in the driver: each call moves its data.
drop_data_region() {
  sed -i -e '/^!\$stencil data /d' -e '/^!\$stencil end data$/d' "$1/main.f90"
}

# The OpenACC variant (see the header).
make_openacc() {
  local d=$1 coeffs
  # the coefficients wsm5init sets become PARAMETERs with the same expressions
  # (GCC 12: `!$acc declare create` + `!$acc update device` of module
  # variables leaves them zero on the device, checked on an H100)
  coeffs=$(awk '/^  subroutine wsm5init/ { on = 1; next } /^  end subroutine wsm5init/ { on = 0 }
                on && /^  [a-z0-9_]+ = / { sub(/^  /, ""); print }' "$d/wsm5.f90")
  [ -n "$coeffs" ] || { echo "wsm5.sh: no assignments in wsm5init" >&2; exit 1; }
  awk -v list="$coeffs" '
    /^ *real\(kind_phys\), save :: / { next }
    /^end module/ { n = split(list, l, "\n"); for (i = 1; i <= n; i++) print "  real(kind_phys), parameter :: " l[i] }
    { print }' "$d/constants.f90" >"$d/c.tmp" && mv "$d/c.tmp" "$d/constants.f90"
  # the vector helpers: device routines
  sed -i 's/^  implicit none$/  implicit none\n!$acc routine seq/' "$d/vmass.f90"
  # wsm5.f90: the region becomes the column loop; device routines; fixed
  # column length of the work arrays; the coefficients sent after init
  awk '
    function column_routine() {
      print "!-------------------------------------------------------------------------------"
      print "! OpenACC build: one column (i, j) of wsm5, in private column arrays"
      print "  subroutine wsm5col(th, q, qc, qr, qi, qs, den, p, delz, delt,              &"
      print "                     rain, rainncv, sr, i, j, ims, ime, jms, jme, kms, kme,  &"
      print "                     kts, kte, snow, snowncv)"
      print "  implicit none"
      print "!$acc routine seq"
      print "  integer, intent(in) :: i, j, ims, ime, jms, jme, kms, kme, kts, kte"
      print "  real(kind_phys), dimension(ims:ime, kms:kme, jms:jme), intent(inout) ::     &"
      print "                   th, q, qc, qr, qi, qs"
      print "  real(kind_phys), dimension(ims:ime, kms:kme, jms:jme), intent(in) ::        &"
      print "                   den, p, delz"
      print "  real(kind_phys), intent(in) :: delt"
      print "  real(kind_phys), dimension(ims:ime, jms:jme), intent(inout) :: rain, rainncv, sr"
      print "  real(kind_phys), dimension(ims:ime, jms:jme), optional, intent(inout) ::    &"
      print "                   snow, snowncv"
      print "  real(kind_phys), dimension(1, nkmax) :: t, pii, qv, denc, pc, delzc"
      print "  real(kind_phys), dimension(1, nkmax, 2) :: qci, qrs"
      print "  real(kind_phys), dimension(1, 1) :: snowc, snowncvc"
      print "  real(kind_phys), dimension(1) :: rainc, rainncvc, src"
      print "  integer :: k, kk, nk"
      print "  nk = kte - kts + 1"
      print "  do k = kts, kte"
      print "    kk = k - kts + 1"
      print "    pii(1,kk) = (p(i,k,j)/p0)**rcp"
      print "    t(1,kk) = th(i,k,j)*pii(1,kk)"
      print "    qci(1,kk,1) = qc(i,k,j)"
      print "    qci(1,kk,2) = qi(i,k,j)"
      print "    qrs(1,kk,1) = qr(i,k,j)"
      print "    qrs(1,kk,2) = qs(i,k,j)"
      print "    qv(1,kk) = q(i,k,j)"
      print "    denc(1,kk) = den(i,k,j)"
      print "    pc(1,kk) = p(i,k,j)"
      print "    delzc(1,kk) = delz(i,k,j)"
      print "  enddo"
      print "  rainc(1) = rain(i,j)"
      print "  rainncvc(1) = rainncv(i,j)"
      print "  src(1) = sr(i,j)"
      print "  if (present(snow) .and. present(snowncv)) then"
      print "    snowc(1,1) = snow(i,j)"
      print "    snowncvc(1,1) = snowncv(i,j)"
      print "    call wsm52d(t, qv, qci, qrs, denc, pc, delzc, delt, 1,                 &"
      print "                rainc, rainncvc, src, 1, 1, 1, 1, 1, nkmax, 1, 1, 1, nk,   &"
      print "                snowc, snowncvc)"
      print "    snow(i,j) = snowc(1,1)"
      print "    snowncv(i,j) = snowncvc(1,1)"
      print "  else"
      print "    call wsm52d(t, qv, qci, qrs, denc, pc, delzc, delt, 1,                 &"
      print "                rainc, rainncvc, src, 1, 1, 1, 1, 1, nkmax, 1, 1, 1, nk)"
      print "  endif"
      print "  do k = kts, kte"
      print "    kk = k - kts + 1"
      print "    th(i,k,j) = t(1,kk)/pii(1,kk)"
      print "    q(i,k,j) = qv(1,kk)"
      print "    qc(i,k,j) = qci(1,kk,1)"
      print "    qi(i,k,j) = qci(1,kk,2)"
      print "    qr(i,k,j) = qrs(1,kk,1)"
      print "    qs(i,k,j) = qrs(1,kk,2)"
      print "  enddo"
      print "  rain(i,j) = rainc(1)"
      print "  rainncv(i,j) = rainncvc(1)"
      print "  sr(i,j) = src(1)"
      print "  end subroutine wsm5col"
      print ""
    }
    /^  integer, parameter :: nsliter/ {
      print; print "  integer, parameter :: nkmax = 64   ! OpenACC build: column length of the work arrays"; next }
    /^!\$stencil region$/ {
      skipping = 1
      print "  if (kte - kts + 1 > nkmax) then"
      print "    write(*,\"(a)\") \"wsm5 (OpenACC build): more levels than nkmax\""
      print "    stop 1"
      print "  endif"
      print "!$acc parallel loop gang vector collapse(2)                                   &"
      print "!$acc copy(th, q, qc, qr, qi, qs, rain, rainncv, sr, snow, snowncv)           &"
      print "!$acc copyin(den, p, delz)"
      print "  do j = jts, jte"
      print "    do i = its, ite"
      print "      call wsm5col(th, q, qc, qr, qi, qs, den, p, delz, delt,                 &"
      print "                   rain, rainncv, sr, i, j, ims, ime, jms, jme, kms, kme,     &"
      print "                   kts, kte, snow, snowncv)"
      print "    enddo"
      print "  enddo"
      regions++
      next
    }
    /^!\$stencil end region$/ { skipping = 0; next }
    skipping { next }
    /^  subroutine wsm52d\(/ { column_routine(); routine = "wsm52d" }
    /^  subroutine slfall\(/ { routine = "slfall" }
    /^  subroutine wsm5init/ { routine = "wsm5init" }
    /^  implicit none$/ && (routine == "wsm52d" || routine == "slfall") {
      print
      print "!$acc routine seq"
      if (routine == "wsm52d") print "  external :: vsrec, vssqrt, vsexp, vslog\n!$acc routine(vsrec) seq\n!$acc routine(vssqrt) seq\n!$acc routine(vsexp) seq\n!$acc routine(vslog) seq"
      next
    }
    routine == "wsm52d" && /dimension\(/ { gsub(/its:ite/, "1:1"); gsub(/kts:kte/, "1:nkmax") }
    routine == "slfall" && /:: zi\(km\+1\)/ { gsub(/km\+1/, "nkmax+1"); gsub(/\(km\)/, "(nkmax)") }
    routine == "wsm5init" && /^  [a-z0-9_]+ = / { next }
    /^  end subroutine/ { routine = "" }
    { print }
    END { if (regions != 1) { print "wsm5.sh: expected one region in wsm5.f90" > "/dev/stderr"; exit 1 } }
  ' "$d/wsm5.f90" >"$d/w.tmp" && mv "$d/w.tmp" "$d/wsm5.f90"
  sed -i -e 's/^!\$stencil data /!$acc data /' -e 's/^!\$stencil end data$/!$acc end data/' "$d/main.f90"
}

# build_variant NAME DIR MAKE-ARGS...: make in DIR, the program named NAME.
build_variant() {
  local name=$1 d=$2
  shift 2
  (cd "$d" && make -B "$@" COMMON=. PROG="$name" >build.log 2>&1) ||
    { echo "wsm5.sh: building $name failed:" >&2; tail -30 "$d/build.log" >&2; exit 1; }
}

# build_all OUT EMULATE: every variant into OUT/src/NAME, the programs in OUT.
build_all() {
  local out=$1 emulate=$2 v
  for v in ref_o3 ref_omp s2s_res s2s_copy acc_res acc_copy; do
    rm -rf "$out/src/$v"
    copy_sources "$out/src/$v"
  done
  build_variant ref_o3 "$out/src/ref_o3" FC="$FC" FCFLAGS=-O3
  make_openmp "$out/src/ref_omp"
  build_variant ref_omp "$out/src/ref_omp" FC="$FC" FCFLAGS="-O3 -fopenmp"
  drop_data_region "$out/src/s2s_copy"
  for v in s2s_res s2s_copy; do
    build_variant "$v" "$out/src/$v" FC="$S2S" FCFLAGS="-O2 -Minfo${emulate:+ --emulate}"
  done
  cp "$out/src/s2s_res/build.log" "$out/feedback.txt"
  drop_data_region "$out/src/acc_copy"
  for v in acc_res acc_copy; do
    make_openacc "$out/src/$v"
    build_variant "$v" "$out/src/$v" FC="$FC" FCFLAGS="$ACC_FLAGS"
  done
  for v in ref_o3 ref_omp s2s_res s2s_copy acc_res acc_copy; do
    cp "$out/src/$v/$v" "$out/"
  done
  cp "$top_builddir/tests/s2s_compare" "$out/" 2>/dev/null ||
    "$CC" -O2 -o "$out/s2s_compare" "$top_srcdir/tests/s2s_compare.c" -lm
}

case $mode in
  build)
    command -v "$NVCC" >/dev/null || { echo "wsm5.sh: no nvcc" >&2; exit 2; }
    mkdir -p "$dir/lib"
    dir=$(cd "$dir" && pwd)
    build_all "$dir" ""
    "$NVCC" -O2 -arch="$NVCC_ARCH" "$here/copy_bw.cu" -o "$dir/copy_bw"
    strip "$dir"/ref_o3 "$dir"/ref_omp "$dir"/s2s_res "$dir"/s2s_copy "$dir"/acc_res "$dir"/acc_copy 2>/dev/null || true
    for lib in libgfortran.so.5 libquadmath.so.0 libgomp.so.1 libgomp-plugin-nvptx.so.1 libgcc_s.so.1 libstdc++.so.6; do
      p=$("$FC" -print-file-name="$lib")
      [ -f "$p" ] && cp -L "$p" "$dir/lib/"
    done
    rm -rf "$dir/src"
    cp "$here/wsm5_run.sh" "$dir/run.sh"
    chmod +x "$dir/run.sh"
    echo "wsm5: built into $dir; on the GPU machine run $dir/run.sh"
    ;;
  emulate)
    work=$(mktemp -d "${TMPDIR:-/tmp}/wsm5bench.XXXXXX")
    [ -n "${WSM5_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
    build_all "$work" --emulate
    cd "$work"
    # the OpenACC builds need a GPU to run
    WSM5_DIR=$work WSM5_PROGRAMS="ref_o3 ref_omp s2s_res s2s_copy" OUT= bash "$here/wsm5_run.sh" 40x30x20x3
    ;;
esac
