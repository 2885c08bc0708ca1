#!/usr/bin/env bash
# limits.sh — inputs far beyond the translator's nesting limits end in one
# clear error (or a translation), never in a crash.
#
# The golden cases (tests/golden/*/*too-deep*) sit just above each limit;
# this test generates the sizes that used to overflow the stack: a sum of
# 30,000 terms and 5,000 nested parentheses on one line, in a region and in
# host code, in Fortran and C; 5,000 nested parentheses in a clause bound;
# 10,000 nested IFs in a region and in host code.  Each case names the exit
# status it expects and, for 1, the message of its single error.
set -uo pipefail
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
S2S=${S2S:-$top_builddir/s2s-cuda}
work=$top_builddir/tests/work/limits
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1

# repeat TEXT N [SEP]: TEXT written N times, separated by SEP
repeat() { awk -v t="$1" -v n="$2" -v s="${3:-}" \
  'BEGIN { for (i = 1; i <= n; i++) printf "%s%s", t, (i < n ? s : ""); }'; }

sum_f=$(repeat 'a(i)' 30000 ' + ')
sum_c=$(repeat 'a[i]' 30000 ' + ')
paren_f="$(repeat '(' 5000)a(i)$(repeat ')' 5000)"
paren_c="$(repeat '(' 5000)a[i]$(repeat ')' 5000)"

# fortran NAME HOST_RHS REGION_RHS [CLAUSES]: a routine with a loop in host
# code and one in a region, each assigning x(i) = RHS
fortran() {
  printf '%s\n' "subroutine s(a, x, n)" "  integer n, i" "  real a(n), x(n)" \
    "  do i = 1, n" "    x(i) = $2" "  end do" "!\$stencil region ${4:-}" "  do i = 1, n" \
    "    x(i) = $3" "  end do" "!\$stencil end region" "end subroutine s" >"$1.f90"
}
c() {
  printf '%s\n' "void s(int n, const float *restrict a, float *restrict x)" "{" \
    "  for (int i = 0; i < n; i++)" "    x[i] = $2;" "#pragma stencil region" \
    "  for (int i = 0; i < n; i++)" "    x[i] = $3;" "}" >"$1.c"
}
# nested_ifs N BODY: N nested IF blocks (Fortran) around BODY
nested_ifs_f() { awk -v n="$1" -v body="$2" 'BEGIN {
  for (i = 0; i < n; i++) print "  if (a(i) > " i ".0) then"; print body;
  for (i = 0; i < n; i++) print "  end if"; }'; }
nested_ifs_c() { awk -v n="$1" -v body="$2" 'BEGIN {
  for (i = 0; i < n; i++) print "  if (a[i] > " i ".0f) {"; print body;
  for (i = 0; i < n; i++) print "  }"; }'; }

fortran sum-region 'a(i)' "$sum_f"
fortran sum-host "$sum_f" 'a(i)'
fortran paren-region 'a(i)' "$paren_f"
fortran paren-host "$paren_f" 'a(i)'
fortran clause 'a(i)' 'a(i)' "copy(x($(repeat '(' 5000)1$(repeat ')' 5000):n))"
c c-sum-region 'a[i]' "$sum_c"
c c-sum-host "$sum_c" 'a[i]'
c c-paren-region 'a[i]' "$paren_c"
c c-paren-host "$paren_c" 'a[i]'
{ printf '%s\n' "subroutine s(a, x, n)" "  integer n, i" "  real a(n), x(n)" "!\$stencil region" \
    "  do i = 1, n"; nested_ifs_f 10000 "    x(i) = a(i)"
  printf '%s\n' "  end do" "!\$stencil end region" "end subroutine s"; } >ifs-region.f90
{ printf '%s\n' "subroutine s(a, x, n)" "  integer n, i" "  real a(n), x(n)" "  do i = 1, n"
  nested_ifs_f 10000 "    x(i) = a(i)"
  printf '%s\n' "  end do" "!\$stencil region" "  do i = 1, n" "    x(i) = a(i)" "  end do" \
    "!\$stencil end region" "end subroutine s"; } >ifs-host.f90
{ printf '%s\n' "void s(int n, const float *restrict a, float *restrict x)" "{" \
    "#pragma stencil region" "  for (int i = 0; i < n; i++) {"; nested_ifs_c 10000 "    x[i] = a[i];"
  printf '%s\n' "  }" "}"; } >c-ifs-region.c
{ printf '%s\n' "void s(int n, const float *restrict a, float *restrict x)" "{" \
    "  for (int i = 0; i < n; i++) {"; nested_ifs_c 10000 "    x[i] = a[i];"
  printf '%s\n' "  }" "#pragma stencil region" "  for (int i = 0; i < n; i++)" "    x[i] = a[i];" \
    "}"; } >c-ifs-host.c

pass=0
fail=0
# expect INPUT STATUS [MESSAGE]: the run ends with STATUS, and with status 1
# prints exactly one error, which contains MESSAGE
expect() {
  local input=$1 want=$2 message=${3:-} status errors ok=1
  "$S2S" "$input" >"$input.out" 2>"$input.err"
  status=$?
  errors=$(grep -c ': error: ' "$input.err")
  if [ "$status" != "$want" ]; then
    echo "FAIL $input: exit status $status, expected $want"
    ok=0
  elif [ "$want" = 1 ] && { [ "$errors" != 1 ] || ! grep -qF "$message" "$input.err"; }; then
    echo "FAIL $input: expected one error with '$message', got $errors:"
    ok=0
  elif [ "$want" = 0 ] && [ -s "$input.err" ]; then
    echo "FAIL $input: unexpected messages:"
    ok=0
  fi
  if [ $ok = 1 ]; then
    pass=$((pass + 1))
  else
    head -c 2000 "$input.err" | cut -c1-200 | sed 's/^/    /'
    fail=$((fail + 1))
  fi
}

deep='expression nested more than 1000 levels deep'
nested='statements nested more than'
expect sum-region.f90 1 "$deep"
expect sum-host.f90 0
expect paren-region.f90 1 "$deep"
expect paren-host.f90 0
expect clause.f90 1 'bound expression in '\''x'\'' nested more than 1000 levels deep'
expect c-sum-region.c 1 "$deep"
expect c-sum-host.c 0
expect c-paren-region.c 1 "$deep"
expect c-paren-host.c 0
expect ifs-region.f90 1 "$nested 200 levels deep in a region"
expect ifs-host.f90 0
expect c-ifs-region.c 1 "$nested 200 levels deep in a region"
expect c-ifs-host.c 1 "$nested 5000 levels deep"

echo "limits: $pass passed, $fail failed"
[ "$fail" = 0 ]
