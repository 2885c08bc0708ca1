#!/usr/bin/env bash
# diagnostics.sh — messages that point at the user's file, and reports for
# tools (issue 14, items 3 and 4).  Checks, on small inputs written here:
#   - the host file's line markers: gfortran (plain .f90, and .F90 through
#     cpp) and gcc name the user's file and line for an error in user code
#     after a region, in translation and in compiler-driver mode;
#   - the .cu's #line directives: a kernel statement is preceded by `#line
#     N "file"` with its user line, every restore directive names the .cu
#     at its own next line, the file compiles (emulation); with
#     --no-line-directives neither file has any;
#   - warnings without -Minfo; -Werror makes them errors (exit 1, no
#     outputs), -Wno-error undoes it;
#   - -Minfo categories (accel, inline, loop, all, comma lists), unknown
#     ones a usage error; info lines carry a column where known;
#   - --report=json: well formed (python3 -m json.tool), format version 2,
#     every diagnostic including errors, columns, ids (the same for two
#     errors of one kind), structured fields; --report=sarif: SARIF 2.1.0
#     with rules, levels and locations.
#
# Environment (make check sets it): top_builddir, S2S, FC, CC, CXX,
# S2S_RT_INCLUDEDIR.
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
S2S=${S2S:-$top_builddir/s2s-cuda}
FC_HOST=${FC:-gfortran}
case $FC_HOST in *s2s-cuda*) FC_HOST=gfortran ;; esac
CC_HOST=${CC:-gcc}
CXX_HOST=${CXX:-g++}
RT=${S2S_RT_INCLUDEDIR:-$top_srcdir/rt}
work=$top_builddir/tests/work/diagnostics
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
command -v python3 >/dev/null 2>&1 || { echo "diagnostics: no python3: skipped"; exit 77; }

pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { # message, then the file to show
  echo "FAIL $1"
  [ -n "${2:-}" ] && [ -f "$2" ] && sed 's/^/    /' "$2" | head -30
  fail=$((fail + 1))
}
# expect NAME FILE [!]ERE: FILE has (or with !, has not) a line matching ERE
expect() {
  local name=$1 file=$2 re=$3
  if [ "${re:0:1}" = '!' ]; then
    grep -qE -- "${re:1}" "$file" && bad "$name: '${re:1}' in $file" "$file" || ok
  else
    grep -qE -- "$re" "$file" && ok || bad "$name: no '$re' in $file" "$file"
  fi
}

cat >warn.f90 <<'EOF'
! copyin of an array the region writes: a warning, printed without -Minfo
subroutine scale(n, a, b)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n), b(n)
  integer :: i
!$stencil region copyin(a)
  do i = 1, n
    a(i) = 2.0 * b(i)
  end do
!$stencil end region
end subroutine scale
EOF
cat >cat.f90 <<'EOF'
! Inlining, loops and data: lines of each -Minfo category
subroutine clip(x)
  real, intent(inout) :: x
  x = max(x, 0.0)
end subroutine clip

subroutine column(n, km, q, t)
  implicit none
  integer, intent(in) :: n, km
  real, intent(inout) :: q(n, km)
  real, intent(in) :: t(n, km)
  integer :: i, k
!$stencil region
  do k = 2, km
    do i = 1, n
      ! a recurrence along k: k stays sequential in each thread
      q(i, k) = q(i, k - 1) + t(i, k)
      call clip(q(i, k))
    end do
  end do
!$stencil end region
end subroutine column
EOF
cat >hosterr.f90 <<'EOF'
! A host-compiler error after the region: the host compiler names this file and line
subroutine scale(n, a)
  implicit none
  integer, intent(in) :: n
  real, intent(inout) :: a(n)
  integer :: i
!$stencil region
  do i = 1, n
    a(i) = 2.0 * a(i)
  end do
!$stencil end region
  a(1) = 'text'
end subroutine scale
EOF
cp hosterr.f90 hosterr.F90
cat >hosterr.c <<'EOF'
/* A host-compiler error after the region: the host compiler names this file and line */
void scale(int n, float *a)
{
#pragma stencil region
  for (int i = 0; i < n; i++)
    a[i] = 2.0f * a[i];
  undeclared = 1;
}
EOF
for clause in copyinn bogus; do
  cat >"bad_$clause.f90" <<EOF
