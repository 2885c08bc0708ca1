/* check_inline.c — table-driven tests of inlining (transforms/inline.c):
 * which calls inside a region are replaced by the callee's body, and why a
 * call is refused.
 *
 * Each case is a whole Fortran file: a module whose routine `outer` calls,
 * inside its region, another routine.  The test runs the front end and
 * xf_inline_program, and compares the decision (inlined or refused), a
 * fragment of the diagnostics and report, the number of calls reported
 * inlined and, for an inlined call, how many statements of the region
 * after inlining (as --dump-ir prints them) contain a fragment: that is
 * where per-call decisions (present() of an optional argument, keyword
 * arguments, sequence association) show.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "inline.h"

typedef struct InlineCase {
  const char *name;
  const char *source;
  bool inlined;          /* the front end and inlining succeed */
  const char *message;   /* substring of the diagnostics and report, or NULL */
  int ninlined;          /* report lines "Routine '...' inlined" */
  const char *stmt;      /* for an inlined call: a fragment of the region's dumped statements */
  int nstmts;            /* how many of them contain it */
} InlineCase;

/* `outer(n, a, b)` with a region over i around CALL, then the callee. */
#define CALLER(call)                                                                         \
  "module m\n  implicit none\ncontains\n  subroutine outer(n, a, b)\n"                        \
  "    integer, intent(in) :: n\n    real, intent(inout) :: a(n), b(n)\n    integer :: i\n"    \
  "!$stencil region\n    do i = 1, n\n      " call "\n    end do\n!$stencil end region\n"      \
  "  end subroutine outer\n"
#define END_MODULE "end module m\n"

/* bump(x, y, rain, snow): rain and snow optional, each used under present(). */
#define BUMP                                                                                 \
  "  subroutine bump(x, y, rain, snow)\n    real, intent(inout) :: x\n"                        \
  "    real, intent(in) :: y\n    real, intent(inout), optional :: rain, snow\n"               \
  "    x = x + y\n    if (present(rain)) rain = rain + 0.5 * x\n"                              \
  "    if (present(snow)) snow = 0.0\n  end subroutine bump\n"

