#!/usr/bin/env bash
# install.sh — compiler-driver mode from an installed tree: `make install`
# into a scratch DESTDIR, then build and run the diffusion sample with the
# installed s2s-cuda (CPU emulation) and compare it with the original.
set -euo pipefail
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
FC=${FC:-gfortran}
work=$top_builddir/tests/work/install
rm -rf "$work"
mkdir -p "$work/run"
echo "-- make install DESTDIR=$work/dest"
make -s -C "$top_builddir" install DESTDIR="$work/dest" >"$work/install.log" 2>&1 || {
  cat "$work/install.log"; exit 1; }
s2s=$(find "$work/dest" -path '*/bin/s2s-cuda' -type f | head -n 1)
[ -x "$s2s" ] || { echo "install.sh: no installed s2s-cuda under $work/dest"; exit 1; }
cp "$top_srcdir"/samples/diffusion/*.f90 "$top_srcdir"/samples/common/s2s_dump.f90 "$work/run/"
cd "$work/run"
# the installed tree must not find the build tree's runtime through the environment
unset S2S_RT_INCLUDEDIR S2S_RT_LIBDIR
echo "-- $s2s --emulate -O2 s2s_dump.f90 diffusion.f90 main.f90 -o prog"
"$s2s" --emulate -O2 s2s_dump.f90 diffusion.f90 main.f90 -o prog
"$FC" -O2 s2s_dump.f90 diffusion.f90 main.f90 -o ref
./ref ref.dat >/dev/null
S2S_EMU_ORDER=reverse ./prog out.dat >/dev/null
"$top_builddir/tests/s2s_compare" ref.dat out.dat
