#!/usr/bin/env bash
# kernels.sh — the kernel benchmark (issue "kernel performance").  Not part
# of make check: it builds four weather kernels through s2s-cuda and through
# GCC's OpenACC and times their kernels with the data resident on the device,
# against the memory floor (compulsory bytes / the copy kernel's bandwidth,
# measured in the same run) and against each other.
#
#   kernels.sh --build DIR   build everything into DIR (nvcc -arch=sm_90,
#                            s2s-cuda in compiler-driver mode, gfortran
#                            -fopenacc -foffload=nvptx-none) and write
#                            DIR/run.sh, to carry to a GPU machine that has no
#                            Fortran compiler (the run-time libraries go to
#                            DIR/lib); there:
#                            DIR/run.sh [--ncu] [--no-wsm5] [CASE[:NIxNJxNK[xCALLS]] ...]
#   kernels.sh --emulate     build the s2s-cuda variants in emulation and the
#                            OpenACC ones for the host, run every case at a
#                            small size: each variant agrees with the one-core
#                            build of its loops; the figures mean nothing
#                            (KERNELS_KEEP=1 keeps the scratch directory)
#
# The cases (sources in tests/bench/kernels/ unless named):
#   laplace  7-point Laplacian, one Jacobi step, COSMO-style u(i,j,k), real(8),
#            512 x 512 x 256 (laplace.f90)
#   hdiff    COSMO's 4th-order horizontal diffusion with a flux limiter, the
#            shape of tests/diff/stencil-program-hdiff: a k loop around four
#            (j, i) nests, automatic work arrays lap, flx, fly; WRF-style
#            (i,k,j) fields with a halo of 2, real(4), 512 x 512 x 80
#            (hdiff.f90)
#   thomas   a tridiagonal (Thomas) solve per column, samples/thomas/thomas.f90
#            as it is (k outermost, WRF-style (i,k,j), real(4)), 512 x 512 x
#            64 levels (63 solved)
#   wsm5     tests/bench/wsm5.sh, built into DIR/wsm5 and run by run.sh at
#            400x400x40 (its own table; samples/wsm5/README.md)
#
# Each case's driver (CASE_main.f90, the same source for every variant) sets
# up the fields, calls the one-core build of the kernel once as the
# reference, then calls the variant once (warm-up) and CALLS times (20)
# inside a data region (`!$stencil data` for s2s-cuda, `!$acc data` for GCC:
# the driver carries both), waits for the device (`update host` of one
# element), prints the wall time per call and compares every output array,
# whole, with the reference (max relative error; it stops with status 1 above
# the tolerance: 1e-12 for real(8), 1e-5 (hdiff) and 1e-4 (thomas: a
# recurrence over the column) for real(4), the GPU's FMA against none).
#
# The programs, per case, in DIR:
#   CASE_s2s  the kernel source through s2s-cuda -O2 (NVCCFLAGS=-arch=sm_90),
#             the driver through s2s-cuda too
#   CASE_acc  CASE_acc.f90 (the OpenACC spelling, see each file's header)
#             with $ACC_FLAGS, the driver with the same flags
#   both link CASE_cpu.o: the s2s-cuda kernel source with its module and
#   routine renamed (..._cpu) and the directives dropped, gfortran -O3, the
#   one-core reference.
# The OpenACC spelling, as a user writes it (each file's header says more):
#   laplace  `!$acc parallel loop gang vector collapse(3)` on the k/j/i nest
#   hdiff    the k loop distributed over the four nests by hand (an OpenACC
#            parallel loop cannot run them as they stand; s2s-cuda does the
#            distribution itself), `parallel loop gang vector collapse(3)` on
#            each, `!$acc data create(lap, flx, fly)` around them
#   thomas   one column loop: `parallel loop gang vector collapse(2)
#            private(m)` over (j, i), the k loops inside it
#
# Environment: S2S (the translator; default build/s2s-cuda), top_builddir
# (default build/), FC (gfortran), CC, CXX, NVCC, NVCC_ARCH (sm_90),
# NVCCFLAGS (default -arch=$NVCC_ARCH), ACC_FLAGS (default the PERFORMANCE.md
# flags, as wsm5.sh), KERNELS_WSM5=0 (--build: leave wsm5 out),
# KERNELS_EMU_SIZES (--emulate: the cases and sizes run.sh gets).
set -euo pipefail

# shellcheck source=bench_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench_common.sh"
FC=${FC:-gfortran}
ACC_FLAGS=${ACC_FLAGS:--O2 -fopenacc -foffload=nvptx-none -foffload-options=nvptx-none=-misa=sm_80 -fcf-protection=none -foffload-options=-lgfortran -foffload-options=-lm}
NVCCFLAGS=${NVCCFLAGS:--arch=$NVCC_ARCH}
export NVCCFLAGS
src=$here/kernels
cases="laplace hdiff thomas"

# case_info CASE: sets kernel (the s2s-cuda source), module and routine
# (what the driver USEs), acc (the OpenACC source).
case_info() {
  acc=$src/$1_acc.f90
  case $1 in
    laplace) kernel=$src/laplace.f90 module=laplace_kernel routine=laplace ;;
    hdiff) kernel=$src/hdiff.f90 module=hdiff_kernel routine=hdiff ;;
    thomas) kernel=$top_srcdir/samples/thomas/thomas.f90 module=module_thomas routine=thomas_solve ;;
    *) echo "kernels.sh: unknown case $1" >&2; exit 2 ;;
  esac
}

# run_logged LOG CMD...: run CMD with its output in LOG; on failure show it.
run_logged() {
  local log=$1
  shift
  "$@" >>"$log" 2>&1 || { echo "kernels.sh: failed: $*" >&2; tail -30 "$log" >&2; exit 1; }
}

