#!/usr/bin/env bash
# samples.sh — differential runs of the samples: build each sample's original
# with the plain compiler and its translation with s2s-cuda, run both, and
# compare every output element (tests/s2s_compare).  A translation that gives
# other numbers than the original, or other numbers when the emulated threads
# run in another order, is a wrong translation.
#
#   samples.sh              make check: emulation, threads in forward, reverse
#                           and shuffled order (S2S_EMU_ORDER), then forward
#                           under the race check (S2S_EMU_CHECK=race), every
#                           sample
#   samples.sh --selftest   no translator needed: reference builds, dumps, and
#                           the compare tool's own checks
#   samples.sh --gpu        GPU builds, run on the GPU (exit 77 without one);
#                           S2S_COMPUTE_SANITIZER="memcheck racecheck" adds
#                           compute-sanitizer runs
#   samples.sh --main       quickstart's main job: per sample the feedback
#                           report, a run with S2S_TIME=1 (on the GPU when
#                           there is one, else in emulation), the verdict and
#                           the timing report
#   samples.sh --build DIR  build ref, prog (GPU build) and s2s_compare into
#                           DIR/<sample>/ and write DIR/run.sh, to carry to a
#                           GPU machine that has no compilers
#
# Environment (make check sets it through AM_TESTS_ENVIRONMENT): top_srcdir,
# top_builddir, S2S (the built s2s-cuda), CC, FC, CXX, NVCC (may be empty).
# Also: S2S_SAMPLES (default "laplace diffusion thomas pgiport physics wsm5"), S2S_TEST_TIMEOUT (seconds
# per program run, default 900), S2S_COMPARE_ARGS (more s2s_compare options,
# e.g. --exact: emulation of a faithful translation is bit for bit).  Work directories: $top_builddir/tests/work/<sample>.
# Exit status: 0 all passed, 1 a failure, 2 usage, 77 (skip) only for --gpu
# without a GPU.
set -euo pipefail

# In a sanitizer build the runtime is instrumented; gfortran's own main-program
# allocations would then be reported as leaks at exit.  Leaks of the translator
# itself are covered by the unit tests.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

usage() {
  sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

mode=check
build_dir=
run_on=emu
while [ $# -gt 0 ]; do
  case $1 in
    --selftest) mode=selftest ;;
    --gpu) mode=gpu run_on=gpu ;;
    --main) mode=main ;;
    --build)
      [ $# -ge 2 ] || { echo "samples.sh: --build needs a directory" >&2; exit 2; }
      mode=build build_dir=$2 run_on=gpu
      shift ;;
    -h | --help) usage; exit 0 ;;
    *) echo "samples.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
  shift
done

# ---- configuration ----------------------------------------------------------

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top_srcdir=$(cd "${top_srcdir:-$here/..}" && pwd)
top_builddir=$(cd "${top_builddir:-$top_srcdir}" && pwd)
CC=${CC:-gcc}
FC=${FC:-gfortran}
CXX=${CXX:-g++}
NVCC=${NVCC-}
export CC FC CXX NVCC

if [ -z "${S2S:-}" ]; then
  S2S=$top_builddir/s2s-cuda
  [ -x "$S2S" ] || [ ! -x "$top_builddir/translator/s2s-cuda" ] || S2S=$top_builddir/translator/s2s-cuda
