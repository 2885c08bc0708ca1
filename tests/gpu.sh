#!/usr/bin/env bash
# gpu.sh — every sample and every translating differential case built for the
# GPU and run under compute-sanitizer memcheck and racecheck, in one command on
# the GPU machine (issue "verification", item 7).
#
#   gpu.sh                 here, with nvcc, the Fortran and C compilers and a GPU:
#                          build and run everything (exit 77, skipped, without
#                          nvcc or a GPU)
#   gpu.sh --build DIR     here (nvcc, gfortran, gcc; no GPU needed): build both
#                          packs into DIR (DIR/samples from samples.sh --build,
#                          DIR/diff from diff.sh --build) and write DIR/run.sh;
#                          carry DIR to a GPU machine without compilers and run
#                          DIR/run.sh there
#
# DIR/run.sh runs the samples and then the diff cases, each program once
# plainly (its outputs compared with the CPU original's) and once under each of
# memcheck and racecheck (S2S_COMPUTE_SANITIZER, default "memcheck racecheck"),
# prints one summary line per pack and "gpu: all passed" or the failures, and
# exits 1 on any failure.  Logs: DIR/samples.log, DIR/diff.log (or under $OUT).
#
# Environment: top_srcdir, top_builddir (default build/), S2S (the translator,
# default $top_builddir/s2s-cuda), NVCC (default nvcc), CC, FC, CXX.
set -euo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir/build}
export top_srcdir top_builddir
export S2S=${S2S:-$top_builddir/s2s-cuda}
export NVCC=${NVCC:-nvcc}

write_run() { # DIR
  cat >"$1/run.sh" <<'RUN'
#!/bin/sh
# run.sh — written by tests/gpu.sh --build: the samples and the diff cases on
# this machine's GPU, under compute-sanitizer memcheck and racecheck.
here=$(cd "$(dirname "$0")" && pwd)
logs=${OUT:-$here}
: "${S2S_COMPUTE_SANITIZER=memcheck racecheck}"
export S2S_COMPUTE_SANITIZER
rc=0
(cd "$here/samples" && ./run.sh) >"$logs/samples.log" 2>&1 || rc=1
echo "samples: $(tail -1 "$logs/samples.log")"
(cd "$here/diff" && ./run.sh) >"$logs/diff.log" 2>&1 || rc=1
echo "diff: $(tail -1 "$logs/diff.log")"
errors=$(grep -h "ERROR SUMMARY: [1-9]\|RACECHECK SUMMARY: [1-9]" "$logs/samples.log" "$logs/diff.log" | wc -l)
echo "compute-sanitizer reports with errors or hazards: $errors"
[ "$errors" = 0 ] || rc=1
if [ $rc = 0 ]; then echo "gpu: all passed (sanitizers: $S2S_COMPUTE_SANITIZER)"; else echo "gpu: FAILED (logs in $logs)"; fi
exit $rc
RUN
  chmod +x "$1/run.sh"
}

build() { # DIR
  local dir=$1
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  rm -rf "$dir/samples" "$dir/diff"
  bash "$top_srcdir/tests/samples.sh" --build "$dir/samples"
  (cd "$top_builddir" && bash "$top_srcdir/tests/diff.sh" --build "$dir/diff")
  write_run "$dir"
  echo "gpu: built into $dir ($(du -sh "$dir" | cut -f1)); on the GPU machine run $dir/run.sh"
}

case ${1:-} in
  --build)
    [ $# -eq 2 ] || { echo "usage: gpu.sh [--build DIR]" >&2; exit 2; }
    command -v "$NVCC" >/dev/null || { echo "gpu.sh: --build needs nvcc (NVCC=$NVCC)" >&2; exit 2; }
    build "$2" ;;
  "")
    if ! command -v "$NVCC" >/dev/null || ! command -v nvidia-smi >/dev/null ||
       ! nvidia-smi -L >/dev/null 2>&1; then
      echo "gpu.sh: no nvcc or no GPU here: skipped (build with --build DIR, run DIR/run.sh there)"
      exit 77
    fi
    work=$top_builddir/tests/work/gpu
    build "$work"
    "$work/run.sh" ;;
  *) echo "usage: gpu.sh [--build DIR]" >&2; exit 2 ;;
esac