static const InlineCase cases[] = {
  /* positional arguments, no optional one passed: inlined, both present() branches dropped */
  { "positional", CALLER("call bump(a(i), b(i))") BUMP END_MODULE, true,
    "info: Routine 'bump' inlined", 1, "a(i) = (a(i) + b(i))", 1 },
  /* the optional rain passed by keyword in one call only: that copy keeps its branch */
  { "optional-per-call",
    CALLER("call bump(a(i), b(i), rain=b(i))\n      call bump(a(i), b(i))") BUMP END_MODULE, true,
    NULL, 2, "b(i) = (b(i) + (0.5_4 * a(i)))", 1 },
  /* only snow passed, by keyword: its branch kept, rain's dropped */
  { "optional-keyword-skips-one", CALLER("call bump(a(i), b(i), snow=b(i))") BUMP END_MODULE, true,
    NULL, 1, "b(i) = 0.0_4", 1 },
  /* keywords in another order than the dummies: bound by name */
  { "keywords-reordered", CALLER("call bump(y=b(i), x=a(i))") BUMP END_MODULE, true,
    NULL, 1, "a(i) = (a(i) + b(i))", 1 },
  /* a keyword that names no dummy: refused */
  { "keyword-unknown", CALLER("call bump(a(i), z=b(i))") BUMP END_MODULE, false,
    "cannot inline 'bump' (called at line 10): 'bump' has no dummy argument 'z'", 0, NULL, 0 },
  /* a dummy given positionally and by keyword: refused */
  { "dummy-twice", CALLER("call bump(a(i), b(i), x=a(i))") BUMP END_MODULE, false,
    "dummy 'x' gets two actuals", 0, NULL, 0 },
  /* more actuals than dummies: refused */
  { "too-many-arguments", CALLER("call bump(a(i), b(i), a(i), b(i), a(i))") BUMP END_MODULE, false,
    "more arguments than the 4 dummies", 0, NULL, 0 },
  /* a non-optional dummy not passed: refused */
  { "missing-non-optional", CALLER("call bump(a(i))") BUMP END_MODULE, false,
    "cannot inline 'bump' (called at line 10): the call does not pass dummy 'y', which is not "
    "optional", 0, NULL, 0 },
  /* an optional dummy used outside present() by a call that does not pass it: refused */
  { "optional-used-unguarded",
    CALLER("call scale(a(i))")
    "  subroutine scale(x, f)\n    real, intent(inout) :: x\n    real, intent(in), optional :: f\n"
    "    x = x * f\n  end subroutine scale\n" END_MODULE, false,
    "it uses optional argument 'f', which this call does not pass, outside a present() test", 0,
    NULL, 0 },
  /* a SAVE local keeps its value between calls: refused */
  { "save-local",
    CALLER("call count_calls(a(i))")
    "  subroutine count_calls(x)\n    real, intent(inout) :: x\n    integer, save :: calls\n"
    "    calls = calls + 1\n    x = x + real(calls)\n  end subroutine count_calls\n" END_MODULE,
    false, "its local 'calls' keeps its value from one call to the next (SAVE, DATA or an "
    "initializer)", 0, NULL, 0 },
  /* a local given a value by DATA: refused */
  { "data-local",
    CALLER("call count_calls(a(i))")
    "  subroutine count_calls(x)\n    real, intent(inout) :: x\n    integer :: calls\n"
    "    data calls /0/\n    calls = calls + 1\n    x = x + real(calls)\n"
    "  end subroutine count_calls\n" END_MODULE,
    false, "its local 'calls' keeps its value from one call to the next", 0, NULL, 0 },
  /* a local with an initializer (implicitly SAVE): refused */
  { "initialized-local",
    CALLER("call count_calls(a(i))")
    "  subroutine count_calls(x)\n    real, intent(inout) :: x\n    integer :: calls = 0\n"
    "    calls = calls + 1\n    x = x + real(calls)\n  end subroutine count_calls\n" END_MODULE,
    false, "its local 'calls' keeps its value from one call to the next", 0, NULL, 0 },
  /* present() written directly in the region, not in an inlined routine: left for the pass
   * that makes kernel variants (check_present.c) */
  { "present-in-region",
    "subroutine accumulate(n, a, extra)\n  implicit none\n  integer, intent(in) :: n\n"
    "  real, intent(inout) :: a(n)\n  real, intent(in), optional :: extra(n)\n  integer :: i\n"
    "!$stencil region\n  do i = 1, n\n    if (present(extra)) a(i) = a(i) + extra(i)\n  end do\n"
    "!$stencil end region\nend subroutine accumulate\n", true, NULL, 0, "present(extra)", 1 },
  /* the caller passes its own optional dummy on: present() in the callee becomes present()
   * of the caller's dummy, known only on the host (check_present.c: kernel variants) */
  { "optional-passed-on",
    "module m\n  implicit none\ncontains\n  subroutine outer(n, a, extra)\n"
    "    integer, intent(in) :: n\n    real, intent(inout) :: a(n)\n"
    "    real, intent(in), optional :: extra(n)\n    integer :: i\n"
    "!$stencil region\n    do i = 1, n\n      call add(a(i), n, i, extra)\n    end do\n"
    "!$stencil end region\n  end subroutine outer\n"
    "  subroutine add(x, n, i, e)\n    integer, intent(in) :: n, i\n    real, intent(inout) :: x\n"
    "    real, intent(in), optional :: e(n)\n    if (present(e)) x = x + e(i)\n"
    "  end subroutine add\n" END_MODULE, true, "info: Routine 'add' inlined", 1,
    "if (present(extra))", 1 },
  /* a subroutine not in this file: refused */
  { "routine-from-another-file", CALLER("call saturate(a(i))") END_MODULE, false,
    "call of subroutine 'saturate' inside a region: it is not in this file and no translation "
    "left a summary of it (saturate.s2sproc); s2s-cuda inlines what a region calls, so "
    "translate the file that defines 'saturate' first", 0, NULL, 0 },
  /* a user function called in an expression: its one assignment becomes the expression */
  { "user-function",
    CALLER("a(i) = twice(b(i))")
    "  real function twice(x)\n    real, intent(in) :: x\n    twice = 2.0 * x\n"
    "  end function twice\n" END_MODULE, true, "info: Function 'twice' inlined", 1,
    "a(i) = (2.0_4 * b(i))", 1 },
  /* a call inside an inlined routine: both inlined */
  { "nested-call",
    CALLER("call twice_bump(a(i), b(i))")
    "  subroutine twice_bump(x, y)\n    real, intent(inout) :: x\n    real, intent(in) :: y\n"
    "    call bump(x, y)\n    call bump(x, y)\n  end subroutine twice_bump\n" BUMP END_MODULE,
    true, "info: Routine 'twice_bump' inlined", 3, "a(i) = (a(i) + b(i))", 2 },
  /* an assigned scalar dummy whose actual is an expression: refused */
  { "assigned-dummy-expression", CALLER("call bump(a(i) + 1.0, b(i))") BUMP END_MODULE, false,
    "it assigns a dummy argument whose actual is an expression", 0, NULL, 0 },
  /* a scalar dummy given a whole array: refused */
  { "scalar-dummy-whole-array", CALLER("call bump(a, b(i))") BUMP END_MODULE, false,
    "scalar dummy 'x' gets the whole array 'a'", 0, NULL, 0 },
  /* an assumed-shape dummy takes the whole actual's shape, from lower bound 1 */
  { "assumed-shape",
    CALLER("call zero(a)")
    "  subroutine zero(x)\n    real, intent(inout) :: x(:)\n    x(1) = 0.0\n"
    "  end subroutine zero\n" END_MODULE, true, NULL, 1, "a((1 + (1 - 1))) = 0.0_4", 1 },
  /* an assumed-size dummy on a whole rank-1 actual: it cannot run past the actual's last
   * dimension in a valid program, so it maps element for element */
  { "assumed-size-whole",
    CALLER("call zero(a)")
    "  subroutine zero(x)\n    real, intent(inout) :: x(*)\n    x(1) = 0.0\n"
    "  end subroutine zero\n" END_MODULE, true, NULL, 1, "a((1 + (1 - 1))) = 0.0_4", 1 },
  /* sequence association, WRF style: the plane qv(ims,kms,j) maps onto the 2-D dummy q, element
   * for element; the callee's local work becomes column2d_work, its loop indices i and k keep
   * their names (the caller has none such) */
  { "sequence-association",
    "module m\n  implicit none\ncontains\n"
    "  subroutine driver(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, qv)\n"
    "    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte\n"
    "    real, intent(inout) :: qv(ims:ime, kms:kme, jms:jme)\n"
    "    real :: t(its:ite, kts:kte)\n    integer :: j\n"
    "!$stencil region\n    do j = jts, jte\n"
    "      call column2d(t, qv(ims,kms,j), ims,ime, kms,kme, its,ite, kts,kte)\n"
    "    end do\n!$stencil end region\n  end subroutine driver\n"
    "  subroutine column2d(t, q, ims,ime, kms,kme, its,ite, kts,kte)\n"
    "    integer, intent(in) :: ims,ime, kms,kme, its,ite, kts,kte\n"
    "    real, intent(inout) :: t(its:ite, kts:kte), q(ims:ime, kms:kme)\n"
    "    real :: work(its:ite, kts:kte)\n    integer :: i, k\n"
    "    do k = kts, kte\n      do i = its, ite\n        work(i,k) = q(i,k)\n"
    "        t(i,k) = work(i,k)\n      end do\n    end do\n  end subroutine column2d\n" END_MODULE,
    true, "info: Routine 'column2d' inlined", 1,
    "column2d_work(i,k) = qv((ims + (i - ims)),(kms + (k - kms)),j)", 1 },
  /* the same call with the tile's leading extent (its:ite) instead of the memory's: refused */
  { "shape-mismatch",
    "module m\n  implicit none\ncontains\n"
    "  subroutine outer(ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte, q)\n"
    "    integer, intent(in) :: ims,ime, kms,kme, jms,jme, its,ite, kts,kte, jts,jte\n"
    "    real, intent(inout) :: q(ims:ime, kms:kme, jms:jme)\n    integer :: j\n"
    "!$stencil region\n    do j = jts, jte\n      call column(q(its,kts,j), its,ite, kts,kte)\n"
    "    end do\n!$stencil end region\n  end subroutine outer\n"
    "  subroutine column(q, its,ite, kts,kte)\n    integer, intent(in) :: its,ite, kts,kte\n"
    "    real, intent(inout) :: q(its:ite, kts:kte)\n    integer :: i, k\n"
    "    do k = kts, kte\n      do i = its, ite\n        q(i,k) = 2.0 * q(i,k)\n      end do\n"
    "    end do\n  end subroutine column\n" END_MODULE, false,
    "cannot inline 'column' (called at line 10): dimension 1 of dummy 'q' does not line up with "
    "the actual 'q'", 0, NULL, 0 },
};