fi
# A relative path names a file from here: make it absolute, the steps cd.
case $S2S in */*) [ ! -d "$(dirname "$S2S")" ] || S2S=$(cd "$(dirname "$S2S")" && pwd)/$(basename "$S2S") ;; esac

samples=${S2S_SAMPLES:-laplace diffusion thomas pgiport physics wsm5}
timeout_s=${S2S_TEST_TIMEOUT:-900}
work_root=$top_builddir/tests/work
failures=0
cmd=()

# Per sample: what it is, its language, and its sources in build order.
describe() {
  case $1 in
    laplace) echo "C, 3-D 7-point Jacobi stencil" ;;
    diffusion) echo "Fortran, WRF-style horizontal diffusion and update" ;;
    thomas) echo "Fortran, tridiagonal solve per column, k loops outermost" ;;
    pgiport) echo "Fortran, a warm-rain microphysics in the 2009 PGI Accelerator directives of the WSM5 port" ;;
    physics) echo "Fortran across files, built by its Makefile with FC=s2s-cuda: kinds, constants set by an init routine, module functions, MASS-style helpers; a j loop calling a 2-D routine" ;;
    wsm5) echo "WSM5-shaped microphysics, built by its Makefile with FC=s2s-cuda: one region around the j loop, a data region around the time loop" ;;
    *) echo "samples.sh: unknown sample '$1'" >&2; exit 2 ;;
  esac
}
sources() {
  case $1 in
    laplace) echo "laplace.c main.c s2s_dump.c" ;;
    diffusion) echo "s2s_dump.f90 diffusion.f90 main.f90" ;;
    thomas) echo "s2s_dump.f90 thomas.f90 main.f90" ;;
    pgiport) echo "s2s_dump.f90 micro.f90 main.f90" ;;
    physics) echo "Makefile kinds.f90 constants.f90 vmass.f90 funcs.f90 column.f90 main.f90 s2s_dump.f90" ;;
    wsm5) echo "Makefile kinds.f90 constants.f90 vmass.f90 wsm5.f90 main.f90 s2s_dump.f90" ;;
  esac
}
# Samples built by their own Makefile, one file at a time, as a model's build is.
built_by_make() {
  case $1 in physics | wsm5) return 0 ;; *) return 1 ;; esac
}
# The arguments of a sample's runs (ref and prog alike) after OUT.dat: $2 is
# "gpu" for a run on the GPU.  WSM5 runs the issue's largest grid on a GPU
# and a small one in emulation (each emulated thread runs in turn).
run_args() {
  case $1 in
    wsm5) if [ "${2:-}" = gpu ]; then echo "400 400 40 4"; else echo "60 40 30 3"; fi ;;
    *) echo "" ;;
  esac
}
# The plain build of the original, into the array cmd.  $CC and $FC are split
# into words on purpose: configure may set CC="gcc -std=gnu11".
ref_command() {
  # shellcheck disable=SC2206
  case $1 in
    laplace) cmd=($CC -O2 -std=c11 laplace.c main.c s2s_dump.c -lm -o ref) ;;
    diffusion) cmd=($FC -O2 s2s_dump.f90 diffusion.f90 main.f90 -o ref) ;;
    thomas) cmd=($FC -O2 s2s_dump.f90 thomas.f90 main.f90 -o ref) ;;
    pgiport) cmd=($FC -O2 s2s_dump.f90 micro.f90 main.f90 -o ref) ;;
    # its own Makefile, one file at a time, as a model's build is
    physics | wsm5) cmd=(make -j2 FC="$FC" COMMON=. PROG=ref) ;;
  esac
}
# The translation in compiler-driver mode, into the array cmd: s2s-cuda
# translates the files that hold directives, compiles everything with
# $CC/$FC/$CXX (and nvcc) and links the runtime.  $2: --emulate or "".
prog_command() {
  if built_by_make "$1"; then
    # The port of a model: the same Makefile with FC=s2s-cuda (-B: the
    # reference build's objects are not the translation's).
    cmd=(make -B -j2 FC="$S2S" FCFLAGS="-O2 -Minfo${2:+ $2}" COMMON=. PROG=prog)
    return
  fi
  cmd=("$S2S")
  [ -z "$2" ] || cmd+=("$2")
  # shellcheck disable=SC2207
  cmd+=(-Minfo -O2 $(sources "$1"))
  [ "$1" != laplace ] || cmd+=(-lm)
  cmd+=(-o prog)
}
# Compare arguments for GPU runs.  The GPU contracts a*b+c into one fused
# multiply-add (one rounding instead of two), so t differs from the CPU's in
# the last bit here and there; tend, a small difference of 300 K
# temperatures, turns that into errors of up to about 1e-3 of its largest
# value (measured with an x86 FMA build of the original).  Emulation needs
# no such allowance.
gpu_compare_args() {
  case $1 in
    diffusion) echo "--rtol tend=5e-3" ;;
    # WSM5 at 400x400x40, 4 steps: the original built for the CPU with FMA
    # (gfortran -O2 -march=haswell) differs from the plain -O2 build by th
    # 0.027 K, q 6.9e-6, qc 9.2e-6, qr 7.6e-5, qi 5.5e-7, qs 1.1e-4, rain
    # 0.013 mm, snow 0.0018 mm: thresholds (qrs > qcrmin, t < t0c) turn last
    # bits into other branches.  The GPU's differences are the same size; the
    # tolerances are twice the CPU's own spread.  sr, the snow share of this
    # call's precipitation, flips between 0 and 1 where that is near zero, on
    # the CPU as well (92 columns).
    wsm5) echo "--atol th=0.05 --atol q=2e-5 --atol qc=2e-5 --atol qr=2e-4 --atol qi=2e-6" \
               "--atol qs=3e-4 --atol rain=0.03 --atol rainncv=0.03 --atol snow=0.005" \
               "--atol snowncv=0.005 --atol sr=1" ;;
    *) echo "" ;;
  esac
}

# ---- helpers ----------------------------------------------------------------

with_timeout() {
  if command -v timeout >/dev/null 2>&1; then timeout "$timeout_s" "$@"; else "$@"; fi
}

# step SAMPLE LABEL LOG COMMAND...: run COMMAND with its output in LOG and
# print one line; on failure, the command and the end of the log.
step() {
  local sample=$1 label=$2 log=$3 rc=0
  shift 3
  printf '%s: %s ... ' "$sample" "$label"
  "$@" >"$log" 2>&1 || rc=$?
  if [ $rc -eq 0 ]; then
    echo ok
    return 0
  fi
  if [ $rc -eq 124 ]; then echo "FAILED (timed out after ${timeout_s}s)"; else echo "FAILED (exit $rc)"; fi
  echo "    command: $*"
  echo "    in: $PWD (log: $log)"
  tail -n 40 "$log" | sed 's/^/    | /'
  return 1
}

indent() { sed 's/^/    /' "$@"; }

have_gpu() {
  [ -n "$NVCC" ] && command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1
}

# Find or build the compare tool; sets $compare.
find_compare() {
  compare=$top_builddir/tests/s2s_compare
  [ -x "$compare" ] && return 0
  mkdir -p "$work_root"
  compare=$work_root/s2s_compare
  echo "samples: building s2s_compare (not built by make): $CC -O2 -std=c11 tests/s2s_compare.c -lm"
  $CC -O2 -std=c11 "$top_srcdir/tests/s2s_compare.c" -lm -o "$compare"
}

# A fresh work directory holding the sample's sources and the dump writer.
prepare() {
  local sample=$1 dir=$work_root/$1
  rm -rf "$dir"
  mkdir -p "$dir"
  local f
  for f in "$top_srcdir/samples/$sample"/* "$top_srcdir/samples/common"/*; do
    case $f in *.c | *.h | *.f90 | */Makefile) cp "$f" "$dir/" ;; esac
  done
  cd "$dir"
  for f in $(sources "$sample"); do
    [ -f "$f" ] || { echo "$sample: source $f missing from samples/$sample and samples/common"; return 1; }
  done
}

