#!/usr/bin/env bash
# diff.sh — differential tests of loop restructuring: small programs whose
# regions need loops interchanged, fused, split or kept sequential, each built
# as the plain original and as s2s-cuda's translation (CPU emulation), run,
# and compared array by array.  A translation that gives other numbers than
# the original, or other numbers when the emulated threads run in another
# order, is a wrong translation.
#
#   diff.sh [-v] [CASE...]     run the named cases (default: every directory
#                              under tests/diff/ that holds an `expect` file)
#   -v                         print every case's log, not only a failing one's
#   --build DIR                for the `translate` cases: the reference's dump
#                              (ref.dat, made here), a GPU build of the
#                              translation and s2s_compare into DIR/<case>/,
#                              with DIR/run.sh and the shared libraries they
#                              need, to carry to a GPU machine without
#                              compilers; there `./run.sh` runs and compares
#                              every case, S2S_COMPUTE_SANITIZER="memcheck
#                              racecheck" ./run.sh also under compute-sanitizer
#
# A case is a directory tests/diff/<case>/ with
#   the sources              Fortran (.f90) or C (.c, .h); s2s_dump.f90,
#                            s2s_dump.c and s2s_dump.h come from samples/common/;
#                            a file of tests/diff/common/ (diff_util.f90, the
#                            drivers' shared set-up and checks) comes from there
#                            when `files` names it
#   files                    the sources in build order, on one line, e.g.
#                            `s2s_dump.f90 diff_util.f90 kernel.f90 main.f90`
#   expect                   `translate`: the translation must build, and its
#                            output must match the original's with the threads
#                            in forward, reverse and shuffled order
#                            (S2S_EMU_ORDER unset, reverse, shuffle), and in
#                            forward order under S2S_EMU_CHECK=race, which
#                            must report no race; under autocompare and
#                            host fallback as well (see the steps below);
#                            `refuse: TEXT`: s2s-cuda must exit 1 with TEXT in
#                            its stderr and write no output file;
#                            `race: TEXT`: the translation must build (a wrong
#                            one the directives ask for) and its run under
#                            S2S_EMU_CHECK=race exit 1 with TEXT on stderr;
#                            `either` (generated cases, tests/random.sh):
#                            `translate`, or a refusal (exit 1 with an error
#                            message and no program built)
#   compare                  optional: more s2s_compare options (one line)
#   emulation-only           optional: why the case cannot run on a GPU (one
#                            line; its host code reads device memory, which
#                            only the emulation's is); --build skips it
#   autocompare              optional: settings for the autocompare run, one
#                            VAR=VALUE per line (e.g. S2S_AUTOCOMPARE_ATOL=1e-11
#                            where a reduction's order moves the last bits)
#   env                      optional: VAR=VALUE words for every run of the
#                            translation (run-time settings it is written for)
#   flags                    optional: more s2s-cuda options for the translation
#                            (one line), e.g. -Mfprelaxed
#   sources                  optional: the name of another case whose sources
#                            (and `files`) this one uses, the same program
#                            translated another way (with its own `flags`);
#                            sources of the case's own directory replace those
#                            of the same name (a kernel in another spelling);
#                            a path such as ../../samples/thomas names a sample
#   feedback                 optional, for `translate`: one extended regular
#                            expression (grep -E) per line that must match a
#                            line of the -Minfo report (the shape the case is
#                            written for: which kernels, which loop on
#                            threadIdx.x); a line `! RE` must match no line
#   timing                   optional, for `translate`: the same, against the
#                            S2S_TIME=1 report of the run in forward thread
#                            order (which data each region, update, enter or
#                            exit data moved, and how often)
# Lines starting with # in these files are comments.
# Every program is run as `./ref ref.dat` and `./prog out.dat`; it writes its
# output arrays with s2s_dump and checks its own results (a reference that
# stops with a nonzero status fails the case, whatever is expected).
#
# Steps of a case, in $top_builddir/tests/work/diff/<case>/ (log: case.log):
#   $FC -O2 FILES -o ref   (C: $CC -O2 -std=c11 FILES -lm -o ref; -ffp-contract=off
#                          too when `flags` has -Kieee or --strict-fp; the precision
#                          flags of `flags`, -fdefault-real-8, -fdefault-double-8 and
#                          -r8, too); ./ref ref.dat
#   translate: $S2S --emulate -Minfo -O2 FILES [-lm] -o prog, its feedback
#              report in the log; ./prog out-ORDER.dat for each thread order
#              (forward, reverse, shuffle) and once more in forward order
#              with the race check (S2S_EMU_CHECK=race: no report, status 0);
#              once with S2S_AUTOCOMPARE=1 in reverse order (every region
#              compared with its host pass, none FAILED) and once with
#              S2S_DEVICE=host (host fallback: the original loops);
#              s2s_compare ref.dat out-ORDER.dat; then the `feedback` checks
#   race:      the same translation; its run with S2S_EMU_CHECK=race exits 1
#              with TEXT on stderr, and its run with S2S_AUTOCOMPARE=1 in
#              reverse order reports the region FAILED
#   refuse:    the same s2s-cuda command, and `$S2S -Minfo FILES` (translation
#              only) in an empty directory: both exit 1 with TEXT in stderr,
#              no prog, no *.s2s.* file (the module summaries *.s2smod and
#              *.s2sproc of the files that did translate are expected)
#
# Environment (as for tests/samples.sh; make check sets it): top_srcdir,
# top_builddir, S2S, CC, FC, CXX.  Also S2S_TEST_TIMEOUT (seconds per program
# run, default 300), S2S_COMPARE_ARGS (more s2s_compare options for every
# case), S2S_DIFF_DIR (the directory of the cases, default tests/diff).
# Output: one PASS/FAIL line per case (a failing case's log after it), then
# a summary.  Exit status: 0 every case passed, 1 a failure, 2 usage.
set -uo pipefail

