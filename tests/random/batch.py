#!/usr/bin/env python3
"""batch.py -- random differential testing in batches (tests/random_batch.sh
is the documented entry; see its header for usage).

    batch.py --lang fortran|c --mode MODE --first SEED --count N [--batch B]
             [--work DIR] [--log FILE] [--quiet]

Programs SEED .. SEED+N-1 (tests/random/gen_wrf.py for Fortran,
tests/random/gen_c.py for C) are tested B at a time (default 30).  A batch
puts its programs, each a routine of its own with its own arrays, tile and
dump file, into one translation unit and one driver, so that one reference
build, one s2s-cuda run (translation and emulation build) and one run per
thread order cover them all.  Each program is still judged on its own:

  refused  s2s-cuda stopped with `FILE:LINE:COL: error: ...` at a line of
           that program; the program is dropped from the batch (its message
           recorded) and the rest translated again, until the translation
           builds.  An error at no program's line (a crash, an error in the
           driver) splits the batch in halves until it is one program's;
           that program is then `wrong` (no message).
  matched  the translation built, and its dump equals the reference's
           (s2s_compare, the default tolerances) in forward, reverse and
           shuffled thread order and under the race check (S2S_EMU_CHECK=
           race, which must report nothing).
  wrong    anything else: a run that failed (each program of a failed run
           is run again alone, `prog PATH SEED`, to name the culprit),
           outputs that differ, a translation failure without a message.

A wrong program is written out as a tests/diff case (the generator's single
mode) under WORK/failures/<lang>-<seed>/ for `tests/diff.sh`.  One line per
program goes to the log (seed, language, mode, verdict, detail); the last
line printed is the summary.  Exit status: 0 when no program was wrong, 1
otherwise, 2 for a harness error (a reference that does not build or run: a
generator bug).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import gen_wrf  # noqa: E402
import gen_c    # noqa: E402

ORDERS = (("forward", {}), ("reverse", {"S2S_EMU_ORDER": "reverse"}),
          ("shuffle", {"S2S_EMU_ORDER": "shuffle", "S2S_EMU_SEED": "1"}),
          ("race", {"S2S_EMU_CHECK": "race"}))


class HarnessError(Exception):
    pass


# --self-test: a program the harness must call wrong, added to the first
# batch as seed 0: a running sum along i under a false `independent` (the
# reverse and shuffled orders differ, the race check reports o1).
WRONG_BODY = """\
    do j = jts, jte
      do k = kts, kte
!$stencil do independent
        do i = its, ite
          o1(i,k,j) = 0.5*o1(i-1,k,j) + a1(i,k,j)
        end do
      end do
    end do
"""


def injected_wrong():
    g = gen_wrf.generated(0, "classic")
    a = g.text.index("!$stencil region\n") + len("!$stencil region\n")
    b = g.text.index("!$stencil end region")
    g.text = g.text[:a] + WRONG_BODY + g.text[b:]
    return g


PHASES = {}


def sh(cmd, cwd, env=None, timeout=600):
    t0 = time.time()
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return 124, "timed out after %ds" % timeout
    finally:
        k = os.path.basename(cmd[0])
        PHASES[k] = PHASES.get(k, 0) + time.time() - t0


class Lang:
    """What differs between Fortran and C: the generator, the file names, the
    reference compiler."""

    def __init__(self, name, cfg):
        self.name, self.cfg = name, cfg
        if name == "fortran":
            self.gen, self.unit, self.main = gen_wrf, "kernels.f90", "main.f90"
            self.support = ["s2s_dump.f90", "diff_util.f90"]
            self.ref_cmd = [cfg.fc, cfg.opt]
            self.libs = []
        else:
            self.gen, self.unit, self.main = gen_c, "kernels.c", "main.c"
            self.support = ["s2s_dump.c"]
            self.ref_cmd = [cfg.cc, cfg.opt, "-std=c11"]
            self.libs = ["-lm"]

    def sources(self):
        return self.support + [self.unit, self.main]

    def copy_support(self, d):
        for f in os.listdir(os.path.join(self.cfg.srcdir, "samples", "common")):
            shutil.copy(os.path.join(self.cfg.srcdir, "samples", "common", f), d)
        shutil.copy(os.path.join(self.cfg.srcdir, "tests", "diff", "common", "diff_util.f90"), d)


def refusal_kind(msg):
    """A refusal's message without names and numbers: its kind in the summary."""
    text = re.sub(r"^.*?error: ", "", msg)
    text = re.sub(r"'[^']*'", "_", text)
    text = re.sub(r"\([^)]*\)", "", text)
    text = re.sub(r"\b\d+\b", "N", text)
    text = re.split(r"[:;,]", text)[0].strip()
    return text[:90]


