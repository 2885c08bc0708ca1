#!/usr/bin/env python3
"""translate_time.py — translation time vs the number of loop nests in one region.

A benchmark, not a test (make check does not run it): it generates one
region with N loop nests in several shapes, times `s2s-cuda -Minfo` on
each, and prints a Markdown table (seconds of wall time, best of --repeat
runs).  Shapes:

  f-flat2    Fortran, N `do k / do i` nests in a row; i and k are column
             indices, so the region is one kernel (the issue's generator)
  f-jloop    the same nests inside one `do j` loop, arrays (i,k,j)
  f-level3   N `do j / do k / do i` nests, arrays (i,k,j)
  f-arrays   N nests, each writing its own array (N + 1 distinct arrays)
  f-krec     nests with a recurrence along k, each on its own array: k
             stays sequential in each thread, and all the k loops are
             fused into one inside the thread
  f-ksplit   every other nest has a recurrence along k: in one kernel k
             would be sequential, so the region splits into N kernels
  f-scalars  each nest assigns a temporary scalar (60, reused) then uses it
  f-private  nest pairs in a j loop: the first fills a local work array,
             the second reads it (n / 2 arrays, each privatized per column)
  c-flat2    C, N `for k / for i` nests in a `{ }` block after
             `#pragma stencil region`
  c-level3   C, N `for j / for k / for i` nests

Usage:
  tests/bench/translate_time.py [--s2s build/s2s-cuda] [--shapes f-flat2,...]
                                [--nests 100,200,300,500,1000,2000]
                                [--timeout 300] [--repeat 1] [--keep DIR]
A run longer than --timeout is stopped and shown as `> T`; the larger N of
that shape are skipped (shown as `-`).  --keep DIR writes the generated
inputs there (for profiling) instead of a temporary directory.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time


def fortran_head(arrays, dims, extra_ints=""):
    bounds = ",".join(dims)
    lines = ["subroutine big(%s, its, ite, kts, kte, jts, jte)" % ", ".join(arrays),
             "  implicit none",
             "  integer, intent(in) :: its, ite, kts, kte, jts, jte"]
    for a in arrays:
        lines.append("  real, intent(inout) :: %s(%s)" % (a, bounds))
    lines.append("  integer :: i, k, j" + extra_ints)
    return lines


def f_stmt(t, sub):
    if t % 2 == 0:
        return "a(%s) = a(%s) + %d.0 * b(%s)" % (sub, sub, t % 7 + 1, sub)
    return "c(%s) = c(%s) * 0.5 + a(%s)" % (sub, sub, sub)


def gen_f_flat2(n):
    out = fortran_head(["a", "b", "c"], ["its:ite", "kts:kte"])
    out.append("!$stencil region")
    for t in range(n):
        out += ["  do k = kts, kte", "    do i = its, ite",
                "      " + f_stmt(t, "i,k"), "    end do", "  end do"]
    out += ["!$stencil end region", "end subroutine"]
    return out


def gen_f_jloop(n):
    out = fortran_head(["a", "b", "c"], ["its:ite", "kts:kte", "jts:jte"])
    out += ["!$stencil region", "  do j = jts, jte"]
    for t in range(n):
        out += ["    do k = kts, kte", "      do i = its, ite",
                "        " + f_stmt(t, "i,k,j"), "      end do", "    end do"]
    out += ["  end do", "!$stencil end region", "end subroutine"]
    return out


def gen_f_level3(n):
    out = fortran_head(["a", "b", "c"], ["its:ite", "kts:kte", "jts:jte"])
    out.append("!$stencil region")
    for t in range(n):
        out += ["  do j = jts, jte", "    do k = kts, kte", "      do i = its, ite",
                "        " + f_stmt(t, "i,k,j"), "      end do", "    end do", "  end do"]
    out += ["!$stencil end region", "end subroutine"]
    return out


def gen_f_arrays(n):
    names = ["x%d" % t for t in range(n + 1)]
    out = fortran_head(names, ["its:ite", "kts:kte"])
    out.append("!$stencil region")
    for t in range(n):
        out += ["  do k = kts, kte", "    do i = its, ite",
                "      x%d(i,k) = x%d(i,k) * 0.5 + %d.0" % (t + 1, t, t % 7 + 1),
                "    end do", "  end do"]
    out += ["!$stencil end region", "end subroutine"]
    return out


def gen_f_krec(n):
    names = ["b"] + ["x%d" % t for t in range(n)]
    out = fortran_head(names, ["its:ite", "kts:kte"])
    out.append("!$stencil region")
    for t in range(n):
        out += ["  do k = kts + 1, kte", "    do i = its, ite",
                "      x%d(i,k) = x%d(i,k-1) * 0.5 + %d.0 * b(i,k)" % (t, t, t % 7 + 1),
                "    end do", "  end do"]
    out += ["!$stencil end region", "end subroutine"]
    return out


def gen_f_ksplit(n):
    out = fortran_head(["a", "b", "c"], ["its:ite", "kts:kte"])
    out.append("!$stencil region")
    for t in range(n):
        out += ["  do k = kts + 1, kte", "    do i = its, ite"]
        if t % 2 == 0:
            out.append("      a(i,k) = a(i,k-1) + %d.0 * b(i,k)" % (t % 7 + 1))
        else:
            out.append("      c(i,k) = c(i,k) * 0.5 + a(i,k)")
        out += ["    end do", "  end do"]
    out += ["!$stencil end region", "end subroutine"]
    return out


def gen_f_scalars(n):
    """Each nest computes a temporary scalar first (60 of them, reused in
    turn: more than 128 in one kernel hits a fixed limit of column.c)."""
    temps = ["t%d" % t for t in range(min(n, 60))]
    out = fortran_head(["a", "b", "c"], ["its:ite", "kts:kte"])
    out.insert(-1, "  real :: %s" % ", ".join(temps))
    out.append("!$stencil region")
    for t in range(n):
        tmp = temps[t % len(temps)]
        out += ["  do k = kts, kte", "    do i = its, ite",
                "      %s = b(i,k) * %d.0" % (tmp, t % 7 + 1)]
        if t % 2 == 0:
            out.append("      a(i,k) = a(i,k) + %s" % tmp)
        else:
            out.append("      c(i,k) = c(i,k) * 0.5 + a(i,k) * %s" % tmp)
        out += ["    end do", "  end do"]
    out += ["!$stencil end region", "end subroutine"]
    return out


def gen_f_private(n):
    """Pairs of nests inside a j loop: the first fills a local work array
    (privatized per column), the second reads it; n / 2 work arrays."""
    works = ["w%d" % t for t in range(0, n, 2)]
    out = fortran_head(["a", "b"], ["its:ite", "kts:kte", "jts:jte"])
    out.insert(-1, "  real :: %s" % ", ".join("%s(its:ite,kts:kte)" % w for w in works))
    out += ["!$stencil region", "  do j = jts, jte"]
    for t in range(n):
        w = "w%d" % (t - t % 2)
        out += ["    do k = kts, kte", "      do i = its, ite"]
        if t % 2 == 0:
            out.append("        %s(i,k) = b(i,k,j) * %d.0" % (w, t % 7 + 1))
        else:
            out.append("        a(i,k,j) = a(i,k,j) + %s(i,k)" % w)
        out += ["      end do", "    end do"]
    out += ["  end do", "!$stencil end region", "end subroutine"]
    return out


def c_stmt(t, sub):
    if t % 2 == 0:
        return "a%s = a%s + %d.0f * b%s;" % (sub, sub, t % 7 + 1, sub)
    return "c%s = c%s * 0.5f + a%s;" % (sub, sub, sub)


def c_head(dims):
    rdecl = "[restrict %s]" % dims[0] + "".join("[%s]" % d for d in dims[1:])
    return ["void big(int n, int nk, int nj, float a%s, const float b%s, float c%s)" % (rdecl, rdecl, rdecl),
            "{", "#pragma stencil region", "  {"]


def gen_c_flat2(n):
    out = c_head(["nk", "n"])
    for t in range(n):
        out += ["    for (int k = 0; k < nk; k++)", "      for (int i = 0; i < n; i++)",
                "        " + c_stmt(t, "[k][i]")]
    out += ["  }", "}"]
    return out


def gen_c_level3(n):
    out = c_head(["nj", "nk", "n"])
    for t in range(n):
        out += ["    for (int j = 0; j < nj; j++)", "      for (int k = 0; k < nk; k++)",
                "        for (int i = 0; i < n; i++)", "          " + c_stmt(t, "[j][k][i]")]
    out += ["  }", "}"]
    return out


SHAPES = {
    "f-flat2": (gen_f_flat2, "f90"),
    "f-jloop": (gen_f_jloop, "f90"),
    "f-level3": (gen_f_level3, "f90"),
    "f-arrays": (gen_f_arrays, "f90"),
    "f-krec": (gen_f_krec, "f90"),
    "f-ksplit": (gen_f_ksplit, "f90"),
    "f-scalars": (gen_f_scalars, "f90"),
    "f-private": (gen_f_private, "f90"),
    "c-flat2": (gen_c_flat2, "c"),
    "c-level3": (gen_c_level3, "c"),
}


def time_one(s2s, path, outdir, timeout):
    """Seconds for one translation, None past the timeout."""
    start = time.monotonic()
    try:
        r = subprocess.run([s2s, "-Minfo", "-o", outdir, path], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
    elapsed = time.monotonic() - start
    if r.returncode != 0:
        sys.exit("%s: s2s-cuda failed (status %d)" % (path, r.returncode))
    return elapsed


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--s2s", default="build/s2s-cuda")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--nests", default="100,200,300,500,1000,2000")
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--keep", help="write the inputs here (kept)")
    args = ap.parse_args()
    shapes = args.shapes.split(",")
    nests = [int(x) for x in args.nests.split(",")]
    for s in shapes:
        if s not in SHAPES:
            sys.exit("unknown shape %s (known: %s)" % (s, ", ".join(SHAPES)))
    work = args.keep or tempfile.mkdtemp(prefix="s2s-bench-")
    os.makedirs(work, exist_ok=True)
    print("| shape | " + " | ".join(str(n) for n in nests) + " |")
    print("|---|" + "---:|" * len(nests))
    for shape in shapes:
        gen, ext = SHAPES[shape]
        cells, stopped = [], False
        for n in nests:
            if stopped:
                cells.append("-")
                continue
            path = os.path.join(work, "%s-%d.%s" % (shape.replace("-", "_"), n, ext))
            with open(path, "w") as f:
                f.write("\n".join(gen(n)) + "\n")
            best = None
            for _ in range(args.repeat):
                t = time_one(args.s2s, path, work, args.timeout)
                if t is None:
                    best = None
                    break
                best = t if best is None else min(best, t)
            if best is None:
                cells.append("> %g" % args.timeout)
                stopped = True
            else:
                cells.append("%.2f" % best)
        print("| %s | %s |" % (shape, " | ".join(cells)), flush=True)


if __name__ == "__main__":
    main()