/* Sequence association (MASS-style vector helpers): `outer` calls, in a k
 * loop of its region (line 9), what `body` says (from line 10); vrec has
 * assumed-size dummies, vrec_n explicit-shape ones of extent n.  q and work
 * are tile-sized (its:ite), p memory-sized (ims:ime). */
#define SEQ_CALLER(body)                                                                      \
  "module m\n  implicit none\ncontains\n"                                                     \
  "  subroutine outer(q, p, work, ims, ime, its, ite, kts, kte, n)\n"                         \
  "    integer, intent(in) :: ims, ime, its, ite, kts, kte, n\n"                              \
  "    real, intent(inout) :: q(its:ite, kts:kte), p(ims:ime, kts:kte), work(its:ite)\n"      \
  "    integer :: k, nn\n!$stencil region\n    do k = kts, kte\n" body                       \
  "    end do\n!$stencil end region\n  end subroutine outer\nend module m\n"
#define VREC                                                                                  \
  "subroutine vrec(y, x, n)\n  integer n, i\n  real y(*), x(*)\n  do i = 1, n\n"              \
  "    y(i) = 1./x(i)\n  end do\nend subroutine vrec\n"
#define VREC_N                                                                                \
  "subroutine vrec_n(y, x, n)\n  integer n, i\n  real y(n), x(n)\n  do i = 1, n\n"            \
  "    y(i) = 1./x(i)\n  end do\nend subroutine vrec_n\n"