class Runner:
    def __init__(self, cfg, lang, mode, log):
        self.cfg, self.mode, self.log = cfg, mode, log
        self.lang = Lang(lang, cfg)
        self.counts = {"matched": 0, "refused": 0, "wrong": 0}
        self.kinds = {}
        self.wrong = []

    def verdict(self, seed, what, detail=""):
        self.counts[what] += 1
        if what == "refused":
            k = refusal_kind(detail)
            self.kinds[k] = self.kinds.get(k, 0) + 1
        if what == "wrong":
            self.wrong.append(seed)
            self.write_case(seed)
        detail = detail.replace("\n", " | ")
        self.log.write("%d\t%s\t%s\t%s\t%s\n" % (seed, self.lang.name, gen_mode(self.lang, seed, self.mode),
                                                 what, detail))
        self.log.flush()
        if what == "wrong" and not self.cfg.quiet and seed != 0:
            print("random_batch: WRONG: %s seed %d (%s): %s" % (self.lang.name, seed, self.mode, detail))

    def write_case(self, seed):
        if seed == 0:
            return          # the self-test's program
        d = os.path.join(self.cfg.work, "failures", "%s-%d" % (self.lang.name, seed))
        os.makedirs(d, exist_ok=True)
        self.lang.gen.write_case(seed, d, self.mode)

    # -- one batch ------------------------------------------------------------
    def write_batch(self, d, progs):
        """The translation unit and driver of PROGS (seed -> generated program)
        into D; returns {seed: (first line, last line)} of the unit."""
        lines, spans = [], {}
        for seed in sorted(progs):
            text = progs[seed].text
            first = len(lines) + 1
            lines.extend(text.rstrip("\n").split("\n"))
            spans[seed] = (first, len(lines))
        if self.lang.name == "c":
            head = gen_c.UNIT_HEAD.rstrip("\n").split("\n")
            lines[0:0] = head
            spans = {s: (a + len(head), b + len(head)) for s, (a, b) in spans.items()}
        with open(os.path.join(d, self.lang.unit), "w") as f:
            f.write("\n".join(lines) + "\n")
        with open(os.path.join(d, self.lang.main), "w") as f:
            f.write(self.lang.gen.driver([progs[s].spec for s in sorted(progs)]))
        return spans

    def run_batch(self, seeds, d):
        os.makedirs(d, exist_ok=True)
        self.lang.copy_support(d)
        progs = {s: self.lang.gen.generated(s, self.mode) if s else injected_wrong() for s in seeds}
        self.write_batch(d, progs)
        rc, out = sh(self.lang.ref_cmd + self.lang.sources() + self.lang.libs + ["-o", "ref"], d)
        if rc != 0:
            raise HarnessError("reference build failed in %s:\n%s" % (d, out[-3000:]))
        rc, out = sh(["./ref", "ref"], d, timeout=self.cfg.timeout)
        if rc != 0:
            raise HarnessError("reference run failed in %s:\n%s" % (d, out[-3000:]))
        self.translate(progs, d)

    def translate(self, progs, d):
        active = dict(progs)
        while active:
            spans = self.write_batch(d, active)
            if os.path.exists(os.path.join(d, "prog")):
                os.remove(os.path.join(d, "prog"))
            rc, out = sh([self.cfg.s2s, "--emulate", self.cfg.opt] + self.lang.sources() + self.lang.libs
                         + ["-o", "prog"], d, env=self.cfg.s2s_env)
            with open(os.path.join(d, "translate.log"), "a") as f:
                f.write("== %s\n%s\n" % (" ".join(map(str, sorted(active))), out))
            if rc == 0 and os.path.exists(os.path.join(d, "prog")):
                self.run_orders(sorted(active), d)
                return
            blamed = {}
            if rc == 1:
                for m in re.finditer(r"^%s:(\d+):\d+: error: .*$" % re.escape(self.lang.unit), out, re.M):
                    line = int(m.group(1))
                    for seed, (a, b) in spans.items():
                        if a <= line <= b and seed not in blamed:
                            blamed[seed] = m.group(0)
            if not blamed:
                seeds = sorted(active)
                if len(seeds) == 1:
                    self.verdict(seeds[0], "wrong", "translation failed (exit %d) without a message "
                                 "at the program's lines: %s" % (rc, out.strip()[-400:]))
                    return
                half = len(seeds) // 2
                for part, name in ((seeds[:half], "a"), (seeds[half:], "b")):
                    sub = os.path.join(d, name)
                    os.makedirs(sub, exist_ok=True)
                    self.lang.copy_support(sub)
                    for s in part:          # the reference's dumps stay valid
                        shutil.copy(os.path.join(d, "ref.%d" % s), sub)
                    self.translate({s: active[s] for s in part}, sub)
                return
            for seed, msg in blamed.items():
                self.verdict(seed, "refused", msg)
                del active[seed]

    def run_orders(self, seeds, d):
        bad = {}
        for order, extra in ORDERS:
            env = dict(os.environ)
            for k in ("S2S_EMU_ORDER", "S2S_EMU_SEED", "S2S_EMU_CHECK"):
                env.pop(k, None)
            env.update(extra)
            rc, out = sh(["./prog", "out-" + order], d, env=env, timeout=self.cfg.timeout)
            failed_run = set()
            if rc != 0:
                for s in seeds:     # name the culprits: each program alone
                    rc1, out1 = sh(["./prog", "out-" + order, str(s)], d, env=env, timeout=self.cfg.timeout)
                    if rc1 != 0:
                        failed_run.add(s)
                        bad.setdefault(s, []).append("%s: run exit %d: %s" % (
                            order, rc1, " ".join(out1.strip().split("\n")[:3])[:300]))
                if not failed_run:
                    bad.setdefault(seeds[0], []).append("%s: the batch's run failed (exit %d) but no "
                                                        "program alone: %s" % (order, rc, out[-300:]))
            for s in seeds:
                if s in failed_run:
                    continue
                rc, out = sh([self.cfg.compare, "ref.%d" % s, "out-%s.%d" % (order, s)], d)
                if rc != 0:
                    bad.setdefault(s, []).append("%s: outputs differ: %s" % (
                        order, " ".join(l for l in out.split("\n") if "differ" in l or "FAIL" in l)[:300]))
        for s in seeds:
            if s in bad:
                self.verdict(s, "wrong", "; ".join(bad[s]))
            else:
                self.verdict(s, "matched")


