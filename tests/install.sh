#!/usr/bin/env bash
# install.sh — compiler-driver mode from an installed tree: `make install`
# into a scratch DESTDIR, then build and run the diffusion sample with the
# installed s2s-cuda (CPU emulation) and compare it with the original; then
# check the other installed files: s2s_compare and the manual pages, the
# runtime through pkg-config (s2s-rt-emu.pc) and through a CMake consumer of
# find_package(s2s-rt) (when pkg-config and cmake are installed).
set -euo pipefail
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
top_srcdir=$(cd "$top_srcdir" && pwd) top_builddir=$(cd "$top_builddir" && pwd) # the checks cd
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

# ---- what else is installed (issue 14, item 6)
prefix=$(dirname "$(dirname "$s2s")")
for f in bin/s2s_compare share/man/man1/s2s-cuda.1 share/man/man1/s2s_compare.1 \
         share/man/man7/s2s-directives.7 lib/pkgconfig/s2s-rt-emu.pc \
         lib/cmake/s2s-rt/s2s-rt-config.cmake lib/cmake/s2s-rt/s2s-rt-config-version.cmake; do
  [ -f "$prefix/$f" ] || { echo "install.sh: $f is not installed under $prefix"; exit 1; }
done
if [ -f "$top_builddir/rt/libs2srt.a" ] && [ ! -f "$prefix/lib/pkgconfig/s2s-rt.pc" ]; then
  echo "install.sh: the GPU runtime is built but lib/pkgconfig/s2s-rt.pc is not installed"; exit 1
fi
echo "-- $prefix/bin/s2s_compare (installed) ref.dat out.dat"
"$prefix/bin/s2s_compare" ref.dat out.dat >/dev/null
for page in share/man/man1/s2s-cuda.1 share/man/man1/s2s_compare.1 share/man/man7/s2s-directives.7; do
  if command -v groff >/dev/null 2>&1; then
    warnings=$(groff -man -Tutf8 -ww -z "$prefix/$page" 2>&1)
    [ -z "$warnings" ] || { echo "install.sh: groff warns about $page:"; echo "$warnings"; exit 1; }
  fi
done

# The installed runtime through pkg-config: the translation's files built by
# hand (g++ in emulation, gfortran), as a build that runs s2s-cuda -o DIR does.
# The .pc files name the tree relative to themselves, so the DESTDIR tree works.
if command -v pkg-config >/dev/null 2>&1; then
  export PKG_CONFIG_PATH=$prefix/lib/pkgconfig
  pkg-config --exists s2s-rt-emu || { echo "install.sh: pkg-config does not find s2s-rt-emu"; exit 1; }
  cflags=$(pkg-config --cflags s2s-rt-emu) && libs=$(pkg-config --libs s2s-rt-emu) || exit 1
  echo "-- pkg-config --cflags --libs s2s-rt-emu: $cflags $libs"
  mkdir -p "$work/pc" && cd "$work/pc"
  cp "$top_srcdir"/samples/diffusion/*.f90 "$top_srcdir"/samples/common/s2s_dump.f90 .
  "$s2s" -o gen/ diffusion.f90 2>/dev/null
  # shellcheck disable=SC2086
  ${CXX:-g++} -x c++ $cflags -c gen/diffusion.s2s.cu -o kernels.o
  # shellcheck disable=SC2086
  "$FC" -O2 s2s_dump.f90 gen/diffusion.s2s.f90 main.f90 kernels.o $libs -o prog
  S2S_EMU_ORDER=shuffle ./prog out.dat >/dev/null
  "$prefix/bin/s2s_compare" "$work/run/ref.dat" out.dat
  if [ -f "$prefix/lib/pkgconfig/s2s-rt.pc" ]; then
    pkg-config --cflags --libs s2s-rt | grep -q -- '-ls2srt ' ||
      { echo "install.sh: pkg-config s2s-rt names no libs2srt"; exit 1; }
  fi
else
  echo "-- no pkg-config: its check is skipped"
fi

# The CMake package: a consumer that finds it, builds the same files with
# s2s::rt_emu and runs them.
if command -v cmake >/dev/null 2>&1; then
  mkdir -p "$work/cmake" && cd "$work/cmake"
  cp "$top_srcdir"/samples/diffusion/*.f90 "$top_srcdir"/samples/common/s2s_dump.f90 .
  "$s2s" -o gen/ diffusion.f90 2>/dev/null
  cat >CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.13)
project(consumer Fortran CXX)
find_package(s2s-rt 0.1 REQUIRED)
if(NOT EXISTS "${S2S_CUDA_EXECUTABLE}")
  message(FATAL_ERROR "S2S_CUDA_EXECUTABLE '${S2S_CUDA_EXECUTABLE}' does not exist")
endif()
set_source_files_properties(gen/diffusion.s2s.cu PROPERTIES LANGUAGE CXX COMPILE_OPTIONS "-xc++")
add_executable(prog s2s_dump.f90 gen/diffusion.s2s.f90 main.f90 gen/diffusion.s2s.cu)
target_link_libraries(prog PRIVATE s2s::rt_emu)
CMAKE
  echo "-- cmake consumer: find_package(s2s-rt) with CMAKE_PREFIX_PATH=$prefix"
  cmake -S . -B build -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_Fortran_COMPILER="$FC" >cmake.log 2>&1 &&
    cmake --build build >>cmake.log 2>&1 || { cat cmake.log; exit 1; }
  S2S_EMU_ORDER=reverse ./build/prog out.dat >/dev/null
  "$prefix/bin/s2s_compare" "$work/run/ref.dat" out.dat
  # a version this runtime is not: refused
  sed -i 's/find_package(s2s-rt 0.1 REQUIRED)/find_package(s2s-rt 9.0 REQUIRED)/' CMakeLists.txt
  if cmake -S . -B build9 -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_Fortran_COMPILER="$FC" >cmake9.log 2>&1; then
    echo "install.sh: find_package(s2s-rt 9.0) succeeded against version $("$s2s" --version)"; exit 1
  fi
else
  echo "-- no cmake: the find_package check is skipped"
fi
echo "install.sh: all checks passed"
