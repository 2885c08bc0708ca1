#!/usr/bin/env bash
# quickstart.sh — set up s2s-cuda from a fresh checkout and run it.
#
#   ./quickstart.sh           install what is missing, build, then translate,
#                             build and run the samples (on a GPU when one is
#                             present, in CPU emulation otherwise) and print the
#                             feedback report, the verification verdict and the
#                             timing report
#   ./quickstart.sh --check   the same set-up, then `make check`
#
# Arguments after `--` are passed to configure, e.g.
#   ./quickstart.sh --check -- --enable-asan
#
# The build goes to build/ (out of tree), unless the source tree itself was
# already configured by hand, in which case that in-tree build is used.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"   # also when started as `sh quickstart.sh`
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
root=$(pwd)

usage() { sed -n '2,15s/^# \{0,1\}//p' "$root/quickstart.sh"; }
say() { printf '\n== %s\n' "$*"; }
die() { printf 'quickstart: error: %s\n' "$*" >&2; exit 1; }

mode=main
configure_args=()
while [ $# -gt 0 ]; do
  case $1 in
    --check) mode=check ;;
    -h|--help) usage; exit 0 ;;
    --) shift; configure_args=("$@"); break ;;
    *) echo "quickstart: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
  esac
  shift
done

jobs=$(nproc 2>/dev/null || echo 2)

# ------------------------------------------------------------------ 1. packages
PACKAGES=(build-essential autoconf automake pkg-config uthash-dev check gfortran g++ python3-pip)

say "checking Debian packages"
if command -v dpkg-query >/dev/null 2>&1; then
  missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
      echo "installing: ${missing[*]}"
      apt-get update
      DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"
    else
      echo "These Debian packages are missing: ${missing[*]}"
      echo "Install them, then run this script again:"
      echo
      echo "  sudo apt-get install -y ${missing[*]}"
      echo
      exit 1
    fi
  else
    echo "all present: ${PACKAGES[*]}"
  fi
else
  echo "warning: no dpkg-query (not Debian?); make sure the equivalents of these are installed:"
  echo "  ${PACKAGES[*]}"
fi

# ------------------------------------------------------------------ 2. tree-sitter sources
say "fetching the pinned tree-sitter sources into deps/"
scripts/fetch-deps.sh

# ------------------------------------------------------------------ 3. build
if [ ! -f configure ] || [ ! -f Makefile.in ] || [ configure.ac -nt configure ]; then
  say "autoreconf -fi"
  autoreconf -fi
fi

if [ -f config.status ]; then
  build=$root
  echo "using the in-tree build (config.status found in $root)"
else
  build=$root/build
  mkdir -p "$build"
fi
cd "$build"
if [ ! -f config.status ] || [ ${#configure_args[@]} -gt 0 ]; then
  say "configure ${configure_args[*]:-}"
  "$root/configure" ${configure_args[@]+"${configure_args[@]}"}
fi

say "make -j$jobs"
make -j"$jobs"
echo "built: $build/s2s-cuda"

# ------------------------------------------------------------------ 4/5. main job or tests
if [ "$mode" = check ]; then
  say "make check"
  if ! make -j"$jobs" check; then
    [ -f tests/test-suite.log ] && cat tests/test-suite.log
    [ -f test-suite.log ] && cat test-suite.log
    die "make check failed (logs above; each test's log is in $build/tests/*.log)"
  fi
else
  say "translating, building and running the samples"
  make --no-print-directory run-samples
fi
