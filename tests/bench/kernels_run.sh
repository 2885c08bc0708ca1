#!/usr/bin/env bash
# run.sh — written by tests/bench/kernels.sh --build (from
# tests/bench/kernels_run.sh).  Runs the kernel benchmark on this machine's
# GPU 0 and prints, per case: the problem size, the kernel time per call of
# the s2s-cuda build (S2S_TIME, a run of its own: the timer waits after every
# kernel; the first call, a warm-up, left out) and its wall time per call
# with the data resident (the driver's clock around CALLS calls and a wait),
# the compulsory bytes (each input read once, each output written once), the
# achieved bandwidth (compulsory bytes / kernel time) against the copy
# kernel's bandwidth measured at the start of this run (copy_bw), GCC
# OpenACC's wall time per call (data resident, the same driver), the ratio,
# the one-core time, the largest relative error of each build against the
# one-core reference, and the issue's targets:
#   memory-bound stencils (laplace) at 90% or more of the copy kernel's
#   bandwidth; hdiff at 75% or more, counting compulsory bytes only; thomas
#   is a recurrence, not a stencil (one thread walks 63 dependent levels,
#   and its back substitution rereads cp and dp: 9 transfers where 7 are
#   compulsory), so its share of copy is printed with no target; every
#   kernel 2x or more faster than GCC OpenACC's (wall per call,
#   both with the data resident; with --ncu also kernel against kernel).
# Then a markdown table of every case, and the wsm5 benchmark
# (wsm5/run.sh 400x400, when the pack has it).
#
#   ./run.sh [--ncu] [--no-wsm5] [CASE[:NIxNJxNK[xCALLS]] ...]
#       CASE: laplace hdiff thomas (default all three, at the drivers'
#       sizes: 512x512x256, 512x512x80, 512x512x64; 20 calls)
#   --ncu: also profile one call of each build's kernels (time, DRAM bytes,
#          registers), summed over the kernels of a call
# Logs go to ./kernels-bench-logs (or $OUT/kernels-bench-logs).
set -uo pipefail
here=${KERNELS_DIR:-$(cd "$(dirname "$0")" && pwd)}
export LD_LIBRARY_PATH=$here/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
ncu= wsm5=1
specs=()
for a in "$@"; do
  case $a in
    --ncu) ncu=1 ;;
    --no-wsm5) wsm5= ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "run.sh: unknown option $a" >&2; exit 2 ;;
    *) specs+=("$a") ;;
  esac
done
[ ${#specs[@]} -gt 0 ] || specs=(laplace hdiff thomas)
log=${OUT:-$PWD}/kernels-bench-logs
mkdir -p "$log"
rc=0

# the copy kernel's bandwidth, this run
bw=
if [ -x "$here/copy_bw" ] && "$here/copy_bw" >"$log/copy_bw.txt" 2>&1; then
  cat "$log/copy_bw.txt"
  bw=$(sed -n 's/^device copy kernel: \([0-9.]*\) GB.*/\1/p' "$log/copy_bw.txt")
fi
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "host: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')"

# value LOG CASE KEY: a "kernels: CASE: KEY VALUE" figure of a driver's log
# (the largest, when there are several: max_rel_err of several arrays).
value() {
  sed -n "s/^kernels: $2: $3 *//p" "$1" | sort -g | tail -1
}

# kernel_time LOG: from an S2S_TIME report, "MS N": the kernel time per call
# and the kernels per call.  The report has one entry per kernel line (the
# kernels of a distributed loop share its line: hdiff's three), with the
# launches and their device time total and max; per call: launches per time
# the region is reached, times the mean launch without the slowest one (a
# warm-up launch).
kernel_time() {
  awk '
    function field(name,   i, v) {
      for (i = 1; i <= NF; i++) if (index($i, name "=") == 1) { v = substr($i, length(name) + 2); gsub(/,/, "", v); return v + 0 }
      return -1
    }
    / region .* reached [0-9]+ times/ { reached = $(NF - 1) }
    / kernel launched / { launches = $4; pending = 1; next }
    pending && /device time\(us\)/ {
      per = reached > 0 ? launches / reached : 1
      if (launches > 1) s += per * (field("total") - field("max")) / (launches - 1)
      else s += field("avg")
      n += per; pending = 0
    }
    END { if (n == 0) print "- 0"; else printf "%.4f %d\n", s / 1000, n + 0.5 }' "$1"
}

# the OpenACC builds' kernels per call (for ncu)
acc_kernels() { case $1 in hdiff) echo 4 ;; *) echo 1 ;; esac; }

