#!/usr/bin/env bash
# run.sh — written by tests/bench/wsm5.sh --build (from tests/bench/wsm5_run.sh).
# Times the wsm5 sample's variants side by side on this machine and prints,
# per grid size, the time per call of each, the translation's kernel and data
# time (S2S_TIME=1, a separate run: the timer waits after every kernel and
# copy), the floors and the ratios the issue sets as targets.
#
# Two figures per call: the median of the calls after the first as the
# driver times them, and "loop": (time loop of STEPS calls - time loop of one
# call) / (STEPS - 1), both loops timed by the driver around its data region
# (its end included).  The port queues a call's kernel and returns (the host
# waits where it needs the data), so with the data resident only the loop
# figure says how long a call takes (it varies by a few ms from run to run:
# the time of a whole loop includes its pageable copies).
#   ./run.sh [--ncu] [NIxNJ[xNK[xSTEPS]] ...]   default 100x100 200x200 400x400,
#                                               NK 40, 6 steps
# --ncu: also profile the translation's and GCC's kernels at the largest size
# (achieved DRAM bandwidth, registers, instructions).  Each program prints the
# wall time of every call; the first call (start-up, JIT, first touch) is left
# out, the median and the best of the others are shown.
set -uo pipefail
here=${WSM5_DIR:-$(cd "$(dirname "$0")" && pwd)}
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ncu=
sizes=()
for a in "$@"; do
  case $a in
    --ncu) ncu=1 ;;
    *) sizes+=("$a") ;;
  esac
