#!/usr/bin/env bash
# mpi.sh — the diffusion sample decomposed over MPI ranks
# (samples/diffusion/main_mpi.f90: j bands, halo planes exchanged through
# the host with update host / MPI_Sendrecv / update device inside the data
# region) gives the serial program's numbers bit for bit.
#
# The serial sample (main.f90) is built with $FC as the reference; the MPI
# driver is translated and built in emulation with mpif90 as the host
# compiler (S2S_FC), then run with `mpirun -np 1`, 2 and 3 (3 bands of
# unequal height): every dump must equal the reference's exactly
# (s2s_compare --exact).  A run that left out the halo exchange differs
# (checked once, with the update device lines dropped), so the comparison
# can fail.
#
#   mpi.sh            make check (skipped, 77, without mpif90 and mpirun)
#   mpi.sh --build DIR  a GPU build (nvcc) of the MPI driver into DIR with
#                     DIR/run.sh [NP [NI NJ NK STEPS]] for a machine with
#                     Open MPI's runtime and one GPU per rank
#
# Environment (make check sets it): top_srcdir, top_builddir, S2S, FC.
set -uo pipefail

top_srcdir=${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}
top_builddir=${top_builddir:-$top_srcdir}
S2S=${S2S:-$top_builddir/s2s-cuda}
FC=${FC:-gfortran}
compare=$top_builddir/tests/s2s_compare
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
# Open MPI refuses root unless told; oversubscribe: more ranks than cores here.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1
for tool in mpif90 mpirun; do
  command -v $tool >/dev/null 2>&1 || { echo "mpi: no $tool (Debian: openmpi-bin libopenmpi-dev): skipped"; exit 77; }
done
src=("$top_srcdir"/samples/common/s2s_dump.f90 "$top_srcdir"/samples/diffusion/diffusion.f90)
size="60 31 12 6"

if [ "${1:-}" = --build ]; then
  dir=${2:?mpi.sh --build DIR}
  mkdir -p "$dir" && dir=$(cd "$dir" && pwd) && cd "$dir" || exit 2
  cp "${src[@]}" "$top_srcdir"/samples/diffusion/main.f90 "$top_srcdir"/samples/diffusion/main_mpi.f90 .
  "$FC" -O2 s2s_dump.f90 diffusion.f90 main.f90 -o ref || exit 1
  S2S_FC=mpif90 "$S2S" -O2 s2s_dump.f90 diffusion.f90 main_mpi.f90 -o prog_mpi || exit 1
  cp "$compare" . || exit 1
  cat > run.sh <<'EOR'
#!/bin/sh
# run.sh NP [NI NJ NK STEPS] — written by tests/mpi.sh --build: the serial
# reference, then the MPI driver on NP ranks (one GPU each), compared.
cd "$(dirname "$0")" || exit 1
np=${1:-2}; shift
args=${*:-400 400 40 20}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
./ref ref.dat $args || exit 1
mpirun -np "$np" ./prog_mpi out.dat $args || exit 1
./s2s_compare --rtol tend=5e-3 ref.dat out.dat
EOR
  chmod +x run.sh
  echo "mpi: built into $dir; run $dir/run.sh NP there"
  exit 0
fi

work=$top_builddir/tests/work/mpi
rm -rf "$work"
mkdir -p "$work/bad"
cd "$work" || exit 1
cp "${src[@]}" "$top_srcdir"/samples/diffusion/main.f90 "$top_srcdir"/samples/diffusion/main_mpi.f90 .
fail=0
bad() { echo "mpi: FAIL: $*"; fail=1; }
"$FC" -O2 s2s_dump.f90 diffusion.f90 main.f90 -o ref > ref.log 2>&1 && ./ref ref.dat $size >> ref.log 2>&1 ||
  { cat ref.log; echo "mpi: FAIL: the serial reference did not build or run"; exit 1; }
if ! S2S_FC=mpif90 "$S2S" --emulate -O2 s2s_dump.f90 diffusion.f90 main_mpi.f90 -o prog_mpi > build.log 2>&1; then
  cat build.log
  echo "mpi: FAIL: the MPI driver did not translate and build"
  exit 1
fi
for np in 1 2 3; do
  # shellcheck disable=SC2086
  if ! mpirun -np $np ./prog_mpi out$np.dat $size > run$np.log 2>&1; then
    bad "mpirun -np $np failed: $(tail -n 3 run$np.log)"; continue
  fi
  "$compare" --exact ref.dat out$np.dat > cmp$np.log 2>&1 ||
    bad "$np ranks: the dumps differ from the serial program's ($work/cmp$np.log)"
done
# The same driver without the update device of the halo must differ.
cp s2s_dump.f90 diffusion.f90 bad/
sed 's/^!\$stencil update device/! left out: /' main_mpi.f90 > bad/main_mpi.f90
(cd bad && S2S_FC=mpif90 "$S2S" --emulate -O2 s2s_dump.f90 diffusion.f90 main_mpi.f90 -o prog > build.log 2>&1 &&
  mpirun -np 2 ./prog out.dat $size > run.log 2>&1) || bad "the driver without halo updates did not run"
"$compare" --exact ref.dat bad/out.dat > bad/cmp.log 2>&1 &&
  bad "without the halo updates the dumps still matched: the check cannot fail"
[ $fail = 0 ] && echo "mpi: 1, 2 and 3 ranks match the serial diffusion sample bit for bit; without the halo exchange they do not"
exit $fail