#define SCALE2                                                                                \
  "subroutine scale2(im, km, y)\n  integer im, km, i, k\n  real y(im, km)\n  do k = 1, km\n"    \
  "    do i = 1, im\n      y(i,k) = 2.*y(i,k)\n    end do\n  end do\nend subroutine scale2\n"

static const InlineCase sequence_cases[] = {
  /* the extent as an expression of the tile: i in 1..ite-its+1 from q(its,k) stays in its:ite */
  { "extent-expression", SEQ_CALLER("      call vrec(q(its,k), work(its), ite-its+1)\n") VREC, true,
    NULL, 1, "q(i,k) = ", 1 },
  /* the extent in a variable the region sets right before the call */
  { "extent-set-before-call",
    SEQ_CALLER("      nn = ite - its + 1\n      call vrec(q(its,k), work(its), nn)\n") VREC, true,
    NULL, 1, "q(i,k) = ", 1 },
  /* ... and reset after it: the next iteration sets it again before the call */
  { "extent-reset-after-call",
    SEQ_CALLER("      nn = ite - its + 1\n      call vrec(q(its,k), work(its), nn)\n"
               "      nn = 0\n") VREC, true, NULL, 1, "q(i,k) = ", 1 },
  /* ... but changed between the setting and the call: refused */
  { "extent-changed-before-call",
    SEQ_CALLER("      nn = ite - its + 1\n      if (k > kts) nn = nn + 1\n"
               "      call vrec(q(its,k), work(its), nn)\n") VREC, false,
    "dummy 'y' is sequence-associated with 'q(its,k)' and reaches y(1:nn) at line 21: "
    "dimension 1 of 'q' from its to nn+its-1, declared its:ite; s2s-cuda cannot prove", 0,
    NULL, 0 },
  /* an extent the region knows nothing about but never changes: inlined, assuming that the
   * reach its..its+n-1 stays inside its:ite (the launcher checks it) */
  { "extent-unknown", SEQ_CALLER("      call vrec(q(its,k), work(its), n)\n") VREC, true,
    "t.f90:10:7: info: Assumed at run time: ite+1 >= n+its (checked before the launch)", 1,
    "q(i,k) = ", 1 },
  /* starting one element in, the tile's extent runs one past it: refused */
  { "start-past-tile", SEQ_CALLER("      call vrec(q(its+1,k), work(its), ite-its+1)\n") VREC,
    false, "dimension 1 of 'q' from its+1 to ite+1, declared its:ite", 0, NULL, 0 },
  /* ... and one element shorter, it fits */
  { "start-inside-tile", SEQ_CALLER("      call vrec(q(its+1,k), work(its), ite-its)\n") VREC,
    true, NULL, 1, NULL, 0 },
  /* explicit-shape dummies y(n): their declared extent fits, whatever the references */
  { "explicit-shape-extent", SEQ_CALLER("      call vrec_n(q(its,k), work(its), ite-its+1)\n")
    VREC_N, true, NULL, 1, "q(i,k) = ", 1 },
  /* explicit-shape dummies longer than the tile: refused at the reference */
  { "explicit-shape-too-long", SEQ_CALLER("      call vrec_n(q(its,k), work(its), ite-its+2)\n")
    VREC_N, false, "reaches y(1:ite-its+2) at line 19: dimension 1 of 'q' from its to ite+1", 0,
    NULL, 0 },
  /* a memory-sized dimension ims:ime: that it holds its:ite is not known here, but ims, ime,
   * its and ite keep their values through the region: inlined, assuming it */
  { "memory-dimension", SEQ_CALLER("      call vrec(p(its,k), work(its), ite-its+1)\n") VREC,
    true, "info: Assumed at run time: its >= ims, ime >= ite (checked before the launch)", 1,
    "p(i,k) = ", 1 },
  /* ... but a bound the region assigns has no one value for the launcher to check: refused */
  { "memory-dimension-assigned-bound",
    SEQ_CALLER("      nn = ite - its + 1\n      if (k > kts) nn = nn + 1\n"
               "      call vrec(p(its,k), work(its), nn)\n") VREC, false,
    "dimension 1 of 'p' from its to nn+its-1, declared ims:ime; s2s-cuda cannot prove", 0,
    NULL, 0 },
  /* physics2d's shape: the extent n = ite-its+1 set in an inlined routine before its k loop
   * of helper calls, which pass n (intent(in) in vrec_in) and subscripts its, k: none of them
   * changes n, its or k, so the proof uses n's value; p(ims:ime) needs the assumption */
  { "extent-set-in-inlined-routine",
    "module m\n  implicit none\ncontains\n"
    "  subroutine outer(p, ims, ime, its, ite, kts, kte)\n"
    "    integer, intent(in) :: ims, ime, its, ite, kts, kte\n"
    "    real, intent(inout) :: p(ims:ime, kts:kte)\n"
    "!$stencil region\n    call col(p, ims, ime, its, ite, kts, kte)\n"
    "!$stencil end region\n  end subroutine outer\n"
    "  subroutine col(p, ims, ime, its, ite, kts, kte)\n"
    "    integer, intent(in) :: ims, ime, its, ite, kts, kte\n"
    "    real, intent(inout) :: p(ims:ime, kts:kte)\n    real :: rp(its:ite, kts:kte)\n"
    "    integer :: i, k, n\n    n = ite - its + 1\n"
    "    do k = kts, kte\n      call vrec_in(rp(its,k), p(its,k), n)\n    end do\n"
    "    do k = kts, kte\n      do i = its, ite\n        p(i,k) = rp(i,k)\n      end do\n"
    "    end do\n  end subroutine col\nend module m\n"
    "subroutine vrec_in(y, x, n)\n  integer, intent(in) :: n\n  real y(*), x(*)\n"
    "  integer :: i\n  do i = 1, n\n    y(i) = 1./x(i)\n  end do\nend subroutine vrec_in\n",
    true, "info: Assumed at run time: its >= ims, ime >= ite (checked before the launch)", 2,
    NULL, 0 },
  /* along the actual's last dimension there is no next column: not checked */
  { "last-dimension", SEQ_CALLER("      call vrec(work(its), q(its,k), ite-its+1)\n"
                                 "      call vrec(work, work, n)\n") VREC, true, NULL, 2, NULL, 0 },
  /* a whole tile-sized array onto a 2-D explicit-shape dummy y(im, km), the leading extent
   * passed in a variable set before the call (WSM5's `idim = ite-its+1`): the extents are
   * equal with the values at the call, so elements line up: inlined */
  { "leading-extent-in-variable",
    SEQ_CALLER("      nn = ite - its + 1\n      call scale2(nn, kte - kts + 1, q)\n") SCALE2,
    true, NULL, 1, NULL, 0 },
  /* ... changed between the setting and the call: refused */
  { "leading-extent-variable-changed",
    SEQ_CALLER("      nn = ite - its + 1\n      if (k > kts) nn = nn - 1\n"
               "      call scale2(nn, kte - kts + 1, q)\n") SCALE2, false,
    "dimension 1 of dummy 'y' does not line up with the actual 'q'", 0, NULL, 0 },
  /* the callee changes the extent it was given: the value at the call proves nothing */
  { "extent-changed-by-callee",
    SEQ_CALLER("      nn = ite - its + 1\n      call vgrow(q(its,k), nn)\n")
    "subroutine vgrow(y, n)\n  integer n, i\n  real y(*)\n  n = n + 1\n  do i = 1, n\n"
    "    y(i) = 0.\n  end do\nend subroutine vgrow\n", false,
    "dummy 'y' is sequence-associated with 'q(its,k)' and reaches y(1:nn)", 0, NULL, 0 },
};

