#!/usr/bin/env python3
"""gen_wrf.py -- random WRF-shaped Fortran regions for differential testing.

    gen_wrf.py SEED DIR

writes a tests/diff-style case into DIR (kernel.f90, main.f90, files,
expect): one routine with WRF tile bounds whose region is a j loop around
one to four k/i nests, drawn from the shapes weather codes use and the ones
that have broken translators before: horizontal and vertical shifts of the
inputs, k recurrences up and down, non-unit steps, triangular bounds, IFs
around stores, EXIT and CYCLE, a local work array written and read in the
same column, scalars assigned in the column, partial writes of arrays the
region never reads.  Reads stay inside the arrays (inputs have a halo of one
point in i and j and one level above kte; k-1 only from kts+1 up).

The expectation is `either`: s2s-cuda may refuse with an error, but when it
translates, every output array must equal gfortran's in every thread order.
The driver fills the outputs before the call, so an element the region does
not write must come back unchanged.
"""
import random
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


def off(d):
    return "" if d == 0 else ("%+d" % d)


KERNEL = """\
! Random WRF-shaped region (tests/random/gen_wrf.py, seed {seed}).
module rnd_kernel
  implicit none
contains
  subroutine kern(a1, a2, o1, o2, o3, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
    integer, intent(in) :: ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte
    real, dimension(ims:ime, kms:kme, jms:jme), intent(in) :: a1, a2
    real, dimension(ims:ime, kms:kme, jms:jme), intent(inout) :: o1, o2, o3
    real :: w(its:ite, kts:kte)
    real :: s
    integer :: i, j, k
!$stencil region
{body}
!$stencil end region
  end subroutine kern
end module rnd_kernel
"""

MAIN = """\
! Driver of a random case: inputs and outputs filled with noise (halo
! included), one call, every output dumped whole.
program rnd_main
  use rnd_kernel, only: kern
  use s2s_dump, only: s2s_dump_open, s2s_dump_array, s2s_dump_close
  use diff_util, only: get_dump_path, set_tile_3d, noise
  implicit none
  integer :: ims, ime, jms, jme, kms, kme, its, ite, jts, jte, kts, kte, i, j, k
  real, allocatable, dimension(:,:,:) :: a1, a2, o1, o2, o3
  character(len=512) :: path
  call get_dump_path(path)
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
  call kern(a1, a2, o1, o2, o3, ims,ime, jms,jme, kms,kme, its,ite, jts,jte, kts,kte)
  call s2s_dump_open(trim(path))
  call s2s_dump_array('o1', o1)
  call s2s_dump_array('o2', o2)
  call s2s_dump_array('o3', o3)
  call s2s_dump_close()
end program rnd_main
"""


def main():
    if len(sys.argv) != 3:
        sys.stderr.write("usage: gen_wrf.py SEED DIR\n")
        sys.exit(2)
    seed, out = int(sys.argv[1]), sys.argv[2]
    g = Gen(seed)
    body = "\n".join(g.kernel())
    ni, nj, nk = g.r.randint(3, 40), g.r.randint(1, 9), g.r.randint(2, 12)
    with open(out + "/kernel.f90", "w") as f:
        f.write(KERNEL.format(seed=seed, body=body))
    with open(out + "/main.f90", "w") as f:
        f.write(MAIN.format(ni=ni, nj=nj, nk=nk))
    with open(out + "/files", "w") as f:
        f.write("s2s_dump.f90 diff_util.f90 kernel.f90 main.f90\n")
    with open(out + "/expect", "w") as f:
        f.write("either\n")


if __name__ == "__main__":
    main()