# ncu_sum LOG: "ms read_GB write_GB regs(max)" summed over the kernels of
# an ncu log (lines "metric unit value", the value with thousands commas).
ncu_sum() {
  # units as ncu prints them: ns us ms s (older: nsecond usecond msecond second),
  # byte Kbyte Mbyte Gbyte; times to ms, bytes to GB
  awk 'function scale(u) {
         if (u ~ /^(ns|nsecond)$/) return 1e-6; if (u ~ /^(us|usecond)$/) return 1e-3
         if (u ~ /^(ms|msecond)$/) return 1; if (u ~ /^(s|second)$/) return 1e3
         if (u ~ /^byte$/) return 1e-9; if (u ~ /^Kbyte$/) return 1e-6
         if (u ~ /^Mbyte$/) return 1e-3; if (u ~ /^Gbyte$/) return 1; return 1 }
       { gsub(/,/, "") }
       /gpu__time_duration.sum/ { t += $NF * scale($(NF - 1)) }
       /dram__bytes_read.sum/ { r += $NF * scale($(NF - 1)) }
       /dram__bytes_write.sum/ { w += $NF * scale($(NF - 1)) }
       /launch__registers_per_thread/ { if ($NF > g) g = $NF }
       END { printf "%.4f %.3f %.3f %d\n", t, r, w, g }' "$1"
}

