#!/usr/bin/env bash
# nvcc_compile.sh — every generated .s2s.cu must compile with nvcc for the
# GPU (sm_90) and with g++ for the emulation, and every generated host file
# with the user's compiler.  Inputs: the samples and the golden generation
# cases (tests/golden/gen/*/in.*).  Exits 77 (skip) when there is no nvcc
# (the emulation builds are then still covered by samples.sh).
#
# Then compiler-driver mode with -Minfo: `s2s-cuda -Minfo -c` of a sample
# kernel must report ptxas's resources per kernel instance (resources.h),
# keep the ptxas lines it asked for out of its output, and pass them through
# (besides the report) when NVCCFLAGS asks for them itself; with -Mfprelaxed nvcc gets
# --use_fast_math.
#
# Strict floating point: `s2s-cuda -Kieee -v -c` runs nvcc with --fmad=false
# --prec-div=true --prec-sqrt=true --ftz=false and reports each kernel; and the
# .cu that -Kieee writes compiles for sm_90, with nvcc's default flags (FMA
# contraction on), to PTX without a single fma instruction, where the default
# translation of the same file has some.
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
S2S=${S2S:-$top_builddir/s2s-cuda}
RT=${S2S_RT_INCLUDEDIR:-$top_srcdir/rt}
FC=${FC:-gfortran}
CC=${CC:-gcc}

if [ -z "${NVCC:-}" ] || ! command -v "$NVCC" >/dev/null 2>&1; then
  echo "nvcc_compile: no nvcc configured; skipping"
  exit 77
fi

work=$top_builddir/tests/work/nvcc
rm -rf "$work"
mkdir -p "$work"
fail=0
count=0