static void check_case(const InlineCase *c)
{
  char *msgs;
  Program *p;
  bool ok = cu_run(c->source, xf_inline_program, true, &p, &msgs);
  ck_assert_msg(ok == c->inlined, "case %s: %s:\n%s", c->name, ok ? "inlined" : "refused", msgs);
  if (c->message)
    ck_assert_msg(strstr(msgs, c->message), "case %s: messages lack '%s':\n%s", c->name,
                  c->message, msgs);
  int inlined = cu_count_lines(msgs, "' inlined");
  ck_assert_msg(inlined == c->ninlined, "case %s: %d calls inlined, expected %d:\n%s", c->name,
                inlined, c->ninlined, msgs);
  if (c->stmt) {
    char *dump = cu_dump_stmts(&cu_first_region(p)->body);
    int n = cu_count_lines(dump, c->stmt);
    ck_assert_msg(n == c->nstmts, "case %s: %d statements with '%s', expected %d:\n%s", c->name,
                  n, c->stmt, c->nstmts, dump);
    free(dump);
  }
  free(msgs);
  cu_reset();
}

/* Assumed-shape dummies and section actuals: `outer` calls, in a k loop of
 * its region (line 9), what `body` says (from line 10).  q is q(its:ite,
 * kts:kte), w(n); the callees come after. */
