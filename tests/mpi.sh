#!/usr/bin/env bash
# mpi.sh — the diffusion and wsm5 samples decomposed over MPI ranks
# (samples/diffusion/main_mpi.f90: j bands, halo planes exchanged inside
# the data region, either between the device copies inside host_data
# use_device(t) when MPI reads device memory, or through the host with
# update host / MPI / update device; samples/wsm5/main_mpi.f90: j bands of
# column physics, no halo) give the serial programs' numbers bit for bit.
#
# The serial sample (main.f90) is built with $FC as the reference; the MPI
# driver is translated and built in emulation with mpif90 as the host
# compiler (S2S_FC), then run with `mpirun -np 1`, 2 and 3 (3 bands of
# unequal height): every dump must equal the reference's exactly
# (s2s_compare --exact).  In the emulation device memory is host memory,
# which any MPI reads, so s2s_mpi_device_aware() answers 1 and the driver
# exchanges the device copies' planes; S2S_MPI_DEVICE=0 makes it stage them
# through the host: both paths run (each driver says which it took).  The
# same for wsm5 (its serial main.f90 against main_mpi.f90, 1 and 2 ranks, a
# small grid).  A run that left out the halo exchange differs (checked for
# both paths: the update device lines dropped, the host_data lines
# dropped), so the comparison can fail.
#
#   mpi.sh            make check (skipped, 77, without mpif90 and mpirun)
#   mpi.sh --build DIR  GPU builds (nvcc) of both MPI drivers and their
#                     serial references into DIR with DIR/run.sh NP SAMPLE
#                     [NI NJ NK STEPS] (SAMPLE diffusion or wsm5) for a
#                     machine with Open MPI's runtime and one GPU per rank
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
# containers often forbid the cross-process memory copy Open MPI's shared-memory
# transport tries first (ptrace scope): plain copies always work
export OMPI_MCA_btl_vader_single_copy_mechanism=none
for tool in mpif90 mpirun; do
  command -v $tool >/dev/null 2>&1 || { echo "mpi: no $tool (Debian: openmpi-bin libopenmpi-dev): skipped"; exit 77; }
done
src=("$top_srcdir"/samples/common/s2s_dump.f90 "$top_srcdir"/samples/diffusion/diffusion.f90)
size="60 31 12 6"

