#!/usr/bin/env bash
# golden.sh — golden tests of the translator's outputs and messages.
#
# Each directory tests/golden/<group>/<case>/ holds one translation case:
#   in.f90 | in.F90 | in.c   the input, or
#   source                   the path (from the top of the tree) of an input kept
#                            elsewhere, e.g. a tests/diff kernel; copied in as in.EXT
#   args                     optional extra command-line flags (one line)
#   files/                   optional: more files (other inputs, their directories),
#                            copied in beside the input
#   before                   optional: s2s-cuda commands to run first, one per line
#                            (its arguments), each of which must succeed: the other
#                            files' translations that leave module summaries
#   inputs                   optional: the inputs in command-line order (one line;
#                            default: the input alone), e.g. `in.f90 consts.f90`
#   expect.stderr            exact stderr of `s2s-cuda [args] in.*`
#   expect.stdout            optional: exact stdout (the --dump-ir cases)
#   expect.status            optional exit status (default: 1 when no expect.cu, else 0)
#   expect.cu                expected in.s2s.cu, byte for byte
#   expect.host              expected in.s2s.f90 / in.s2s.c, byte for byte
# A case with expect.cu runs with -Minfo, so its expect.stderr is the
# feedback report.  A failing case (status 1 or 2) must write no file at
# all (no translation, module summary, report or temporary; stdout and
# stderr aside) and must leave the input unchanged.
#
# Every case explains itself: its input starts with a comment saying what
# it checks, and tests/golden/README.md lists it (a row under its group's
# heading); a case without either fails, and so does a row naming no case.
#
# S2S_GOLDEN_UPDATE=1 rewrites the expect.* files from the current output
# (review the diff before committing).
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
S2S=${S2S:-$top_builddir/s2s-cuda}
work=$top_builddir/tests/work/golden
rm -rf "$work"
mkdir -p "$work"

pass=0
fail=0
failed=()

check_file() { # expected actual label
  if [ "${S2S_GOLDEN_UPDATE:-}" = 1 ]; then
    cp "$2" "$1"
    return 0
  fi
  if ! cmp -s "$1" "$2"; then
    echo "  $3 differs:"
    diff -u "$1" "$2" | head -40 | sed 's/^/    /'
    return 1
  fi
}