build_ref() {
  ref_command "$1"
  step "$1" "build reference: ${cmd[*]}" ref.build.log "${cmd[@]}" &&
    # shellcheck disable=SC2046
    step "$1" "run reference: ./ref ref.dat $(run_args "$1" "$run_on")" ref.run.log \
      with_timeout ./ref ref.dat $(run_args "$1" "$run_on")
}

# The compare tool must pass identical dumps, catch one changed element (and
# name it), and reject a truncated file: a checker that always says "passed"
# would make every differential test worthless.
selftest_compare() {
  local sample=$1 name type count elem idx=1234 size rc=0
  name=$(head -c 32 ref.dat | sed 's/ *$//')
  type=$(od -An -t d4 -j 32 -N 4 ref.dat | tr -d ' ')
  count=$(od -An -t d8 -j 36 -N 8 ref.dat | tr -d ' ')
  case $type in 2) elem=8 ;; *) elem=4 ;; esac
  [ "$count" -gt "$idx" ] || idx=$((count - 1))
  cp ref.dat perturbed.dat
  printf '%.*s' "$elem" AAAAAAAA | dd of=perturbed.dat bs=1 seek=$((44 + idx * elem)) conv=notrunc status=none
  size=$(wc -c <ref.dat)
  head -c $((size - 3)) ref.dat >truncated.dat

  printf '%s: %s ... ' "$sample" "compare tool: identical dumps pass, ${name}[$idx] changed fails, truncated is an error"
  "$compare" ref.dat ref.dat >cmp-same.log 2>&1 || rc=$?
  if [ $rc -ne 0 ]; then echo "FAILED (identical dumps: exit $rc)"; indent cmp-same.log; return 1; fi
  "$compare" ref.dat perturbed.dat >cmp-perturbed.log 2>&1 || rc=$?
  if [ $rc -ne 1 ] || ! grep -qF "${name}[$idx]: ref" cmp-perturbed.log; then
    echo "FAILED (perturbed dump: exit $rc, want 1 and element ${name}[$idx] named)"
    indent cmp-perturbed.log
    return 1
  fi
  rc=0
  "$compare" ref.dat truncated.dat >cmp-truncated.log 2>&1 || rc=$?
  if [ $rc -ne 2 ]; then echo "FAILED (truncated dump: exit $rc, want 2)"; indent cmp-truncated.log; return 1; fi
  echo ok
}