#define SHAPE_CALLER(body)                                                                    \
  "module m\n  implicit none\ncontains\n"                                                     \
  "  subroutine outer(q, w, its, ite, kts, kte, n)\n"                                         \
  "    integer, intent(in) :: its, ite, kts, kte, n\n"                                        \
  "    real, intent(inout) :: q(its:ite, kts:kte), w(n)\n"                                    \
  "    integer :: k\n!$stencil region\n    do k = kts, kte\n" body                           \
  "    end do\n!$stencil end region\n  end subroutine outer\n"
/* col(x, its, ite): x(its:) */
#define COL                                                                                   \
  "  subroutine col(x, its, ite)\n    integer, intent(in) :: its, ite\n"                      \
  "    real, intent(inout) :: x(its:)\n    integer :: i\n    do i = its, ite\n"              \
  "      x(i) = 2.0 * x(i)\n    end do\n  end subroutine col\n"
/* first(x): x(:), x(1) set */
#define FIRST                                                                                 \
  "  subroutine first(x)\n    real, intent(inout) :: x(:)\n    x(1) = 0.0\n"                 \
  "  end subroutine first\n"
/* plane(x, its, kts): x(its:, kts:), x(its,kts) set */
#define PLANE                                                                                 \
  "  subroutine plane(x, its, kts)\n    integer, intent(in) :: its, kts\n"                    \
  "    real, intent(inout) :: x(its:, kts:)\n    x(its,kts) = 1.0\n  end subroutine plane\n"