! an unknown clause: an error with a column
subroutine s(n, a)
  integer :: n, i
  real :: a(n)
!\$stencil region $clause(a)
  do i = 1, n
    a(i) = 0.
  end do
!\$stencil end region
end subroutine s
EOF
done

# ---- host line markers ---------------------------------------------------------------
mkdir -p tr
if "$S2S" -o tr hosterr.f90 2>tr.err; then ok; else bad "translate hosterr.f90" tr.err; fi
expect "host markers" tr/hosterr.s2s.f90 '^# 1 "hosterr\.f90"$'
expect "host markers" tr/hosterr.s2s.f90 '^# 12 "hosterr\.f90"$'
(cd tr && "$FC_HOST" -c hosterr.s2s.f90 -o /dev/null) >gf.err 2>&1
expect "gfortran on the host file" gf.err '^hosterr\.f90:12:'
expect "gfortran on the host file" gf.err '!s2s\.f90'
for src in hosterr.f90 hosterr.F90 hosterr.c; do
  "$S2S" --emulate -c "$src" -o h.o >drv.err 2>&1 && bad "driver build of $src succeeded" drv.err
  line=12; [ "$src" = hosterr.c ] && line=7
  expect "driver mode, $src" drv.err "^${src//./\\.}:$line:"
  expect "driver mode, $src" drv.err '!\.s2s\.'
done

# ---- #line in the .cu --------------------------------------------------------------------
"$S2S" -o tr cat.f90 2>tr.err || bad "translate cat.f90" tr.err
expect "#line" tr/cat.s2s.cu '^#line 17 "cat\.f90"$'
expect "#line" tr/cat.s2s.cu '^#line 4 "cat\.f90"$'   # the inlined callee's statement
grep -A1 '^#line 17 "cat\.f90"$' tr/cat.s2s.cu | tail -1 | grep -q 'S2S_q(i, k) = S2S_q(i, k - 1)' && ok ||
  bad "#line 17 is not before the statement of line 17" tr/cat.s2s.cu
expect "comments carried into the kernel" tr/cat.s2s.cu '^ +// a recurrence along k: k stays sequential'
awk '/^#line [0-9]+ "tr\/cat\.s2s\.cu"$/ { n++; if ($2 != NR + 1) bad = 1 } END { exit !(n > 0 && !bad) }' \
  tr/cat.s2s.cu && ok || bad "restore directives do not name the .cu's next line" tr/cat.s2s.cu
awk 'length($0) > 100 && !/^#line|^\/\*|\*\/$/ { print; n++ } END { exit n > 0 }' tr/cat.s2s.cu >long.txt &&
  ok || bad "lines over 100 columns in the .cu" long.txt
"$CXX_HOST" -x c++ -std=c++14 -DS2S_EMULATE -I"$RT" -fsyntax-only tr/cat.s2s.cu 2>cxx.err && ok ||
  bad "the .cu with #line does not compile" cxx.err
# nvcc's line table (what cuda-gdb, compute-sanitizer and Nsight read) names cat.f90 line 17
NVCC_BIN=${NVCC:-$(command -v nvcc || true)}
if [ -n "$NVCC_BIN" ] && [ -x "$NVCC_BIN" ]; then
  if "$NVCC_BIN" -arch=sm_90 -lineinfo -I"$RT" -ptx tr/cat.s2s.cu -o cat.ptx 2>nvcc.err; then
    f90=$(awk '$1 == ".file" && $3 ~ /cat\.f90"$/ { print $2 }' cat.ptx)
    [ -n "$f90" ] && grep -qE "^[[:space:]]*\.loc[[:space:]]+$f90 17 " cat.ptx && ok ||
      bad "no line-table entry for cat.f90:17 in the PTX" cat.ptx
  else
    bad "nvcc -lineinfo on the .cu failed" nvcc.err
  fi
fi
expect "restore directives" tr/cat.s2s.cu '^#line [0-9]+ "tr/cat\.s2s\.cu"$'
mkdir -p noline
"$S2S" --no-line-directives -o noline cat.f90 hosterr.f90 2>tr.err || bad "--no-line-directives" tr.err
expect "--no-line-directives" noline/cat.s2s.cu '!^#line'
expect "--no-line-directives" noline/hosterr.s2s.f90 '!^#'