done
[ ${#sizes[@]} -gt 0 ] || sizes=(100x100 200x200 400x400)
programs=${WSM5_PROGRAMS:-ref_o3 ref_omp s2s_res s2s_copy acc_res acc_copy}
threads=$(nproc)
log=${OUT:-$here}/wsm5-bench-logs
mkdir -p "$log"

# the floors' bandwidths
bw_dev= bw_up= bw_down=
if [ -x "$here/copy_bw" ] && "$here/copy_bw" >"$log/copy_bw.txt" 2>&1; then
  cat "$log/copy_bw.txt"
  bw_dev=$(sed -n 's/^device copy kernel: \([0-9.]*\) GB.*/\1/p' "$log/copy_bw.txt")
  bw_up=$(sed -n 's/^pinned host to device: \([0-9.]*\) GB.*/\1/p' "$log/copy_bw.txt")
  bw_down=$(sed -n 's/^pinned device to host: \([0-9.]*\) GB.*/\1/p' "$log/copy_bw.txt")
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "host: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), $threads cores"

# loop_time LOG: the driver's time loop (ms).
loop_time() { sed -n 's/^ *wsm5: time loop (.*): *\([0-9.]*\) ms.*/\1/p' "$1"; }

# call_times LOG: "median best" of the calls after the first, in ms.
call_times() {
  sed -n 's/^ *wsm5: call \([0-9]*\): *\([0-9.]*\) ms.*/\1 \2/p' "$1" | awk '$1 > 1 { print $2 }' | sort -g |
    awk '{ v[NR] = $1 } END { if (NR == 0) { print "- -"; exit }
           m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; printf "%.2f %.2f\n", m, v[1] }'
}

# time_report LOG WHAT: from an S2S_TIME report, the kernel's average device
# time (WHAT=kernel) or the data's total device time (WHAT=data), in ms.  The
# report gives "device time(us): total=1,234 ... avg=567" below each
# "kernel launched" and "data copyin/copyout/update" line.
time_report() {
  awk -v what="$2" '
    function field(name,   i, v) {
      for (i = 1; i <= NF; i++) if (index($i, name "=") == 1) { v = substr($i, length(name) + 2); gsub(/,/, "", v); return v + 0 }
      return -1
    }
    pending && /device time\(us\)/ {
      if (what == "kernel" && pending == "kernel") { s += field("avg"); n++ }
      if (what == "data" && pending == "data") { s += field("total"); n++ }
      pending = ""
    }
    / kernel launched / { pending = "kernel" }
    / data (copyin|copyout|update)/ { pending = "data" }
    END { if (n == 0) print "-"; else printf "%.3f\n", s / 1000 }' "$1"
}

tol="--atol th=0.05 --atol q=2e-5 --atol qc=2e-5 --atol qr=2e-4 --atol qi=2e-6 --atol qs=3e-4"
tol="$tol --atol rain=0.03 --atol rainncv=0.03 --atol snow=0.005 --atol snowncv=0.005 --atol sr=1"

for size in "${sizes[@]}"; do
  IFS=x read -r ni nj nk steps <<<"$size"
  nk=${nk:-40} steps=${steps:-6}
  echo
  echo "=== ${ni} x ${nj} x ${nk}, $steps calls"
  declare -A med=() best=() loop=()
  for p in $programs; do
    [ -x "$here/$p" ] || continue
    env_p=()
    [ "$p" != ref_omp ] || env_p=(OMP_NUM_THREADS="$threads")
    if ! env "${env_p[@]}" "$here/$p" "$log/$p.dat" "$ni" "$nj" "$nk" "$steps" >"$log/$p-$size.log" 2>&1; then
      echo "$p: FAILED (log $log/$p-$size.log)"; tail -5 "$log/$p-$size.log"; continue
    fi
    read -r m b < <(call_times "$log/$p-$size.log")
    med[$p]=$m best[$p]=$b loop[$p]=-
    if env "${env_p[@]}" "$here/$p" "$log/one.dat" "$ni" "$nj" "$nk" 1 >"$log/$p-$size-1.log" 2>&1; then
      loop[$p]=$(awk -v a="$(loop_time "$log/$p-$size.log")" -v b="$(loop_time "$log/$p-$size-1.log")" -v n="$steps" \
                   'BEGIN { if (a == "" || b == "") print "-"; else printf "%.2f", (a - b) / (n - 1) }')
    fi
    if [ "$p" != ref_o3 ] && [ -f "$log/ref_o3.dat" ]; then
      if "$here/s2s_compare" "$log/ref_o3.dat" "$log/$p.dat" $tol >"$log/$p-$size.cmp" 2>&1; then v=agrees; else v=DIFFERS; fi
      echo "$p vs ref_o3: $v (per field: $log/$p-$size.cmp)"
    fi
  done
  # the translation's breakdown, timed (waits after every kernel and copy)
  kernel=- data=-
  if [ -x "$here/s2s_res" ]; then
    S2S_TIME=1 "$here/s2s_res" "$log/t.dat" "$ni" "$nj" "$nk" "$steps" >"$log/s2s_res-time-$size.log" 2>&1
    kernel=$(time_report "$log/s2s_res-time-$size.log" kernel)
  fi
  if [ -x "$here/s2s_copy" ]; then
    S2S_TIME=1 "$here/s2s_copy" "$log/t.dat" "$ni" "$nj" "$nk" "$steps" >"$log/s2s_copy-time-$size.log" 2>&1
    data=$(time_report "$log/s2s_copy-time-$size.log" data)
    data=$(awk -v d="$data" -v n="$steps" 'BEGIN { printf "%.2f", d / n }')
  fi
  printf '%-44s %12s %12s %12s\n' "per call (ms)" median best loop
  for p in $programs; do
    case $p in
      ref_o3) what="gfortran -O3, one core" ;;
      ref_omp) what="gfortran -O3 -fopenmp, $threads threads over j" ;;
      s2s_res) what="s2s-cuda, data resident" ;;
      s2s_copy) what="s2s-cuda, data each call" ;;
      acc_res) what="GCC OpenACC, data resident" ;;
      acc_copy) what="GCC OpenACC, copies each call" ;;
    esac
    printf '%-44s %12s %12s %12s\n' "$what" "${med[$p]:--}" "${best[$p]:--}" "${loop[$p]:--}"
  done
  printf '%-44s %12s\n' "s2s-cuda kernel (S2S_TIME avg)" "$kernel"
  printf '%-44s %12s\n' "s2s-cuda data per call (S2S_TIME, copies)" "$data"
  # floors: the fields the kernel must read (9 3-D, 5 2-D) and write (6 3-D, 5 2-D)
  awk -v ni="$ni" -v nj="$nj" -v nk="$nk" -v dev="$bw_dev" -v up="$bw_up" -v down="$bw_down" \
      -v kernel="$kernel" -v o3="${med[ref_o3]:-}" -v copy="${med[s2s_copy]:-}" -v acc="${med[acc_res]:-}" \
      -v res="${loop[s2s_res]:-}" -v accc="${med[acc_copy]:-}" '
    BEGIN {
      inb = (9 * nk + 5) * ni * nj * 4; outb = (6 * nk + 5) * ni * nj * 4
      printf "%-44s %12.1f %12.1f\n", "bytes per call in / out (MB)", inb / 1e6, outb / 1e6
      if (dev != "") {
        mf = (inb + outb) / (dev * 1e6)
        printf "%-44s %12.3f\n", "memory floor of the kernel (ms)", mf
        if (kernel != "-") printf "%-44s %12.1f x  (kernel %.2f ms: %.0f GB/s)\n", "  kernel / memory floor", kernel / mf, kernel, (inb + outb) / (kernel * 1e6)
      }
      if (up != "" && down != "") printf "%-44s %12.2f\n", "data floor per call, pinned (ms)", inb / (up * 1e6) + outb / (down * 1e6)
      # ratios (side by side in this run): the medians, but the loop figure
      # for the port with its data resident (its calls return before the
      # work is done); the loop figures vary by a few ms from run to run
      if (acc != "" && acc != "-" && kernel != "-") printf "%-44s %12.1f x  (target >= 5)\n", "GCC OpenACC resident / s2s kernel", acc / kernel
      if (acc != "" && acc != "-" && res != "" && res != "-") printf "%-44s %12.1f x\n", "GCC OpenACC resident / s2s resident", acc / res
      if (accc != "" && accc != "-" && copy != "" && copy != "-") printf "%-44s %12.1f x\n", "GCC OpenACC copies / s2s copies", accc / copy
      if (o3 != "" && o3 != "-" && copy != "" && copy != "-") printf "%-44s %12.1f x  (target >= 50)\n", "one core / s2s-cuda with data", o3 / copy
      if (o3 != "" && o3 != "-" && res != "" && res != "-") printf "%-44s %12.1f x\n", "one core / s2s-cuda resident", o3 / res
    }'
  unset med best loop
done

if [ -n "$ncu" ] && command -v ncu >/dev/null; then
  size=${sizes[${#sizes[@]}-1]}
  IFS=x read -r ni nj nk steps <<<"$size"
  nk=${nk:-40}
  metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum,sm__sass_thread_inst_executed_op_fp32_pred_on.sum,sm__inst_executed_pipe_xu.sum,l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum
  for p in s2s_res acc_res; do
    [ -x "$here/$p" ] || continue
    echo; echo "=== ncu: $p at ${ni}x${nj}x${nk}, second call"
    ncu --launch-skip 1 --launch-count 1 --metrics "$metrics" "$here/$p" "$log/n.dat" "$ni" "$nj" "$nk" 2 2>&1 |
      grep -E '^ +[a-z_]+__|launch__|==PROF==|Section|[A-Za-z_0-9]+\(' | head -30
  done
fi
