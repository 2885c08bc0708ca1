#!/usr/bin/env python3
"""gen_c.py -- random WRF-shaped C regions for differential testing.

    gen_c.py SEED DIR [classic|physics|mixed]

writes a tests/diff-style case into DIR (kernel.c, main.c, files, expect):
one function with WRF tile bounds whose `#pragma stencil region` is a j loop,
on arrays in WRF's memory order, `float a[mj][mk][mi]` ([j][k][i], i
contiguous; VLA parameters with restrict as in samples/laplace): the tile is
i = its..ite (1..ni, a halo of one point on each side), j = jts..jte (1..nj,
the same), k = kts..kte (0..nk-1, one level more above).

classic: one to four k/i nests per slab (the Fortran generator's classic
shapes): shifts of the inputs in i, j and k, k recurrences up and down
(o[j][k-1][i] read while k climbs), non-unit steps (k += 2, i += 2),
triangular bounds (i <= ite - (k - kts)), ifs around stores, break and
continue, a scalar set in the column (declared in the loop, or before the
region and so shared until privatized), a 2-D work array w[mk][mi] written
and read in the same slab, declared at the top of the slab (private to it)
or, in half the programs, before the region (a VLA w[mk][mi], shared until
privatized; in the slab the region wants a constant size: the largest
tile's).

physics: two to five blocks of column physics: the nests above; a work
column swept over k (up reading k-1, down reading k+1) from a first level
set before the loop; a level search (break at the first level passing a
test, the level kept and used as a bound); a counter per column (an int
array cnt[mi]) counted over k and read later; reductions over the whole
region into scalars (a sum of quarters, exact in any order; a maximum in
the if form or with fmaxf; a count), in the slab or in a j/k/i nest of
their own after it; rarely a call of a 2-D function on the slabs a1[j],
o1[j] (the C front end calls only math functions: a refusal, whose message
is checked).

mixed: classic for about 3 seeds in 10, physics otherwise.  Every local is
written before it is read on every path.  The expectation is `either`.
"""
import random
import sys

INPUTS = ["a1", "a2"]
OUTPUTS = ["o1", "o2", "o3"]
COEFS = ("0.5f", "1.5f", "0.25f", "2.0f", "0.75f", "0.125f")
TESTS = ("0.0f", "0.2f", "-0.2f", "0.35f", "-0.1f")
MODES = ("classic", "physics", "mixed")
MAX_MI, MAX_MK = 42, 13     # ni + 2 and nk + 1 of the largest tile (program())


def off(d):
    return "" if d == 0 else ("%+d" % d).replace("+", " + ").replace("-", " - ")


