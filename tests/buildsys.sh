#!/usr/bin/env bash
# buildsys.sh — s2s-cuda in the build systems a model uses (issue 14, item 1).
#
# The program of tests/modules/ (a kinds module, a constants module whose
# PARAMETERs the region's kernel uses, a helper outside any module, the
# region, the main program) is built with s2s-cuda as the Fortran compiler:
#   1. a Makefile whose only dependencies are the .d files of -MD -MP: the
#      .d files must name the user's files and the module summaries, never
#      the driver's temporary files; a second make has nothing to do;
#      touching region.f90 rebuilds region.o and main.o; changing a PARAMETER of
#      constants.f90 rebuilds constants.o and the objects of the files that
#      use it (region.o, whose kernel holds the value, and main.o), and the
#      program then gives the new results;
#   2. -MF, -MT and -MQ name the file and the targets; -M, -MM and -E -cpp
#      print what gfortran prints for the same command; -r8 and an unknown
#      vendor flag reach the host compiler (item 2);
#   3. CMake (when installed) with the Makefile generator and with Ninja
#      (when installed): configure, build, run, and the same two edits
#      (touching region.f90 rebuilds region.o only: CMake sees that
#      physics.mod did not change).
# Every program's output is compared with gfortran's build of the same
# sources (s2s_compare); the CUDA half is built for CPU emulation.
#
# Environment (make check sets it): top_srcdir, top_builddir, S2S, FC.
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
S2S=${S2S:-$top_builddir/s2s-cuda}
FC_REF=${FC:-gfortran}
case $FC_REF in *s2s-cuda*) FC_REF=gfortran ;; esac
compare=$top_builddir/tests/s2s_compare
work=$top_builddir/tests/work/buildsys
rm -rf "$work"
mkdir -p "$work"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
# the driver's work directories go here, so that none can be named by a .d file unseen
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR"

command -v "$FC_REF" >/dev/null 2>&1 || { echo "buildsys: no Fortran compiler '$FC_REF': skipped"; exit 77; }
[ -x "$compare" ] || { echo "buildsys: $compare not built (make)"; exit 1; }

sources="s2s_dump.f90 kinds.f90 constants.f90 helpers.f90 region.f90 main.f90"
pass=0
fail=0
failed() {
  echo "FAIL $*"
  fail=$((fail + 1))
}

# fresh DIR: the sources in an empty directory
fresh() {
  rm -rf "$1"
  mkdir -p "$1"
  cp "$top_srcdir"/tests/modules/*.f90 "$top_srcdir"/samples/common/s2s_dump.f90 "$1"/
}

# reference DIR NAME: gfortran's results for the sources of DIR, in $work/NAME.dat
reference() {
  rm -rf "$work/ref-$2"
  mkdir -p "$work/ref-$2"
  (cd "$1" && cp $sources "$work/ref-$2"/) &&
    (cd "$work/ref-$2" && "$FC_REF" -O2 $sources -o prog >build.log 2>&1 &&
       ./prog "$work/$2.dat" >run.log 2>&1) ||
    { echo "buildsys: the gfortran build failed:"; cat "$work/ref-$2"/*.log; exit 1; }
}

# same_results NAME PROG REF: run PROG, compare with reference REF
same_results() {
  local name=$1 prog=$2 ref=$3
  if ! "$prog" "$work/$name.dat" >"$work/$name.run.log" 2>&1; then
    failed "$name: the program failed"
    sed 's/^/    /' "$work/$name.run.log" | tail -10
  elif ! "$compare" "$work/$ref.dat" "$work/$name.dat" >"$work/$name.compare.log" 2>&1; then
    failed "$name: its results differ from gfortran's"
    sed 's/^/    /' "$work/$name.compare.log"
  else
    pass=$((pass + 1))
  fi
}

# rebuilt NAME STAMP DIR WANT...: the objects (by stem) under DIR newer than
# STAMP are exactly WANT
rebuilt() {
  local name=$1 stamp=$2 dir=$3
  shift 3
  local got want
  got=$(find "$dir" -name '*.o' -newer "$stamp" | sed 's|.*/||; s|\.f90\.o$||; s|\.o$||' | sort | tr '\n' ' ')
  want=$(printf '%s\n' "$@" | sort | tr '\n' ' ')
  if [ "$got" != "$want" ]; then
    failed "$name: rebuilt [$got], want [$want]"
  else
    pass=$((pass + 1))
  fi
}

# edit_constant DIR: a new value of the PARAMETER cp (the region's kernel uses it)
edit_constant() {
  sed -i 's/cp = 1004.5_kind_phys/cp = 1010.25_kind_phys/' "$1/constants.f90"
  grep -q 1010.25 "$1/constants.f90" || { echo "buildsys: could not edit constants.f90"; exit 1; }
}