rows=()
for spec in "${specs[@]}"; do
  c=${spec%%:*}
  case $c in
    laplace) args=(512 512 256 20) ;;
    hdiff) args=(512 512 80 20) ;;
    thomas) args=(512 512 64 20) ;;
    *) echo "run.sh: unknown case $c" >&2; rc=2; continue ;;
  esac
  if [ "$spec" != "$c" ]; then
    IFS=x read -r -a a <<<"${spec#*:}"
    [ ${#a[@]} -ge 3 ] || { echo "run.sh: want $c:NIxNJxNK[xCALLS], not $spec" >&2; rc=2; continue; }
    args=("${a[@]:0:3}" "${a[3]:-20}")
  fi
  echo
  s2s_ok= acc_ok=
  if "$here/${c}_s2s" "${args[@]}" >"$log/$c-s2s.log" 2>&1; then s2s_ok=1; else
    echo "$c: s2s-cuda build FAILED (log $log/$c-s2s.log)"; tail -5 "$log/$c-s2s.log"; rc=1
  fi
  read -r kms nk < <(CUDA_MODULE_LOADING=EAGER S2S_TIME=1 "$here/${c}_s2s" "${args[@]}" >"$log/$c-s2s-time.log" 2>&1; kernel_time "$log/$c-s2s-time.log")
  if "$here/${c}_acc" "${args[@]}" >"$log/$c-acc.log" 2>&1; then acc_ok=1; else
    echo "$c: GCC OpenACC build FAILED (log $log/$c-acc.log)"; tail -5 "$log/$c-acc.log"; rc=1
  fi
  l=$log/$c-s2s.log
  [ -n "$s2s_ok" ] || l=$log/$c-acc.log
  points=$(value "$l" "$c" points) bytes=$(value "$l" "$c" bytes) calls=$(value "$l" "$c" calls)
  cpu=$(value "$l" "$c" cpu_ms)
  s2s_wall= s2s_err= acc_wall= acc_err=
  [ -z "$s2s_ok" ] || { s2s_wall=$(value "$log/$c-s2s.log" "$c" ms_per_call); s2s_err=$(value "$log/$c-s2s.log" "$c" max_rel_err); }
  [ -z "$acc_ok" ] || { acc_wall=$(value "$log/$c-acc.log" "$c" ms_per_call); acc_err=$(value "$log/$c-acc.log" "$c" max_rel_err); }
  tol=$(value "$l" "$c" tolerance)
  size="${args[0]}x${args[1]}x${args[2]}"
  ncu_s2s= ncu_acc=
  if [ -n "$ncu" ] && command -v ncu >/dev/null; then
    metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,launch__registers_per_thread
    for p in s2s acc; do
      k=$nk
      [ $p = s2s ] || k=$(acc_kernels "$c")
      [ "${k:-0}" -gt 0 ] || continue
      # one call after the warm-up: skip the warm-up's kernels
      ncu --print-units base --launch-skip "$k" --launch-count "$k" --metrics "$metrics" \
        "$here/${c}_$p" "${args[@]:0:3}" 1 >"$log/$c-$p-ncu.log" 2>&1
      [ $p = s2s ] && ncu_s2s=$(ncu_sum "$log/$c-$p-ncu.log") || ncu_acc=$(ncu_sum "$log/$c-$p-ncu.log")
    done
  fi
  row=$(awk -v c="$c" -v points="$points" -v bytes="$bytes" -v calls="$calls" -v cpu="$cpu" \
            -v kms="$kms" -v nk="$nk" -v sw="$s2s_wall" -v aw="$acc_wall" -v se="$s2s_err" \
            -v ae="$acc_err" -v tol="$tol" -v bw="$bw" -v size="$size" \
            -v ncs="$ncu_s2s" -v nca="$ncu_acc" '
    function ms(x) { return x == "" || x == "-" ? "-" : sprintf("%.3f", x) }
    function verdict(ok) { return ok ? "met" : "NOT met" }
    BEGIN {
      target = (c == "hdiff") ? 75 : (c == "thomas") ? 0 : 90   # 0: no bandwidth target
      printf "=== %s: %s points (%s), %d calls, data resident\n", c, sprintf("%.1f M", points / 1e6), size, calls
      printf "%-46s %10.1f MB\n", "compulsory bytes per call", bytes / 1e6
      if (bw != "") printf "%-46s %10.0f GB/s  (floor %.3f ms)\n", "copy kernel bandwidth (copy_bw, this run)", bw, bytes / (bw * 1e6)
      pct = "-"; gbs = "-"
      if (kms != "-" && kms > 0) {
        gbs = bytes / (kms * 1e6)
        printf "%-46s %10.3f ms  (%d kernel%s per call)\n", "s2s-cuda kernel per call (S2S_TIME)", kms, nk, nk == 1 ? "" : "s"
        printf "%-46s %10.0f GB/s", "  achieved: compulsory bytes / kernel time", gbs
        if (bw != "") {
          pct = 100 * gbs / bw
          if (target) printf "  = %.1f%% of copy  [target >= %d%%: %s]", pct, target, verdict(pct >= target)
          else printf "  = %.1f%% of copy  [a recurrence: no bandwidth target]", pct
        }
        printf "\n"
      } else printf "%-46s %10s\n", "s2s-cuda kernel per call (S2S_TIME)", "-"
      printf "%-46s %10s ms\n", "s2s-cuda per call (wall, resident)", ms(sw)
      printf "%-46s %10s ms\n", "GCC OpenACC per call (wall, resident)", ms(aw)
      ratio = "-"
      if (sw != "" && aw != "") {
        ratio = aw / sw
        printf "%-46s %10.2f x   [target >= 2: %s]\n", "GCC OpenACC / s2s-cuda (wall per call)", ratio, verdict(ratio >= 2)
      }
      if (aw != "" && kms != "-" && kms > 0) printf "%-46s %10.2f x\n", "GCC OpenACC wall / s2s-cuda kernel", aw / kms
      if (ncs != "" && nca != "") {
        split(ncs, s, " "); split(nca, a, " ")
        printf "%-46s %10s %10s\n", "ncu, one call", "s2s-cuda", "GCC"
        printf "%-46s %10.3f %10.3f\n", "  kernel time (ms)", s[1], a[1]
        printf "%-46s %10.3f %10.3f\n", "  DRAM read + write (GB)", s[2] + s[3], a[2] + a[3]
        if (s[1] > 0 && a[1] > 0) printf "%-46s %10.0f %10.0f\n", "  DRAM GB/s", 1e3 * (s[2] + s[3]) / s[1], 1e3 * (a[2] + a[3]) / a[1]
        if (s[1] > 0 && a[1] > 0) printf "%-46s %10.0f %10.0f\n", "  compulsory GB/s", bytes / (s[1] * 1e6), bytes / (a[1] * 1e6)
        printf "%-46s %10d %10d\n", "  registers per thread (max)", s[4], a[4]
        if (s[1] > 0) printf "%-46s %10.2f x   [target >= 2: %s]\n", "  GCC / s2s-cuda kernel time", a[1] / s[1], verdict(a[1] / s[1] >= 2)
      }
      printf "%-46s %10s ms\n", "one core, gfortran -O3 (one call)", ms(cpu)
      printf "%-46s %10s %10s  (tolerance %s)\n", "max rel error vs one core: s2s-cuda, GCC", se == "" ? "-" : sprintf("%.1e", se), ae == "" ? "-" : sprintf("%.1e", ae), sprintf("%.0e", tol)
      # the row of the summary table
      printf "ROW| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", c, size, ms(kms), gbs == "-" ? "-" : sprintf("%.0f", gbs),
        pct == "-" ? "-" : !target ? sprintf("%.0f%% (recurrence)", pct) : sprintf("%.0f%% (%s %d%%)", pct, pct >= target ? "met," : "not met,", target),
        ms(sw), ms(aw), ratio == "-" ? "-" : sprintf("%.2fx (%s)", ratio, ratio >= 2 ? "met" : "not met"),
        ms(cpu)
    }')
  grep -v '^ROW|' <<<"$row"
  rows+=("$(sed -n 's/^ROW//p' <<<"$row")")
done

echo
echo "=== summary (copy kernel ${bw:-?} GB/s)"
echo "| case | size | s2s kernel ms | GB/s | % of copy (target) | s2s wall ms | GCC OpenACC ms | GCC / s2s (>= 2) | one core ms |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|"
for r in "${rows[@]}"; do echo "$r"; done

if [ -n "$wsm5" ]; then
  echo
  if [ -x "$here/wsm5/run.sh" ]; then
    echo "=== wsm5 (tests/bench/wsm5.sh; the table of samples/wsm5/README.md)"
    OUT=${OUT:-$PWD} "$here/wsm5/run.sh" ${ncu:+--ncu} 400x400 || rc=1
  else
    echo "wsm5: not in this pack; see tests/bench/wsm5.sh (samples/wsm5/README.md has its table)"
  fi
fi
exit $rc
