#!/usr/bin/env bash
# random_batch.sh — long runs of random differential testing, in batches:
# WRF-shaped Fortran regions (tests/random/gen_wrf.py, modes classic,
# physics, mixed) and C regions (tests/random/gen_c.py, modes classic,
# physics, mixed), each translated in emulation and compared with
# gfortran/gcc in forward, reverse and shuffled thread order and under the
# race check.  tests/random/batch.py does the work (its docstring says how a
# batch is built and judged); this script runs it in chunks and keeps a log.
#
#   random_batch.sh [-l LANGS] [-m MODES] [-s FIRST] [-n COUNT] [-b BATCH]
#                   [-c CHUNK] [-O OPT] [-d LOGDIR]
#     -l LANGS   languages, comma-separated (default fortran,c)
#     -m MODES   generator modes, comma-separated (default classic,physics,mixed)
#     -s FIRST   first seed (default 1)
#     -n COUNT   programs per language and mode (default 300); mode number m
#                (0, 1, ...) takes seeds FIRST + m*COUNT .. + COUNT-1
#     -b BATCH   programs in one translation unit (default 30)
#     -c CHUNK   programs per batch.py call (default 600): one summary line
#                each in the log, so a long run shows its progress
#     -O OPT     -O0 (default: the emulated kernels compile 5x faster), -O1
#                or -O2 (what tests/random.sh and make check use)
#     -d LOGDIR  where the logs go (default $top_builddir/random-logs):
#                verdicts.tsv (seed, language, mode, verdict, detail per
#                program), summary.log (the command, each chunk's summary,
#                the totals), failures/LANG-SEED/ (each wrong program as a
#                tests/diff case)
#
# Example, 10,000 programs niced in the background:
#   nice -n 15 tests/random_batch.sh -s 100000 -n 1700 -d random-logs &
# (2 languages x 3 modes x 1700).  CPU time a program (Fortran, mixed):
# about 0.09 s at -O0, 0.33 s at -O2; one at a time through tests/diff.sh
# (tests/random.sh) about 1.1 s.
# A wrong program is reproduced alone with
#   S2S_DIFF_DIR=LOGDIR/failures bash tests/diff.sh LANG-SEED
# Environment as for tests/diff.sh (top_srcdir, top_builddir, S2S, FC, CC,
# CXX).  Exit status: 0 when no program was wrong, 1 otherwise, 2 for a
# harness error.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top_srcdir=$(cd "${top_srcdir:-$here/..}" && pwd)
top_builddir=$(cd "${top_builddir:-$top_srcdir}" && pwd)
export top_srcdir top_builddir

langs=fortran,c modes=classic,physics,mixed first=1 count=300 batch=30 chunk=600 opt=-O0
logdir=$top_builddir/random-logs
while [ $# -gt 0 ]; do
  case $1 in
    -l) langs=$2; shift ;;
    -m) modes=$2; shift ;;
    -s) first=$2; shift ;;
    -n) count=$2; shift ;;
    -b) batch=$2; shift ;;
    -c) chunk=$2; shift ;;
    -O) opt=$2; shift ;;
    -d) logdir=$2; shift ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "random_batch.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
  shift
done

PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null 2>&1 || { echo "random_batch: no $PYTHON (skipped)"; exit 77; }
mkdir -p "$logdir"
logdir=$(cd "$logdir" && pwd)
summary=$logdir/summary.log
echo "== $(date -u +%FT%TZ) random_batch.sh -l $langs -m $modes -s $first -n $count -b $batch -c $chunk -O $opt" >>"$summary"

status=0
# Each mode gets seeds of its own (mode number m: FIRST + m*COUNT ..), so
# that no program is drawn twice (mixed draws classic and physics programs).
for lang in ${langs//,/ }; do
  m=0
  for mode in ${modes//,/ }; do
    lo=$((first + m * count)) m=$((m + 1))
    for ((s = lo; s < lo + count; s += chunk)); do
      n=$((lo + count - s < chunk ? lo + count - s : chunk))
      out=$("$PYTHON" "$here/random/batch.py" --lang "$lang" --mode "$mode" --first "$s" --count "$n" \
        --batch "$batch" --opt="$opt" --work "$logdir/work" --log "$logdir/verdicts.tsv")
      rc=$?
      printf '%s\n' "$out" | tee -a "$summary"
      if [ $rc -ne 0 ] && [ $status -ne 2 ]; then status=$rc; fi
      if [ -d "$logdir/work/failures" ]; then cp -r "$logdir/work/failures" "$logdir/"; fi
      [ $rc -ne 2 ] || break 3
    done
  done
done

# Totals over this run's programs (the verdicts of its seeds and languages).
nmodes=$(echo "$modes" | tr ',' '\n' | grep -c .)
"$PYTHON" - "$logdir/verdicts.tsv" "$first" "$((count * nmodes))" "$langs" <<'PY' | tee -a "$summary"
import sys
path, first, count, langs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
sys.path.insert(0, __import__("os").path.join(__import__("os").environ["top_srcdir"], "tests", "random"))
from batch import refusal_kind
seen, kinds, tot = {}, {}, {"matched": 0, "refused": 0, "wrong": 0}
for line in open(path):
    seed, lang, mode, verdict, detail = (line.rstrip("\n").split("\t") + [""])[:5]
    if first <= int(seed) < first + count and lang in langs.split(","):
        seen[(lang, seed)] = (verdict, detail)   # the last verdict of a program counts
for (lang, seed), (verdict, detail) in seen.items():
    tot[verdict] += 1
    if verdict == "refused":
        kinds[(lang, refusal_kind(detail))] = kinds.get((lang, refusal_kind(detail)), 0) + 1
print("random_batch: total %d programs: %d translated and matched, %d refused with a message, %d wrong"
      % (sum(tot.values()), tot["matched"], tot["refused"], tot["wrong"]))
for (lang, k), n in sorted(kinds.items(), key=lambda kv: -kv[1]):
    print("random_batch:   %-7s refused %5d  %s" % (lang, n, k))
PY
exit $status
