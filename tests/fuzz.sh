#!/usr/bin/env bash
# fuzz.sh — build the libFuzzer harnesses and fuzz the translator.
#
#   tests/fuzz.sh [--time SECONDS] [--build-only] [HARNESS...] [-- LIBFUZZER-ARGS]
#
# HARNESS is directive (the directive parser, tests/fuzz/fuzz_directive.c),
# fortran or c (the whole translator on a Fortran or C file,
# tests/fuzz/fuzz_translate.c); default: all three, one after the other,
# each for --time seconds (default 60).  `make fuzz` runs this with
# FUZZ_TIME seconds; for a long run:
#
#   nice -n 10 tests/fuzz.sh --time 7200 fortran     (from the build directory,
#                                                     or with top_builddir=DIR)
#
# Built with $FUZZ_CC (default clang) -fsanitize=fuzzer,address,undefined
# and the IR verifier on, from the sources and flags of libs2s.a
# (`make fuzz-sources`), into BUILD/fuzz/; objects are rebuilt when their
# source or a header they include is newer.  Each harness starts from
#   BUILD/fuzz/corpus/HARNESS/   what earlier runs found (kept between runs)
#   BUILD/fuzz/seeds/HARNESS/    the repository's inputs: golden and diff
#                                cases, samples, random-test programs (for
#                                the directive parser, their directive lines)
# with the words of tests/fuzz/*.dict.  A crash, a sanitizer report, a leak,
# an internal error or an input slower than 10 s is written to
# BUILD/fuzz/artifacts/HARNESS/ and fails the run (exit 1).  Reproduce one
# with `BUILD/fuzz/fuzz_HARNESS FILE` (S2S_FUZZ_VERBOSE=1 shows the
# translator's messages); once fixed, it becomes a golden case
# (tests/golden/fuzz/).  The last lines of each run's log are printed:
# libFuzzer's final stats (number_of_executed_units, ...).
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$PWD}
FUZZ_CC=${FUZZ_CC:-clang}
time=60
build_only=false
harnesses=()
extra=()
while [ $# -gt 0 ]; do
  case $1 in
    --time) time=$2; shift ;;
    --time=*) time=${1#--time=} ;;
    --build-only) build_only=true ;;
    directive|fortran|c) harnesses+=("$1") ;;
    --) shift; extra=("$@"); break ;;
    -h|--help) sed -n '2,30s/^# \{0,1\}//p' "$0"; exit 0 ;;
    *) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#harnesses[@]} -gt 0 ] || harnesses=(directive fortran c)

die() { echo "fuzz.sh: $*" >&2; exit 2; }

[ -f "$top_builddir/Makefile" ] ||
  die "no configured build in '$top_builddir' (run it from the build directory, or set top_builddir)"
command -v "$FUZZ_CC" >/dev/null ||
  die "'$FUZZ_CC' not found: the fuzzing harnesses need clang with libFuzzer (apt-get install clang), or FUZZ_CC=clang-NN"

out=$top_builddir/fuzz
mkdir -p "$out/obj"

# ------------------------------------------------------------------ build

vars=$(make -s -C "$top_builddir" fuzz-sources) || die "make fuzz-sources failed"
get() { sed -n "s/^$1=//p" <<<"$vars"; }
read -r -a s2s_sources <<<"$(get S2S_SOURCES | tr ' ' '\n' | grep '\.c$' | tr '\n' ' ')"
read -r -a ts_sources <<<"$(get TS_SOURCES)"
read -r -a s2s_cppflags <<<"$(get S2S_CPPFLAGS)"
read -r -a ts_cppflags <<<"$(get TS_CPPFLAGS)"
# The flags are relative to the build directory ($(srcdir), -I.).
cd "$top_builddir" || exit 2