# compare_step SAMPLE LABEL OUT.dat [ARGS...]: show the compare report.
compare_step() {
  local sample=$1 label=$2 dat=$3 rc=0
  shift 3
  printf '%s: %s ... ' "$sample" "$label"
  # shellcheck disable=SC2086
  "$compare" ref.dat "$dat" "$@" ${S2S_COMPARE_ARGS:-} >"$dat.cmp" 2>&1 || rc=$?
  if [ $rc -eq 0 ]; then echo ok; else echo "FAILED (exit $rc)"; fi
  indent "$dat.cmp"
  return $rc
}

check_s2s() {
  if [ ! -x "$S2S" ] && ! command -v "$S2S" >/dev/null 2>&1; then
    echo "samples: s2s-cuda not found at '$S2S' (build it with make, or set S2S)"
    return 1
  fi
}

# ---- modes ------------------------------------------------------------------

# make check: emulation, with the threads in forward, reverse and shuffled
# order, and under the race check.
check_sample() {
  local sample=$1 order
  prepare "$sample" || return 1
  build_ref "$sample" || return 1
  selftest_compare "$sample" || return 1
  [ "$mode" = selftest ] && return 0
  check_s2s || return 1
  prog_command "$sample" --emulate
  step "$sample" "translate and build: ${cmd[*]}" prog.build.log "${cmd[@]}" || return 1
  echo "$sample: feedback report:"
  indent prog.build.log
  local status=0
  # Forward, reverse and shuffled thread order: a result that changes with
  # the order of the threads is an illegal parallelization.  Then forward
  # under the race check (S2S_EMU_CHECK=race), which must report nothing.
  for order in forward reverse shuffle race; do
    local dat=out-$order.dat envs=(-u S2S_EMU_ORDER -u S2S_EMU_SEED -u S2S_EMU_CHECK) shown=
    local label="$order thread order"
    case $order in
      reverse) envs=(-u S2S_EMU_CHECK S2S_EMU_ORDER=reverse) ;;
      shuffle) envs=(-u S2S_EMU_CHECK S2S_EMU_ORDER=shuffle S2S_EMU_SEED=1) ;;
      race) envs=(-u S2S_EMU_ORDER -u S2S_EMU_SEED S2S_EMU_CHECK=race) label="race check, forward thread order" ;;
    esac
    [ $order = forward ] || shown="${envs[*]} "
    shown=${shown//-u S2S_EMU_ORDER /}
    shown=${shown//-u S2S_EMU_SEED /}
    shown=${shown//-u S2S_EMU_CHECK /}
    step "$sample" "run translation (emulation, $label): $shown./prog $dat" \
      "run-$order.log" with_timeout env "${envs[@]}" ./prog "$dat" $(run_args "$sample" emu) ||
      { status=1; continue; }
    compare_step "$sample" "compare ref.dat $dat" "$dat" || status=1
  done
  return $status
}

# --gpu: GPU build and run, optional compute-sanitizer runs.
gpu_sample() {
  local sample=$1 tool
  prepare "$sample" || return 1
  build_ref "$sample" || return 1
  check_s2s || return 1
  prog_command "$sample" ""
  step "$sample" "translate and build for the GPU: ${cmd[*]}" prog.build.log "${cmd[@]}" || return 1
  echo "$sample: feedback report:"
  indent prog.build.log
  # shellcheck disable=SC2046
  step "$sample" "run translation on the GPU: ./prog out.dat $(run_args "$sample" gpu)" run.log \
    with_timeout ./prog out.dat $(run_args "$sample" gpu) || return 1
  # shellcheck disable=SC2046
  compare_step "$sample" "compare ref.dat out.dat" out.dat $(gpu_compare_args "$sample") || return 1
  for tool in ${S2S_COMPUTE_SANITIZER:-}; do
    step "$sample" "compute-sanitizer --tool $tool" "sanitize-$tool.log" \
      with_timeout compute-sanitizer --tool "$tool" --error-exitcode 1 ./prog "sanitize-$tool.dat" \
      $(run_args "$sample" emu) || return 1
  done
}

# --main: what quickstart shows a new user.
main_sample() {
  local sample=$1 where flag='' rc=0
  if have_gpu; then
    where="on the GPU ($(nvidia-smi -L | head -n 1))"
    run_on=gpu
  else
    where="in CPU emulation (no GPU or no nvcc found)"
    flag=--emulate
  fi
  echo
  echo "======================================================================"
  echo " sample $sample: $(describe "$sample")"
  echo " samples/$sample, run $where"
  echo "======================================================================"
  prepare "$sample" || return 1
  build_ref "$sample" || return 1
  check_s2s || return 1
  prog_command "$sample" "$flag"
  echo "-- translate and build: ${cmd[*]}"
  if ! "${cmd[@]}" >prog.build.log 2>&1; then
    echo "$sample: translate and build ... FAILED"
    indent prog.build.log
    return 1
  fi
  echo "-- feedback report (-Minfo)"
  indent prog.build.log
  echo "-- run: S2S_TIME=1 ./prog out.dat $(run_args "$sample" "$run_on")"
  # shellcheck disable=SC2046
  S2S_TIME=1 with_timeout ./prog out.dat $(run_args "$sample" "$run_on") >run.out 2>run.err || rc=$?
  indent run.out
  if [ $rc -ne 0 ]; then
    echo "$sample: run ... FAILED (exit $rc)"
    indent run.err
    return 1
  fi
  echo "-- verification (s2s_compare ref.dat out.dat)"
  local cargs=
  [ -z "$flag" ] && cargs=$(gpu_compare_args "$sample")
  # shellcheck disable=SC2086
  "$compare" ref.dat out.dat $cargs ${S2S_COMPARE_ARGS:-} >out.cmp 2>&1 || rc=$?
  indent out.cmp
  echo "-- timing report (S2S_TIME=1)"
  if [ -s run.err ]; then indent run.err; else echo "    (the program printed no timing report)"; fi
  return $rc
}

# --build DIR: binaries to carry to a GPU machine, and a script to run them.
build_sample() {
  local sample=$1 dest=$build_dir/$1
  prepare "$sample" || return 1
  build_ref "$sample" || return 1
  check_s2s || return 1
  prog_command "$sample" ""
  step "$sample" "translate and build for the GPU: ${cmd[*]}" prog.build.log "${cmd[@]}" || return 1
  indent prog.build.log
  mkdir -p "$dest"
  cp ref prog "$compare" "$dest/"
  cp prog.build.log "$dest/feedback.txt"
  {
    echo "echo; echo \"== $sample: $(describe "$sample")\""
    echo "run_one $sample \"$(run_args "$sample" gpu)\" \"$(run_args "$sample" emu)\" $(gpu_compare_args "$sample")"
  } >>"$build_dir/run.sh"
}

# Shared libraries the carried binaries need beyond the C library itself
# (libgfortran, libstdc++, ...): the GPU machine may have no compilers.
carry_libs() {
  mkdir -p "$build_dir/lib"
  local lib
  for lib in $(ldd "$build_dir"/*/ref "$build_dir"/*/prog 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u); do
    case $(basename "$lib") in
      libc.so* | libm.so* | libpthread.so* | libdl.so* | librt.so* | ld-linux* | libresolv.so* | libcuda.so*) ;;
      *) cp -L "$lib" "$build_dir/lib/" ;;
    esac
  done
}