class CGen:
    def __init__(self, seed, physics):
        self.r = random.Random(seed)
        self.physics = physics
        self.lines, self.post = [], []
        self.pre_decls = {}      # before the region (work arrays, shared scalars)
        self.slab_decls = {}     # at the top of the j loop's body (private to a slab)
        self.in_slab = self.r.random() < 0.5   # where this program declares its work arrays
        self.pre = []            # statements before the region
        self.after = []          # statements after the region
        self.defined = False     # w has a value at every (k, i) of the slab
        self.counts = False      # cnt[i] counted in this slab
        self.blocks = []
        self.red = set()
        self.calls = 0

    def pick(self, *xs):
        return self.r.choice(xs)

    def chance(self, p):
        return self.r.random() < p

    def emit(self, depth, text, into=None):
        (self.lines if into is None else into).append("  " * depth + text)

    # -- expressions ---------------------------------------------------------
    def inp(self, kdn, i="i", k="k"):
        di = self.pick(0, 0, -1, 1)
        dj = self.pick(0, 0, 0, -1, 1)
        dk = self.pick(0, 0, 1, -1) if kdn else self.pick(0, 0, 1)
        return "%s[j%s][%s%s][%s%s]" % (self.pick(*INPUTS), off(dj), k, off(dk), i, off(di))

    def term(self, kdn, written, fresh_w=False):
        roll = self.r.random()
        if roll < 0.5 or not written:
            ref = self.inp(kdn)
        elif roll < 0.72:
            ref = "%s[j][k][i]" % self.pick(*written)
        elif roll < 0.82 and kdn:
            ref = "%s[j][k - 1][i]" % self.pick(*written)            # a k recurrence
        elif roll < 0.9 and (self.defined or fresh_w):
            ref = "w[k][i]"
        elif roll < 0.95 and self.counts:
            ref = "(float)cnt[i]"
        else:
            ref = "%s[j][k][i %s 1]" % (self.pick(*written), self.pick("-", "+"))  # across columns
        return "%s * %s" % (self.pick(*COEFS), ref)

    def rhs(self, kdn, written, fresh_w=False, most=3):
        out = ""
        for n in range(self.r.randint(1, most)):
            t = self.term(kdn, written, fresh_w)
            out = t if n == 0 else out + self.pick(" + ", " - ") + t
        return out

    def test(self, i="i", k="k"):
        return "%s[j][%s][%s] %s %s" % (self.pick(*INPUTS), k, i, self.pick(">", "<"), self.pick(*TESTS))

    def kloop(self, lo, hi, down=False, step=1):
        if down:
            return "for (int k = %s; k >= %s; k%s)" % (hi, lo, "--" if step == 1 else " -= %d" % step)
        return "for (int k = %s; k <= %s; k%s)" % (lo, hi, "++" if step == 1 else " += %d" % step)

    # -- blocks --------------------------------------------------------------
    def block_nest(self, d, written):
        down = self.chance(0.2)
        kstep = self.pick(1, 1, 1, 2)
        klo = self.pick("kts", "kts", "kts + 1")
        khi = self.pick("kte", "kte", "kte - 1")
        kdn = klo == "kts + 1"
        kl = self.kloop(klo, khi, down, kstep)
        ihi = self.pick("ite", "ite", "ite - 1")
        if self.chance(0.15):
            ihi = "ite - (k - kts)"                                      # triangular
        ilo = self.pick("its", "its", "its + 1")
        istep = 2 if self.chance(0.1) else 1
        il = "for (int i = %s; i <= %s; i%s)" % (ilo, ihi, "++" if istep == 1 else " += 2")
        full = klo == "kts" and khi == "kte" and kstep == 1 and ihi == "ite" and ilo == "its" and istep == 1
        k_outer = self.chance(0.7) or ihi.startswith("ite - (")
        self.emit(d, (kl if k_outer else il) + " {")
        self.emit(d + 1, (il if k_outer else kl) + " {")
        dd = d + 2
        if self.chance(0.15):
            self.emit(dd, "if (%s) %s;" % (self.test(), self.pick("break", "continue")))
            full = False
        scalar = ""
        if self.chance(0.3):
            if self.chance(0.5):
                self.emit(dd, "float s = %s;" % self.rhs(kdn, written))
            else:
                self.pre_decls["s"] = "float s;"
                self.emit(dd, "s = %s;" % self.rhs(kdn, written))
            scalar = " + s"
        fresh_w = False
        for _ in range(self.r.randint(1, 2)):
            target = self.pick(*OUTPUTS)
            if self.chance(0.06):
                (self.slab_decls if self.in_slab else self.pre_decls)["w"] = "float w[mk][mi];"
                self.emit(dd, "w[k][i] = %s%s;" % (self.rhs(kdn, written, fresh_w), scalar))
                fresh_w = True
                stmt = "%s[j][k][i] = 0.5f * w[k][i] + %s;" % (target, self.rhs(kdn, written, True, 1))
            else:
                stmt = "%s[j][k][i] = %s%s;" % (target, self.rhs(kdn, written, fresh_w), scalar)
            if self.chance(0.2):
                self.emit(dd, "if (a1[j][k][i] > 0.0f) {")
                self.emit(dd + 1, stmt)
                self.emit(dd, "}")
            elif self.chance(0.1):
                self.emit(dd, "if (%s)" % self.test())
                self.emit(dd + 1, stmt)
                self.emit(dd, "else")
                self.emit(dd + 1, "%s[j][k][i] = %s;" % (target, self.rhs(kdn, written, fresh_w, 1)))
            else:
                self.emit(dd, stmt)
            if target not in written:
                written.append(target)
        self.emit(d + 1, "}")
        self.emit(d, "}")
        if fresh_w and full:
            self.defined = True

    def block_sweep(self, d, written):
        """A recurrence over k from a first level set before the loop: in a
        work column w (refused today: C arrays are not kept per thread), or
        in a scalar carried along k in each column (i outside)."""
        down = self.chance(0.5)
        first, nb = ("kte", "k + 1") if down else ("kts", "k - 1")
        t = self.pick(*OUTPUTS)
        il = "for (int i = its; i <= ite; i++)"
        kl = self.kloop("kts", "kte - 1", True) if down else self.kloop("kts + 1", "kte")
        coef = self.pick("0.5f", "0.75f", "-0.5f")
        if self.chance(0.75):
            self.emit(d, il + " {")
            self.emit(d + 1, "float wp = %s;" % self.inp(False, k=first))
            self.emit(d + 1, kl + " {")
            self.emit(d + 2, "float wn = %s * wp + %s;" % (coef, self.rhs(not down, written, False, 2)))
            self.emit(d + 2, "%s[j][k][i] = %s[j][k][i] + %s * (wn - wp);" % (t, t, self.pick(*COEFS)))
            self.emit(d + 2, "wp = wn;")
            self.emit(d + 1, "}")
            self.emit(d, "}")
            if t not in written:
                written.append(t)
            return
        (self.slab_decls if self.in_slab else self.pre_decls)["w"] = "float w[mk][mi];"
        if self.chance(0.5):
            self.emit(d, il + " {")
            self.emit(d + 1, "w[%s][i] = %s;" % (first, self.inp(False, k=first)))
            self.emit(d + 1, kl + " {")
        else:
            self.emit(d, il)
            self.emit(d + 1, "w[%s][i] = %s;" % (first, self.inp(False, k=first)))
            self.emit(d, kl + " {")
            self.emit(d + 1, il + " {")
        dd = d + 2
        self.emit(dd, "w[k][i] = %s * w[%s][i] + %s;" % (coef, nb, self.rhs(not down, written, False, 2)))
        self.emit(dd, "%s[j][k][i] = %s[j][k][i] + %s * (w[k][i] - w[%s][i]);" % (t, t, self.pick(*COEFS), nb))
        self.emit(d + 1, "}")
        self.emit(d, "}")
        self.defined = True
        if t not in written:
            written.append(t)

    def block_search(self, d, written):
        """break at the first level passing a test; the level kept and used
        as the bound of the next loop."""
        t = self.pick(*OUTPUTS)
        down = self.chance(0.35)
        self.emit(d, "for (int i = its; i <= ite; i++) {")
        self.emit(d + 1, "int kx = %s;" % ("kts" if down else "kte"))
        self.emit(d + 1, self.kloop("kts", "kte", down) + " {")
        self.emit(d + 2, "if (%s) {" % self.test())
        self.emit(d + 3, "kx = k;")
        self.emit(d + 3, "break;")
        self.emit(d + 2, "}")
        if self.chance(0.5):
            self.emit(d + 2, "%s[j][k][i] = %s;" % (t, self.rhs(False, written, False, 2)))
        self.emit(d + 1, "}")
        self.emit(d + 1, "%s[j][kts][i] = %s[j][kts][i] + 0.01f * (float)kx;" % (t, t))
        self.emit(d + 1, "for (int k = %s; k <= %s; k++)" % (("kx", "kte") if down else ("kts", "kx")))
        self.emit(d + 2, "%s[j][k][i] = %s;" % (self.pick(*OUTPUTS), self.rhs(False, written, False, 2)))
        self.emit(d, "}")
        if t not in written:
            written.append(t)

    def block_count(self, d, written):
        """A counter per column over k, read by the nests after it."""
        (self.slab_decls if self.in_slab else self.pre_decls)["cnt"] = "int cnt[mi];"
        self.emit(d, "for (int i = its; i <= ite; i++)")
        self.emit(d + 1, "cnt[i] = 0;")
        kl = self.kloop("kts", "kte", self.chance(0.3))
        il = "for (int i = its; i <= ite; i++)"
        i_outer = self.chance(0.4)
        self.emit(d, (il if i_outer else kl) + " {")
        self.emit(d + 1, (kl if i_outer else il) + " {")
        self.emit(d + 2, "if (%s) cnt[i]%s;" % (self.test(), self.pick("++", " += 1", " = cnt[i] + 1")))
        self.emit(d + 1, "}")
        self.emit(d, "}")
        self.counts = True

    def block_reduction(self, d, written):
        own = self.chance(0.5)
        out = self.post if own else None
        if own:
            self.emit(1, "for (int j = jts; j <= jte; j++) {", into=out)
            d = 2
        kl = self.kloop("kts", "kte", self.chance(0.3))
        il = "for (int i = its; i <= ite; i++)"
        k_outer = self.chance(0.7)
        self.emit(d, (kl if k_outer else il) + " {", into=out)
        self.emit(d + 1, (il if k_outer else kl) + " {", into=out)
        dd = d + 2
        for kind in self.r.sample(["sum", "max", "count"], self.r.randint(1, 3)):
            var = {"sum": "rs", "max": "rx", "count": "nc"}[kind]
            if var not in self.red and self.chance(0.5):
                self.pre.append("    %s = %s;" % (var, {"rs": "0.0f", "rx": "-1.0e30f", "nc": "0"}[var]))
            self.red.add(var)
            e = self.rhs(False, [] if own else written, False, 2)
            if kind == "sum":
                self.emit(dd, "rs %s floorf(4.0f * (%s));" % (self.pick("+=", "= rs +"), e), into=out)
            elif kind == "max":
                if self.chance(0.5):
                    self.emit(dd, "if (%s > rx) rx = %s;" % (e, e), into=out)
                else:
                    self.emit(dd, "rx = fmaxf(rx, %s);" % e, into=out)
            else:
                self.emit(dd, "if (%s) nc%s;" % (self.test(), self.pick("++", " += 1")), into=out)
        self.emit(d + 1, "}", into=out)
        self.emit(d, "}", into=out)
        if own:
            self.emit(1, "}", into=out)

    def block_slab_call(self, d, written):
        """A 2-D function called on the slabs (refused: the C front end calls
        only math functions)."""
        self.calls += 1
        self.emit(d, "slab2d_%d(mk, mi, its, ite, kts, kte, %s[j], %s[j]);" % (
            self.calls, self.pick(*INPUTS), self.pick(*OUTPUTS)))

    def kernel(self):
        written = []
        self.emit(1, "for (int j = jts; j <= jte; j++) {")
        if not self.physics:
            for _ in range(self.r.randint(1, 4)):
                self.block_nest(2, written)
        else:
            table = [("nest", 3), ("sweep", 1.5), ("search", 1), ("count", 0.3), ("reduction", 1.2),
                     ("slab-call", 0.15)]
            for _ in range(self.r.randint(2, 5)):
                roll = self.r.random() * sum(w for _, w in table)
                for name, weight in table:
                    roll -= weight
                    if roll < 0:
                        break
                self.blocks.append(name)
                getattr(self, "block_" + name.replace("-", "_"))(2, written)
        self.emit(1, "}")
        # a region's arrays need a constant size: the largest tile's
        decls = ["    " + t.replace("[mk]", "[%d]" % MAX_MK).replace("[mi]", "[%d]" % MAX_MI)
                 for t in self.slab_decls.values()]
        return self.lines[:1] + decls + self.lines[1:] + self.post


