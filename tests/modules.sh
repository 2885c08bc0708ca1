#!/usr/bin/env bash
# modules.sh — s2s-cuda as the Fortran compiler of a model's build.
#
# tests/modules/ is a tiny program split as models split theirs: a kinds
# module, a constants module (with an init routine), a helper outside any
# module, the file with the region (which uses all three) and the main
# program, with the Makefile a gfortran build would use.  The program is
# built
#   - with gfortran (the reference);
#   - with `make FC=s2s-cuda`, one file at a time (-c), the files listed in
#     forward, reverse and shuffled order, serially and with make -j2, and
#     once with a module directory (-J mods);
#   - with one s2s-cuda command naming every source, in each order (the
#     driver puts the file of a module before the files that use it);
# and every build's output arrays must equal the reference's (s2s_compare).
# The CUDA half is built for CPU emulation (--emulate): no GPU needed.
#
# Environment (make check sets it): top_srcdir, top_builddir, S2S, FC.
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
S2S=${S2S:-$top_builddir/s2s-cuda}
FC_REF=${FC:-gfortran}
case $FC_REF in *s2s-cuda*) FC_REF=gfortran ;; esac
compare=$top_builddir/tests/s2s_compare
work=$top_builddir/tests/work/modules
rm -rf "$work"
mkdir -p "$work"
# gfortran's allocations are reported as leaks in a sanitizer build
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

command -v "$FC_REF" >/dev/null 2>&1 || { echo "modules: no Fortran compiler '$FC_REF': skipped"; exit 77; }
[ -x "$compare" ] || { echo "modules: $compare not built (make)"; exit 1; }

forward="s2s_dump.f90 kinds.f90 constants.f90 helpers.f90 region.f90 main.f90"
reverse="main.f90 region.f90 helpers.f90 constants.f90 kinds.f90 s2s_dump.f90"
shuffled="region.f90 s2s_dump.f90 main.f90 kinds.f90 helpers.f90 constants.f90"

pass=0
fail=0

# fresh DIR: the sources and the Makefile in an empty directory
fresh() {
  rm -rf "$1"
  mkdir -p "$1"
  cp "$top_srcdir"/tests/modules/*.f90 "$top_srcdir"/tests/modules/Makefile "$1"/
  cp "$top_srcdir"/samples/common/s2s_dump.f90 "$1"/
}

# check NAME DIR COMMAND...: build in DIR with COMMAND, run ./prog, compare
check() {
  local name=$1 dir=$2
  shift 2
  fresh "$dir"
  if ! (cd "$dir" && "$@" >build.log 2>&1); then
    echo "FAIL $name: the build failed: $*"
    sed 's/^/    /' "$dir/build.log" | tail -20
    fail=$((fail + 1))
    return
  fi
  if ! (cd "$dir" && ./prog out.dat >run.log 2>&1); then
    echo "FAIL $name: the program failed"
    sed 's/^/    /' "$dir/run.log" | tail -20
    fail=$((fail + 1))
    return
  fi
  if ! "$compare" "$work/ref/out.dat" "$dir/out.dat" >"$dir/compare.log" 2>&1; then
    echo "FAIL $name: its results differ from gfortran's"
    sed 's/^/    /' "$dir/compare.log"
    fail=$((fail + 1))
    return
  fi
  pass=$((pass + 1))
  [ -n "${VERBOSE:-}" ] && echo "PASS $name"
  return 0
}

# the reference
fresh "$work/ref"
if ! (cd "$work/ref" && make FC="$FC_REF" FFLAGS=-O2 >build.log 2>&1 && ./prog out.dat >run.log 2>&1); then
  echo "modules: the gfortran build of tests/modules failed:"
  sed 's/^/    /' "$work/ref/build.log" "$work/ref/run.log" | tail -20
  exit 1
fi

for order in forward reverse shuffled; do
  srcs=${!order}
  check "make, $order" "$work/make-$order" make FC="$S2S" FFLAGS="--emulate -O2" SRCS="$srcs"
  check "make -j2, $order" "$work/make-j2-$order" make -j2 FC="$S2S" FFLAGS="--emulate -O2" SRCS="$srcs"
  # shellcheck disable=SC2086
  check "one command, $order" "$work/one-$order" "$S2S" --emulate -O2 $srcs -o prog
done
# S2S_FC names the host compiler (as mpif90 would): a wrapper that records
# its commands, which must have compiled and linked, with the module directory
cat >"$work/host-fc" <<WRAP
#!/bin/sh
echo "\$*" >>"$work/host-fc.log"
exec $FC_REF "\$@"
WRAP
chmod +x "$work/host-fc"
rm -f "$work/host-fc.log"
check "make -j2, module directory, S2S_FC" "$work/make-j" env S2S_FC="$work/host-fc" sh -c \
  "mkdir -p mods && make -j2 FC='$S2S' FFLAGS='--emulate -O2 -J mods'"
if ! grep -q -- '-Jmods .*-c .*region.s2s.f90' "$work/host-fc.log" 2>/dev/null ||
   ! grep -q -- '-o prog' "$work/host-fc.log"; then
  echo "FAIL S2S_FC: the host compiler it names did not compile region.s2s.f90 with -Jmods and link:"
  sed 's/^/    /' "$work/host-fc.log" 2>/dev/null
  fail=$((fail + 1))
fi
# the summaries went to the module directory, beside gfortran's .mod files
for f in kinds.s2smod constants.s2smod physics.s2smod kinds.mod; do
  if [ ! -f "$work/make-j/mods/$f" ]; then
    echo "FAIL make -j2, module directory: no mods/$f"
    fail=$((fail + 1))
  fi
done
# a region file compiled before the modules it uses: one error per module,
# at its USE, and none for the names the region takes from them
fresh "$work/missing"
(cd "$work/missing" && "$S2S" --emulate -c region.f90 >build.log 2>&1)
status=$?
if [ $status != 1 ] || [ "$(grep -c 'error:' "$work/missing/build.log")" != 2 ] ||
   ! grep -q "region.f90:4:7: error: module 'kinds' was not found" "$work/missing/build.log" ||
   ! grep -q "region.f90:5:7: error: module 'constants' was not found" "$work/missing/build.log"; then
  echo "FAIL modules not built yet: want exit 1 and one error at each USE, got exit $status:"
  sed 's/^/    /' "$work/missing/build.log"
  fail=$((fail + 1))
else
  pass=$((pass + 1))
fi

# `-o NAME` without -c, NAME not a directory: the program NAME is built, as
# gfortran would (here the files without the main program: the link fails);
# the failure ends with a note saying that -o was taken for the program and
# how to ask for a directory of translations instead (issue 13)
fresh "$work/o-name"
(cd "$work/o-name" && "$S2S" --emulate kinds.f90 constants.f90 helpers.f90 region.f90 -o out \
   >build.log 2>&1)
status=$?
note="s2s-cuda: note: '-o out' without -c names the program to build, as for gfortran, because 'out' is not a directory; to translate into a directory, create it first or write '-o out/'"
if [ $status != 1 ] || [ "$(tail -n 1 "$work/o-name/build.log")" != "$note" ]; then
  echo "FAIL -o NAME with a failed link: want exit 1 and the note last, got exit $status:"
  sed 's/^/    /' "$work/o-name/build.log"
  fail=$((fail + 1))
else
  pass=$((pass + 1))
fi

echo "modules: $pass passed, $fail failed"
[ "$fail" = 0 ]
