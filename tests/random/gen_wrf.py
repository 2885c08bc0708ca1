#!/usr/bin/env python3
"""gen_wrf.py -- random WRF-shaped Fortran regions for differential testing.

    gen_wrf.py SEED DIR [classic|physics|mixed]

writes a tests/diff-style case into DIR (kernel.f90, main.f90, files,
expect): one routine with WRF tile bounds whose region is a j loop.  The
module is rnd_kSEED, the routine kern_SEED, so that tests/random/batch.py
can put many programs into one file (generated(), driver()); the driver
dumps o1, o2, o3, rs, rx and nc.

classic (class Gen): one to four k/i nests, drawn from the shapes weather
codes use and the ones that have broken translators before: horizontal and
vertical shifts of the inputs, k recurrences up and down, non-unit steps,
triangular bounds, IFs around stores, EXIT and CYCLE, a local work array
written and read in the same column, scalars assigned in the column, partial
writes of arrays the region never reads.

physics (class Phys): two to five blocks of column physics (issue 9) in
random combination, each named in the kernel's second line: work arrays
with and without j (set whole, by loops or array syntax; under a test and
read under the same test), counters and sums over k read later, scalars set
before the loops and used as bounds, the k = kte idiom, k+1 / k-1 sweeps of
a work array, WSM5 sub-stepping (mstep(i), its maximum, the test per column;
and variants that must keep the maximum: read afterwards, an untested nest,
a neighbour column read), array syntax in the column (overlapping and
strided sections, WHERE, reductions), WHERE/ELSEWHERE over i sections, DO
WHILE / GOTO / DO-EXIT iterations with a counter limit, level searches with
EXIT and the level kept as a bound, per-column scratch of levels, values
carried across columns or slabs, calls of a 2-D routine of the module on the
j-th slabs (`call slab2d_1(a1(ims,kms,j-1), a2(ims,kms,j), o3(ims,kms,j),
...)` to explicit-shape dummies x(ims:ime, kms:kme); the routine has its own
nests with the classic shapes and its own work array), reductions of the
whole region into the scalar dummies rs (a sum of values rounded to
quarters: exact in any order), rx (a maximum, IF form or max()) and nc (a
count), in a nest of the slab or in j/k/i nests of their own after the j
loop, started in the region or from the host's value.  Every local is
written before it is read on every path, so the result never depends on an
undefined value.

mixed (the default): classic for about 3 seeds in 10, physics otherwise; a
seed gives the same program as in the mode it lands on.  Reads stay inside
the arrays (inputs have a halo of one point in i and j and one level above
kte; k-1 only from kts+1 up).

The expectation is `either`: s2s-cuda may refuse with an error, but when it
translates, every output array must equal gfortran's in every thread order.
The driver fills the outputs before the call, so an element the region does
not write must come back unchanged.
"""
import random
import re
import sys

INPUTS = ["a1", "a2"]
OUTPUTS = ["o1", "o2", "o3"]


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.lines = []
        self.uses_w = False

    def pick(self, *xs):
        return self.r.choice(xs)

    def chance(self, p):
        return self.r.random() < p

    def emit(self, depth, text):
        self.lines.append("  " * depth + text)

    # -- expressions ---------------------------------------------------------
    def shifted(self, kmin_ok):
        di = self.pick(0, 0, -1, 1)
        dj = self.pick(0, 0, 0, -1, 1)
        dk = self.pick(0, 0, 1, -1) if kmin_ok else self.pick(0, 0, 1)
        return "%s(i%s,k%s,j%s)" % (self.pick(*INPUTS), off(di), off(dk), off(dj))

    def term(self, kmin_ok, written):
        c = self.pick("0.5", "1.5", "0.25", "2.0", "-0.75")
        roll = self.r.random()
        if roll < 0.55 or not written:
            ref = self.shifted(kmin_ok)
        elif roll < 0.8:
            ref = self.pick(*written) + "(i,k,j)"
        elif roll < 0.9 and kmin_ok:
            ref = self.pick(*written) + "(i,k-1,j)"     # a k recurrence
        else:
            ref = self.pick(*written) + "(i%s,k,j)" % self.pick("-1", "+1")  # across columns
        return "%s*%s" % (c, ref)

    def rhs(self, kmin_ok, written):
        terms = [self.term(kmin_ok, written) for _ in range(self.r.randint(1, 3))]
        return " + ".join(terms)

    # -- statements ----------------------------------------------------------
    def nest(self, depth, written):
        kdown = self.chance(0.2)
        kstep = self.pick(1, 1, 1, 2)
        klo = self.pick("kts", "kts", "kts+1")
        khi = self.pick("kte", "kte", "kte-1")
        kmin_ok = klo == "kts+1"
        if kdown:
            kloop = "do k = %s, %s, %d" % (khi, klo, -kstep)
        else:
            kloop = "do k = %s, %s%s" % (klo, khi, "" if kstep == 1 else ", %d" % kstep)
        ihi = self.pick("ite", "ite", "ite-1")
        if self.chance(0.15):
            ihi = "ite-(k-kts)"                               # triangular
        istep = ", 2" if self.chance(0.1) else ""
        iloop = "do i = %s, %s%s" % (self.pick("its", "its", "its+1"), ihi, istep)
        k_outer = self.chance(0.7) or ihi.startswith("ite-(")
        outer, inner = (kloop, iloop) if k_outer else (iloop, kloop)
        self.emit(depth, outer)
        self.emit(depth + 1, inner)
        d = depth + 2
        if self.chance(0.15):
            self.emit(d, "if (a2(i,k,j) < -0.4) %s" % self.pick("exit", "cycle"))
        if self.chance(0.3):
            self.emit(d, "s = %s" % self.rhs(kmin_ok, written))
            scalar = " + s"
        else:
            scalar = ""
        for _ in range(self.r.randint(1, 2)):
            target = self.pick(*OUTPUTS)
            if self.chance(0.25):
                self.uses_w = True
                self.emit(d, "w(i,k) = %s%s" % (self.rhs(kmin_ok, written), scalar))
                stmt = "%s(i,k,j) = w(i,k) * 0.5" % target
            else:
                stmt = "%s(i,k,j) = %s%s" % (target, self.rhs(kmin_ok, written), scalar)
            if self.chance(0.2):
                self.emit(d, "if (a1(i,k,j) > 0.0) then")
                self.emit(d + 1, stmt)
                self.emit(d, "end if")
            else:
                self.emit(d, stmt)
            if target not in written:
                written.append(target)
        self.emit(depth + 1, "end do")
        self.emit(depth, "end do")

    def kernel(self):
        written = []
        self.emit(2, "do j = jts, jte")
        for _ in range(self.r.randint(1, 4)):
            self.nest(3, written)
        self.emit(2, "end do")
        return self.lines


# -- physics shapes ----------------------------------------------------------
# The shapes of real column physics (issue 9) in random combinations.  Each
# block below writes one shape into the j loop's body and records what it
# leaves defined, so that a later block reads only values that exist on every
# path: a work array of the routine holds a value once a block wrote all of
# (its:ite, kts:kte) in this slab (`defined`), or only where an input test
# held (`cond`: read again under the same test only); counters and sums per
# column once initialized.  Most tests read the inputs; those on computed
# values (WHERE masks on an output, the iterations' x) rely on the
# emulation doing the same operations in the same order as gfortran.