# ---- warnings, -Werror --------------------------------------------------------------------
mkdir -p w
"$S2S" -o w warn.f90 2>warn.err && ok || bad "warn.f90 failed" warn.err
expect "warning without -Minfo" warn.err "^warn\.f90:7: warning: copyin\(a\) but the region writes 'a' at line 9"
expect "warning without -Minfo" warn.err '!info:'
mkdir -p werror
"$S2S" -Werror -o werror warn.f90 2>werror.err && bad "-Werror: exit 0" werror.err || ok
expect "-Werror" werror.err "^warn\.f90:7: error: copyin\(a\) but the region writes .* \[-Werror\]$"
[ -z "$(ls werror)" ] && ok || bad "-Werror wrote outputs: $(ls werror)"
"$S2S" -Werror -Wno-error -o werror warn.f90 2>/dev/null && ok || bad "-Wno-error does not undo -Werror"

# ---- -Minfo categories and columns --------------------------------------------------------
minfo() { "$S2S" "$1" -o tr cat.f90 2>"minfo$1.err" || bad "$1 failed" "minfo$1.err"; }
minfo -Minfo=loop
expect "-Minfo=loop" minfo-Minfo=loop.err '^cat\.f90:15:5: info: Loop is parallelizable$'
expect "-Minfo=loop" minfo-Minfo=loop.err "note: Loop carried dependence of 'q'"
expect "-Minfo=loop" minfo-Minfo=loop.err '!Generating|inlined|Accelerator kernel'
minfo -Minfo=inline
expect "-Minfo=inline" minfo-Minfo=inline.err "^cat\.f90:18:7: info: Routine 'clip' inlined$"
expect "-Minfo=inline" minfo-Minfo=inline.err '!Loop|Generating'
minfo -Minfo=accel,loop
expect "-Minfo=accel,loop" minfo-Minfo=accel,loop.err 'info: Generating copyin\(t\(1:n,2:km\)\)'
expect "-Minfo=accel,loop" minfo-Minfo=accel,loop.err 'info: Loop is parallelizable'
expect "-Minfo=accel,loop" minfo-Minfo=accel,loop.err '!inlined'
minfo -Minfo=all
expect "-Minfo=all" minfo-Minfo=all.err 'inlined'
expect "-Minfo=all" minfo-Minfo=all.err 'Accelerator kernel generated: column_r1'
minfo -Minfo
cmp -s minfo-Minfo.err minfo-Minfo=all.err && ok || bad "-Minfo is not -Minfo=all" minfo-Minfo.err
"$S2S" -Minfo=accel,bogus cat.f90 >/dev/null 2>cat.err
[ $? = 2 ] && ok || bad "-Minfo=accel,bogus is no usage error" cat.err
expect "-Minfo=accel,bogus" cat.err "unknown -Minfo category 'bogus'"

# ---- --report=json (format version 2) and --report=sarif ------------------------------------
mkdir -p rep
"$S2S" -o rep --report=json r.json --report=sarif r.sarif cat.f90 warn.f90 bad_copyinn.f90 \
  bad_bogus.f90 >/dev/null 2>rep.err && bad "a run with bad inputs exited 0" rep.err
for f in r.json r.sarif; do
  python3 -m json.tool "$f" >/dev/null 2>json.err && ok || bad "$f is not well-formed JSON" json.err
done
python3 - r.json >json.err 2>&1 <<'EOF' && ok || bad "JSON v2 content" json.err
import json, sys
r = json.load(open(sys.argv[1]))
assert r["format"] == "s2s-cuda-report" and r["version"] == 2, r.get("version")
assert r["tool"]["name"] == "s2s-cuda" and r["tool"]["version"]
ds = r["diagnostics"]
keys = {"id", "kind", "category", "file", "line", "column", "routine", "message", "fields"}
for d in ds:
    assert set(d) == keys, d
def one(pred, what):
    found = [d for d in ds if pred(d)]
    assert found, "no " + what
    return found[0]