def gen_mode(lang, seed, mode):
    return lang.gen.mode_of(seed, mode)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lang", choices=("fortran", "c"), default="fortran")
    ap.add_argument("--mode", default="mixed")
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--batch", type=int, default=30)
    ap.add_argument("--work", default=None)
    ap.add_argument("--log", default=None)
    ap.add_argument("--keep", action="store_true", help="keep the batches' directories")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--self-test", action="store_true",
                    help="Fortran: add a wrong program (seed 0) to the first batch; it must be the "
                         "one called wrong, and is not counted")
    ap.add_argument("--opt", choices=("-O0", "-O1", "-O2"), default="-O0",
                    help="optimization of every build (the emulated kernels' too: s2s-cuda's own "
                         "-O2 for them is replaced through $CXX)")
    a = ap.parse_args()
    top_srcdir = os.path.abspath(os.environ.get("top_srcdir", os.path.join(HERE, "..", "..")))
    top_builddir = os.path.abspath(os.environ.get("top_builddir", top_srcdir))
    a.srcdir = top_srcdir
    a.fc = os.environ.get("FC", "gfortran")
    a.cc = os.environ.get("CC", "gcc")
    a.s2s = os.environ.get("S2S") or os.path.join(top_builddir, "s2s-cuda")
    a.compare = os.path.join(top_builddir, "tests", "s2s_compare")
    a.timeout = int(os.environ.get("S2S_TEST_TIMEOUT", "300"))
    for tool in (a.s2s, a.compare):
        if not os.access(tool, os.X_OK):
            print("random_batch: %s not found (build with make)" % tool)
            return 2
    a.work = os.path.abspath(a.work or os.path.join(top_builddir, "tests", "work", "random-batch"))
    os.makedirs(a.work, exist_ok=True)
    # s2s-cuda builds the emulated kernels with $CXX ... -O2; a wrapper puts
    # --opt in its place (most of a batch's time is that compilation).
    a.s2s_env = dict(os.environ)
    if a.opt != "-O2":
        wrapper = os.path.join(a.work, "cxx%s" % a.opt)
        with open(wrapper, "w") as f:
            f.write('#!/bin/sh\n# written by tests/random/batch.py: $CXX with -O2 replaced by %s\n'
                    'for a; do shift; [ "$a" = -O2 ] && a=%s; set -- "$@" "$a"; done\n'
                    'exec %s "$@"\n' % (a.opt, a.opt, os.environ.get("CXX", "g++")))
        os.chmod(wrapper, 0o755)
        a.s2s_env["CXX"] = wrapper
    log = open(a.log, "a") if a.log else open(os.path.join(a.work, "verdicts.tsv"), "a")
    r = Runner(a, a.lang, a.mode, log)
    t0 = time.time()
    try:
        for first in range(a.first, a.first + a.count, a.batch):
            seeds = list(range(first, min(first + a.batch, a.first + a.count)))
            if a.self_test and first == a.first and a.lang == "fortran":
                seeds.insert(0, 0)
            d = os.path.join(a.work, "%s-%s-%d" % (a.lang, a.mode, first))
            shutil.rmtree(d, ignore_errors=True)
            r.run_batch(seeds, d)
            if not a.keep and not any(s in r.wrong for s in seeds):
                shutil.rmtree(d, ignore_errors=True)
    except HarnessError as e:
        print("random_batch: harness error: %s" % e)
        return 2
    c = r.counts
    if a.self_test and a.lang == "fortran":
        if 0 not in r.wrong:
            print("random_batch: self-test FAILED: the injected wrong program (seed 0) was not "
                  "called wrong")
            return 1
        print("random_batch: self-test: the injected wrong program (seed 0) was called wrong")
        r.wrong.remove(0)
        c["wrong"] -= 1
    print("random_batch: %s %s seeds %d..%d: %d programs, %d translated and matched, %d refused "
          "with a message, %d wrong (%.1f s)" % (a.lang, a.mode, a.first, a.first + a.count - 1,
                                                 sum(c.values()), c["matched"], c["refused"], c["wrong"],
                                                 time.time() - t0))
    if not a.quiet:
        print("random_batch: seconds per tool: %s" % ", ".join("%s %.1f" % kv for kv in sorted(PHASES.items())))
    for k, n in sorted(r.kinds.items(), key=lambda kv: -kv[1]):
        print("random_batch:   refused %5d  %s" % (n, k))
    if r.wrong:
        print("random_batch: wrong seeds: %s (cases under %s/failures)" % (
            " ".join(map(str, r.wrong)), a.work))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
