#!/usr/bin/env bash
# quickstart.sh — set up s2s-cuda from a fresh checkout and run it.
#
#   ./quickstart.sh           install what is missing, build, then translate,
#                             build and run the samples (on a GPU when one is
#                             present, in CPU emulation otherwise, saying why)
#                             and print the feedback report, the verification
#                             verdict and the timing report
#   ./quickstart.sh --check   the same set-up, then `make check`
#   -v, --verbose             show every command's output as it runs
#
# Arguments after `--` are passed to configure, e.g.
#   ./quickstart.sh --check -- --enable-asan
#
# Each step prints one line with its time; what the steps print (apt-get,
# autoreconf, configure, make) goes to build/quickstart.log, whose end is
# shown when a step fails.  The build goes to build/ (out of tree), unless
# the source tree itself was already configured by hand, in which case that
# in-tree build is used.  Running the script again redoes only what changed.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"   # also when started as `sh quickstart.sh`
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
root=$(pwd)

usage() { sed -n '2,19s/^# \{0,1\}//p' "$root/quickstart.sh"; }
die() { printf 'quickstart: error: %s\n' "$*" >&2; exit 1; }

mode=main
verbose=0
configure_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --check) mode=check ;;
    -v|--verbose) verbose=1 ;;
    -h|--help) usage; exit 0 ;;
    --) shift; configure_args=("$@"); break ;;
    *) echo "quickstart: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

jobs=$(nproc 2>/dev/null || echo 2)

if [ -f config.status ]; then
  build=$root          # configured by hand in the source tree
else
  build=$root/build
fi
mkdir -p "$build"
log=$build/quickstart.log
: >"$log"

# step TITLE COMMAND...: run COMMAND with its output in the log (shown with
# -v), and print one line: the title, then "ok" or "FAILED" and the time.
# A failed step shows the end of its output and returns COMMAND's status;
# must TITLE COMMAND... stops the script then.
nsteps=0
step() {
  local title=$1 start rc=0 mark
  shift
  nsteps=$((nsteps + 1))
  start=$SECONDS
  mark=$(wc -l <"$log")
  printf '== %s\n' "$title" >>"$log"
  if [ $verbose = 1 ]; then
    printf '[%d] %s\n' $nsteps "$title"
    "$@" 2>&1 | tee -a "$log" || rc=${PIPESTATUS[0]}
  else
    printf '[%d] %s ... ' $nsteps "$title"
    "$@" >>"$log" 2>&1 || rc=$?
  fi
  local took=$((SECONDS - start))
  if [ $rc != 0 ]; then
    printf 'FAILED (%ds)\n' $took
    if [ $verbose = 0 ]; then
      echo "---- the end of its output (all of it: $log) ----"
      tail -n +$((mark + 2)) "$log" | tail -n 60
      echo "----"
    fi
    return $rc
  fi
  if [ $verbose = 1 ]; then printf '[%d] %s: ok (%ds)\n' $nsteps "$title" $took
  else printf 'ok (%ds)\n' $took; fi
}
must() { step "$@" || die "'$1' failed (the log: $log)"; }

# ------------------------------------------------------------------ 1. packages
# cmake and ninja-build: make check builds a CMake project with both generators;
# openmpi-bin and libopenmpi-dev: it runs the samples' MPI drivers (tests/mpi.sh).
PACKAGES=(build-essential autoconf automake pkg-config uthash-dev check gfortran g++ python3-pip
          cmake ninja-build openmpi-bin libopenmpi-dev)

missing=()
if command -v dpkg-query >/dev/null 2>&1; then
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
else
  echo "warning: no dpkg-query (not Debian?); make sure the equivalents of these are installed:"
  echo "  ${PACKAGES[*]}"
fi
install_packages() {
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
}
if [ ${#missing[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "These Debian packages are missing: ${missing[*]}"
    echo "Install them, then run this script again:"
    echo
    echo "  sudo apt-get install -y ${missing[*]}"
    echo
    exit 1
  fi
  must "installing Debian packages: ${missing[*]}" install_packages
fi

# ------------------------------------------------------------------ 2. tree-sitter sources
must "fetching the pinned tree-sitter sources into deps/" scripts/fetch-deps.sh

# ------------------------------------------------------------------ 3. build
if [ ! -f configure ] || [ ! -f Makefile.in ] || [ configure.ac -nt configure ] ||
   [ Makefile.am -nt Makefile.in ]; then
  must "autoreconf -fi" autoreconf -fi
fi

cd "$build"
if [ ! -f config.status ] || [ ${#configure_args[@]} -gt 0 ]; then
  must "configure${configure_args[*]:+ ${configure_args[*]}}" "$root/configure" ${configure_args[@]+"${configure_args[@]}"}
fi
must "make -j$jobs (in ${build#"$root"/})" make -j"$jobs"

# ------------------------------------------------------------------ 4/5. main job or tests
where=$(make --no-print-directory -s samples-where)
echo "samples run $where"

if [ "$mode" = check ]; then
  check_failed=0
  step "make check" make -j"$jobs" check || check_failed=1
  # automake's summary, either way
  sed -n '/^# TOTAL:/,/^# ERROR:/p' "$log" | tail -n 7
  if [ $check_failed = 1 ]; then
    [ -f tests/test-suite.log ] && cat tests/test-suite.log
    [ -f test-suite.log ] && cat test-suite.log
    die "make check failed (logs above; each test's log is in $build/tests/*.log)"
  fi
else
  echo
  make -s --no-print-directory run-samples
fi