write_run_sh_head() {
  mkdir -p "$build_dir"
  cat >"$build_dir/run.sh" <<'EOF'
#!/bin/sh
# run.sh — written by tests/samples.sh --build.  Runs each sample's original
# (ref) and translation (prog, a GPU build) here and compares their outputs.
#   S2S_TIME=0 ./run.sh                      no timing report
#   S2S_COMPUTE_SANITIZER="memcheck racecheck" ./run.sh  also run prog under compute-sanitizer
cd "$(dirname "$0")" || exit 1
top=$PWD
LD_LIBRARY_PATH=$top/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
S2S_TIME=${S2S_TIME-1}
export S2S_TIME
failed=0

# run_one SAMPLE "RUN ARGS" "SANITIZER RUN ARGS" [COMPARE ARGS...]: the
# sanitizers run a smaller grid where the sample takes one (they are slow).
run_one() {
  sample=$1 args=$2 small=$3
  shift 3
  cd "$top/$sample" || { failed=1; return; }
  # shellcheck disable=SC2086
  if ! ./ref ref.dat $args; then echo "$sample: run reference FAILED"; failed=1; return; fi
  # shellcheck disable=SC2086
  if ! ./prog out.dat $args; then echo "$sample: run translation FAILED"; failed=1; return; fi
  ./s2s_compare ref.dat out.dat "$@" || failed=1
  for tool in ${S2S_COMPUTE_SANITIZER:-}; do
    echo "-- compute-sanitizer --tool $tool"
    # shellcheck disable=SC2086
    S2S_TIME=0 compute-sanitizer --tool "$tool" --error-exitcode 1 ./prog sanitize.dat $small || failed=1
  done
}

EOF
}

