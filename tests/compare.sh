#!/usr/bin/env bash
# compare.sh — the compare tool's cancellation-aware tolerance (s2s_compare
# --scale).  A generator writes the dumps of a diffusion tendency of
# temperatures near 300 K, tend = k*t(i+1) + k*t(i-1) - 2k*t(i) (a field about
# 1e-2 made of terms about 300: cancellation), once rounded as a CPU without
# FMA does (ref.dat) and once through fma() as a GPU contracts it (fma.dat),
# with the companion array tend_mag = sum of |terms| and the input t; bad.dat
# is fma.dat with one element of tend off by 1e-3 of itself.  Then:
#   - fma.dat fails the default comparison (rtol times the field's own size is
#     below the rounding of its operands), and --exact;
#   - it passes with --scale tend=tend_mag, --scale tend=t and --scale tend=600;
#   - bad.dat still fails with --scale tend=tend_mag, naming the element;
#   - --scale naming no array of REF, or one of another size, is a usage error.
# Environment: top_builddir (s2s_compare built there by make), CC.
set -uo pipefail

top_builddir=${top_builddir:-$(cd "$(dirname "$0")/.." && pwd)}
CC=${CC:-gcc}
compare=$top_builddir/tests/s2s_compare
[ -x "$compare" ] || { echo "compare: $compare not built (make)"; exit 1; }
work=$top_builddir/tests/work/compare
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

cat >gen.c <<'GEN'
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
enum { N = 2000 };
static void record(FILE *f, const char *name, const double *v, int64_t n) {
  char pad[32];
  int32_t type = 2;
  memset(pad, ' ', sizeof pad);
  memcpy(pad, name, strlen(name));
  fwrite(pad, 1, 32, f);
  fwrite(&type, 4, 1, f);
  fwrite(&n, 8, 1, f);
  fwrite(v, 8, (size_t)n, f);
}
static void write_dump(const char *path, const double *t, const double *tend, const double *mag) {
  FILE *f = fopen(path, "wb");
  record(f, "t", t, N);
  record(f, "tend", tend, N);
  record(f, "tend_mag", mag, N);
  record(f, "short", t, N / 2);
  fclose(f);
}
int main(void) {
  static double t[N], ref[N], fused[N], mag[N];
  const double k = 0.7;
  unsigned s = 12345;
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    t[i] = 300.0 + 0.01 * ((double)(s >> 8) / 16777216.0 - 0.5);
  }
  int differ = 0;
  for (int i = 0; i < N; i++) {
    double l = t[i > 0 ? i - 1 : N - 1], r = t[i < N - 1 ? i + 1 : 0];
    double a = k * r, b = k * l, c = -2.0 * k * t[i];   /* -ffp-contract=off: each rounded */
    ref[i] = (a + b) + c;
    fused[i] = fma(k, r, b) + c;                        /* k*r + b rounded once */
    mag[i] = fabs(a) + fabs(b) + fabs(c);
    differ += ref[i] != fused[i];
  }
  write_dump("ref.dat", t, ref, mag);
  write_dump("fma.dat", t, fused, mag);
  fused[777] += 1e-3 * fabs(fused[777]);
  write_dump("bad.dat", t, fused, mag);
  printf("%d of %d tendencies differ under FMA\n", differ, N);
  return differ > N / 10 ? 0 : 1;
}
GEN
fail=0
if ! $CC -O2 -std=c11 -ffp-contract=off gen.c -lm -o gen >gen.log 2>&1 || ! ./gen >>gen.log 2>&1; then
  echo "FAIL generator"; sed 's/^/  /' gen.log; exit 1
fi
sed 's/^/compare: /' gen.log

# expect STATUS LABEL ARGS...: run s2s_compare, want exit STATUS.
expect() {
  local want=$1 label=$2 rc=0
  shift 2
  "$compare" "$@" >out.log 2>&1 || rc=$?
  if [ $rc -eq "$want" ]; then
    echo "PASS $label"
  else
    echo "FAIL $label: exit $rc, want $want: s2s_compare $*"; sed 's/^/  /' out.log; fail=1
  fi
}

expect 1 "FMA-level differences fail plain relative error" ref.dat fma.dat
grep -q '^tend: .*MISMATCH' out.log || { echo "FAIL the mismatch is not tend's"; fail=1; }
expect 1 "--exact fails them" ref.dat fma.dat --exact --scale tend=tend_mag
expect 0 "--scale tend=tend_mag (the terms' magnitudes) passes them" ref.dat fma.dat --scale tend=tend_mag
expect 0 "--scale tend=t (the input field) passes them" ref.dat fma.dat --scale tend=t
expect 0 "--scale tend=600 (a number) passes them" ref.dat fma.dat --scale=tend=600
expect 0 "--scale 600 (every array) passes them" ref.dat fma.dat --scale 600
expect 1 "a real error still fails with --scale tend=tend_mag" ref.dat bad.dat --scale tend=tend_mag
grep -q '^  tend\[777\]: ref' out.log || { echo "FAIL tend[777] not named"; sed 's/^/  /' out.log; fail=1; }
grep -q 'scale tend_mag)' out.log || { echo "FAIL the scale is not in the mismatch line"; fail=1; }
expect 1 "a real error fails --scale tend=t" ref.dat bad.dat --scale tend=t
expect 2 "--scale naming no array is a usage error" ref.dat fma.dat --scale tend=nosuch
grep -q "no array 'nosuch'" out.log || { echo "FAIL message"; sed 's/^/  /' out.log; fail=1; }
expect 2 "--scale naming an array of another size is a usage error" ref.dat fma.dat --scale tend=short
exit $fail
