# bench_common.sh — sourced by the benchmark scripts of this directory
# (datamove.sh, wsm5.sh) after `set -euo pipefail`, with their arguments.
# Sets the tree and the tools (the environment overrides each: top_builddir,
# S2S, CC, CXX, NVCC, NVCC_ARCH), and the mode from the arguments:
# `--build DIR` (mode=build, dir=DIR) or `--emulate` (mode=emulate); -h
# prints the calling script's header.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top_srcdir=$(cd "$here/../.." && pwd)
top_builddir=$(cd "${top_builddir:-$top_srcdir/build}" && pwd)
S2S=${S2S:-$top_builddir/s2s-cuda}
CC=${CC:-gcc}
CXX=${CXX:-g++}
NVCC=${NVCC:-nvcc}
NVCC_ARCH=${NVCC_ARCH:-sm_90}

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }

mode= dir=
case ${1:-} in
  --build) [ $# -eq 2 ] || { usage >&2; exit 2; }; mode=build dir=$2 ;;
  --emulate) mode=emulate ;;
  -h | --help) usage; exit 0 ;;
  *) usage >&2; exit 2 ;;
esac
[ -x "$S2S" ] || { echo "$(basename "$0"): no translator at $S2S (set S2S)" >&2; exit 2; }