inputs=()
for f in "$top_srcdir"/samples/*/*.f90 "$top_srcdir"/samples/*/*.c "$top_srcdir"/tests/golden/gen/*/in.* \
         "$top_srcdir"/tests/diff/*/kernel.f90 "$top_srcdir"/tests/diff/*/kernel.c; do
  [ -f "$f" ] || continue
  # the multi-file samples need their modules: they build with their
  # Makefiles (tests/samples.sh; --gpu and --build compile them with nvcc)
  case $f in */samples/physics/* | */samples/wsm5/*) continue ;; esac
  grep -qiE '^[[:space:]]*(!\$stencil|#[[:space:]]*pragma[[:space:]]+stencil)' "$f" || continue
  # differential cases the translator must refuse have nothing to compile
  grep -qs '^refuse' "$(dirname "$f")/expect" && continue
  inputs+=("$f")
done

for f in "${inputs[@]}"; do
  name=$(echo "${f#"$top_srcdir"/}" | tr '/' '_')
  dir=$work/$name
  mkdir -p "$dir"
  cp "$f" "$dir/"
  base=$(basename "$f")
  stem=${base%.*}
  ext=${base##*.}
  args=()
  [ -f "$(dirname "$f")/args" ] && read -r -a args <"$(dirname "$f")/args"
  # a differential case's own options (tests/diff.sh: `flags`, e.g. -Msafeptr)
  # (lines starting with # are comments, as diff.sh reads them)
  case $f in */tests/diff/*) [ -f "$(dirname "$f")/flags" ] &&
    read -r -a args < <(grep -v '^#' "$(dirname "$f")/flags") ;; esac
  # C is preprocessed: its headers stay beside the original
  [ "$ext" = c ] && args+=(-I"$(dirname "$f")")
  # a differential case's modules in files of their own: on the command line too
  others=()
  case $f in
    */tests/diff/*/kernel.f90)
      for o in "$(dirname "$f")"/*.f90; do
        case $(basename "$o") in kernel.f90 | main.f90) ;; *) cp "$o" "$dir/"; others+=("$(basename "$o")") ;; esac
      done ;;
  esac
  if ! (cd "$dir" && "$S2S" "${args[@]}" "${others[@]}" "$base" 2>translate.log); then
    echo "FAIL $name: translation failed"; sed 's/^/  /' "$dir/translate.log"; fail=1; continue
  fi
  count=$((count + 1))
  if ! (cd "$dir" && "$NVCC" -arch=sm_90 -I"$RT" -c "$stem.s2s.cu" -o cu.o 2>nvcc.log); then
    echo "FAIL $name: nvcc -arch=sm_90"; sed 's/^/  /' "$dir/nvcc.log" | head -30; fail=1
  fi
  if ! (cd "$dir" && g++ -std=c++14 -DS2S_EMULATE -I"$RT" -x c++ -c "$stem.s2s.cu" -o emu.o 2>gxx.log); then
    echo "FAIL $name: g++ emulation build"; sed 's/^/  /' "$dir/gxx.log" | head -30; fail=1
  fi
  # Host files of Fortran modules need the modules they use: compile with
  # -fsyntax-only where a USE of another sample file would fail.
  case $ext in
    f90|F90)
      # the translation's precision flags apply to the host file too (-fdefault-real-8, ...)
      precision=()
      for a in "${args[@]}"; do case $a in -fdefault-*) precision+=("$a") ;; esac; done
      host_cmd=("$FC" -c -fsyntax-only "${precision[@]}" -I"$dir" "$stem.s2s.$ext") ;;
    c) host_cmd=("$CC" -std=c11 -I"$(dirname "$f")" -c "$stem.s2s.c" -o host.o) ;;
  esac
  if ! (cd "$dir" && "${host_cmd[@]}" 2>host.log); then
    if ! grep -q "Cannot open module file" "$dir/host.log"; then
      echo "FAIL $name: host file does not compile"; sed 's/^/  /' "$dir/host.log" | head -30; fail=1
    fi
  fi
done

echo "nvcc_compile: $count generated files checked"
[ "$count" -gt 0 ] || { echo "nvcc_compile: nothing was translated"; exit 1; }

# ---- compiler-driver mode: the resource lines of -Minfo ----
rdir=$work/driver-resources
mkdir -p "$rdir"
cp "$top_srcdir/tests/golden/gen/fortran-relaxed-fp/in.f90" "$rdir/relax.f90"
resource_re='^relax\.f90:13: info: Kernel relax_r1 \(sm_[0-9]+[a-z]?, (int|long) index\): [0-9]+ registers, [0-9]+ bytes shared, [0-9]+ bytes local \(stack [0-9]+, spill stores [0-9]+, spill loads [0-9]+\); theoretical occupancy [0-9]+% \([0-9]+ of [0-9]+ warps per SM at block 128, limited by [a-z ]+\)$'
if ! (cd "$rdir" && "$S2S" -Minfo -Mfprelaxed -v -c relax.f90 -o relax.o >out.log 2>err.log); then
  echo "FAIL driver-resources: s2s-cuda -Minfo -c failed"; sed 's/^/  /' "$rdir/err.log" | head -30; fail=1
elif [ "$(grep -cE "$resource_re" "$rdir/err.log")" != 2 ]; then
  echo "FAIL driver-resources: no resource line for each instance of relax_r1"; sed 's/^/  /' "$rdir/err.log"; fail=1
elif grep -q '^ptxas info' "$rdir/err.log"; then
  echo "FAIL driver-resources: ptxas's own lines leaked into the output"; sed 's/^/  /' "$rdir/err.log"; fail=1
elif ! grep -qE '(^| )--use_fast_math( |$)' "$rdir/err.log" || ! grep -qE ' -Xptxas -v( |$)' "$rdir/err.log"; then
  echo "FAIL driver-resources: nvcc not run with --use_fast_math -Xptxas -v"; sed 's/^/  /' "$rdir/err.log"; fail=1
elif ! grep -q "^relax\.f90:13:3: info: Relaxed floating point (-Mfprelaxed): fast intrinsics __expf, __logf, __powf, __fdividef in kernel relax_r1" "$rdir/err.log"; then
  echo "FAIL driver-resources: no -Mfprelaxed report line"; sed 's/^/  /' "$rdir/err.log"; fail=1
fi
# ---- strict floating point (-Kieee) ----
sdir=$work/driver-strict
mkdir -p "$sdir"
cp "$top_srcdir/tests/golden/gen/fortran-strict-fp/in.f90" "$sdir/strict.f90"
if ! (cd "$sdir" && "$S2S" -Minfo -Kieee -v -c strict.f90 -o strict.o >out.log 2>err.log); then
  echo "FAIL driver-strict: s2s-cuda -Minfo -Kieee -c failed"; sed 's/^/  /' "$sdir/err.log" | head -30; fail=1
elif ! grep -E '(^| )-arch=' "$sdir/err.log" | grep -qE ' --fmad=false --prec-div=true --prec-sqrt=true --ftz=false( |$)'; then
  echo "FAIL driver-strict: nvcc not run with --fmad=false --prec-div=true --prec-sqrt=true --ftz=false"
  sed 's/^/  /' "$sdir/err.log"; fail=1
elif grep -qE -- '--use_fast_math|--fmad=true' "$sdir/err.log"; then
  echo "FAIL driver-strict: nvcc run with fast math"; sed 's/^/  /' "$sdir/err.log"; fail=1
elif ! grep -q "^strict\.f90:19:5: info: Strict IEEE floating point (-Kieee): no FMA contraction, IEEE division and square root in kernel tendency_r1$" "$sdir/err.log"; then
  echo "FAIL driver-strict: no -Kieee report line"; sed 's/^/  /' "$sdir/err.log"; fail=1
fi
for mode in strict default; do
  mkdir -p "$sdir/$mode"
  flag=(); [ $mode = strict ] && flag=(-Kieee)
  if ! (cd "$sdir/$mode" && "$S2S" "${flag[@]}" ../strict.f90 2>translate.log &&
        "$NVCC" -arch=sm_90 -O3 -I"$RT" -ptx strict.s2s.cu -o strict.ptx 2>nvcc.log); then
    echo "FAIL driver-strict: $mode translation to PTX"; cat "$sdir/$mode"/*.log | sed 's/^/  /' | head -30; fail=1
  fi
done
nfma_strict=$(grep -cE '^[[:space:]]*fma\.' "$sdir/strict/strict.ptx" 2>/dev/null)
nfma_default=$(grep -cE '^[[:space:]]*fma\.' "$sdir/default/strict.ptx" 2>/dev/null)
if [ "${nfma_strict:-x}" != 0 ] || [ "${nfma_default:-0}" = 0 ]; then
  echo "FAIL driver-strict: PTX with nvcc's default --fmad=true: ${nfma_strict:-no} fma instructions from the -Kieee translation (want 0), ${nfma_default:-no} from the default one (want some)"
  fail=1
fi

# asked for by the user: ptxas's lines are theirs, as they come
if ! (cd "$rdir" && NVCCFLAGS="-Xptxas -v" "$S2S" -Minfo -c relax.f90 -o relax2.o >out2.log 2>err2.log); then
  echo "FAIL driver-resources: s2s-cuda -c with NVCCFLAGS='-Xptxas -v' failed"; sed 's/^/  /' "$rdir/err2.log" | head -30; fail=1
elif ! grep -q "^ptxas info *: Used [0-9]* registers" "$rdir/err2.log" || [ "$(grep -cE "$resource_re" "$rdir/err2.log")" != 2 ]; then
  echo "FAIL driver-resources: with NVCCFLAGS='-Xptxas -v', ptxas's lines must pass through, and the report keep its resource lines"
  sed 's/^/  /' "$rdir/err2.log"; fail=1
fi
exit $fail