SLAB2D = """\
static void slab2d_{n}_{seed}(int mk, int mi, int its, int ite, int kts, int kte,
                       const float x[restrict mk][mi], float y[restrict mk][mi])
{{
  for (int k = kts; k <= kte; k++)
    for (int i = its; i <= ite; i++)
      y[k][i] = 0.5f * y[k][i] + x[k][i];
}}
"""

KERNEL = """\
/* Random WRF-shaped C region (tests/random/gen_c.py, seed {seed}{what}). */
{helpers}void kern_{seed}(int mi, int mk, int mj, int its, int ite, int kts, int kte, int jts, int jte,
            const float a1[restrict mj][mk][mi], const float a2[restrict mj][mk][mi],
            float o1[restrict mj][mk][mi], float o2[restrict mj][mk][mi], float o3[restrict mj][mk][mi],
            float *restrict rsp, float *restrict rxp, int *restrict ncp)
{{
  float rs = *rsp, rx = *rxp;
  int nc = *ncp;
{decls}#pragma stencil region
  {{
{pre}{body}
  }}
  *rsp = rs;
  *rxp = rx;
  *ncp = nc;
}}
"""

PROTO = ("void kern_{seed}(int mi, int mk, int mj, int its, int ite, int kts, int kte, int jts, int jte, "
         "const float *a1, const float *a2, float *o1, float *o2, float *o3, "
         "float *rsp, float *rxp, int *ncp);")