COEFS = ("0.5", "0.25", "0.75", "1.5", "-0.5", "0.125")
TESTS = ("0.0", "0.2", "-0.2", "0.35", "-0.1")


class Ctx:
    """Where an expression is evaluated: the names of i and k there (a loop
    index or a bound such as kte), whether level k-1 / k+1 of a work array
    (and k-1 of any array) exists there, the scalars set before it on every
    path, and work arrays written at (i,k) earlier in the same iteration."""

    def __init__(self, i="i", k="k", kdn=False, kup=False):
        self.i, self.k, self.kdn, self.kup = i, k, kdn, kup
        self.scalars = []
        self.fresh = []


def at(index, d):
    return index + off(d)


class Phys:
    def __init__(self, r):
        self.r = r
        self.pre = []          # region statements before the j loop
        self.lines = []        # the j loop's body
        self.decls = {}        # local name -> its declaration (first use first)
        self.defined = []      # work arrays (i,k) with a value everywhere in the slab
        self.cond = {}         # work array -> the test under which it has a value
        self.counts = []       # integer arrays per column, initialized
        self.sums = []         # real arrays per column, initialized
        self.inv = {}          # region-invariant scalars: role -> name
        self.wj = False        # wj(i,k,j) written everywhere in every slab
        self.label = 100
        self.blocks = []       # names of the blocks drawn (a comment in the kernel)
        self.post = []         # region statements after the j loop (own j nests)
        self.helpers = []      # 2-D routines the region calls on slabs
        self.red_init = set()  # reduction scalars (rs, rx, nc) set in the region

    def pick(self, *xs):
        return self.r.choice(xs)

    def chance(self, p):
        return self.r.random() < p

    def emit(self, depth, text, into=None):
        pad = "  " * depth
        out = self.lines if into is None else into
        # a negative coefficient after an operator: standard Fortran wants
        # no two operators in a row
        text = re.sub(r"\*-([0-9.]+)", r"*(-\1)", text.replace("+ -", "- ").replace("- -", "+ "))
        # free form allows 132 characters: break long sums at a " + "
        while len(pad + text) > 110 and (" + " in text[60:] or " - " in text[60:]):
            cut = min(x for x in (text.find(" + ", 60), text.find(" - ", 60)) if x >= 0)
            out.append(pad + text[:cut] + " &")
            text = "    " + text[cut + 1:]
        out.append(pad + text)

    def declare(self, name, text):
        self.decls.setdefault(name, text)

    def work(self, name):
        self.declare(name, "real :: %s(its:ite, kts:kte)" % name)
        return name

    def count_array(self, name):
        if name == "acc":
            self.declare(name, "real :: acc(its:ite)")
        else:
            self.declare(name, "integer :: %s(its:ite)" % name)
        return name

    def iscalar(self, name):
        self.declare(name, "integer :: %s" % name)
        return name

    def rscalar(self, name):
        self.declare(name, "real :: %s" % name)
        return name

    # -- bounds: the tile's, or a region-invariant scalar holding it ----------
    def lo_i(self):
        return self.pick("its", "its", self.inv.get("ib", "its"))

    def hi_i(self):
        return self.pick("ite", "ite", self.inv.get("ie", "ite"))

    def lo_k(self):
        return self.pick("kts", self.inv.get("kb", "kts"))

    def hi_k(self):
        return self.pick("kte", self.inv.get("kt", "kte"))

    def below_top(self):
        return self.pick("kte-1", self.inv.get("ktm", "kte-1"))

    def kloop(self, lo, hi, down=False, step=1):
        if down:
            return "do k = %s, %s, %d" % (hi, lo, -step)
        return "do k = %s, %s%s" % (lo, hi, "" if step == 1 else ", %d" % step)

    # -- expressions ---------------------------------------------------------
    def ref(self, c):
        kinds = ["in", "in", "in", "out"]
        if self.defined or c.fresh:
            kinds += ["work", "work"]
        if self.counts:
            kinds.append("count")
        if self.sums:
            kinds.append("sum")
        if self.wj:
            kinds.append("wj")
        if c.scalars:
            kinds.append("scalar")
        if "nlev" in self.inv:
            kinds.append("nlev")
        kind = self.pick(*kinds)
        if kind == "in":
            di = self.pick(0, 0, -1, 1)
            dj = self.pick(0, 0, 0, -1, 1)
            dk = self.pick(0, 0, 1, -1) if c.kdn else self.pick(0, 0, 1)
            return "%s(%s,%s,j%s)" % (self.pick(*INPUTS), at(c.i, di), at(c.k, dk), off(dj))
        if kind == "out":
            di = self.pick(0, 0, 0, -1, 1)
            dk = self.pick(0, 0, -1) if c.kdn else 0
            return "%s(%s,%s,j)" % (self.pick(*OUTPUTS), at(c.i, di), at(c.k, dk))
        if kind == "work":
            if c.fresh and (not self.defined or self.chance(0.5)):
                return "%s(%s,%s)" % (self.pick(*c.fresh), c.i, c.k)
            dks = [0, 0] + ([-1] if c.kdn else []) + ([1] if c.kup else [])
            return "%s(%s,%s)" % (self.pick(*self.defined), c.i, at(c.k, self.pick(*dks)))
        if kind == "count":
            return "real(%s(%s))" % (self.pick(*self.counts), c.i)
        if kind == "sum":
            return "%s(%s)" % (self.pick(*self.sums), c.i)
        if kind == "wj":
            return "wj(%s,%s,j)" % (c.i, c.k)
        if kind == "scalar":
            return self.pick(*c.scalars)
        return "real(nlev)"

    def expr(self, c, most=3):
        text = ""
        for n in range(self.r.randint(1, most)):
            coef = self.pick(*COEFS)
            sign = "-" if coef.startswith("-") else "+"
            if n == 0:
                text = "%s*%s" % (coef, self.ref(c))
            else:
                text += " %s %s*%s" % (sign, coef.lstrip("-"), self.ref(c))
        return text

    def test(self, c):
        return "%s(%s,%s,j) %s %s" % (self.pick(*INPUTS), c.i, c.k, self.pick(">", "<"),
                                      self.pick(*TESTS))

    def store(self, d, c, target=None):
        t = target or self.pick(*OUTPUTS)
        lhs = "%s(%s,%s,j)" % (t, c.i, c.k)
        if self.chance(0.4):
            self.emit(d, "%s = 0.5*%s + %s" % (lhs, lhs, self.expr(c, 2)))
        else:
            self.emit(d, "%s = %s" % (lhs, self.expr(c)))

    # -- region-level set-up -------------------------------------------------
    def invariants(self):
        """Scalars set from the tile bounds before the loops, used as bounds."""
        where = self.pre if self.chance(0.7) else None   # None: top of the j loop
        depth = 2 if where is self.pre else 3
        roles = [("ib", "its"), ("ie", "ite"), ("kb", "kts"), ("kt", "kte")]
        self.r.shuffle(roles)
        for role, value in roles[:self.r.randint(1, 4)]:
            self.inv[role] = self.iscalar(role)
            self.emit(depth, "%s = %s" % (role, value), into=where)
        if "kt" in self.inv and self.chance(0.6):
            self.inv["ktm"] = self.iscalar("ktm")
            self.emit(depth, "ktm = kt - 1", into=where)
        if self.chance(0.5):
            self.inv["nlev"] = self.iscalar("nlev")
            self.emit(depth, "nlev = %s - %s + 1" % (self.inv.get("kt", "kte"), "kts"), into=where)

    def carried(self):
        """A work array or counter set once before the j loop and changed in
        it: its values flow from one slab to the next."""
        name = self.pick("w1", "cnt", "acc")
        if name == "w1":
            self.work(name)
            self.emit(2, "w1 = 0.25", into=self.pre)
            self.defined.append(name)
        else:
            self.count_array(name)
            self.emit(2, "%s = %s" % (name, "0" if name == "cnt" else "0.0"), into=self.pre)
            (self.counts if name == "cnt" else self.sums).append(name)
        self.blocks.append("carried-" + name)

    # -- blocks of the slab --------------------------------------------------
    def block_init(self, d, name=None):
        """A whole work array, counter or sum set, as loops or array syntax."""
        name = name or self.pick("w1", "w2", "cnt", "acc")
        if name in ("cnt", "ms", "acc"):
            self.count_array(name)
            zero = "0.0" if name == "acc" else ("1" if name == "ms" else "0")
            form = self.r.randint(0, 2)
            if form == 0:
                self.emit(d, "%s = %s" % (name, zero))
            elif form == 1:
                self.emit(d, "%s(its:ite) = %s" % (name, zero))
            else:
                self.emit(d, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
                self.emit(d + 1, "%s(i) = %s" % (name, zero))
                self.emit(d, "end do")
            lst = self.sums if name == "acc" else self.counts
            if name != "ms" and name not in lst:
                lst.append(name)
            return
        self.work(name)
        form = self.r.randint(0, 3)
        if form == 0:
            self.emit(d, "%s = %s" % (name, self.pick("0.0", "0.5")))
        elif form == 1:
            self.emit(d, "%s(its:ite,kts:kte) = %s*a1(its:ite,kts:kte,j)" % (name, self.pick(*COEFS)))
        else:
            c = Ctx()
            if form == 2:
                self.emit(d, self.kloop(self.lo_k(), self.hi_k()))
                self.emit(d + 1, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
            else:
                self.emit(d, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
                self.emit(d + 1, self.kloop(self.lo_k(), self.hi_k(), down=self.chance(0.3)))
            self.emit(d + 2, "%s(i,k) = %s" % (name, self.expr(c)))
            self.emit(d + 1, "end do")
            self.emit(d, "end do")
        if name not in self.defined:
            self.defined.append(name)
        self.cond.pop(name, None)

    def block_nest(self, d):
        """A k/i nest of stores, work arrays written (maybe under a test) and
        read back, scratch of an earlier test read under the same test."""
        k_outer = self.chance(0.6)
        down = self.chance(0.25)
        part = self.chance(0.3)
        klo = "kts+1" if part and self.chance(0.5) else self.lo_k()
        khi = self.below_top() if part and self.chance(0.5) else self.hi_k()
        kstep = 2 if self.chance(0.1) else 1
        ilo = "its+1" if self.chance(0.1) else self.lo_i()
        ihi = "ite-1" if self.chance(0.1) else self.hi_i()
        full = not klo.startswith("kts+") and "-1" not in khi and khi != "ktm" and kstep == 1 \
            and not ilo.startswith("its+") and not ihi.startswith("ite-")
        c = Ctx(kdn=klo == "kts+1", kup=khi in ("kte-1", "ktm"))
        kl = self.kloop(klo, khi, down, kstep)
        il = "do i = %s, %s" % (ilo, ihi)
        self.emit(d, kl if k_outer else il)
        self.emit(d + 1, il if k_outer else kl)
        dd = d + 2
        if self.chance(0.12):
            self.emit(dd, "if (%s) %s" % (self.test(c), self.pick("exit", "cycle")))
            full = False
        if self.chance(0.3):
            self.emit(dd, "%s = %s" % (self.rscalar("s"), self.expr(c)))
            c.scalars.append("s")
        new_defined, new_cond = [], {}
        for _ in range(self.r.randint(1, 3)):
            roll = self.r.random()
            if roll < 0.3:
                name = self.work(self.pick("w1", "w2", "sc"))
                if self.chance(0.35):
                    t = self.test(c)
                    self.emit(dd, "if (%s) then" % t)
                    self.emit(dd + 1, "%s(i,k) = %s" % (name, self.expr(c)))
                    self.emit(dd, "end if")
                    if full and name not in self.defined and name not in self.cond \
                            and name not in new_defined:
                        new_cond[name] = t
                else:
                    self.emit(dd, "%s(i,k) = %s" % (name, self.expr(c)))
                    if name not in c.fresh:
                        c.fresh.append(name)
                    if full and name not in new_defined:
                        new_defined.append(name)
            elif roll < 0.45 and self.cond:
                name = self.pick(*sorted(self.cond))
                self.emit(dd, "if (%s) then" % self.cond[name])
                self.emit(dd + 1, "%s(i,k,j) = %s*%s(i,k) + %s" % (
                    self.pick(*OUTPUTS), self.pick(*COEFS), name, self.expr(c, 1)))
                self.emit(dd, "end if")
            elif self.chance(0.2):
                self.emit(dd, "if (%s) then" % self.test(c))
                self.store(dd + 1, c)
                self.emit(dd, "end if")
            else:
                self.store(dd, c)
        self.emit(d + 1, "end do")
        self.emit(d, "end do")
        for name in new_defined:
            if name not in self.defined:
                self.defined.append(name)
            self.cond.pop(name, None)
        for name, t in sorted(new_cond.items()):
            if name not in self.defined:
                self.cond[name] = t

    def block_count(self, d):
        """A counter or sum per column accumulated over k (and maybe read as it
        runs), read by later blocks."""
        name = self.pick("cnt", "acc")
        lst = self.counts if name == "cnt" else self.sums
        if name not in lst:
            self.block_init(d, name)
        i_outer = self.chance(0.4)
        c = Ctx()
        kl = self.kloop(self.lo_k(), self.hi_k(), down=self.chance(0.3))
        il = "do i = %s, %s" % (self.lo_i(), self.hi_i())
        self.emit(d, il if i_outer else kl)
        self.emit(d + 1, kl if i_outer else il)
        if name == "cnt":
            self.emit(d + 2, "if (%s) cnt(i) = cnt(i) + 1" % self.test(c))
        else:
            self.emit(d + 2, "acc(i) = acc(i) + %s" % self.expr(c, 2))
        if self.chance(0.35):
            self.store(d + 2, c)        # reads the running value
        self.emit(d + 1, "end do")
        self.emit(d, "end do")

    def block_kte(self, d):
        """The k = kte idiom: a nest below the top, then the top level with k
        set by hand (or the bottom first, k = kts, then the rest)."""
        top = self.chance(0.7)
        t = self.pick(*OUTPUTS)
        il = "do i = %s, %s" % (self.lo_i(), self.hi_i())
        if top:
            self.emit(d, self.kloop(self.lo_k(), self.below_top()))
            self.emit(d + 1, il)
            self.store(d + 2, Ctx(kup=True), t)
            self.emit(d + 1, "end do")
            self.emit(d, "end do")
            self.emit(d, "k = %s" % self.hi_k())
            self.emit(d, il)
            self.store(d + 1, Ctx(kdn=True), t)
            self.emit(d, "end do")
        else:
            self.emit(d, "k = %s" % self.lo_k())
            self.emit(d, il)
            self.store(d + 1, Ctx(), t)
            self.emit(d, "end do")
            self.emit(d, self.kloop("kts+1", self.hi_k()))
            self.emit(d + 1, il)
            self.store(d + 2, Ctx(kdn=True), t)
            self.emit(d + 1, "end do")
            self.emit(d, "end do")

    def block_sweep(self, d):
        """A recurrence of a work array over k, down (reading k+1, as falk) or
        up (reading k-1), with the first level set before the loop."""
        name = self.work(self.pick("w1", "w2", "fk"))
        down = self.chance(0.5)
        first, nb = ("kte", 1) if down else ("kts", -1)
        lo, hi = ("kts", self.below_top()) if down else ("kts+1", self.hi_k())
        t = self.pick(*OUTPUTS)
        il = "do i = %s, %s" % (self.lo_i(), self.hi_i())
        c0 = Ctx(k=first, kdn=down)
        if self.chance(0.4):                   # i outside
            self.emit(d, il)
            self.emit(d + 1, "%s(i,%s) = %s" % (name, first, self.expr(c0)))
            self.emit(d + 1, self.kloop(lo, hi, down))
            dd, close = d + 2, 2
        else:
            if self.chance(0.6):
                self.emit(d, "k = %s" % first)
                self.emit(d, il)
                self.emit(d + 1, "%s(i,k) = %s" % (name, self.expr(Ctx(kdn=down))))
            else:
                self.emit(d, il)
                self.emit(d + 1, "%s(i,%s) = %s" % (name, first, self.expr(c0)))
            self.emit(d, "end do")
            self.emit(d, self.kloop(lo, hi, down))
            self.emit(d + 1, il)
            dd, close = d + 2, 2
        c = Ctx(kdn=not down, kup=down)
        self.emit(dd, "%s(i,k) = %s*%s(i,k%+d) + %s" % (name, self.pick("0.5", "0.75", "-0.5"),
                                                      name, nb, self.expr(c, 2)))
        c.fresh.append(name)
        lhs = "%s(i,k,j)" % t
        self.emit(dd, "%s = %s + %s*(%s(i,k) - %s(i,k%+d))" % (lhs, lhs, self.pick(*COEFS),
                                                                 name, name, nb))
        for depth in range(dd - 1, dd - 1 - close, -1):
            self.emit(depth, "end do")
        if name not in self.defined:
            self.defined.append(name)
        self.cond.pop(name, None)

    def block_mstep(self, d):
        """WSM5's sub-stepping: mstep(i) per column, its maximum over the
        columns, `do n = 1, msmax` with each column tested; or one of the
        variants that must keep the maximum: it is read afterwards, a nest in
        the n loop is not tested, a neighbour column is read."""
        self.block_init(d, "ms")
        self.iscalar("msmax")
        self.iscalar("n")
        fk = self.work("fk")
        variant = self.pick("plain", "plain", "plain", "read-max", "untested", "neighbour")
        self.blocks[-1] += "-" + variant
        il = "do i = %s, %s" % (self.lo_i(), self.hi_i())
        self.emit(d, self.kloop(self.lo_k(), self.hi_k(), down=self.chance(0.5)))
        self.emit(d + 1, il)
        self.emit(d + 2, "ms(i) = max(ms(i), 1 + int(6.0*abs(%s(i,k,j))))" % self.pick(*INPUTS))
        self.emit(d + 1, "end do")
        self.emit(d, "end do")
        self.emit(d, "msmax = 1")
        self.emit(d, il)
        if self.chance(0.5):
            self.emit(d + 1, "if (msmax .le. ms(i)) msmax = ms(i)")
        else:
            self.emit(d + 1, "msmax = max(msmax, ms(i))")
        self.emit(d, "end do")
        t = self.pick(*OUTPUTS)
        test = self.pick("if (n .le. ms(i)) then", "if (ms(i) .ge. n) then", "if (n > ms(i)) cycle",
                         "if (n .lt. ms(i)) then")
        neighbour = " + 0.125*%s(i%s,k,j)" % (t, self.pick("-1", "+1")) if variant == "neighbour" else ""

        def step(dd, top):
            if test.endswith("cycle"):
                self.emit(dd, test)
                inner = dd
            else:
                self.emit(dd, test)
                inner = dd + 1
            self.emit(inner, "fk(i,k) = %s(i,k,j)*%s(i,k,j)*0.5" % (self.pick(*INPUTS), t))
            below = "" if top else " - fk(i,k+1)"
            self.emit(inner, "%s(i,k,j) = %s(i,k,j) - (fk(i,k)%s)/real(ms(i))%s" % (t, t, below, neighbour))
            if not test.endswith("cycle"):
                self.emit(dd, "end if")

        self.emit(d, "do n = 1, msmax")
        peel = self.chance(0.6)
        if peel:
            self.emit(d + 1, "k = kte")
            self.emit(d + 1, il)
            step(d + 2, True)
            self.emit(d + 1, "end do")
        i_outer = self.chance(0.3)
        kl = self.kloop("kts", "kte-1" if peel else "kte", down=True)
        self.emit(d + 1, il if i_outer else kl)
        self.emit(d + 2, kl if i_outer else il)
        step(d + 3, not peel)
        self.emit(d + 2, "end do")
        self.emit(d + 1, "end do")
        if variant == "untested":
            u = self.pick(*OUTPUTS)
            self.emit(d + 1, self.kloop("kts", "kte"))
            self.emit(d + 2, il)
            self.emit(d + 3, "%s(i,k,j) = 0.5*%s(i,k,j) + 0.125*%s(i,k,j)" % (u, u, self.pick(*INPUTS)))
            self.emit(d + 2, "end do")
            self.emit(d + 1, "end do")
        self.emit(d, "end do")
        if variant == "read-max":
            u = self.pick(*OUTPUTS)
            self.emit(d, il)
            self.emit(d + 1, "%s(i,kts,j) = %s(i,kts,j) + real(msmax) - real(ms(i))" % (u, u))
            self.emit(d, "end do")
        if "fk" not in self.defined and not peel:
            pass                                  # fk holds a value only where ms allowed

    def block_column_syntax(self, d):
        """Array syntax on a column inside the i loop: sections (shifted,
        overlapping, strided, whole), WHERE on a column, reductions over it."""
        self.declare("col", "real :: col(kts:kte)")
        self.emit(d, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
        dd = d + 1
        a, b = self.pick(*INPUTS), self.pick(*INPUTS)
        self.emit(dd, "col(kts:kte) = %s*%s(i,kts:kte,j) + %s(i,kts:kte,j%s)" % (
            self.pick(*COEFS), a, b, off(self.pick(0, 0, 1, -1))))
        for _ in range(self.r.randint(1, 4)):
            t = self.pick(*OUTPUTS)
            form = self.r.randint(0, 11)
            if form == 0:
                self.emit(dd, "col(kts+1:kte) = col(kts+1:kte) + %s*col(kts:kte-1)" % self.pick(*COEFS))
            elif form == 1:
                self.emit(dd, "%s(i,kts:kte,j) = %s*col + %s(i,kts:kte,j)" % (t, self.pick(*COEFS), t))
            elif form == 2:
                self.emit(dd, "%s(i,kts+1:kte,j) = %s(i,kts:kte-1,j)" % (t, t))
            elif form == 3:
                self.emit(dd, "%s(i,kts:kte-1,j) = %s*%s(i,kts+1:kte,j) + col(kts:kte-1)" % (
                    t, self.pick(*COEFS), t))
            elif form == 4:
                self.emit(dd, "%s(i,kts:kte:2,j) = %s(i,kts:kte:2,j) - col(kts:kte:2)" % (t, t))
            elif form == 5:
                self.emit(dd, "%s(i,:,j) = %s*%s(i,:,j) + 0.5*%s(i,:,j)" % (
                    t, self.pick(*COEFS), self.pick(*INPUTS), t))
            elif form == 6:
                self.emit(dd, "where (col(kts:kte) > %s) %s(i,kts:kte,j) = col(kts:kte)" % (
                    self.pick(*TESTS), t))
            elif form == 7:
                self.emit(dd, "where (%s(i,kts:kte,j) < %s)" % (t, self.pick(*TESTS)))
                self.emit(dd + 1, "%s(i,kts:kte,j) = -%s(i,kts:kte,j)" % (t, t))
                self.emit(dd, "elsewhere")
                self.emit(dd + 1, "%s(i,kts:kte,j) = %s(i,kts:kte,j) + col" % (t, t))
                self.emit(dd, "end where")
            elif form == 8:
                red = self.pick("maxval(col)", "minval(%s(i,kts:kte,j))" % a,
                                "sum(col(kts:kte), mask=%s(i,kts:kte,j) > 0.0)" % b,
                                "real(count(%s(i,kts:kte,j) > 0.1))" % b,
                                "real(maxloc(col, 1))", "real(minloc(%s(i,kts+1:kte,j), dim=1))" % a,
                                "maxval(%s(i,kts:kte,j), mask=col > 0.0)" % t,
                                "sum(%s(i,kts:kte,j))" % t)
                self.emit(dd, "%s(i,%s,j) = %s" % (t, self.pick("kts", "kte"), red))
            elif form == 9:
                self.emit(dd, "if (any(%s(i,kts:kte,j) > 0.4)) %s(i,kts,j) = %s(i,kts,j) + 1.0" % (
                    self.pick(*INPUTS), t, t))
            elif form == 10 and self.defined:
                w = self.pick(*self.defined)
                self.emit(dd, "%s(i,kts:kte,j) = %s(i,kts:kte,j) + %s*%s(i,kts:kte)" % (
                    t, t, self.pick(*COEFS), w))
            elif form == 11 and self.defined:
                w = self.pick(*self.defined)
                self.emit(dd, "%s(i,kte,j) = sum(%s(i,:)) + maxval(%s(i,kts:kte))" % (t, w, w))
            else:
                self.emit(dd, "col = col*%s" % self.pick(*COEFS))
        self.emit(d, "end do")

    def block_where_k(self, d):
        """Inside a k loop, array syntax over i: WHERE / ELSEWHERE on sections
        of the row (the first mask may read what the construct writes),
        shifted sections."""
        self.emit(d, self.kloop(self.lo_k(), self.hi_k(), down=self.chance(0.3)))
        dd = d + 1
        t, u = self.pick(*OUTPUTS), self.pick(*OUTPUTS)
        row = "(its:ite,k,j)"
        if self.chance(0.4):
            self.emit(dd, "%s(its+1:ite,k,j) = %s*%s(its:ite-1,k,j) + %s(its+1:ite,k,j)" % (
                t, self.pick(*COEFS), self.pick(t, u), self.pick(*INPUTS)))
        mask = self.pick(*(INPUTS + [t]))
        self.emit(dd, "where (%s%s %s %s)" % (mask, row, self.pick(">", "<"), self.pick(*TESTS)))
        src = "%s(its-1:ite-1,k,j)" % self.pick(*INPUTS) if self.chance(0.5) else "%s%s" % (self.pick(*INPUTS), row)
        self.emit(dd + 1, "%s%s = %s*%s%s + %s" % (t, row, self.pick(*COEFS), t, row, src))
        if self.defined and self.chance(0.4):
            self.emit(dd + 1, "%s%s = %s%s + %s(its:ite,k)" % (u, row, u, row, self.pick(*self.defined)))
        if self.chance(0.5):
            self.emit(dd, "elsewhere (%s%s > %s)" % (self.pick(*INPUTS), row, self.pick(*TESTS)))
            self.emit(dd + 1, "%s%s = %s*%s%s" % (u, row, self.pick(*COEFS), self.pick(*INPUTS), row))
        if self.chance(0.6):
            self.emit(dd, "elsewhere")
            self.emit(dd + 1, "%s%s = %s%s - %s" % (t, row, t, row, self.pick(*COEFS)))
        self.emit(dd, "end where")
        self.emit(d, "end do")

    def block_iterate(self, d):
        """An iteration per column (or per level) with a counter limit: DO
        WHILE, a backward GOTO, or DO with EXIT."""
        self.iscalar("n")
        x = self.rscalar("x")
        t = self.pick(*OUTPUTS)
        per_level = self.chance(0.4)
        self.emit(d, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
        dd = d + 1
        if per_level:
            self.emit(dd, self.kloop("kts", "kte"))
            dd += 1
            k = "k"
        else:
            k = self.pick("kts", "kte")
        lim = self.r.randint(2, 9)
        a = self.pick(*INPUTS)
        self.emit(dd, "x = 1.0 + %s(i,%s,j)" % (a, k))
        self.emit(dd, "n = 0")
        form = self.pick("while", "goto", "exit")
        update = "x = x*%s + 0.05*%s(i,%s,j)" % (self.pick("0.7", "0.5", "0.9"), self.pick(*INPUTS), k)
        cont = "x > %s .and. n < %d" % (self.pick("0.3", "0.6", "0.9"), lim)
        if form == "while":
            self.emit(dd, "do while (%s)" % cont)
            self.emit(dd + 1, update)
            self.emit(dd + 1, "n = n + 1")
            self.emit(dd, "end do")
        elif form == "goto":
            label = self.label
            self.label += 10
            self.emit(dd, "%d continue" % label)
            self.emit(dd, update)
            self.emit(dd, "n = n + 1")
            if not per_level and self.chance(0.5):
                # a sweep over the column repeated until the test fails
                self.emit(dd, "do k = kts, kte-1")
                self.emit(dd + 1, "%s(i,k,j) = 0.75*%s(i,k,j) + 0.25*%s(i,k+1,j)" % (t, t, t))
                self.emit(dd, "end do")
            self.emit(dd, "if (%s) go to %d" % (cont, label))
        else:
            self.emit(dd, "do")
            self.emit(dd + 1, "if (.not. (%s)) exit" % cont)
            self.emit(dd + 1, update)
            self.emit(dd + 1, "n = n + 1")
            self.emit(dd, "end do")
        self.emit(dd, "%s(i,%s,j) = x + real(n)" % (t, k))
        if per_level:
            self.emit(d + 1, "end do")
        self.emit(d, "end do")

    def block_search(self, d):
        """EXIT from a k loop at the first level passing a test; the level
        found is read after the loop and bounds another one."""
        kx = self.iscalar("kx")
        down = self.chance(0.35)
        t, u = self.pick(*OUTPUTS), self.pick(*OUTPUTS)
        self.emit(d, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
        self.emit(d + 1, self.kloop("kts", "kte", down))
        c = Ctx()
        self.emit(d + 2, "if (%s) exit" % self.test(c))
        if self.chance(0.6):
            self.store(d + 2, c, t)
        self.emit(d + 1, "end do")
        self.emit(d + 1, "%s = k" % kx)
        self.emit(d + 1, "%s(i,kts,j) = %s(i,kts,j) + 0.01*real(kx)" % (u, u))
        if down:
            self.emit(d + 1, "do k = max(kx, kts), kte")
        else:
            self.emit(d + 1, "do k = kts, min(kx, kte)")
        self.store(d + 2, Ctx(), self.pick(*OUTPUTS))
        self.emit(d + 1, "end do")
        self.emit(d, "end do")

    def block_column_scratch(self, d):
        """A per-column array of levels (dz(kts:kte)) set and read inside one
        i iteration; rarely read again after the i loop (the last column's)."""
        self.declare("dz", "real :: dz(kts:kte)")
        self.emit(d, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
        self.emit(d + 1, self.kloop(self.lo_k(), self.hi_k(), down=self.chance(0.3)))
        self.emit(d + 2, "dz(k) = %s" % self.expr(Ctx()))
        self.emit(d + 1, "end do")
        down = self.chance(0.4)
        self.emit(d + 1, self.kloop("kts+1", "kte", down) if self.chance(0.5) else self.kloop("kts", "kte", down))
        t = self.pick(*OUTPUTS)
        kdn = self.lines[-1].strip().startswith("do k = kts+1") or self.lines[-1].strip().startswith("do k = kte, kts+1")
        self.emit(d + 2, "%s(i,k,j) = %s*dz(k)%s + %s" % (
            t, self.pick(*COEFS), " - 0.5*dz(k-1)" if kdn else "", self.expr(Ctx(kdn=kdn), 2)))
        self.emit(d + 1, "end do")
        self.emit(d, "end do")
        if self.chance(0.12):
            self.blocks[-1] += "-shared"
            u = self.pick(*OUTPUTS)
            self.emit(d, self.kloop("kts", "kte"))
            self.emit(d + 1, "do i = its, ite")
            self.emit(d + 2, "%s(i,k,j) = %s(i,k,j) + 0.5*dz(k)" % (u, u))
            self.emit(d + 1, "end do")
            self.emit(d, "end do")

    def block_wj_write(self, d):
        """A local array with j (its:ite, kts:kte, jts:jte) set in every slab."""
        self.declare("wj", "real :: wj(its:ite, kts:kte, jts:jte)")
        self.emit(d, self.kloop(self.lo_k(), self.hi_k()))
        self.emit(d + 1, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
        self.emit(d + 2, "wj(i,k,j) = %s" % self.expr(Ctx()))
        self.emit(d + 1, "end do")
        self.emit(d, "end do")
        self.wj = True

    def block_wj_previous(self, d):
        """The previous slab's wj read (a dependence between slabs)."""
        t = self.pick(*OUTPUTS)
        self.emit(d, self.kloop(self.lo_k(), self.hi_k()))
        self.emit(d + 1, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
        self.emit(d + 2, "if (j > jts) %s(i,k,j) = %s(i,k,j) + 0.5*wj(i,k,j-1)" % (t, t))
        self.emit(d + 1, "end do")
        self.emit(d, "end do")

    def block_scalar_carry(self, d):
        """A scalar carried along i (a running sum across the columns, or the
        last column's value read by a later nest): the columns depend on each
        other."""
        s = self.rscalar("sa")
        t = self.pick(*OUTPUTS)
        self.emit(d, "sa = %s" % self.pick("0.0", "0.5"))
        self.emit(d, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
        running = self.chance(0.5)
        if running:
            self.emit(d + 1, "sa = sa*0.5 + %s(i,kts,j)" % self.pick(*INPUTS))
            self.emit(d + 1, "%s(i,kts,j) = sa" % t)
        else:
            self.emit(d + 1, "if (%s) sa = %s(i,kte,j)" % (self.test(Ctx(k="kts")), self.pick(*INPUTS)))
        self.emit(d, "end do")
        self.emit(d, self.kloop(self.lo_k(), self.hi_k()))
        self.emit(d + 1, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
        self.emit(d + 2, "%s(i,k,j) = %s(i,k,j) + 0.25*%s" % (t, t, s))
        self.emit(d + 1, "end do")
        self.emit(d, "end do")

    def block_bound_array(self, d):
        """A level per column found by a search and kept in an integer array
        (kl(i)), used later as a bound of the column's k loop."""
        self.declare("kl", "integer :: kl(its:ite)")
        t = self.pick(*OUTPUTS)
        self.emit(d, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
        self.emit(d + 1, "kl(i) = %s" % self.pick("kts", "kte"))
        self.emit(d + 1, self.kloop("kts", "kte", self.chance(0.4)))
        self.emit(d + 2, "if (%s) then" % self.test(Ctx()))
        self.emit(d + 3, "kl(i) = k")
        self.emit(d + 3, "exit")
        self.emit(d + 2, "end if")
        self.emit(d + 1, "end do")
        self.emit(d, "end do")
        if self.chance(0.5):                    # lo_i..hi_i: every column, kl set
            self.emit(d, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
            self.emit(d + 1, "do k = kl(i), kte" if self.chance(0.5) else "do k = kts, kl(i)")
            self.store(d + 2, Ctx(), t)
            self.emit(d + 1, "end do")
            self.emit(d, "end do")
        else:
            self.emit(d, "do k = kts, kte")
            self.emit(d + 1, "do i = its, ite")
            self.emit(d + 2, "if (k >= kl(i)) %s(i,k,j) = %s(i,k,j) - 0.5" % (t, t))
            self.emit(d + 1, "end do")
            self.emit(d, "end do")

    def block_slab_scalar(self, d):
        """A scalar set in the slab from j, read by the nests after it."""
        self.rscalar("xs")
        t = self.pick(*OUTPUTS)
        self.emit(d, "xs = 0.125*real(j - jts) + %s" % self.pick("0.5", "0.25"))
        self.emit(d, self.kloop(self.lo_k(), self.hi_k(), self.chance(0.3)))
        self.emit(d + 1, "do i = %s, %s" % (self.lo_i(), self.hi_i()))
        self.emit(d + 2, "%s(i,k,j) = xs*%s(i,k,j) + %s" % (t, t, self.expr(Ctx(), 2)))
        self.emit(d + 1, "end do")
        self.emit(d, "end do")

    def block_slab_call(self, d):
        """A call of a 2-D routine of the module on the j-th slabs of the
        inputs and an output (physics2d's shape: `a1(ims,kms,j)` passed to an
        explicit-shape dummy x(ims:ime, kms:kme)); the routine has its own
        nests (shifts in i and k, k recurrences, triangular bounds, IFs,
        EXIT/CYCLE, a work array of its own)."""
        name = "slab2d_%d" % (len(self.helpers) + 1)
        self.helpers.append(slab_routine(self.r, name))
        x1 = "%s(ims,kms,j%s)" % (self.pick(*INPUTS), off(self.pick(0, 0, 0, -1, 1)))
        x2 = "%s(ims,kms,j)" % self.pick(*INPUTS)
        y = "%s(ims,kms,j)" % self.pick(*OUTPUTS)
        self.emit(d, "call %s(%s, %s, %s, ims,ime, kms,kme, its,ite, kts,kte)" % (name, x1, x2, y))

    def block_reduction(self, d):
        """Reductions of the whole region into the scalar dummies: a sum (of
        values rounded to quarters, so that any order of the additions gives
        the same bits), a maximum (IF form or max()), a count; in a nest of
        the slab or in a j/k/i nest of their own after the j loop; started
        in the region or from the host's value."""
        own = self.chance(0.5)
        out = self.post if own else None
        if own:
            self.emit(2, "do j = jts, jte", into=out)
            d = 3
        kl = self.kloop(self.lo_k(), self.hi_k(), down=self.chance(0.3))
        il = "do i = %s, %s" % (self.lo_i(), self.hi_i())
        k_outer = self.chance(0.7)
        self.emit(d, kl if k_outer else il, into=out)
        self.emit(d + 1, il if k_outer else kl, into=out)
        c = Ctx()
        kinds = self.r.sample(["sum", "max", "count"], self.r.randint(1, 3))
        for kind in kinds:
            var = {"sum": "rs", "max": "rx", "count": "nc"}[kind]
            if var not in self.red_init and self.chance(0.5):
                self.emit(2, "%s = %s" % (var, {"rs": "0.0", "rx": "-1.0e30", "nc": "0"}[var]),
                          into=self.pre)
            self.red_init.add(var)
            e = reduction_expr(self, c, own)
            if kind == "sum":
                self.emit(d + 2, "rs = rs + real(nint(4.0*(%s)))" % e, into=out)
            elif kind == "max":
                if self.chance(0.5):
                    self.emit(d + 2, "if (%s > rx) rx = %s" % (e, e), into=out)
                else:
                    self.emit(d + 2, "rx = max(rx, %s)" % e, into=out)
            else:
                self.emit(d + 2, "if (%s) nc = nc + 1" % self.test(c), into=out)
        if not own and self.chance(0.3):
            self.store(d + 2, c)
        self.emit(d + 1, "end do", into=out)
        self.emit(d, "end do", into=out)
        if own:
            self.emit(2, "end do", into=out)

    def kernel(self):
        if self.chance(0.4):
            self.invariants()
        if self.chance(0.1):
            self.carried()
        if self.chance(0.12):
            self.blocks.append("wj")
            self.block_wj_write(3)
        table = [("nest", 3), ("init", 1), ("count", 1.5), ("kte", 1), ("sweep", 1.5),
                 ("mstep", 1.5), ("column-syntax", 1.5), ("where-k", 1), ("iterate", 1),
                 ("search", 1), ("column-scratch", 1), ("wj-previous", 0.5 if self.wj else 0),
                 ("scalar-carry", 0.5), ("bound-array", 1), ("slab-scalar", 0.5),
                 ("slab-call", 1.5), ("reduction", 1)]
        for _ in range(self.r.randint(2, 5)):
            roll = self.r.random() * sum(w for _, w in table)
            for name, weight in table:
                roll -= weight
                if roll < 0:
                    break
            self.blocks.append(name)
            getattr(self, "block_" + name.replace("-", "_"))(3)
        return self.lines


def reduction_expr(p, c, own):
    """The value a reduction takes: any expression inside the slab; in a nest
    of its own after the j loop only the inputs and outputs (the work arrays
    hold the last slab's values there)."""
    if not own:
        return p.expr(c, 2)
    terms = []
    for _ in range(p.r.randint(1, 2)):
        if p.chance(0.6):
            ref = "%s(i%s,k,j%s)" % (p.pick(*INPUTS), off(p.pick(0, -1, 1)), off(p.pick(0, 0, -1, 1)))
        else:
            ref = "%s(i,k,j)" % p.pick(*OUTPUTS)
        terms.append("%s*%s" % (p.pick("0.5", "0.25", "1.5"), ref))
    return " + ".join(terms)


SLAB_ROUTINE = """\
  subroutine {name}(x1, x2, y, ims,ime, kms,kme, its,ite, kts,kte)
    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte
    real, intent(in) :: x1(ims:ime, kms:kme), x2(ims:ime, kms:kme)
    real, intent(inout) :: y(ims:ime, kms:kme)
    real :: t(its:ite, kts:kte)
    real :: s
    integer :: i, k
{body}
  end subroutine {name}
"""


def slab_routine(r, name):
    """A 2-D routine on one slab (x1, x2 in, y in/out, its own work array t):
    one to three k/i nests with the classic generator's shapes on 2-D
    arrays.  t is read only after a nest wrote all of it."""
    lines = []
    t_full = False

    def emit(depth, text):
        lines.append("  " * depth + text)

    def ref(kdn):
        roll = r.random()
        if roll < 0.55:
            dk = r.choice((0, 0, 1, -1) if kdn else (0, 0, 1))
            return "%s(i%s,k%s)" % (r.choice(("x1", "x2")), off(r.choice((0, 0, -1, 1))), off(dk))
        if roll < 0.75:
            return "y(i,k)"
        if roll < 0.85 and kdn:
            return "y(i,k-1)"                               # a k recurrence
        if roll < 0.92 and t_full:
            return "t(i,k)"
        if roll < 0.96:
            return "y(i%s,k)" % r.choice(("-1", "+1"))      # across columns
        return "x1(i,k)"

    def rhs(kdn):
        return " + ".join("%s*%s" % (r.choice(("0.5", "1.5", "0.25", "-0.75")), ref(kdn))
                          for _ in range(r.randint(1, 3))).replace("+ -", "- ")

    for _ in range(r.randint(1, 3)):
        down = r.random() < 0.25
        step = r.choice((1, 1, 1, 2))
        klo = r.choice(("kts", "kts", "kts+1"))
        khi = r.choice(("kte", "kte", "kte-1"))
        kdn = klo == "kts+1"
        kl = ("do k = %s, %s, %d" % (khi, klo, -step)) if down else \
            ("do k = %s, %s%s" % (klo, khi, "" if step == 1 else ", %d" % step))
        ihi = r.choice(("ite", "ite", "ite-1"))
        if r.random() < 0.15:
            ihi = "ite-(k-kts)"
        il = "do i = %s, %s%s" % (r.choice(("its", "its", "its+1")), ihi, ", 2" if r.random() < 0.1 else "")
        k_outer = r.random() < 0.7 or ihi.startswith("ite-(")
        full = klo == "kts" and khi == "kte" and step == 1 and ihi == "ite" and il.startswith("do i = its,") \
            and ", 2" not in il
        emit(2, kl if k_outer else il)
        emit(3, il if k_outer else kl)
        if r.random() < 0.15:
            emit(4, "if (x2(i,k) < -0.4) %s" % r.choice(("exit", "cycle")))
            full = False
        scalar = ""
        if r.random() < 0.3:
            emit(4, "s = %s" % rhs(kdn))
            scalar = " + s"
        wrote_t = False
        for _ in range(r.randint(1, 2)):
            if r.random() < 0.3:
                emit(4, "t(i,k) = %s%s" % (rhs(kdn), scalar))
                wrote_t = True
                stmt = "y(i,k) = 0.5*t(i,k) + %s" % rhs(kdn)
            else:
                stmt = "y(i,k) = %s%s" % (rhs(kdn), scalar)
            if r.random() < 0.2:
                emit(4, "if (x1(i,k) > 0.0) then")
                emit(5, stmt)
                emit(4, "end if")
            else:
                emit(4, stmt)
        emit(3, "end do")
        emit(2, "end do")
        if wrote_t and full:
            t_full = True
    body = "\n".join(l if len(l) < 120 else l for l in lines)
    return SLAB_ROUTINE.format(name=name, body=body)


def off(d):
    return "" if d == 0 else ("%+d" % d)


KERNEL = """\
! Random WRF-shaped region (tests/random/gen_wrf.py, seed {seed}{what}).
module rnd_k{seed}
  implicit none
contains
  subroutine kern_{seed}(a1, a2, o1, o2, o3, rs, rx, nc, &
                     ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in) :: a1, a2
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: o1, o2, o3
    real, intent(inout) :: rs, rx
    integer, intent(inout) :: nc
    integer :: i, j, k
{decls}
!$stencil region
{body}
!$stencil end region
  end subroutine kern_{seed}
{helpers}end module rnd_k{seed}
"""

# The driver: one internal routine per program (its own tile, arrays and
# dump), all of them run by `prog PATH`, some by `prog PATH SEED...`.  A
# single program dumps into PATH itself (a tests/diff case), programs of a
# batch into PATH.SEED.
DRIVER = """\
! Driver of random cases (tests/random/gen_wrf.py): for each program, inputs
! and outputs filled with noise (halo included), one call, every output
! dumped whole.
program rnd_main
  implicit none
  character(len=512) :: path, arg
  integer :: a
  if (command_argument_count() < 1) then
    write(*,'(a)') 'usage: prog OUT.dat [SEED...]'
    stop 2
  end if
  call get_command_argument(1, path)
  if (command_argument_count() == 1) then
{all}
  end if
  do a = 2, command_argument_count()
    call get_command_argument(a, arg)
    select case (trim(arg))
{cases}
    case default
      write(*,'(a)') 'no program ' // trim(arg)
      stop 2
    end select
  end do
contains
{runs}end program rnd_main
"""

RUN = """\
  subroutine run_{seed}()
    use rnd_k{seed}, only: kern_{seed}
    use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
    use diff_util, only: set_tile_3d, noise
    integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte, i, j, k, nc
    real, allocatable, dimension(:,:,:) :: a1, a2, o1, o2, o3
    real :: rs, rx
    call set_tile_3d({ni}, {nj}, {nk}, 1, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte, &
                     levels_above=1)
    allocate(a1(ims:ime,kms:kme,jms:jme), a2(ims:ime,kms:kme,jms:jme), o1(ims:ime,kms:kme,jms:jme), &
             o2(ims:ime,kms:kme,jms:jme), o3(ims:ime,kms:kme,jms:jme))
    do j = jms, jme
      do k = kms, kme
        do i = ims, ime
          a1(i,k,j) = noise(i, k, j)
          a2(i,k,j) = noise(j, i, k)
          o1(i,k,j) = noise(k, j, i)
          o2(i,k,j) = noise(i+7, k, j)
          o3(i,k,j) = noise(i, k+7, j)
        end do
      end do
    end do
    rs = 0.5
    rx = -0.25
    nc = 3
    call kern_{seed}(a1, a2, o1, o2, o3, rs, rx, nc, &
                 ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    call s2s_dump_open(trim(path){suffix})
    call s2s_dump_array('o1', o1)
    call s2s_dump_array('o2', o2)
    call s2s_dump_array('o3', o3)
    call s2s_dump_array('rs', (/ rs /))
    call s2s_dump_array('rx', (/ rx /))
    call s2s_dump_array('nc', (/ nc /))
    call s2s_dump_close()
  end subroutine run_{seed}
"""

MODES = ("classic", "physics", "mixed")


def mode_of(seed, mode):
    """The mode a seed draws its program in: mixed draws it of its own, so
    that a classic seed is the same program in both modes."""
    if mode == "mixed":
        return "classic" if random.Random(seed * 7919 + 1).random() < 0.3 else "physics"
    return mode


def program(seed, mode):
    """Seed SEED's program: (kernel source, its module's name is rnd_kSEED and
    its routine kern_SEED; the tile's ni, nj, nk)."""
    mode = mode_of(seed, mode)
    if mode == "classic":
        g = Gen(seed)
        body = "\n".join(g.kernel())
        kernel = KERNEL.format(seed=seed, what="", body=body, helpers="",
                               decls="    real :: w(its:ite, kts:kte)\n    real :: s")
        r = g.r
    else:
        r = random.Random(seed)
        p = Phys(r)
        slab = p.kernel()
        body = "\n".join(p.pre + ["    do j = jts, jte"] + slab + ["    end do"] + p.post)
        kernel = KERNEL.format(seed=seed, what=", physics\n! shapes: " + (", ".join(p.blocks) or "none"),
                               decls="\n".join("    " + t for t in p.decls.values()),
                               body=body, helpers="".join("\n" + h for h in p.helpers))
        kernel = re.sub(r"\bslab2d_(\d+)\b", r"slab2d_\1_%d" % seed, kernel)
    ni, nj, nk = r.randint(3, 40), r.randint(1, 9), r.randint(2, 12)
    return kernel, ni, nj, nk


def driver(progs, single=False):
    """main.f90 for PROGS, a list of (seed, ni, nj, nk)."""
    runs = "".join(RUN.format(seed=s, ni=ni, nj=nj, nk=nk,
                              suffix="" if single else " // '.%d'" % s) for s, ni, nj, nk in progs)
    return DRIVER.format(all="\n".join("    call run_%d()" % p[0] for p in progs) + "\n    stop",
                         cases="\n".join("    case ('%d')\n      call run_%d()" % (p[0], p[0]) for p in progs),
                         runs=runs)


class Generated:
    """A program for tests/random/batch.py: its source (text) and what the
    driver needs (spec: seed, ni, nj, nk)."""

    def __init__(self, seed, mode):
        text, ni, nj, nk = program(seed, mode)
        self.text, self.spec = text, (seed, ni, nj, nk)


def generated(seed, mode):
    return Generated(seed, mode)


def write_case(seed, out, mode):
    """SEED's program alone as a tests/diff case in OUT (`expect: either`)."""
    kernel, ni, nj, nk = program(seed, mode)
    with open(out + "/kernel.f90", "w") as f:
        f.write(kernel)
    with open(out + "/main.f90", "w") as f:
        f.write(driver([(seed, ni, nj, nk)], single=True))
    with open(out + "/files", "w") as f:
        f.write("s2s_dump.f90 diff_util.f90 kernel.f90 main.f90\n")
    with open(out + "/expect", "w") as f:
        f.write("either\n")


def main():
    args = sys.argv[1:]
    if len(args) not in (2, 3) or (len(args) == 3 and args[2] not in MODES):
        sys.stderr.write("usage: gen_wrf.py SEED DIR [classic|physics|mixed]\n")
        sys.exit(2)
    seed, out = int(args[0]), args[1]
    write_case(seed, out, args[2] if len(args) == 3 else "mixed")


if __name__ == "__main__":
    main()