# build_case CASE OUT EMULATE: OUT/CASE_s2s and OUT/CASE_acc, sources and
# objects under OUT/src/CASE, the translation's report in OUT/feedback-CASE.txt.
build_case() {
  local c=$1 out=$2 emulate=$3 d
  case_info "$c"
  d=$out/src/$c
  rm -rf "$d"
  mkdir -p "$d/s2s" "$d/acc" "$d/cpu"
  # the one-core reference: the same loops, module and routine renamed
  sed -e '/^ *!\$stencil/d' -e "s/\\b$module\\b/${module}_cpu/g" -e "s/\\b$routine\\b/${routine}_cpu/g" \
    "$kernel" >"$d/cpu/${c}_cpu.f90"
  (cd "$d/cpu" && run_logged build.log "$FC" -O3 -I"$out/src/common" -c "${c}_cpu.f90")
  # s2s-cuda
  cp "$kernel" "$d/s2s/$c.f90"
  cp "$src/${c}_main.f90" "$d/s2s/"
  (cd "$d/s2s" &&
    run_logged build.log "$S2S" -O2 -Minfo ${emulate:+--emulate} -I"$out/src/common" -I"$d/cpu" -c "$c.f90" -o "$c.o" &&
    run_logged build.log "$S2S" -O2 -Minfo ${emulate:+--emulate} -I"$out/src/common" -I"$d/cpu" -c "${c}_main.f90" -o main.o &&
    run_logged build.log "$S2S" ${emulate:+--emulate} main.o "$c.o" "$d/cpu/${c}_cpu.o" "$out/src/common/bench_util.o" -o "$out/${c}_s2s")
  cp "$d/s2s/build.log" "$out/feedback-$c.txt"
  # GCC OpenACC
  cp "$acc" "$src/${c}_main.f90" "$d/acc/"
  # shellcheck disable=SC2086
  (cd "$d/acc" &&
    run_logged build.log "$FC" $ACC_FLAGS -I"$out/src/common" -I"$d/cpu" -c "${c}_acc.f90" &&
    run_logged build.log "$FC" $ACC_FLAGS -I"$out/src/common" -I"$d/cpu" -c "${c}_main.f90" &&
    run_logged build.log "$FC" $ACC_FLAGS "${c}_main.o" "${c}_acc.o" "$d/cpu/${c}_cpu.o" \
      "$out/src/common/bench_util.o" -o "$out/${c}_acc")
}

build_all() {
  local out=$1 emulate=$2 c
  mkdir -p "$out/src/common"
  (cd "$out/src/common" && run_logged build.log "$FC" -O3 -c "$src/bench_util.f90")
  for c in $cases; do
    echo "kernels.sh: building $c"
    build_case "$c" "$out" "$emulate"
  done
}

case $mode in
  build)
    command -v "$NVCC" >/dev/null || { echo "kernels.sh: no nvcc" >&2; exit 2; }
    mkdir -p "$dir/lib"
    dir=$(cd "$dir" && pwd)
    build_all "$dir" ""
    "$NVCC" -O2 -arch="$NVCC_ARCH" "$here/copy_bw.cu" -o "$dir/copy_bw"
    for c in $cases; do strip "$dir/${c}_s2s" "$dir/${c}_acc"; done
    strip "$dir/copy_bw"
    # what the OpenACC and s2s-cuda programs load that a machine without
    # gfortran lacks (ldd), and libgomp's nvptx plugin (dlopened)
    for lib in libgfortran.so.5 libquadmath.so.0 libgomp.so.1 libgomp-plugin-nvptx.so.1 libgcc_s.so.1 libstdc++.so.6; do
      p=$("$FC" -print-file-name="$lib")
      [ -f "$p" ] && cp -L "$p" "$dir/lib/"
    done
    rm -rf "$dir/src"
    cp "$here/kernels_run.sh" "$dir/run.sh"
    chmod +x "$dir/run.sh"
    if [ "${KERNELS_WSM5:-1}" != 0 ]; then
      echo "kernels.sh: building wsm5 (tests/bench/wsm5.sh --build $dir/wsm5)"
      bash "$here/wsm5.sh" --build "$dir/wsm5" >/dev/null
    fi
    echo "kernels: built into $dir ($(du -sh "$dir" | cut -f1)); on the GPU machine run $dir/run.sh"
    ;;
  emulate)
    work=$(mktemp -d "${TMPDIR:-/tmp}/kernels.XXXXXX")
    [ -n "${KERNELS_KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
    build_all "$work" --emulate
    # the OpenACC builds run on the host here (libgomp's host fallback)
    sizes=${KERNELS_EMU_SIZES:-laplace:40x36x20x2 hdiff:37x29x6x2 thomas:33x27x12x2}
    # shellcheck disable=SC2086
    ACC_DEVICE_TYPE=host KERNELS_DIR=$work OUT=$work bash "$here/kernels_run.sh" --no-wsm5 $sizes
    # the emulated threads in other orders: a result that changes with the
    # order would mean a loop run in parallel that must not be
    for s in $sizes; do
      c=${s%%:*}
      for order in reverse shuffle; do
        # shellcheck disable=SC2046
        S2S_EMU_ORDER=$order "$work/${c}_s2s" $(tr x ' ' <<<"${s#*:}") >"$work/$c-$order.log" 2>&1 ||
          { echo "kernels.sh: ${c}_s2s with S2S_EMU_ORDER=$order:" >&2; tail -5 "$work/$c-$order.log" >&2; exit 1; }
      done
    done
    echo "kernels.sh --emulate: s2s-cuda builds agree in forward, reverse and shuffled thread order"
    echo "kernels.sh --emulate: every variant agrees with its one-core build (wsm5: tests/bench/wsm5.sh --emulate)"
    ;;
esac