# Both the kernels' unit and a single case's kernel.c start with this.
UNIT_HEAD = """\
#include <math.h>
#pragma GCC diagnostic ignored "-Wunknown-pragmas"
"""

DRIVER = """\
/* Driver of random C cases (tests/random/gen_c.py): for each program, inputs
 * and outputs filled with noise (halo included), one call, every output
 * dumped whole.  `prog PATH` runs them all, `prog PATH SEED...` some. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "s2s_dump.h"

/* The kernels take VLA parameters; the driver passes flat arrays. */
{protos}

static float noise(long i, long k, long j)
{{
  const long long m = 1000003;
  long long h = ((73856093LL * i + 19349663LL * k + 83492791LL * j) % m + m) % m;
  h = (h * h + 12345) % m;
  return (float)h / (float)m - 0.5f;
}}

static void run(const char *path, long seed, int single, int ni, int nj, int nk,
                void (*kern)(int, int, int, int, int, int, int, int, int, const float *, const float *,
                             float *, float *, float *, float *, float *, int *))
{{
  int mi = ni + 2, mk = nk + 1, mj = nj + 2;
  long n = (long)mi * mk * mj;
  float *a[5];
  for (int t = 0; t < 5; t++) a[t] = malloc(n * sizeof(float));
  for (int j = 0; j < mj; j++)
    for (int k = 0; k < mk; k++)
      for (int i = 0; i < mi; i++) {{
        long e = ((long)j * mk + k) * mi + i;
        a[0][e] = noise(i, k, j);
        a[1][e] = noise(j, i, k);
        a[2][e] = noise(k, j, i);
        a[3][e] = noise(i + 7, k, j);
        a[4][e] = noise(i, k + 7, j);
      }}
  float rs = 0.5f, rx = -0.25f;
  int nc = 3;
  kern(mi, mk, mj, 1, ni, 0, nk - 1, 1, nj, a[0], a[1], a[2], a[3], a[4], &rs, &rx, &nc);
  char out[1024];
  if (single) snprintf(out, sizeof out, "%s", path);
  else snprintf(out, sizeof out, "%s.%ld", path, seed);
  s2s_dump_open(out);
  s2s_dump_f32("o1", a[2], n);
  s2s_dump_f32("o2", a[3], n);
  s2s_dump_f32("o3", a[4], n);
  s2s_dump_f32("rs", &rs, 1);
  s2s_dump_f32("rx", &rx, 1);
  s2s_dump_i32("nc", &nc, 1);
  s2s_dump_close();
  for (int t = 0; t < 5; t++) free(a[t]);
}}

int main(int argc, char **argv)
{{
  static const struct {{ long seed; int ni, nj, nk; void (*kern)(int, int, int, int, int, int, int, int, int,
      const float *, const float *, float *, float *, float *, float *, float *, int *); }} progs[] = {{
{table}
  }};
  const int nprogs = (int)(sizeof progs / sizeof progs[0]);
  if (argc < 2) {{
    fprintf(stderr, "usage: %s OUT.dat [SEED...]\\n", argv[0]);
    return 2;
  }}
  for (int p = 0; p < nprogs; p++) {{
    int wanted = argc == 2;
    for (int a = 2; a < argc; a++)
      if (atol(argv[a]) == progs[p].seed) wanted = 1;
    if (wanted) run(argv[1], progs[p].seed, {single}, progs[p].ni, progs[p].nj, progs[p].nk, progs[p].kern);
  }}
  return 0;
}}
"""


