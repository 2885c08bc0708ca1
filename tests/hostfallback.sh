#!/usr/bin/env bash
# hostfallback.sh — a GPU build (nvcc) run where no GPU is visible: it runs
# each region's original loops on the host (the host pass the host file
# keeps) with a one-line notice, and gives the original program's numbers.
#
# samples/diffusion is built with nvcc in compiler-driver mode and run with
# CUDA_VISIBLE_DEVICES= (no device visible, also on a machine with a GPU),
# then with S2S_DEVICE=host; the reference is the same sources built with
# $FC alone.  Every dump must equal the reference's bit for bit (the host
# pass is the user's loops compiled by the same compiler).  A build with
# ASan skips the GPU build (nvcc objects are not instrumented).
#
# Environment (make check sets it): top_srcdir, top_builddir, S2S, FC, CC,
# NVCC.  Skipped (77) without nvcc or a Fortran compiler.
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
S2S=${S2S:-$top_builddir/s2s-cuda}
FC=${FC:-gfortran}
compare=$top_builddir/tests/s2s_compare
work=$top_builddir/tests/work/hostfallback
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "hostfallback: no nvcc: skipped"; exit 77
fi
command -v "$FC" >/dev/null 2>&1 || { echo "hostfallback: no Fortran compiler: skipped"; exit 77; }
case "${S2S_SANITIZE_FLAGS:-}" in *sanitize*) echo "hostfallback: sanitizer build: skipped"; exit 77 ;; esac
rm -rf "$work"
mkdir -p "$work/ref" "$work/gpu"
fail=0
bad() { echo "hostfallback: FAIL: $*"; fail=1; }
src=("$top_srcdir"/samples/common/s2s_dump.f90 "$top_srcdir"/samples/diffusion/diffusion.f90
     "$top_srcdir"/samples/diffusion/main.f90)
args="40 30 10 6"

cd "$work/ref" && cp "${src[@]}" . &&
  "$FC" -O2 s2s_dump.f90 diffusion.f90 main.f90 -o ref > build.log 2>&1 && ./ref ref.dat $args > run.log 2>&1 ||
  { cat build.log run.log 2>/dev/null; echo "hostfallback: FAIL: the reference did not build or run"; exit 1; }
cd "$work/gpu" && cp "${src[@]}" . || exit 1
if ! "$S2S" -O2 s2s_dump.f90 diffusion.f90 main.f90 -o prog > build.log 2>&1; then
  cat build.log
  echo "hostfallback: FAIL: the GPU build (nvcc) of the diffusion sample failed"
  exit 1
fi
check() {  # NAME NOTICE ENV...: run, expect NOTICE on stderr and the reference's dumps
  local name=$1 notice=$2
  shift 2
  if ! env "$@" ./prog "$name.dat" $args > "$name.log" 2>&1; then
    bad "$name: the program failed: $(tail -n 2 "$name.log")"; return
  fi
  grep -qF -- "$notice" "$name.log" || bad "$name: no notice '$notice' ($work/gpu/$name.log)"
  [ "$(grep -c 's2s-cuda runtime' "$name.log")" = 1 ] || bad "$name: the notice is not one line"
  "$compare" --exact ../ref/ref.dat "$name.dat" > "$name.cmp" 2>&1 ||
    bad "$name: results differ from the original program's ($work/gpu/$name.cmp)"
}
check novisible "no GPU is visible" -u S2S_DEVICE CUDA_VISIBLE_DEVICES=
check forced "S2S_DEVICE=host: the regions run their original loops on the host" S2S_DEVICE=host
[ $fail = 0 ] && echo "hostfallback: a GPU build without a visible GPU, and with S2S_DEVICE=host, ran the original loops and matched the original program"
exit $fail