# gfortran's main-program allocations are reported as leaks in a sanitizer
# build of the runtime; the translator's own leaks are the unit tests' job.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}

usage() {
  sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
}

verbose=0
selected=()
build_dir=
while [ $# -gt 0 ]; do
  case $1 in
    -v | --verbose) verbose=1 ;;
    --build)
      [ $# -ge 2 ] || { echo "diff.sh: --build needs a directory" >&2; exit 2; }
      build_dir=$2
      shift ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "diff.sh: unknown option '$1' (try --help)" >&2; exit 2 ;;
    *) selected+=("$1") ;;
  esac
  shift
done

# ---- configuration ----------------------------------------------------------

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top_srcdir=$(cd "${top_srcdir:-$here/..}" && pwd)
top_builddir=$(cd "${top_builddir:-$top_srcdir}" && pwd)
CC=${CC:-gcc}
FC=${FC:-gfortran}
CXX=${CXX:-g++}
export CC FC CXX

if [ -z "${S2S:-}" ]; then
  S2S=$top_builddir/s2s-cuda
  [ -x "$S2S" ] || [ ! -x "$top_builddir/translator/s2s-cuda" ] || S2S=$top_builddir/translator/s2s-cuda
fi
# A relative path names a file from here: make it absolute, the steps cd.
case $S2S in */*) [ ! -d "$(dirname "$S2S")" ] || S2S=$(cd "$(dirname "$S2S")" && pwd)/$(basename "$S2S") ;; esac

case_root=$(cd "${S2S_DIFF_DIR:-$top_srcdir/tests/diff}" && pwd) || exit 2
# The drivers' shared sources: the cases' own common/, else tests/diff/common.
common_dir=$case_root/common
[ -d "$common_dir" ] || common_dir=$top_srcdir/tests/diff/common
timeout_s=${S2S_TEST_TIMEOUT:-300}
work_root=$top_builddir/tests/work/diff

if [ ! -x "$S2S" ] && ! command -v "$S2S" >/dev/null 2>&1; then
  echo "diff: s2s-cuda not found at '$S2S' (build it with make, or set S2S)"
  exit 1
fi

compare=$top_builddir/tests/s2s_compare
if [ ! -x "$compare" ]; then
  mkdir -p "$work_root"
  compare=$work_root/s2s_compare
  echo "diff: building s2s_compare (not built by make): $CC -O2 -std=c11 tests/s2s_compare.c -lm"
  # shellcheck disable=SC2086
  $CC -O2 -std=c11 "$top_srcdir/tests/s2s_compare.c" -lm -o "$compare" || exit 1
fi

if [ ${#selected[@]} -eq 0 ]; then
  for d in "$case_root"/*/; do
    d=${d%/}
    [ -f "$d/expect" ] && selected+=("$(basename "$d")")
  done