sanitize=(-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
cflags=(-std=c11 -g -O1 -fsanitize=fuzzer-no-link "${sanitize[@]}" -DS2S_VERIFY_IR)

# Whether obj is older than its source or any header it included (the
# dependency file clang wrote beside it): an object built against an older
# ir.h reads the IR with the old layout (a struct that grew a field).
stale() { # object
  local f
  [ -f "$1" ] && [ -f "$1.d" ] || return 0
  for f in $(sed -e 's/^[^:]*://' -e 's/\\$//' "$1.d"); do
    [ "$f" -nt "$1" ] && return 0
  done
  return 1
}

compile() { # source object flags...
  local src=$1 obj=$2
  shift 2
  if stale "$obj" || [ "$top_builddir/config.h" -nt "$obj" ]; then
    "$FUZZ_CC" "$@" -MMD -MF "$obj.d" -c "$src" -o "$obj" || return 1
  fi
}

objs=()
pids=()
failed=0
jobs=$(nproc 2>/dev/null || echo 2)
for src in "${s2s_sources[@]}" "${ts_sources[@]}"; do
  obj=$out/obj/$(echo "${src#"$top_srcdir"/}" | tr '/.' '__').o
  objs+=("$obj")
  flags=("${cflags[@]}" "${s2s_cppflags[@]}" -w)
  case " ${ts_sources[*]} " in *" $src "*) flags=("${cflags[@]}" "${ts_cppflags[@]}" -w) ;; esac
  compile "$top_srcdir/$src" "$obj" "${flags[@]}" &
  pids+=($!)
  if [ ${#pids[@]} -ge "$jobs" ]; then
    wait "${pids[0]}" || failed=1
    pids=("${pids[@]:1}")
  fi
done
for p in "${pids[@]}"; do wait "$p" || failed=1; done
[ $failed = 0 ] || die "compiling the translator with $FUZZ_CC failed"
rm -f "$out/libs2s_fuzz.a"
ar cr "$out/libs2s_fuzz.a" "${objs[@]}"

link() { # name source defines...
  local name=$1 src=$2
  shift 2
  "$FUZZ_CC" "${cflags[@]}" -fsanitize=fuzzer "${s2s_cppflags[@]}" "$@" \
    "$top_srcdir/$src" "$out/libs2s_fuzz.a" -lm -o "$out/fuzz_$name" ||
    die "linking fuzz_$name failed (does $FUZZ_CC have libFuzzer? apt-get install clang)"
}
link directive tests/fuzz/fuzz_directive.c
link fortran tests/fuzz/fuzz_translate.c
link c tests/fuzz/fuzz_translate.c -DFUZZ_C
$build_only && { echo "fuzz.sh: built $out/fuzz_directive, fuzz_fortran, fuzz_c"; exit 0; }

# ------------------------------------------------------------------ seeds

# The repository's inputs, as a new user's file would be.
inputs() { # extension pattern
  find "$top_srcdir/tests/golden" "$top_srcdir/tests/diff" "$top_srcdir/samples" \
       "$top_srcdir/tests/random" "$top_srcdir/tests/modules" -type f -name "$1" 2>/dev/null | sort
}

seed_dir() { # harness: fills $out/seeds/HARNESS anew, prints its path
  local d=$out/seeds/$1 f n=0
  rm -rf "$d"
  mkdir -p "$d"
  case $1 in
    fortran) inputs '*.[fF]90' | while read -r f; do n=$((n + 1)); cp "$f" "$d/$n.f90"; done ;;
    c) inputs '*.c' | while read -r f; do n=$((n + 1)); cp "$f" "$d/$n.c"; done ;;
    directive)
      # each file's directive lines (with their continuations), behind the
      # language byte: 0 Fortran, 1 C
      inputs '*.[fF]90' | while read -r f; do
        n=$((n + 1))
        { printf '\0'; grep -i -A3 '^[[:space:]]*!\$stencil' "$f" | grep -v '^--$'; } >"$d/f$n" || rm -f "$d/f$n"
      done
      inputs '*.c' | while read -r f; do
        n=$((n + 1))
        { printf '\1'; grep -A2 '^[[:space:]]*#[[:space:]]*pragma[[:space:]]*stencil' "$f" | grep -v '^--$'; } >"$d/c$n" || rm -f "$d/c$n"
      done ;;
  esac
  echo "$d"
}

# ------------------------------------------------------------------ run

status=0
for h in "${harnesses[@]}"; do
  corpus=$out/corpus/$h
  artifacts=$out/artifacts/$h
  mkdir -p "$corpus" "$artifacts"
  seeds=$(seed_dir "$h")
  dict=$out/$h.dict
  case $h in
    directive) cat "$top_srcdir/tests/fuzz/directive.dict" >"$dict" ;;
    fortran) cat "$top_srcdir/tests/fuzz/directive.dict" "$top_srcdir/tests/fuzz/fortran.dict" >"$dict" ;;
    c) cat "$top_srcdir/tests/fuzz/directive.dict" "$top_srcdir/tests/fuzz/c.dict" >"$dict" ;;
  esac
  log=$out/$h.log
  cmd=("$out/fuzz_$h" -max_total_time="$time" -timeout=10 -rss_limit_mb=4096 -max_len=16384
       -dict="$dict" -artifact_prefix="$artifacts/" -print_final_stats=1 "${extra[@]}"
       "$corpus" "$seeds")
  echo "== fuzz $h for ${time}s: ${cmd[*]}"
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} "${cmd[@]}" >"$log" 2>&1
  rc=$?
  grep -E '^(#[0-9]+[[:space:]]+DONE|stat::number_of_executed_units|stat::peak_rss_mb|Done [0-9]+ runs)' "$log"
  if [ $rc != 0 ]; then
    status=1
    echo "FAIL fuzz $h (exit $rc): see $log; the input is in $artifacts/"
    grep -E -m5 'ERROR|SUMMARY|internal error|Test unit written' "$log" | sed 's/^/  /'
  fi
done
exit $status