static const InlineCase shape_cases[] = {
  /* a section a(its:ite,k) on x(its:): x(i) is q(its + (i - its), k) */
  { "section-declared-lower-bound", SHAPE_CALLER("      call col(q(its:ite,k), its, ite)\n")
    COL END_MODULE, true, NULL, 1, "q((its + (i - its)),k) = ", 1 },
  /* `:` takes the declared bounds; x(:) starts at 1 */
  { "section-colon", SHAPE_CALLER("      call first(q(:,k))\n") FIRST END_MODULE, true, NULL, 1,
    "q((its + (1 - 1)),k) = 0.0_4", 1 },
  /* a 2-D section on a 2-D assumed-shape dummy */
  { "section-2d", SHAPE_CALLER("      call plane(q(:,kts:kte), its, kts)\n") PLANE END_MODULE,
    true, NULL, 1, "q((its + (its - its)),(kts + (kts - kts))) = 1.0_4", 1 },
  /* a section on an assumed-size dummy: sequence association over the section's range */
  { "section-assumed-size",
    SHAPE_CALLER("      call vrec(q(its:ite,k), q(its:ite,k), ite-its+1)\n") END_MODULE VREC,
    true, NULL, 1, "q(i,k) = ", 1 },
  /* an element is no array for an assumed-shape dummy: refused */
  { "element-on-assumed-shape", SHAPE_CALLER("      call first(q(its,k))\n") FIRST END_MODULE,
    false, "assumed-shape dummy 'x' needs an array or an array section as actual, not the "
    "element 'q(its,k)'", 0, NULL, 0 },
  /* ranks differ: refused */
  { "rank-mismatch", SHAPE_CALLER("      call first(q)\n") FIRST END_MODULE, false,
    "assumed-shape dummy 'x' has rank 1, the actual 'q' 2", 0, NULL, 0 },
  /* a section for a scalar dummy: refused */
  { "section-on-scalar", SHAPE_CALLER("      call bump(q(its:ite,k), 1.0)\n") BUMP END_MODULE,
    false, "scalar dummy 'x' gets the array section 'q'", 0, NULL, 0 },
  /* a 2-D dummy x(its:ite,1) on the 1-D actual w: the unit dimension drops out */
  { "unit-dimension-on-1d",
    SHAPE_CALLER("      call col2(w, 1, n)\n")
    "  subroutine col2(x, its, ite)\n    integer, intent(in) :: its, ite\n"
    "    real, intent(inout) :: x(its:ite, 1)\n    integer :: i\n    do i = its, ite\n"
    "      x(i,1) = 2.0 * x(i,1)\n    end do\n  end subroutine col2\n" END_MODULE, true, NULL, 1,
    "w((1 + (i - 1))) = ", 1 },
  /* the reverse: a 1-D dummy on q(its:its,kts:kte), whose first dimension holds one element */
  { "1d-dummy-on-unit-dimension",
    SHAPE_CALLER("      call colk(q(its:its,kts:kte), kts, kte)\n")
    "  subroutine colk(x, kts, kte)\n    integer, intent(in) :: kts, kte\n"
    "    real, intent(inout) :: x(kts:kte)\n    integer :: m\n    do m = kts, kte\n"
    "      x(m) = 0.0\n    end do\n  end subroutine colk\n" END_MODULE, true, NULL, 1,
    "q(its,(kts + (m - kts))) = 0.0_4", 1 },
  /* a 2-D dummy whose dimensions are both wider than one element on a 1-D actual: refused */
  { "2d-dummy-on-1d",
    SHAPE_CALLER("      call plane2(w, n)\n")
    "  subroutine plane2(x, n)\n    integer, intent(in) :: n\n    real, intent(inout) :: x(n, 2)\n"
    "    x(1,1) = 0.0\n  end subroutine plane2\n" END_MODULE, false,
    "dummy 'x' has more dimensions than the actual 'w'", 0, NULL, 0 },
  /* an assumed-shape dummy bound to a section, passed on whole: the section goes with it */
  { "section-passed-on",
    SHAPE_CALLER("      call pass(q(its:ite,k), its, ite)\n")
    "  subroutine pass(x, its, ite)\n    integer, intent(in) :: its, ite\n"
    "    real, intent(inout) :: x(:)\n    call col(x, its, ite)\n  end subroutine pass\n"
    COL END_MODULE, true, NULL, 2, "q((its + (i - its)),k) = ", 1 },
  /* a row section q(its,kts:kte) on an explicit-shape dummy passed on to an assumed-size one:
   * the nested dummy runs along the section's dimension, k */
  { "row-section-passed-on",
    SHAPE_CALLER("      call rowk(q(its,kts:kte), kts, kte)\n")
    "  subroutine rowk(x, kts, kte)\n    integer, intent(in) :: kts, kte\n"
    "    real, intent(inout) :: x(kts:kte)\n    call vzero(x, kte-kts+1)\n"
    "  end subroutine rowk\n" END_MODULE
    "subroutine vzero(y, n)\n  integer n, m\n  real y(*)\n  do m = 1, n\n    y(m) = 0.\n"
    "  end do\nend subroutine vzero\n", true, NULL, 2, "q(its,m) = 0._4", 1 },
  /* a section with a stride: refused by the front end */
  { "section-stride", SHAPE_CALLER("      call first(q(its:ite:2,k))\n") FIRST END_MODULE, false,
    "array section of 'q' with a stride as an actual argument inside a region is not supported",
    0, NULL, 0 },
};

/* Functions of the program called in expressions: `outer` (CALLER) with
 * the function after it. */
#define SATURATION                                                                            \
  "  pure function qsat(t, p) result(q)\n    real, intent(in) :: t, p\n    real :: q, es\n"   \
  "    es = 6.112 * exp(17.67 * t / (t + 243.5))\n    q = 0.622 * es / (p - es)\n"             \
  "  end function qsat\n"

