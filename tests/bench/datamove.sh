#!/usr/bin/env bash
# datamove.sh — build (and run) tests/bench/datamove.c, the benchmark of the
# runtime's data movement (issue 11, item 6).  Not part of make check.
#
#   datamove.sh --build DIR   build for the GPU (nvcc -arch=sm_90, cudart
#                             linked statically) into DIR and write
#                             DIR/run.sh, to carry to a GPU machine that has
#                             no compilers; there: DIR/run.sh [ARGS]
#   datamove.sh --emulate     build for the CPU emulation in a scratch
#                             directory and run it at small sizes: every path
#                             runs and laplace is checked, the figures mean
#                             nothing
#
# The laplace part is samples/laplace/laplace.c twice: translated by s2s-cuda
# (its launcher moves the data each call) and the original under the name
# laplace3d_cpu, built with gcc -O3 for one core.
#
# Environment: S2S (the translator; default build/s2s-cuda or
# $top_builddir/s2s-cuda), top_builddir (where rt/libs2srt*.a are; default
# build/), CC, CXX, NVCC, CUDA_INCLUDE, CUDA_LIBDIR, NVCC_ARCH (default sm_90).
set -euo pipefail

# shellcheck source=bench_common.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench_common.sh"
CUDA_HOME=${CUDA_HOME:-$(dirname "$(dirname "$(command -v "$NVCC" || echo /usr/local/cuda/bin/nvcc)")")}
CUDA_INCLUDE=${CUDA_INCLUDE:-$CUDA_HOME/include}
CUDA_LIBDIR=${CUDA_LIBDIR:-$CUDA_HOME/lib64}
RT=$top_srcdir/rt

# Translate laplace.c and compile everything but the final link into $1.
compile_parts() {
  local out=$1
  mkdir -p "$out/src"
  cp "$top_srcdir/samples/laplace/laplace.c" "$top_srcdir/samples/laplace/laplace.h" "$out/src/"
  (cd "$out/src" && "$S2S" -Minfo laplace.c) 2>"$out/feedback.txt"
  "$CC" -std=c11 -O3 -Dlaplace3d=laplace3d_cpu -I"$out/src" -c "$out/src/laplace.c" -o "$out/src/laplace_cpu.o"
  "$CC" -std=c11 -O2 -I"$out/src" -I"$RT" ${2:+-I"$2"} -c "$out/src/laplace.s2s.c" -o "$out/src/laplace_host.o"
}

case $mode in
  build)
    command -v "$NVCC" >/dev/null || { echo "datamove.sh: no nvcc" >&2; exit 2; }
    [ -f "$top_builddir/rt/libs2srt.a" ] || { echo "datamove.sh: no $top_builddir/rt/libs2srt.a (configure found no CUDA?)" >&2; exit 2; }
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    compile_parts "$dir" "$CUDA_INCLUDE"
    "$NVCC" -O3 -arch="$NVCC_ARCH" -I"$RT" -c "$dir/src/laplace.s2s.cu" -o "$dir/src/laplace_gpu.o"
    "$CC" -std=c11 -O2 -I"$RT" -I"$CUDA_INCLUDE" -c "$here/datamove.c" -o "$dir/src/datamove.o"
    "$CXX" -o "$dir/datamove" "$dir/src/datamove.o" "$dir/src/laplace_host.o" "$dir/src/laplace_gpu.o" \
      "$dir/src/laplace_cpu.o" "$top_builddir/rt/libs2srt.a" -L"$CUDA_LIBDIR" -lcudart_static \
      -ldl -lpthread -lrt -lm
    cat >"$dir/run.sh" <<'EOF'
#!/usr/bin/env bash
# run.sh — written by tests/bench/datamove.sh --build.  Runs the data
# movement benchmark on GPU 0 (S2S_DEVICE to choose another): first with the
# runtime's defaults, then with registration off (staging only), then the
# copies with one host copy thread (what the staging alone gives).
#   ./run.sh                 all of it (about a minute on an H100)
#   ./run.sh --max-mb 256    smaller arrays; other arguments go to datamove
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current --format=csv 2>/dev/null || true
echo "== defaults"
"$here/datamove" "$@"; rc=$?
echo; echo "== S2S_REGISTER=never (staging only)"
S2S_REGISTER=never "$here/datamove" --reps 3 "$@" || rc=1
echo; echo "== S2S_COPY_THREADS=1 (one host thread fills the staging buffers)"
S2S_COPY_THREADS=1 "$here/datamove" --reps 3 "$@" || rc=1
exit $rc
EOF
    chmod +x "$dir/run.sh"
    echo "datamove: built into $dir; on the GPU machine run $dir/run.sh"
    ;;
  emulate)
    work=$(mktemp -d "${TMPDIR:-/tmp}/datamove.XXXXXX")
    trap 'rm -rf "$work"' EXIT
    compile_parts "$work"
    "$CXX" -std=c++14 -O2 -DS2S_EMULATE -I"$RT" -c -x c++ "$work/src/laplace.s2s.cu" -o "$work/src/laplace_gpu.o"
    "$CC" -std=c11 -O2 -DS2S_EMULATE -I"$RT" -c "$here/datamove.c" -o "$work/src/datamove.o"
    "$CXX" -o "$work/datamove" "$work/src/datamove.o" "$work/src/laplace_host.o" "$work/src/laplace_gpu.o" \
      "$work/src/laplace_cpu.o" "$top_builddir/rt/libs2srt_emu.a" -lpthread -lm
    S2S_STAGE_CHUNK=${S2S_STAGE_CHUNK:-256k} "$work/datamove" --max-mb 16 --reps 2 --laplace 40 36 20
    ;;
esac