fi
if [ ${#selected[@]} -eq 0 ]; then
  echo "diff: no cases under $case_root"
  exit 1
fi

# ---- helpers ----------------------------------------------------------------

# shellcheck disable=SC2317  # called through run_logged
with_timeout() {
  if command -v timeout >/dev/null 2>&1; then timeout "$timeout_s" "$@"; else "$@"; fi
}

# The first line of FILE that is neither blank nor a comment.
first_line() {
  sed -n '/^[[:space:]]*#/d; /^[[:space:]]*$/d; p' "$1" | head -n 1
}

# log TEXT...: a line into the case log.
log() { printf '%s\n' "$*" >>"$case_log"; }

# run_logged LABEL COMMAND...: run COMMAND, its stdout and stderr into the
# case log (indented); sets $rc.
run_logged() {
  local label=$1
  shift
  log "-- $label: $*"
  rc=0
  "$@" >step.out 2>&1 || rc=$?
  sed 's/^/    /' step.out >>"$case_log"
  [ $rc -eq 0 ] || log "   (exit $rc$([ $rc -eq 124 ] && echo ", timed out after ${timeout_s}s"))"
}

# check_patterns NAME LOG WHAT: each line of the case's file NAME (when it
# has one) is an extended regular expression that must match a line of LOG
# (`! RE`: must match none); on a miss, sets $why (saying WHAT) and fails.
# Uses the caller's $src and $case_log.
check_patterns() {
  local name=$1 against=$2 what=$3 re missing=()
  [ -f "$src/$name" ] || return 0
  while IFS= read -r re; do
    case $re in '' | '#'*) continue ;; esac
    if [ "${re#! }" != "$re" ]; then
      grep -qE -- "${re#! }" "$against" && missing+=("unwanted /${re#! }/")
    else
      grep -qE -- "$re" "$against" || missing+=("no /$re/")
    fi
  done <"$src/$name"
  if [ ${#missing[@]} -gt 0 ]; then
    log "-- $name checks ($src/$name) failed:"
    printf '    %s\n' "${missing[@]}" >>"$case_log"
    why=$(printf '%s; ' "${missing[@]}")
    why="outputs match, but $what: ${why%; }"
    return 1
  fi
  log "-- $name checks ($src/$name): ok"
}

# Files under the current directory, for the "no output files" check; the
# summaries of the modules and procedures of the files that translated
# (s2s-cuda leaves them, as the compiler leaves its .mod files) do not count.
file_list() { find . -type f ! -name '*.s2smod' ! -name '*.s2sproc' | LC_ALL=C sort; }

# ---- --build DIR: GPU builds to carry ----------------------------------------

# build_for_gpu CASE EXPECT COMPARE_ARGS (in the case's work directory, the
# reference already run): a GPU build of a `translate` case into
# $build_dir/CASE, and its line in run.sh.  Other cases are skipped.
build_for_gpu() {
  local name=$1 expect=$2 extra=$3
  if [ "$expect" != translate ]; then
    log "-- not a translate case: nothing to build for the GPU"
    return 0
  fi
  if [ -f "$src/emulation-only" ]; then
    log "-- emulation only: $(cat "$src/emulation-only")"
    return 0
  fi
  run_logged "translate and build for the GPU" "$S2S" -Minfo -O2 "${flags[@]}" "${srcs[@]}" "${libs[@]}" -o prog
  if [ $rc -ne 0 ]; then
    why="GPU build failed (exit $rc): $(grep -m 1 -E 'error' step.out || tail -n 1 step.out)"
    return 1
  fi
  mkdir -p "$build_dir/$name"
  cp prog ref.dat "$compare" "$build_dir/$name/"
  [ -f "$src/timing" ] && cp "$src/timing" "$build_dir/$name/"
  [ -f "$src/env" ] && cp "$src/env" "$build_dir/$name/"
  echo "run_one $name $extra" >>"$build_dir/run.sh"
}

write_run_sh_head() {
  cat >"$build_dir/run.sh" <<'RUN'
#!/bin/sh
# run.sh — written by tests/diff.sh --build.  Runs each case's translation
# (prog, a GPU build) here and compares its dump with the reference's
# (ref.dat, made where it was built); a case with a `timing` file runs with
# S2S_TIME=1 and its report must match the file's patterns; a case with an
# `env` file runs with its VAR=VALUE words in the environment.
#   S2S_COMPUTE_SANITIZER="memcheck racecheck" ./run.sh   also under compute-sanitizer
cd "$(dirname "$0")" || exit 1
top=$PWD
LD_LIBRARY_PATH=$top/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
passed=0
failed=0

run_one() {
  name=$1
  shift
  ok=1
  cd "$top/$name" || return
  echo "== $name"
  # a case with a `timing` file: its patterns against the S2S_TIME report
  timed=
  [ -f timing ] && timed="S2S_TIME=1"
  settings=
  [ -f env ] && settings=$(grep -v '^#' env)
  if ! env $settings $timed ./prog out.dat >run.log 2>&1; then cat run.log; echo "$name: run FAILED"; ok=0
  elif ! ./s2s_compare ref.dat out.dat "$@"; then ok=0
  elif [ -f timing ]; then
    while IFS= read -r re; do
      case $re in
        '' | '#'*) ;;
        '! '*) if grep -qE -- "${re#! }" run.log; then echo "$name: timing: unwanted /${re#! }/"; ok=0; fi ;;
        *) if ! grep -qE -- "$re" run.log; then echo "$name: timing: no /$re/"; ok=0; fi ;;
      esac
    done <timing
  fi
  for tool in ${S2S_COMPUTE_SANITIZER:-}; do
    env $settings compute-sanitizer --tool "$tool" --error-exitcode 1 ./prog sanitize.dat >sanitize-$tool.log 2>&1 || ok=0
    grep -E "ERROR SUMMARY|RACECHECK SUMMARY" sanitize-$tool.log | sed "s/^/$tool: /"
  done
  if [ $ok = 1 ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "$name: FAILED"; fi
}

RUN
}

write_run_sh_tail() {
  cat >>"$build_dir/run.sh" <<'RUN'

echo
echo "run.sh: $passed passed, $failed failed"
[ $failed -eq 0 ]
RUN
  chmod +x "$build_dir/run.sh"
  mkdir -p "$build_dir/lib"
  local lib
  for lib in $(ldd "$build_dir"/*/prog 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | sort -u); do
    case $(basename "$lib") in
      libc.so* | libm.so* | libpthread.so* | libdl.so* | librt.so* | ld-linux* | libresolv.so* | libcuda.so*) ;;
      *) cp -L "$lib" "$build_dir/lib/" ;;
    esac
  done
}

# ---- one case ---------------------------------------------------------------

# run_case CASE: returns 0 when it passed; $why says why not.
run_case() {
  local name=$1 src=$case_root/$1 dir=$work_root/$1
  why=
  rm -rf "$dir"
  mkdir -p "$dir"
  case_log=$dir/case.log
  : >"$case_log"
  if [ ! -f "$src/files" ] || [ ! -f "$src/expect" ]; then
    why="no 'files' or 'expect' in $src"
    return 1
  fi
  local files expect extra flags=()
  files=$(first_line "$src/files")
  expect=$(first_line "$src/expect")
  extra=
  [ -f "$src/compare" ] && extra=$(first_line "$src/compare")
  # shellcheck disable=SC2207
  [ -f "$src/flags" ] && flags=($(first_line "$src/flags"))
  log "case $name: $src"
  log "files: $files"
  log "expect: $expect"

  # Sources: the case's own; those files of the drivers' shared sources
  # ($common_dir, e.g. diff_util.f90) that `files` names; the dump writer from
  # samples/common.
  local f c_lang=0 from=$src
  [ -f "$src/sources" ] && from=$(dirname "$src")/$(first_line "$src/sources")
  for f in "$from"/*; do
    case $f in *.c | *.h | *.f90 | *.F90 | *.inc) cp "$f" "$dir/" ;; esac
  done
  # with `sources`, the case's own sources replace those of the same name
  # (the same program with one file spelled another way)
  if [ "$from" != "$src" ]; then
    for f in "$src"/*; do
      case $f in *.c | *.h | *.f90 | *.F90 | *.inc) cp "$f" "$dir/" ;; esac
    done
  fi
  cd "$dir" || return 1
  # shellcheck disable=SC2206
  local srcs=($files)
  for f in "${srcs[@]}"; do
    if [ ! -e "$f" ] && [ -f "$common_dir/$f" ]; then cp "$common_dir/$f" .; fi
  done
  for f in "$top_srcdir"/samples/common/*; do
    [ -e "$dir/$(basename "$f")" ] || cp "$f" "$dir/"
  done
  for f in "${srcs[@]}"; do
    [ -f "$f" ] || { why="source $f missing from $src, $common_dir and samples/common"; return 1; }
    case $f in *.c) c_lang=1 ;; esac
  done
  # a Fortran program with C helpers is built by the Fortran compiler
  for f in "${srcs[@]}"; do
    case $f in *.f90 | *.F90) c_lang=0 ;; esac
  done

  # The reference, and its own checks.  A strict floating-point case (-Kieee
  # or --strict-fp in `flags`) compares with a CPU build that contracts
  # nothing either: -ffp-contract=off (x86-64 gcc emits no FMA without -march
  # anyway; aarch64 gcc would).
  local ref_cmd libs=() ref_fp=()
  case " ${flags[*]} " in *" -Kieee "* | *" --strict-fp "*) ref_fp=(-ffp-contract=off) ;; esac
  # The precision of the defaults is the program's, not the translation's:
  # the reference is built with the same flags (NVHPC's -r8 in gfortran's words).
  local f
  for f in "${flags[@]}"; do
    case $f in
      -fdefault-real-8 | -fdefault-double-8) ref_fp+=("$f") ;;
      -r8) ref_fp+=(-fdefault-real-8 -fdefault-double-8) ;;
    esac
  done
  if [ $c_lang = 1 ]; then
    # shellcheck disable=SC2206
    ref_cmd=($CC -O2 -std=c11 "${ref_fp[@]}" "${srcs[@]}" -lm -o ref)
    libs=(-lm)
  else
    # shellcheck disable=SC2206
    ref_cmd=($FC -O2 "${ref_fp[@]}" "${srcs[@]}" -o ref)
  fi
  run_logged "build reference" "${ref_cmd[@]}"
  [ $rc -eq 0 ] || { why="reference build failed (exit $rc)"; return 1; }
  run_logged "run reference" with_timeout ./ref ref.dat
  [ $rc -eq 0 ] || { why="reference run failed (exit $rc): the case itself is wrong"; return 1; }

  if [ -n "$build_dir" ]; then
    build_for_gpu "$name" "$expect" "$extra"
    return
  fi

  local prog_cmd=("$S2S" --emulate -Minfo -O2 "${flags[@]}" "${srcs[@]}" "${libs[@]}" -o prog)
  case $expect in
    translate | either)
      run_logged "translate and build (feedback report)" "${prog_cmd[@]}"
      cp step.out prog.build.log
      if [ "$expect" = either ] && [ $rc -eq 1 ] && grep -q 'error:' step.out && [ ! -e prog ]; then
        log "-- refused: $(grep -m 1 'error:' step.out)"
        refused=1
        return 0
      fi
      if [ $rc -ne 0 ]; then
        why="translation failed (exit $rc): $(grep -m 1 -E 'error:' step.out || tail -n 1 step.out)"
        return 1
      fi
      local order envs label status=0 bad=()
      for order in forward reverse shuffle race autocompare host; do
        envs=(-u S2S_EMU_ORDER -u S2S_EMU_SEED -u S2S_EMU_CHECK)
        [ -f "$src/timing" ] && envs+=(S2S_TIME=1)
        case $order in
          reverse) envs=(-u S2S_EMU_CHECK S2S_EMU_ORDER=reverse) ;;
          shuffle) envs=(-u S2S_EMU_CHECK S2S_EMU_ORDER=shuffle S2S_EMU_SEED=1) ;;
          race) envs=(-u S2S_EMU_ORDER -u S2S_EMU_SEED S2S_EMU_CHECK=race) ;;
          autocompare) envs=(-u S2S_EMU_CHECK -u S2S_EMU_SEED S2S_EMU_ORDER=reverse S2S_AUTOCOMPARE=1)
            # shellcheck disable=SC2207
            [ -f "$src/autocompare" ] && envs+=($(grep -v '^#' "$src/autocompare")) ;;
          host) envs=(-u S2S_EMU_ORDER -u S2S_EMU_SEED -u S2S_EMU_CHECK S2S_DEVICE=host) ;;
        esac
        # shellcheck disable=SC2207
        [ -f "$src/env" ] && envs+=($(grep -v '^#' "$src/env"))
        label="$order thread order"
        [ $order = race ] && label="race check, forward thread order"
        [ $order = autocompare ] && label="autocompare S2S_AUTOCOMPARE=1, reverse thread order"
        [ $order = host ] && label="host fallback S2S_DEVICE=host"
        run_logged "run translation ($label)" with_timeout env "${envs[@]}" ./prog "out-$order.dat"
        if [ $rc -ne 0 ]; then
          status=1 bad+=("$order: run exit $rc$(grep -m 1 -o 'race on [^:]*' step.out | sed 's/^/: /')")
          continue
        fi
        [ $order = forward ] && cp step.out timing.log
        # Autocompare: every region compared, none out of tolerance (the
        # dumps then hold the host pass's values); host fallback: the notice.
        if [ $order = autocompare ] && ! grep -qE '^s2s autocompare: [1-9][0-9]* regions? compared, 0 FAILED' step.out; then
          status=1 bad+=("autocompare: $(grep -m 1 -E 's2s autocompare: |FAILED' step.out || echo 'no summary')")
        fi
        if [ $order = host ] && ! grep -qF 'S2S_DEVICE=host: the regions run their original loops on the host' step.out; then
          status=1 bad+=("host: no host-fallback notice")
        fi
        # shellcheck disable=SC2086
        run_logged "compare ($label)" "$compare" ref.dat "out-$order.dat" $extra ${S2S_COMPARE_ARGS:-}
        if [ $rc -ne 0 ]; then status=1 bad+=("$order: outputs differ"); fi
      done
      if [ $status -ne 0 ]; then
        why=$(printf '%s; ' "${bad[@]}")
        why=${why%; }
        return 1
      fi
      # The shape of the translation, from its feedback report; the data it
      # moves, from the S2S_TIME=1 report of the forward run.
      check_patterns feedback prog.build.log "the feedback report has the wrong shape" || return 1
      check_patterns timing timing.log "the S2S_TIME report shows the wrong data movement" || return 1
      ;;
    race:*)
      # A wrong translation the user asked for (a false `independent`): it
      # builds, and the race check stops its run with TEXT.
      local text=${expect#race:}
      text=${text# }
      run_logged "translate and build (feedback report)" "${prog_cmd[@]}"
      cp step.out prog.build.log
      if [ $rc -ne 0 ]; then
        why="translation failed (exit $rc): $(grep -m 1 -E 'error:' step.out || tail -n 1 step.out)"
        return 1
      fi
      run_logged "run translation (race check, must report)" with_timeout env -u S2S_EMU_ORDER -u S2S_EMU_SEED S2S_EMU_CHECK=race ./prog out-race.dat
      if [ $rc -ne 1 ]; then why="the run under S2S_EMU_CHECK=race exited $rc, expected 1"; return 1; fi
      if ! grep -qF -- "$text" step.out; then why="the race check does not say '$text'"; return 1; fi
      # Autocompare sees the wrong results too (threads in reverse order).
      run_logged "run translation (autocompare, reverse thread order, must fail)" with_timeout env -u S2S_EMU_CHECK -u S2S_EMU_SEED S2S_EMU_ORDER=reverse S2S_AUTOCOMPARE=1 ./prog out-autocompare.dat
      if ! grep -qE '^s2s autocompare: [0-9]+ regions? compared, [1-9][0-9]* FAILED' step.out; then
        why="autocompare in reverse thread order did not report the wrong region"; return 1
      fi
      ;;
    refuse:*)
      local text=${expect#refuse:}
      text=${text# }
      local before after
      before=$(file_list)
      run_logged "translate and build (must refuse)" "${prog_cmd[@]}"
      after=$(file_list | grep -v -x -e './step.out' -e './case.log')
      before=$(printf '%s\n' "$before" | grep -v -x -e './step.out' -e './case.log')
      if [ $rc -ne 1 ]; then why="s2s-cuda exited $rc, expected 1 (refusal)"; return 1; fi
      if ! grep -qF -- "$text" step.out; then why="the refusal does not say '$text'"; return 1; fi
      if [ "$before" != "$after" ]; then
        why="the refused build left files: $(comm -13 <(printf '%s\n' "$before") <(printf '%s\n' "$after") | tr '\n' ' ')"
        return 1
      fi
      # Translation only, into an empty directory: nothing may be written.
      mkdir translate-only
      local tsrcs=()
      for f in "${srcs[@]}"; do tsrcs+=("../$f"); done
      (cd translate-only && { run_logged "translate only (must refuse)" "$S2S" -Minfo "${flags[@]}" -o . "${tsrcs[@]}"; exit $rc; })
      rc=$?
      if [ $rc -ne 1 ]; then why="s2s-cuda (translation only) exited $rc, expected 1"; return 1; fi
      if ! grep -qF -- "$text" translate-only/step.out; then
        why="the refusal (translation only) does not say '$text'"
        return 1
      fi
      rm -f translate-only/step.out translate-only/*.s2smod translate-only/*.s2sproc
      if [ -n "$(find translate-only -mindepth 1 -print -quit)" ]; then
        why="the refused translation wrote: $(find translate-only -mindepth 1 -printf '%f ')"
        return 1
      fi
      ;;
    *)
      why="unknown expectation '$expect' in $src/expect (want 'translate', 'refuse: TEXT', 'race: TEXT' or 'either')"
      return 1
      ;;
  esac
  return 0
}

# ---- main -------------------------------------------------------------------

if [ -n "$build_dir" ]; then
  mkdir -p "$build_dir"
  build_dir=$(cd "$build_dir" && pwd)
  write_run_sh_head
fi

echo "diff: S2S=$S2S CC=$CC FC=$FC CXX=$CXX"
echo "diff: cases from $case_root, work directories under $work_root"
passed=0
failed=()
for name in "${selected[@]}"; do
  if [ ! -d "$case_root/$name" ]; then
    echo "FAIL: $name (no such case in $case_root)"
    failed+=("$name")
    continue
  fi
  refused=0
  if run_case "$name"; then
    echo "PASS: $name ($(first_line "$case_root/$name/expect")$([ $refused = 0 ] || echo ": refused"))"
    passed=$((passed + 1))
    [ $verbose = 0 ] || sed 's/^/    /' "$case_log"
  else
    echo "FAIL: $name: $why"
    failed+=("$name")
    [ -f "$case_log" ] && sed 's/^/    /' "$case_log"
  fi
  cd "$top_builddir" || exit 1
done

if [ -n "$build_dir" ]; then
  write_run_sh_tail
  echo "diff: built into $build_dir; run $build_dir/run.sh there"
fi

echo
if [ ${#failed[@]} -eq 0 ]; then
  echo "diff: all $passed case(s) passed"
  exit 0
fi
echo "diff: ${#failed[@]} of $((passed + ${#failed[@]})) case(s) FAILED: ${failed[*]}"
exit 1