errs = [d for d in ds if d["kind"] == "error"]
assert len(errs) == 2, errs
assert all(e["line"] == 5 and e["column"] == 18 for e in errs), errs
assert errs[0]["id"] == errs[1]["id"] and errs[0]["id"].startswith("error-"), errs
w = one(lambda d: d["kind"] == "warning", "warning")
assert w["id"] == "accel-clause-mismatch" and w["fields"] == {"clause": "copyin", "array": "a"}, w
c = one(lambda d: d["id"] == "accel-data-clause" and d["fields"]["array"] == "t", "data clause of t")
assert c["fields"] == {"clause": "copyin", "array": "t", "bounds": ["1:n", "2:km"], "inferred": True}, c
k = one(lambda d: d["id"] == "accel-kernel", "kernel")
assert k["fields"] == {"kernel": "column_r1", "grid": "n/128", "block": "128"}, k
dep = one(lambda d: d["id"] == "loop-dependence", "dependence")
assert dep["fields"]["array"] == "q" and dep["fields"]["distance_vector"] == ["1", "0"], dep
assert dep["fields"]["along"] == ["k", "i"] and dep["fields"]["loop"] == "k", dep
p = one(lambda d: d["id"] == "loop-parallel", "parallel loop")
assert p["column"] > 0 and p["category"] == "loop", p
m = one(lambda d: d["id"] == "accel-loop-mapping", "loop mapping")
assert m["fields"]["hardware"] == "blockIdx.x threadIdx.x", m
one(lambda d: d["id"] == "inline-routine" and d["fields"] == {"callee": "clip"}, "inlined call")
EOF
python3 - r.sarif >sarif.err 2>&1 <<'EOF' && ok || bad "SARIF content" sarif.err
import json, sys
s = json.load(open(sys.argv[1]))
assert s["version"] == "2.1.0" and "sarif-2.1.0" in s["$schema"]
run, = s["runs"]
drv = run["tool"]["driver"]
assert drv["name"] == "s2s-cuda" and drv["version"]
ids = [r["id"] for r in drv["rules"]]
assert len(ids) == len(set(ids)), ids
assert all(r["shortDescription"]["text"] for r in drv["rules"])
res = run["results"]
assert res
for r in res:
    assert r["ruleId"] == ids[r["ruleIndex"]], r
    assert r["level"] in ("error", "warning", "note"), r
    assert r["message"]["text"]
    for loc in r.get("locations", []):
        pl = loc["physicalLocation"]
        assert pl["artifactLocation"]["uri"] and pl["region"]["startLine"] > 0, r
errs = [r for r in res if r["level"] == "error"]
assert len(errs) == 2 and errs[0]["ruleId"] == errs[1]["ruleId"], errs
reg = errs[0]["locations"][0]["physicalLocation"]
assert reg["artifactLocation"]["uri"].startswith("bad_") and reg["region"] == {"startLine": 5, "startColumn": 18}, reg
w, = [r for r in res if r["level"] == "warning"]
assert w["ruleId"] == "accel-clause-mismatch", w
assert w["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "warn.f90", w
EOF
"$S2S" -Werror -o rep --report=sarif w.sarif warn.f90 >/dev/null 2>&1
python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["runs"][0]["results"]; assert [x for x in r if x["ruleId"] == "accel-clause-mismatch"][0]["level"] == "error"' w.sarif 2>sarif.err &&
  ok || bad "-Werror: the warning is no SARIF error" sarif.err
"$S2S" --report=xml r.xml cat.f90 >/dev/null 2>x.err
[ $? = 2 ] && ok || bad "--report=xml is no usage error" x.err

# Fixed form in compiler-driver mode: a file without directive lines is
# compiled as it is; a PGI-style port (`c$acc` in column 1) is refused with
# the line named, never compiled for the CPU without a word.
printf '      subroutine plain(a)\n      real a\nc     a comment\n      a = 1.0\n      end\n' >plain.f
printf '      subroutine port(a, n)\n      integer n, i\n      real a(n)\nc$acc region\n      do i = 1, n\n        a(i) = 2.0*a(i)\n      end do\nc$acc end region\n      end\n' >port.f
"$S2S" --emulate -c plain.f -o plain.o >plain.err 2>&1 && [ -f plain.o ] && ok ||
  bad "a fixed-form file without directives is not compiled as it is" plain.err
"$S2S" --emulate -c port.f -o port.o >port.err 2>&1
[ $? = 1 ] && [ ! -e port.o ] && ok || bad "a fixed-form file with c\$acc lines is not refused" port.err
expect "fixed-form refusal" port.err "'port.f': fixed-form Fortran is not supported.*'c\\\$acc' at line 4.*'!\\\$acc&'"

echo "diagnostics: $pass passed, $fail failed"
[ "$fail" = 0 ]