write_run_sh_tail() {
  cat >>"$build_dir/run.sh" <<'EOF'

echo
if [ $failed -eq 0 ]; then echo "run.sh: all samples passed"; else echo "run.sh: FAILED"; fi
exit $failed
EOF
  chmod +x "$build_dir/run.sh"
}

# ---- main -------------------------------------------------------------------

echo "samples: mode $mode; samples: $samples"
echo "samples: S2S=$S2S CC=$CC FC=$FC CXX=$CXX NVCC=${NVCC:-(none)}"
echo "samples: work directories under $work_root"

if [ "$mode" = gpu ] && ! have_gpu; then
  echo "samples: no GPU (nvidia-smi -L) or no nvcc (\$NVCC): skipped"
  exit 77
fi
if [ "$mode" = build ] && [ -z "$NVCC" ]; then
  echo "samples: --build makes GPU builds and needs nvcc (\$NVCC is empty)"
  exit 1
fi
find_compare

if [ "$mode" = build ]; then
  mkdir -p "$build_dir"
  build_dir=$(cd "$build_dir" && pwd)
  write_run_sh_head
fi

for sample in $samples; do
  describe "$sample" >/dev/null
  case $mode in
    check | selftest) check_sample "$sample" || failures=$((failures + 1)) ;;
    gpu) gpu_sample "$sample" || failures=$((failures + 1)) ;;
    main) main_sample "$sample" || failures=$((failures + 1)) ;;
    build) build_sample "$sample" || failures=$((failures + 1)) ;;
  esac
  cd "$top_builddir"
done

if [ "$mode" = build ]; then
  write_run_sh_tail
  carry_libs
  echo "samples: built into $build_dir; run $build_dir/run.sh there"
fi

echo
if [ $failures -eq 0 ]; then
  echo "samples: all passed ($samples, mode $mode)"
  exit 0
fi
echo "samples: $failures sample(s) FAILED (mode $mode)"
exit 1