w5=(kinds.f90 constants.f90 vmass.f90 wsm5.f90 s2s_dump.f90)
if [ "${1:-}" = --build ]; then
  dir=${2:?mpi.sh --build DIR}
  mkdir -p "$dir/diffusion" "$dir/wsm5" && dir=$(cd "$dir" && pwd) || exit 2
  cd "$dir/diffusion" || exit 2
  cp "${src[@]}" "$top_srcdir"/samples/diffusion/main.f90 "$top_srcdir"/samples/diffusion/main_mpi.f90 .
  "$FC" -O2 s2s_dump.f90 diffusion.f90 main.f90 -o ref || exit 1
  S2S_FC=mpif90 "$S2S" -O2 s2s_dump.f90 diffusion.f90 main_mpi.f90 -o prog_mpi || exit 1
  cd "$dir/wsm5" || exit 2
  cp "$top_srcdir"/samples/wsm5/*.f90 "$top_srcdir"/samples/common/s2s_dump.f90 .
  "$FC" -O3 "${w5[@]}" main.f90 -o ref || exit 1
  S2S_FC=mpif90 "$S2S" -O2 "${w5[@]}" main_mpi.f90 -o prog_mpi || exit 1
  cd "$dir" && cp "$compare" . || exit 1
  cat > run.sh <<'EOR'
#!/bin/sh
# run.sh NP SAMPLE [NI NJ NK STEPS] — written by tests/mpi.sh --build: the
# MPI driver of SAMPLE (diffusion, wsm5) on NP ranks, one GPU each; with
# REF=1 also the serial reference (one core) and the comparison.
cd "$(dirname "$0")" || exit 1
np=${1:-2}; sample=${2:-diffusion}; shift 2
args=${*:-400 400 40 20}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
cd "$sample" || exit 1
# --bind-to none: the runtime's copy threads need cores of their own (Open
# MPI binds each of two ranks to one core by default)
mpirun --bind-to none -np "$np" ./prog_mpi out.dat $args || exit 1
[ "${REF:-0}" = 1 ] || exit 0
./ref ref.dat $args > ref.log || exit 1
if [ "$sample" = wsm5 ]; then
  ../s2s_compare ref.dat out.dat --atol th=0.05 --atol q=2e-5 --atol qc=2e-5 --atol qr=2e-4 \
    --atol qi=2e-6 --atol qs=3e-4 --atol rain=0.03 --atol rainncv=0.03 --atol snow=0.005 \
    --atol snowncv=0.005 --atol sr=1
else
  ../s2s_compare --rtol tend=5e-3 ref.dat out.dat
fi
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
device_path="exchanged between the device copies"
staged_path="staged through the host"
# run NAME NP EXPECTED-PATH [mpirun options]: ./prog_mpi at $size, compared
run() {
  local name=$1 np=$2 path=$3
  shift 3
  # shellcheck disable=SC2086
  if ! mpirun "$@" -np "$np" ./prog_mpi out-$name.dat $size > run-$name.log 2>&1; then
    bad "$name: mpirun -np $np failed: $(tail -n 3 run-$name.log)"; return
  fi
  grep -q "halo planes $path" run-$name.log ||
    bad "$name: the driver did not say 'halo planes $path' ($work/run-$name.log)"
  "$compare" --exact ref.dat out-$name.dat > cmp-$name.log 2>&1 ||
    bad "$name: the dumps differ from the serial program's ($work/cmp-$name.log)"
}
for np in 1 2 3; do
  run device$np $np "$device_path"
done
for np in 2 3; do
  S2S_MPI_DEVICE=0 run staged$np $np "$staged_path" -x S2S_MPI_DEVICE
done
# Bands of 4, 4 and 3 rows: the middle one has no row that no edge row's
# diffusion reads, so it updates all its rows after the halo arrives.
narrow="30 11 8 5"
# shellcheck disable=SC2086
./ref refn.dat $narrow >> ref.log 2>&1 || bad "the serial reference did not run at $narrow"
for mpi_device in 1 0; do
  # shellcheck disable=SC2086
  if ! S2S_MPI_DEVICE=$mpi_device mpirun -x S2S_MPI_DEVICE -np 3 ./prog_mpi outn$mpi_device.dat \
       $narrow > runn$mpi_device.log 2>&1; then
    bad "mpirun -np 3 at $narrow (S2S_MPI_DEVICE=$mpi_device) failed: $(tail -n 3 runn$mpi_device.log)"
  else
    "$compare" --exact refn.dat outn$mpi_device.dat > cmpn$mpi_device.log 2>&1 ||
      bad "3 narrow bands, S2S_MPI_DEVICE=$mpi_device: the dumps differ from the serial program's"
  fi
done
# The same driver without the update device of the halo (staged) or without
# the host_data construct (MPI then fills the host's halo, which the device
# never sees) must differ.
cp s2s_dump.f90 diffusion.f90 bad/
mkdir -p bad/device
cp s2s_dump.f90 diffusion.f90 bad/device/
sed 's/^!\$stencil update device/! left out: /' main_mpi.f90 > bad/main_mpi.f90
sed 's/^!\$stencil \(end \)*host_data/! left out: /' main_mpi.f90 > bad/device/main_mpi.f90
for d in bad bad/device; do
  (cd $d && S2S_FC=mpif90 "$S2S" --emulate -O2 s2s_dump.f90 diffusion.f90 main_mpi.f90 -o prog > build.log 2>&1 &&
    S2S_MPI_DEVICE=$([ $d = bad ] && echo 0 || echo 1) mpirun -x S2S_MPI_DEVICE -np 2 ./prog out.dat $size \
      > run.log 2>&1) || bad "the driver without halo updates ($d) did not run"
  "$compare" --exact ref.dat $d/out.dat > $d/cmp.log 2>&1 &&
    bad "without the halo exchange ($d) the dumps still matched: the check cannot fail"
done
# wsm5: column physics over j bands.
mkdir -p "$work/wsm5" && cd "$work/wsm5" || exit 1
cp "$top_srcdir"/samples/wsm5/*.f90 "$top_srcdir"/samples/common/s2s_dump.f90 .
w5size="40 30 20 3"
# shellcheck disable=SC2086
"$FC" -O2 "${w5[@]}" main.f90 -o ref > ref.log 2>&1 && ./ref ref.dat $w5size >> ref.log 2>&1 ||
  { cat ref.log; echo "mpi: FAIL: the serial wsm5 did not build or run"; exit 1; }
if ! S2S_FC=mpif90 "$S2S" --emulate -O2 "${w5[@]}" main_mpi.f90 -o prog_mpi > build.log 2>&1; then
  cat build.log; echo "mpi: FAIL: the wsm5 MPI driver did not translate and build"; exit 1
fi
for np in 1 2; do
  # shellcheck disable=SC2086
  if ! mpirun -np $np ./prog_mpi out$np.dat $w5size > run$np.log 2>&1; then
    bad "wsm5: mpirun -np $np failed: $(tail -n 3 run$np.log)"; continue
  fi
  "$compare" --exact ref.dat out$np.dat > cmp$np.log 2>&1 ||
    bad "wsm5, $np ranks: the dumps differ from the serial program's ($work/wsm5/cmp$np.log)"
done
[ $fail = 0 ] && echo "mpi: 1, 2 and 3 ranks (and 3 bands of 3-4 rows) match the serial diffusion sample bit for bit, the halo exchanged between the device copies and staged through the host (without the halo exchange they do not); 1 and 2 ranks of wsm5 match its serial program"
exit $fail
