#!/usr/bin/env bash
# launch.sh — what a launch may choose at run time without changing results:
# the kernel's index type (32-bit when every offset fits, S2S_INDEX64=1
# forces 64-bit) and its block shape (S2S_TUNE).
#
# samples/diffusion is built for CPU emulation (--emulate) and run for a few
# steps several ways; every run's dumps must equal the plain run's
# (s2s_compare --exact):
#   - S2S_INDEX64=1 (the long instances of the kernel templates);
#   - S2S_TUNE=1 with an empty cache file: each kernel tries its candidate
#     shapes on the first calls, the cache gets one line per kernel, and the
#     S2S_TIME report names the choice;
#   - no S2S_TUNE, the same cache: the shapes come from it (report says so);
#   - S2S_TUNE=0 with the cache: the translator's shapes (128 along x);
#   - a cache with lines that do not parse: ignored, the run is the plain one.
#
# Environment (make check sets it): top_srcdir, top_builddir, S2S, FC.
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
S2S=${S2S:-$top_builddir/s2s-cuda}
compare=$top_builddir/tests/s2s_compare
work=$top_builddir/tests/work/launch
rm -rf "$work"
mkdir -p "$work"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
command -v "${FC:-gfortran}" >/dev/null 2>&1 || { echo "launch: no Fortran compiler: skipped"; exit 77; }
[ -x "$compare" ] || { echo "launch: $compare not built (make)"; exit 1; }

fail=0
bad() { echo "launch: FAIL: $*"; fail=1; }
cd "$work" || exit 1
cp "$top_srcdir"/samples/common/s2s_dump.f90 "$top_srcdir"/samples/diffusion/*.f90 .
if ! "$S2S" --emulate -O2 s2s_dump.f90 diffusion.f90 main.f90 -o prog > build.log 2>&1; then
  cat build.log
  echo "launch: FAIL: the diffusion sample did not build"
  exit 1
fi
args="40 30 10 9"
run() {  # NAME ENV... : run the program with the settings, dump to NAME.dat, report to NAME.log
  local name=$1
  shift
  env -u S2S_TUNE -u S2S_INDEX64 S2S_TIME=1 S2S_TUNE_FILE="$work/tune.tsv" "$@" \
    ./prog "$name.dat" $args > "$name.log" 2>&1 || bad "$name: the program failed (see $work/$name.log)"
  "$compare" --exact plain.dat "$name.dat" > "$name.cmp" 2>&1 ||
    bad "$name: results differ from the plain run ($work/$name.cmp)"
}

env -u S2S_TUNE -u S2S_INDEX64 S2S_TUNE_FILE="$work/none.tsv" ./prog plain.dat $args > plain.log 2>&1 ||
  bad "the plain run failed"
run index64 S2S_INDEX64=1
rm -f tune.tsv
run tuned S2S_TUNE=1
lines=$(grep -c . tune.tsv 2>/dev/null || echo 0)
[ "$lines" = 2 ] || bad "S2S_TUNE=1 wrote $lines cache lines, expected 2 (one per kernel): $(cat tune.tsv 2>/dev/null)"
grep -q "block shape of horizontal_diffusion_r1 (S2S_TUNE) for trips 40x10x30: .*tried 128x1x1" tuned.log ||
  bad "the S2S_TIME report does not show the tuning of horizontal_diffusion_r1 (tuned.log)"
run cached
grep -q "block shape of update_t_r1 for trips 40x10x30: .* from the tuning cache" cached.log ||
  bad "a run with the cache does not say it used it (cached.log)"
chosen=$(awk -F'\t' '$3 == "update_t_r1" { print $6 }' tune.tsv)
grep -q "block: \[$chosen\]" cached.log || bad "the cached shape $chosen of update_t_r1 was not used"
run off S2S_TUNE=0
grep -q "from the tuning cache\|S2S_TUNE" off.log && bad "S2S_TUNE=0 still used the cache (off.log)"
grep -q "block: \[128x1x1\]" off.log || bad "S2S_TUNE=0 did not launch the translator's 128x1x1 blocks"
printf 'garbage\nCPU emulation\tdiffusion.f90\tupdate_t_r1\tupdate_t_r1\t40x10x30\t0x0x0\t1.0\n' > tune.tsv
run garbage
grep -q "from the tuning cache" garbage.log && bad "lines that do not parse were used (garbage.log)"

[ $fail = 0 ] && echo "launch: index types and block shapes: every run matched the plain one"
exit $fail