static const InlineCase function_cases[] = {
  /* elemental, on array elements: one expression */
  { "elemental",
    CALLER("a(i) = 1.0 + half(b(i)) * half(a(i))")
    "  elemental real function half(x)\n    real, intent(in) :: x\n    half = 0.5 * x\n"
    "  end function half\n" END_MODULE, true, NULL, 2,
    "a(i) = (1.0_4 + ((0.5_4 * b(i)) * (0.5_4 * a(i))))", 1 },
  /* a pure function with a local: its statements before the statement, its result a local */
  { "pure-with-local", CALLER("b(i) = qsat(a(i), 1000.0)") SATURATION END_MODULE, true,
    "Function 'qsat' inlined", 1, "b(i) = qsat_q", 1 },
  /* ... in an IF test: the statements go before the IF */
  { "in-if-test", CALLER("if (qsat(a(i), 1000.0) > b(i)) b(i) = 0.0") SATURATION END_MODULE,
    true, NULL, 1, "if ((qsat_q > b(i))) then", 1 },
  /* a function calling another: both inlined */
  { "nested-functions",
    CALLER("a(i) = quad(b(i))")
    "  real function quad(x)\n    real, intent(in) :: x\n    quad = sq(sq(x))\n"
    "  end function quad\n  real function sq(x)\n    real, intent(in) :: x\n    sq = x * x\n"
    "  end function sq\n" END_MODULE, true, NULL, 3, "a(i) = ((b(i) * b(i)) * (b(i) * b(i)))", 1 },
  /* an external function outside the module, declared by the caller */
  { "external-function",
    "module m\n  implicit none\ncontains\n  subroutine outer(n, a)\n"
    "    integer, intent(in) :: n\n    real, intent(inout) :: a(n)\n    real, external :: cube\n"
    "    integer :: i\n!$stencil region\n    do i = 1, n\n      a(i) = cube(a(i))\n    end do\n"
    "!$stencil end region\n  end subroutine outer\nend module m\n"
    "real function cube(x)\n  real x\n  cube = x * x * x\nend function cube\n", true, NULL, 1,
    "a(i) = ((a(i) * a(i)) * a(i))", 1 },
  /* a function that changes its argument: refused */
  { "assigns-argument",
    CALLER("a(i) = bump(b(i))")
    "  real function bump(x)\n    real, intent(inout) :: x\n    x = x + 1.0\n    bump = x\n"
    "  end function bump\n" END_MODULE, false,
    "cannot inline 'bump' (called at line 10): it assigns its argument 'x', which a function "
    "called in an expression must not change", 0, NULL, 0 },
  /* a recursive function: not inlined, kept as the call of a __device__ function
   * (check_devicefn.c) */
  { "recursive",
    CALLER("a(i) = fact(b(i))")
    "  recursive real function fact(x)\n    real, intent(in) :: x\n    fact = x * fact(x - 1.0)\n"
    "  end function fact\n" END_MODULE, true, "t.f90:10:14: info: Function 'fact' generated as a "
    "__device__ function (recursive: cannot be inlined)", 0, "a(i) = __device__ fact(b(i))", 1 },
  /* subroutines calling each other in a cycle: not inlined; assigning nothing, the call is
   * removed (their __device__ functions: check_devicefn.c) */
  { "recursive-subroutines",
    CALLER("call ping(a(i))")
    "  recursive subroutine ping(x)\n    real, intent(inout) :: x\n    call pong(x)\n"
    "  end subroutine ping\n  recursive subroutine pong(x)\n    real, intent(inout) :: x\n"
    "    call ping(x)\n  end subroutine pong\n" END_MODULE, true,
    "Call of 'ping' removed (recursive: cannot be inlined): it assigns none of its arguments", 0,
    "ping", 0 },
  /* a function neither intrinsic nor in this file: refused by the front end */
  { "unknown-function", CALLER("a(i) = nowhere(b(i))") END_MODULE, false,
    "call of function 'nowhere' inside a region: it is neither an intrinsic function s2s-cuda "
    "knows nor a function of this file", 0, NULL, 0 },
};

START_TEST(test_inline_case)
{
  check_case(&cases[_i]);
}
END_TEST

START_TEST(test_functions)
{
  check_case(&function_cases[_i]);
}
END_TEST

START_TEST(test_assumed_shape)
{
  check_case(&shape_cases[_i]);
}
END_TEST

START_TEST(test_sequence_association)
{
  check_case(&sequence_cases[_i]);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("inline");
  TCase *tc = tcase_create("inline");
  tcase_add_loop_test(tc, test_inline_case, 0, (int)(sizeof cases / sizeof cases[0]));
  tcase_add_loop_test(tc, test_functions, 0,
                      (int)(sizeof function_cases / sizeof function_cases[0]));
  tcase_add_loop_test(tc, test_assumed_shape, 0, (int)(sizeof shape_cases / sizeof shape_cases[0]));
  tcase_add_loop_test(tc, test_sequence_association, 0,
                      (int)(sizeof sequence_cases / sizeof sequence_cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
