#!/usr/bin/env bash
# quickstart.sh (the test) — the set-up script's own behaviour, on a stand-in
# tree: its steps (fetch-deps.sh, configure, make, the samples or make check)
# are small scripts that print a known line, and dpkg-query says every
# package is installed, so that the test runs in a second and changes
# nothing on the machine.  Checked (issue 14, item 7):
#   - quiet: one line per step with its time; what the steps print is in
#     build/quickstart.log, not on the terminal; the samples' own output
#     (the product) is shown, after a line saying where they run and why;
#   - a second run does not configure again;
#   - a failing step prints FAILED, the end of its output, and exits 1;
#   - --check shows automake's summary; -v shows the steps' output.
# The real script on a fresh Debian 12 is CI's `./quickstart.sh --check`.
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
work=$top_builddir/tests/work/quickstart
rm -rf "$work"
mkdir -p "$work/tree/scripts" "$work/bin"
tree=$work/tree
fail=0
failed() {
  echo "FAIL $*"
  fail=$((fail + 1))
}

cp "$top_srcdir/quickstart.sh" "$tree/"
cat >"$tree/scripts/fetch-deps.sh" <<'EOF'
#!/bin/sh
echo "fetch-deps: a line of its own"
EOF
# configure writes a Makefile whose targets say what they are
cat >"$tree/configure" <<'EOF'
#!/bin/sh
echo "configure: checking for a stand-in... yes"
root=$(dirname "$0")
echo configured >config.status
cat >Makefile <<MK
all:
	@echo "make: compiling a stand-in"
	@test ! -f $root/fail-make || { echo "make: error: the stand-in failed"; exit 2; }
samples-where:
	@echo "in CPU emulation: no nvcc (stand-in)"
run-samples:
	@echo "VERIFICATION PASSED (stand-in samples)"
check:
	@echo "PASS: tests/stand-in"
	@printf '%s\n' '# TOTAL: 1' '# PASS:  1' '# SKIP:  0' '# XFAIL: 0' '# FAIL:  0' '# XPASS: 0' '# ERROR: 0'
MK
EOF
chmod +x "$tree/quickstart.sh" "$tree/scripts/fetch-deps.sh" "$tree/configure"
touch "$tree/configure.ac" "$tree/Makefile.am"
touch -d '1 minute' "$tree/configure" "$tree/Makefile.in" # newer than configure.ac, Makefile.am
# every package installed; autoreconf must not run (configure is up to date)
printf '#!/bin/sh\necho "install ok installed"\n' >"$work/bin/dpkg-query"
printf '#!/bin/sh\necho "autoreconf ran" >>"%s/autoreconf.ran"\n' "$work" >"$work/bin/autoreconf"
chmod +x "$work/bin/dpkg-query" "$work/bin/autoreconf"
export PATH=$work/bin:$PATH
# make check's make must not reach the script's own make commands (jobserver, -w)
unset MAKEFLAGS MFLAGS MAKELEVEL

# run NAME ARGS...: the script, output in $work/NAME.out, status in $status
run() {
  local name=$1
  shift
  (cd "$tree" && ./quickstart.sh "$@") >"$work/$name.out" 2>&1
  status=$?
}
# has NAME RE / lacks NAME RE: the output of run NAME matches / does not match
has() { grep -qE -- "$2" "$work/$1.out" || failed "$1: no line matching '$2' in:$(sed 's/^/\n    /' "$work/$1.out")"; }
lacks() { ! grep -qE -- "$2" "$work/$1.out" || failed "$1: a line matching '$2' in:$(sed 's/^/\n    /' "$work/$1.out")"; }

run first
[ $status = 0 ] || failed "first run: exit $status"
has first '^\[1\] fetching the pinned tree-sitter sources into deps/ \.\.\. ok \([0-9]+s\)$'
has first '^\[2\] configure \.\.\. ok \([0-9]+s\)$'
has first '^\[3\] make -j[0-9]+ \(in build\) \.\.\. ok \([0-9]+s\)$'
has first '^samples run in CPU emulation: no nvcc \(stand-in\)$'
has first '^VERIFICATION PASSED \(stand-in samples\)$'
lacks first 'fetch-deps: a line|configure: checking|make: compiling'
grep -q 'configure: checking for a stand-in' "$tree/build/quickstart.log" ||
  failed "first run: the log has no output of configure"
[ ! -f "$work/autoreconf.ran" ] || failed "autoreconf ran though configure was up to date"

run second
[ $status = 0 ] || failed "second run: exit $status"
lacks second 'configure'
has second '^\[2\] make -j[0-9]+ \(in build\) \.\.\. ok'

touch "$tree/fail-make"
run failing
[ $status = 1 ] || failed "failing make: exit $status, want 1"
has failing '^\[2\] make -j[0-9]+ \(in build\) \.\.\. FAILED \([0-9]+s\)$'
has failing '^make: error: the stand-in failed$'
has failing "quickstart: error: 'make -j[0-9]+ \(in build\)' failed \(the log: .*/build/quickstart.log\)"
lacks failing 'VERIFICATION'
rm "$tree/fail-make"

run check --check
[ $status = 0 ] || failed "--check: exit $status"
has check '^\[3\] make check \.\.\. ok \([0-9]+s\)$'
has check '^# TOTAL: 1$'
lacks check '^PASS: tests/stand-in'

run verbose --verbose
has verbose '^make: compiling a stand-in$'
has verbose '^\[2\] make -j[0-9]+ \(in build\): ok \([0-9]+s\)$'

if [ $fail = 0 ]; then echo "quickstart: all checks passed"; fi
[ $fail = 0 ]