def mode_of(seed, mode):
    if mode == "mixed":
        return "classic" if random.Random(seed * 7919 + 2).random() < 0.3 else "physics"
    return mode


def program(seed, mode):
    mode = mode_of(seed, mode)
    g = CGen(seed, mode == "physics")
    body = "\n".join("  " + l for l in g.kernel())
    decls = "".join("  %s\n" % t for t in g.pre_decls.values())
    pre = "".join(l + "\n" for l in g.pre)
    helpers = "".join(SLAB2D.format(n=n, seed=seed) + "\n" for n in range(1, g.calls + 1))
    for n in range(1, g.calls + 1):
        body = body.replace("slab2d_%d(" % n, "slab2d_%d_%d(" % (n, seed))
    what = "" if mode == "classic" else ", physics: " + (", ".join(g.blocks) or "none")
    text = KERNEL.format(seed=seed, what=what, helpers=helpers, decls=decls, pre=pre, body=body)
    ni, nj, nk = g.r.randint(3, 40), g.r.randint(1, 9), g.r.randint(2, 12)
    return text, ni, nj, nk


class Generated:
    def __init__(self, seed, mode):
        text, ni, nj, nk = program(seed, mode)
        self.text, self.spec = text, (seed, ni, nj, nk)


def generated(seed, mode):
    return Generated(seed, mode)


def driver(specs, single=False):
    return DRIVER.format(protos="\n".join(PROTO.format(seed=s[0]) for s in specs),
                         table="\n".join("    {%d, %d, %d, %d, kern_%d}," % (s[0], s[1], s[2], s[3], s[0])
                                         for s in specs),
                         single=1 if single else 0)


def write_case(seed, out, mode):
    text, ni, nj, nk = program(seed, mode)
    with open(out + "/kernel.c", "w") as f:
        f.write(UNIT_HEAD + text)
    with open(out + "/main.c", "w") as f:
        f.write(driver([(seed, ni, nj, nk)], single=True))
    with open(out + "/files", "w") as f:
        f.write("s2s_dump.c kernel.c main.c\n")
    with open(out + "/expect", "w") as f:
        f.write("either\n")


def main():
    args = sys.argv[1:]
    if len(args) not in (2, 3) or (len(args) == 3 and args[2] not in MODES):
        sys.stderr.write("usage: gen_c.py SEED DIR [classic|physics|mixed]\n")
        sys.exit(2)
    write_case(int(args[0]), args[1], args[2] if len(args) == 3 else "mixed")


if __name__ == "__main__":
    main()