# gfortran's results before and after the edit of constants.f90
fresh "$work/sources"
reference "$work/sources" before
edit_constant "$work/sources"
reference "$work/sources" after

# ------------------------------------------------------------ 1. make with -MD -MP
mk=$work/make
fresh "$mk"
cat >"$mk/Makefile" <<'EOF'
OBJS = s2s_dump.o kinds.o constants.o helpers.o region.o main.o
prog: $(OBJS)
	$(FC) $(FFLAGS) $(OBJS) -o $@
%.o: %.f90
	$(FC) $(FFLAGS) -MD -MP -c $< -o $@
-include $(OBJS:.o=.d)
EOF
build() { make -C "$1" FC="$S2S" FFLAGS="--emulate -O2" "${@:2}" >"$1/build.log" 2>&1; }
if ! build "$mk"; then
  failed "make -MD: the build failed"
  sed 's/^/    /' "$mk/build.log" | tail -20
else
  same_results make-md "$mk/prog" before
  if grep -l "$TMPDIR\|s2s-[A-Za-z0-9]\{6\}" "$mk"/*.d >/dev/null; then
    failed "make -MD: a .d file names the driver's temporary files:"
    grep -H "$TMPDIR\|s2s-[A-Za-z0-9]\{6\}" "$mk"/*.d | sed 's/^/    /'
  fi
  # region.o: its source, the .mod files gfortran lists, and the summaries it read
  for want in region.f90 kinds.mod constants.mod kinds.s2smod constants.s2smod helper_sqrt.s2sproc; do
    grep -qF "$want" "$mk/region.d" || failed "make -MD: region.d does not name $want"
  done
  # -MP: a phony target for each summary, so that a deleted one stops no build
  grep -qx 'helper_sqrt.s2sproc:' "$mk/region.d" || failed "make -MD -MP: no phony target helper_sqrt.s2sproc"
  # what a file writes is a target of its rule (as gfortran's .mod files are)
  grep -q '^constants\.o constants\.s2smod: constants\.f90' "$mk/constants.d" ||
    failed "make -MD: constants.d does not make constants.s2smod a target"
  if make -q -C "$mk" FC="$S2S" FFLAGS="--emulate -O2" >/dev/null 2>&1; then pass=$((pass + 1)); else
    failed "make -MD: a second make would rebuild"
  fi
  touch "$mk/stamp"
  touch "$mk/region.f90"
  # main.o too: gfortran's rule makes physics.mod a target of region.o's, which
  # make (unlike ninja and CMake's makefiles) cannot tell was left unchanged
  build "$mk" && rebuilt "make -MD, region.f90 touched" "$mk/stamp" "$mk" region main ||
    failed "make -MD: the rebuild failed"
  touch "$mk/stamp"
  edit_constant "$mk"
  if build "$mk"; then
    rebuilt "make -MD, constants.f90 changed" "$mk/stamp" "$mk" constants region main
    same_results make-md-after "$mk/prog" after
  else
    failed "make -MD: the rebuild after the edit failed"
    sed 's/^/    /' "$mk/build.log" | tail -20
  fi
fi

# ------------------------------------------------------------ 2. -MF -MT -MQ, -M -MM -E
opt=$work/options
fresh "$opt"
(
  cd "$opt" || exit 1
  for f in kinds constants helpers; do "$S2S" --emulate -c $f.f90 || exit 1; done
  mkdir -p obj deps
  "$S2S" --emulate -c region.f90 -o obj/region.o -MD >log 2>&1 || { cat log; exit 1; }
  [ -f obj/region.d ] || { echo "-MD -o obj/region.o wrote no obj/region.d"; exit 1; }
  grep -q '^obj/region\.o' obj/region.d || { echo "obj/region.d: the target is not obj/region.o"; cat obj/region.d; exit 1; }
  "$S2S" --emulate -c region.f90 -o obj/r.o -MMD -MF deps/r.dep -MT 'my target' -MQ 'cost$' >log 2>&1 ||
    { cat log; exit 1; }
  [ ! -f obj/r.d ] || { echo "-MF deps/r.dep also wrote obj/r.d"; exit 1; }
  head -n 1 deps/r.dep | grep '^my target ' | grep -q ' cost\$\$[ :]' ||
    { echo "-MT 'my target' -MQ 'cost\$': wrong targets:"; cat deps/r.dep; exit 1; }
  grep -q 'kinds.s2smod' deps/r.dep || { echo "-MMD -MF: no summary in deps/r.dep"; exit 1; }
  # the commands that only look at the source print what gfortran prints
  for args in "-cpp -M region.f90" "-cpp -MM constants.f90" "-E -cpp region.f90" "-cpp -M -MT x.o kinds.f90"; do
    # shellcheck disable=SC2086
    "$S2S" $args >s2s.out 2>s2s.err || { echo "s2s-cuda $args failed:"; cat s2s.err; exit 1; }
    # shellcheck disable=SC2086
    "$FC_REF" $args >ref.out 2>/dev/null
    cmp -s s2s.out ref.out || { echo "s2s-cuda $args differs from $FC_REF's:"; diff ref.out s2s.out | head; exit 1; }
    [ ! -s s2s.err ] || { echo "s2s-cuda $args printed:"; cat s2s.err; exit 1; }
  done
  # -E -o FILE, as CMake's Ninja generator preprocesses
  "$S2S" -cpp -E region.f90 -o region-pp.f90 && "$FC_REF" -cpp -E region.f90 -o ref-pp.f90 &&
    cmp -s region-pp.f90 ref-pp.f90 || { echo "-E -o: not gfortran's output"; exit 1; }
  # -E on a .f90 without -cpp: refused as gfortran refuses it
  if "$S2S" -E region.f90 >/dev/null 2>&1; then echo "-E without -cpp succeeded, gfortran refuses it"; exit 1; fi
  # the precision flags reach the host compiler in its spelling (-r8 is
  # gfortran's two), an unknown vendor flag as it is, with a note
  cat >host-fc <<WRAP
#!/bin/sh
echo "\$*" >>host-fc.log
for a; do shift; [ "\$a" = -traceback ] || set -- "\$@" "\$a"; done
exec $FC_REF "\$@"
WRAP
  chmod +x host-fc
  S2S_FC=./host-fc "$S2S" --emulate -r8 -traceback -c region.f90 -o r8.o 2>log || { cat log; exit 1; }
  grep -q "note: '-traceback' is not an s2s-cuda option; it is passed to the host compiler" log ||
    { echo "-traceback: no note"; cat log; exit 1; }
  grep -q -- '-fdefault-real-8 -fdefault-double-8 -traceback .*-c .*region.s2s.f90' host-fc.log ||
    { echo "-r8 -traceback did not reach the host compiler as gfortran flags:"; cat host-fc.log; exit 1; }
  exit 0
) >"$opt/test.log" 2>&1
if [ $? = 0 ]; then pass=$((pass + 1)); else
  failed "dependency options:"
  sed 's/^/    /' "$opt/test.log" | tail -20
fi

# ------------------------------------------------------------ 3. CMake
# cmake_build NAME GENERATOR: configure and build tests/cmake with s2s-cuda,
# compare, touch region.f90, change constants.f90, rebuild each time
cmake_build() {
  local name=$1 gen=$2 dir=$work/$1
  fresh "$dir/src"
  # Ninja's objects are named x.f90.o under CMakeFiles/; make's too
  if ! cmake -S "$top_srcdir/tests/cmake" -B "$dir/build" -G "$gen" \
       -DCMAKE_Fortran_COMPILER="$S2S" -DCMAKE_Fortran_FLAGS="--emulate -O2" \
       -DS2S_TEST_SOURCES="$dir/src" >"$dir/configure.log" 2>&1; then
    failed "$name: cmake could not configure"
    sed 's/^/    /' "$dir/configure.log" | tail -20
    return
  fi
  if ! cmake --build "$dir/build" >"$dir/build.log" 2>&1; then
    failed "$name: the build failed"
    sed 's/^/    /' "$dir/build.log" | tail -20
    return
  fi
  same_results "$name" "$dir/build/prog" before
  touch "$dir/stamp"
  touch "$dir/src/region.f90"
  cmake --build "$dir/build" >"$dir/build.log" 2>&1 &&
    rebuilt "$name, region.f90 touched" "$dir/stamp" "$dir/build" region ||
    failed "$name: the rebuild failed"
  touch "$dir/stamp"
  edit_constant "$dir/src"
  if cmake --build "$dir/build" >"$dir/build.log" 2>&1; then
    rebuilt "$name, constants.f90 changed" "$dir/stamp" "$dir/build" constants region main
    same_results "$name-after" "$dir/build/prog" after
  else
    failed "$name: the rebuild after the edit failed"
    sed 's/^/    /' "$dir/build.log" | tail -20
  fi
}

if command -v cmake >/dev/null 2>&1; then
  cmake_build cmake-make "Unix Makefiles"
  if command -v ninja >/dev/null 2>&1; then
    cmake_build cmake-ninja Ninja
  else
    echo "buildsys: no ninja: the CMake Ninja build is skipped"
  fi
else
  echo "buildsys: no cmake: the CMake builds are skipped (./quickstart.sh installs cmake and ninja-build)"
fi

echo "buildsys: $pass passed, $fail failed"
[ "$fail" = 0 ]