run_case() { # case directory
  local dir=$1 name input status expect_status ok=0
  name=${dir#"$top_srcdir"/tests/golden/}
  local w=$work/${name//\//_}
  mkdir -p "$w"
  if [ -f "$dir/source" ]; then
    local src
    src=$(cat "$dir/source")
    cp "$top_srcdir/$src" "$w/in.${src##*.}"
  else
    cp "$dir"/in.* "$w"/
  fi
  input=$(cd "$w" && ls in.f90 in.F90 in.c 2>/dev/null | head -1)
  [ -d "$dir/files" ] && cp -R "$dir/files/." "$w/"
  if [ -f "$dir/before" ]; then
    local before
    while read -r -a before; do
      [ ${#before[@]} -gt 0 ] || continue
      if ! (cd "$w" && "$S2S" "${before[@]}" >before.out 2>&1); then
        echo "  the step before the case failed: s2s-cuda ${before[*]}"
        sed 's/^/    /' "$w/before.out"
        return 1
      fi
    done <"$dir/before"
  fi
  local args=() inputs=("$input")
  [ -f "$dir/args" ] && read -r -a args <"$dir/args"
  [ -f "$dir/inputs" ] && read -r -a inputs <"$dir/inputs"
  [ -f "$dir/expect.cu" ] && args=(-Minfo "${args[@]}")
  local files_before
  files_before=$(cd "$w" && find . -type f | sort)
  (cd "$w" && "$S2S" "${args[@]}" "${inputs[@]}" >stdout 2>stderr)
  status=$?
  if [ -f "$dir/expect.status" ]; then
    expect_status=$(cat "$dir/expect.status")
  elif [ -f "$dir/expect.cu" ]; then
    expect_status=0
  else
    expect_status=1
  fi
  if [ "$status" != "$expect_status" ]; then
    echo "  exit status $status, expected $expect_status"
    ok=1
  fi
  [ -f "$dir/expect.stderr" ] && { check_file "$dir/expect.stderr" "$w/stderr" stderr || ok=1; }
  [ -f "$dir/expect.stdout" ] && { check_file "$dir/expect.stdout" "$w/stdout" stdout || ok=1; }
  local base=${input%.*} ext=${input##*.}
  if [ -f "$dir/expect.cu" ]; then
    check_file "$dir/expect.cu" "$w/$base.s2s.cu" "$base.s2s.cu" || ok=1
    [ -f "$dir/expect.host" ] && { check_file "$dir/expect.host" "$w/$base.s2s.$ext" "$base.s2s.$ext" || ok=1; }
  fi
  if [ "$expect_status" != 0 ]; then
    # no output of any kind: translations, module summaries, reports, temporaries
    local left
    left=$(cd "$w" && find . -type f | sort | comm -13 <(echo "$files_before") - |
           grep -v -x -e ./stdout -e ./stderr)
    if [ -n "$left" ]; then
      echo "  a failed run left files: $(echo $left)"
      ok=1
    fi
  fi
  local original="$dir/$input"
  [ -f "$dir/source" ] && original="$top_srcdir/$(cat "$dir/source")"
  if ! cmp -s "$original" "$w/$input"; then
    echo "  the input file was modified"
    ok=1
  fi
  return $ok
}

# The cases explain themselves: every input starts with a comment that says
# what the case checks, and tests/golden/README.md has a row for every case
# under its group's heading ("### errors/", then "| `case` | ... |").
readme=$top_srcdir/tests/golden/README.md

readme_cases() { # group: the cases README.md lists under "### group/"
  awk -v heading="### $1/" '
    /^### / { inside = ($0 == heading); next }
    inside && /^\| `[^`]*` \|/ { split($0, f, "`"); print f[2] }' "$readme"
}

check_intent() { # case directory
  local dir=$1 input first
  if [ -f "$dir/source" ]; then
    input=$top_srcdir/$(cat "$dir/source")
  else
    input=$(ls "$dir"/in.f90 "$dir"/in.F90 "$dir"/in.c 2>/dev/null | head -1)
  fi
  if [ -z "$input" ] || [ ! -f "$input" ]; then
    echo "  no input (in.f90, in.F90, in.c or source)"
    return 1
  fi
  IFS= read -r first <"$input"
  case "$input" in
    *.c) [[ $first == "/*"* || $first == "//"* ]] ;;
    *) [[ $first == "!"* ]] ;;
  esac || {
    echo "  ${input#"$top_srcdir"/} does not start with a comment saying what the case checks"
    echo "  (its first line: '${first:0:100}')"
    return 1
  }
}

check_readme_row() { # case name (group/case)
  if ! readme_cases "${1%%/*}" | grep -qxF "${1#*/}"; then
    echo "  tests/golden/README.md has no row for it under '### ${1%%/*}/'"
    echo "  (add: | \`${1#*/}\` | what it checks |)"
    return 1
  fi
}

case_ok() { # case directory: documented, and its outputs as expected
  local ok=0
  check_intent "$1" || ok=1
  check_readme_row "${1#"$top_srcdir"/tests/golden/}" || ok=1
  run_case "$1" || ok=1
  return $ok
}

for dir in "$top_srcdir"/tests/golden/*/*/; do
  dir=${dir%/}
  case_name=${dir#"$top_srcdir"/tests/golden/}
  if out=$(case_ok "$dir"); then
    pass=$((pass + 1))
    [ -n "${VERBOSE:-}" ] && echo "PASS $case_name"
  else
    fail=$((fail + 1))
    failed+=("$case_name")
    echo "FAIL $case_name"
    echo "$out"
  fi
done

# and no row for a case that is not there (renamed or removed)
for group_dir in "$top_srcdir"/tests/golden/*/; do
  group=$(basename "$group_dir")
  while IFS= read -r listed; do
    if [ ! -d "$group_dir$listed" ]; then
      fail=$((fail + 1))
      echo "FAIL README.md: its row '$listed' under '### $group/' names no case"
    fi
  done < <(readme_cases "$group")
done

echo "golden: $pass passed, $fail failed"
[ "$fail" = 0 ]
