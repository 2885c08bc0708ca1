/* check_clause.c — table-driven tests of where each array of a region lives
 * (analysis/access.c, transforms/map.c):
 *   - privatization: which work arrays each thread gets its own copy of,
 *     and the reason recorded (not_private_why) when one is not;
 *   - inferred data clauses: copyin, copyout, copy and create, and the
 *     proof that a partly written array may be copyout (copy_reason);
 *   - user clauses: kept as written, with a warning where they contradict
 *     the code;
 *   - `independent`: followed, or refused naming the array every iteration
 *     writes, and whether that array is kept per thread.
 * Each case is a small Fortran region parsed with the real front end
 * (tests/check_util.h gives its source).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"

/* ---- privatization -------------------------------------------------------- */

/* Which work arrays each thread gets its own copy of. */
typedef struct PrivateCase {
  const char *name;
  const char *body;
  const char *after;      /* host code after the region */
  bool privatized;        /* is 'w' privatized? */
  const char *why;        /* substring of w's not_private_why, or NULL: none recorded */
} PrivateCase;

static const PrivateCase private_cases[] = {
  /* every element read is written first in the same column: privatized */
  { "written-then-read",
    "do j = 1, n\n do k = 1, n\n  do i = 1, n\n   w(i,k) = b(i)\n  end do\n end do\n"
    " do k = 1, n\n  do i = 1, n\n   c3(i,k,j) = w(i,k)\n  end do\n end do\nend do\n", "", true, NULL },
  /* w(i-1,k) is another column's element, but every one read was stored before in the same j
   * iteration: kept per j thread (i then stays sequential in it: column.c) */
  { "neighbour-read",
    "do j = 1, n\n do k = 1, n\n  do i = 1, n\n   w(i,k) = b(i)\n  end do\n end do\n"
    " do k = 1, n\n  do i = 2, n\n   c3(i,k,j) = w(i-1,k)\n  end do\n end do\nend do\n", "", true,
    NULL },
  /* ... but not when the neighbour column was never stored (i = 0) */
  { "neighbour-read-unwritten",
    "do j = 1, n\n do k = 1, n\n  do i = 2, n\n   w(i,k) = b(i)\n  end do\n end do\n"
    " do k = 1, n\n  do i = 2, n\n   c3(i,k,j) = w(i-1,k)\n  end do\n end do\nend do\n", "", false,
    "its element w(i-1,k) read at line 15 may not have been written before" },
  /* the host reads w after the region: not privatized */
  { "used-after-region",
    "do j = 1, n\n do i = 1, n\n  w(i,1) = b(i)\n  c3(i,1,j) = w(i,1)\n end do\nend do\n",
    "  a(1) = w(1,1)\n", false, "the routine uses 'w' outside the region" },
  /* read before it is written in the column: not privatized */
  { "read-before-write",
    "do j = 1, n\n do i = 1, n\n  c3(i,1,j) = w(i,1)\n  w(i,1) = b(i)\n end do\nend do\n", "", false,
    "its element w(i,1) read at line 9 may not have been written before" },
  /* written only under IF, read always: not privatized */
  { "conditional-write",
    "do j = 1, n\n do i = 1, n\n  if (b(i) > 0.0) w(i,1) = b(i)\n  c3(i,1,j) = w(i,1)\n end do\nend do\n",
    "", false, "its element w(i,1) read at line 10 may not have been written before" },
  /* a downward sweep reading the level above: w(i,k+1) stored by the previous iteration,
   * the first iteration's w(i,n) by the peeled top level: privatized */
  { "downward-sweep",
    "do j = 1, n\n do i = 1, n\n  w(i,n) = b(i)\n end do\n do k = n-1, 1, -1\n  do i = 1, n\n"
    "   w(i,k) = w(i,k+1) + b(i)\n   c3(i,k,j) = w(i,k)\n  end do\n end do\nend do\n", "", true, NULL },
  /* the same sweep without the peeled top level: its first read is not stored before */
  { "downward-sweep-unpeeled",
    "do j = 1, n\n do k = n-1, 1, -1\n  do i = 1, n\n   w(i,k) = w(i,k+1) + b(i)\n"
    "   c3(i,k,j) = w(i,k)\n  end do\n end do\nend do\n", "", false,
    "its element w(i,k+1) read at line 10 may not have been written before" },
  /* an upward sweep reading k+1 (not stored yet): not privatized */
  { "upward-reads-ahead",
    "do j = 1, n\n do i = 1, n\n  w(i,n) = b(i)\n end do\n do k = 1, n-1\n  do i = 1, n\n"
    "   w(i,k) = w(i,k+1) + b(i)\n  end do\n end do\nend do\n", "", false,
    "its element w(i,k+1) read at line 13 may not have been written before" },
  /* Thomas back substitution: levels 2..n from the forward sweep, level 1 peeled */
  { "two-part-cover",
    "do j = 1, n\n do i = 1, n\n  w(i,1) = b(i)\n end do\n do k = 2, n\n  do i = 1, n\n"
    "   w(i,k) = w(i,k-1) * 0.5\n  end do\n end do\n do k = n-1, 1, -1\n  do i = 1, n\n"
    "   c3(i,k,j) = w(i,k)\n  end do\n end do\nend do\n", "", true, NULL },
  /* the same without the peeled first level: level 1 is never stored */
  { "two-part-cover-missing-level",
    "do j = 1, n\n do k = 2, n\n  do i = 1, n\n   w(i,k) = b(i)\n  end do\n end do\n"
    " do k = n-1, 1, -1\n  do i = 1, n\n   c3(i,k,j) = w(i,k)\n  end do\n end do\nend do\n", "",
    false, "its element w(i,k) read at line 15 may not have been written before" },
  /* stored under two complementary tests the analysis does not pair: not privatized, and the
   * reason says which clause vouches for it */
  { "complementary-conditions",
    "do j = 1, n\n do i = 1, n\n  if (b(i) > 0.0) w(i,1) = b(i)\n  if (b(i) <= 0.0) w(i,1) = -b(i)\n"
    "  c3(i,1,j) = w(i,1)\n end do\nend do\n", "", false,
    "may not have been written before in the same iteration (if each column stores every element "
    "it reads first, say so with private(w) on the `!$stencil do` of a column loop)" },
  /* the same with the user's private(w): kept per thread */
  { "user-private",
    "!$stencil do private(w)\ndo j = 1, n\n do i = 1, n\n  if (b(i) > 0.0) w(i,1) = b(i)\n"
    "  if (b(i) <= 0.0) w(i,1) = -b(i)\n  c3(i,1,j) = w(i,1)\n end do\nend do\n", "", true, NULL },
  /* written and read under the same test, which reads only what the region keeps: privatized */
  { "same-condition",
    "do j = 1, n\n do i = 1, n\n  if (b(i) > 0.0) w(i,1) = b(i)\n end do\n do i = 1, n\n"
    "  if (b(i) > 0.0) c3(i,1,j) = w(i,1)\n end do\nend do\n", "", true, NULL },
  /* read under another test: not privatized */
  { "other-condition",
    "do j = 1, n\n do i = 1, n\n  if (b(i) > 0.0) w(i,1) = b(i)\n end do\n do i = 1, n\n"
    "  if (b(i) >= 0.0) c3(i,1,j) = w(i,1)\n end do\nend do\n", "", false,
    "its element w(i,1) read at line 12 may not have been written before" },
  /* the same test, but it reads an array the region changes in between: not privatized */
  { "condition-on-written-array",
    "do j = 1, n\n do i = 1, n\n  if (a(i) > 0.0) w(i,1) = b(i)\n  a(i) = -a(i)\n end do\n"
    " do i = 1, n\n  if (a(i) > 0.0) c3(i,1,j) = w(i,1)\n end do\nend do\n", "", false,
    "its element w(i,1) read at line 13 may not have been written before" },
  /* written at every level by an inner loop, read at two levels outside it: privatized */
  { "first-level-read",
    "do j = 1, n\n do k = 1, n\n  do i = 1, n\n   w(i,k) = b(i)\n  end do\n end do\n"
    " do i = 1, n\n  c3(i,1,j) = w(i,1) + w(i,n)\n end do\nend do\n", "", true, NULL },
  /* written for k = 1..n, read at k-1 for k = 2..n (a layer difference, dz(k) - dz(k-1)):
   * every level read was written: privatized */
  { "level-below-read",
    "do j = 1, n\n do i = 1, n\n  do k = 1, n\n   w(i,k) = b(k)\n  end do\n"
    "  do k = 2, n\n   c3(i,k,j) = w(i,k) - w(i,k-1)\n  end do\n end do\nend do\n", "", true, NULL },
  /* the same downwards, at k+1 for k = n-1..1: privatized */
  { "level-above-read-downwards",
    "do j = 1, n\n do i = 1, n\n  do k = n, 1, -1\n   w(i,k) = b(k)\n  end do\n"
    "  do k = n - 1, 1, -1\n   c3(i,k,j) = w(i,k+1)\n  end do\n end do\nend do\n", "", true, NULL },
  /* read at k+1 for k = 1..n: level n+1 was never written: not privatized */
  { "level-above-read-past-top",
    "do j = 1, n\n do i = 1, n\n  do k = 1, n\n   w(i,k) = b(k)\n  end do\n"
    "  do k = 1, n\n   c3(i,k,j) = w(i,k) + w(i,k+1)\n  end do\n end do\nend do\n", "", false,
    "its element w(i,k+1) read at line 13 may not have been written before" },
  /* written for k = 2..n, read at k-1 for k = 2..n: level 1 was not written: not privatized */
  { "level-below-read-unwritten-bottom",
    "do j = 1, n\n do i = 1, n\n  do k = 2, n\n   w(i,k) = b(k)\n  end do\n"
    "  do k = 2, n\n   c3(i,k,j) = w(i,k-1)\n  end do\n end do\nend do\n", "", false,
    "its element w(i,k-1) read at line 13 may not have been written before" },
  /* cleared over kk, then stored under a test and read over k (WSM5's `praut = 0.`
   * expanded over a fresh index): every level read was cleared: privatized */
  { "cleared-over-another-index",
    "do j = 1, n\n do kk = 1, n\n  do i = 1, n\n   w(i,kk) = 0.0\n  end do\n end do\n"
    " do k = 1, n\n  do i = 1, n\n   if (b(i) > 0.0) w(i,k) = b(i)\n   c3(i,k,j) = w(i,k)\n"
    "  end do\n end do\nend do\n", "", true, NULL },
  /* the clear misses level 1: not privatized */
  { "cleared-over-fewer-levels",
    "do j = 1, n\n do kk = 2, n\n  do i = 1, n\n   w(i,kk) = 0.0\n  end do\n end do\n"
    " do k = 1, n\n  do i = 1, n\n   c3(i,k,j) = w(i,k)\n  end do\n end do\nend do\n", "",
    false, "its element w(i,k) read at line 15 may not have been written before" },
  /* stored in both branches of one IF: as good as unconditional: privatized */
  { "if-else-pair",
    "do j = 1, n\n do i = 1, n\n  if (b(i) > 0.0) then\n   w(i,1) = b(i)\n  else\n"
    "   w(i,1) = -b(i)\n  end if\n  c3(i,1,j) = w(i,1)\n end do\nend do\n", "", true, NULL },
  /* the ELSE branch stores another element: not privatized */
  { "if-else-other-element",
    "do j = 1, n\n do i = 1, n\n  if (b(i) > 0.0) then\n   w(i,1) = b(i)\n  else\n"
    "   w(i,2) = -b(i)\n  end if\n  c3(i,1,j) = w(i,1)\n end do\nend do\n", "", false,
    "its element w(i,1) read at line 14 may not have been written before" },
  /* the pair under a second IF: stored only when that test holds: not privatized */
  { "if-else-pair-under-test",
    "do j = 1, n\n do i = 1, n\n  if (a(i) > 0.0) then\n   if (b(i) > 0.0) then\n"
    "    w(i,1) = b(i)\n   else\n    w(i,1) = -b(i)\n   end if\n  end if\n"
    "  c3(i,1,j) = w(i,1)\n end do\nend do\n", "", false,
    "its element w(i,1) read at line 16 may not have been written before" },
  /* interfaces stored one level ahead (zi(k+1) = zi(k) + dz), the first before the loop:
   * privatized */
  { "stored-one-ahead",
    "do j = 1, n\n do i = 1, n\n  w(i,1) = 0.0\n  do k = 1, n - 1\n"
    "   w(i,k+1) = w(i,k) + b(k)\n  end do\n  do k = 1, n\n   c3(i,k,j) = w(i,k)\n  end do\n"
    " end do\nend do\n", "", true, NULL },
  /* ... without the first: not privatized */
  { "stored-one-ahead-no-start",
    "do j = 1, n\n do i = 1, n\n  do k = 1, n - 1\n   w(i,k+1) = w(i,k) + b(k)\n  end do\n"
    " end do\nend do\n", "", false,
    "its element w(i,k) read at line 10 may not have been written before" },
  /* stored in a minor time-step loop that runs at least once (max(m, 1) steps), read
   * after it: privatized */
  { "minor-loop-runs-once",
    "do j = 1, n\n do l = 1, max(n, 1)\n  do i = 1, n\n   w(i,1) = b(i) * l\n  end do\n"
    " end do\n do i = 1, n\n  c3(i,1,j) = w(i,1)\n end do\nend do\n", "", true, NULL },
  /* ... n steps, maybe none: not privatized */
  { "minor-loop-maybe-never",
    "do j = 1, n\n do l = 1, n\n  do i = 1, n\n   w(i,1) = b(i) * l\n  end do\n"
    " end do\n do i = 1, n\n  c3(i,1,j) = w(i,1)\n end do\nend do\n", "", false,
    "its element w(i,1) read at line 14 may not have been written before" },
  /* the first and the last level stored apart, the others by a loop: privatized */
  { "three-part-cover",
    "do j = 1, n\n do i = 1, n\n  w(i,1) = b(1)\n  do k = 2, n - 1\n   w(i,k) = b(k)\n  end do\n"
    "  w(i,n) = b(n)\n  do k = 1, n\n   c3(i,k,j) = w(i,k)\n  end do\n end do\nend do\n", "", true,
    NULL },
  /* read at a level found at run time, after every declared level was stored: privatized */
  { "whole-column-data-dependent-read",
    "do j = 1, n\n do i = 1, n\n  do k = 1, 100\n   w(i,k) = b(k)\n  end do\n"
    "  m = max(1, min(100, int(b(i))))\n  c3(i,1,j) = w(i,m)\n end do\nend do\n", "", true, NULL },
  /* ... with the top level never stored: not privatized */
  { "whole-column-missing-level",
    "do j = 1, n\n do i = 1, n\n  do k = 1, 99\n   w(i,k) = b(k)\n  end do\n"
    "  m = max(1, min(100, int(b(i))))\n  c3(i,1,j) = w(i,m)\n end do\nend do\n", "", false,
    "its element w(i,m) read at line 13 may not have been written before" },
  /* stored before the first jump of a loop without a test (a backward GOTO's): its first
   * iteration surely stores it: privatized */
  { "store-in-loop-until",
    "do j = 1, n\n do i = 1, n\n  l = 0\n  do\n   l = l + 1\n   w(i,1) = b(i) * l\n"
    "   if (l >= 3) exit\n  end do\n  c3(i,1,j) = w(i,1)\n end do\nend do\n", "", true, NULL },
  /* ... in a DO WHILE, which may run no iteration: not privatized */
  { "store-in-do-while",
    "do j = 1, n\n do i = 1, n\n  l = 0\n  do while (l < n)\n   l = l + 1\n   w(i,1) = b(i) * l\n"
    "  end do\n  c3(i,1,j) = w(i,1)\n end do\nend do\n", "", false,
    "its element w(i,1) read at line 14 may not have been written before" },
  /* a triangular read do m = 1, k inside do k = 1, n of levels stored for 1..n: privatized */
  { "triangular-read",
    "do j = 1, n\n do i = 1, n\n  do k = 1, n\n   w(i,k) = b(k)\n  end do\n  do k = 1, n\n"
    "   do m = 1, k\n    c3(i,k,j) = c3(i,k,j) + w(i,m)\n   end do\n  end do\n end do\nend do\n",
    "", true, NULL },
};

START_TEST(test_private_case)
{
  const PrivateCase *c = &private_cases[_i];
  char *text = ir_printf(
      "subroutine t(n, a, b, c3)\n  implicit none\n  integer :: n, i, j, k, kk, l, m\n"
      "  real :: a(100), b(100), c3(100,100,100)\n  real :: w(100,100)\n!$stencil region\n%s"
      "!$stencil end region\n%send subroutine t\n", c->body, c->after);
  Program *p = cu_parse(text);
  ck_assert_msg(p != NULL, "case %s does not parse", c->name);
  bool ok = cu_plan_program(p);
  ck_assert_msg(ok, "case %s: planning failed", c->name);
  RegionPlan *plan = p->routines[0]->regions[0]->analysis;
  const ArrayPlan *w = cu_array_plan(plan, "w");
  bool privatized = w && w->privatized;
  ck_assert_msg(privatized == c->privatized, "case %s: w %s privatized", c->name,
                privatized ? "is" : "is not");
  const char *why = w ? w->not_private_why : NULL;
  if (c->why)
    ck_assert_msg(why && strstr(why, c->why), "case %s: not_private_why '%s' lacks '%s'", c->name,
                  why ? why : "(none)", c->why);
  else
    ck_assert_msg(!why, "case %s: unexpected not_private_why '%s'", c->name, why);
  cu_reset();
}
END_TEST

/* ---- inferred data clauses ------------------------------------------------ */

/* copyout only when the region surely writes every element of the box:
 * the clause inferred for the array the case writes (c2, or a), and the
 * reason given for copy.  The region body starts at line 6 of the parsed
 * file (after the lines of decls). */
typedef struct ClauseCase {
  const char *name;
  const char *decls;
  const char *body;
  const char *array;
  DirClauseKind clause;
  const char *reason;   /* substring of copy_reason; NULL: none expected */
} ClauseCase;

static const ClauseCase clause_cases[] = {
  /* every element of c2(1:n,1:n) written: copyout */
  { "whole-box", "", "do k = 1, n\n do i = 1, n\n  c2(i,k) = b(i)\n end do\nend do\n", "c2",
    DIR_COPYOUT, NULL },
  /* a downward unit step covers the box too: copyout */
  { "reverse-unit-step", "", "do k = n, 1, -1\n do i = 1, n\n  c2(i,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPYOUT, NULL },
  /* a shifted subscript covers the shifted box: copyout */
  { "shifted-subscript", "", "do k = 1, n\n do i = 2, n\n  c2(i-1,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPYOUT, NULL },
  /* an invariant subscript is one plane of the box: copyout */
  { "invariant-subscript", "", "do i = 1, n\n c2(i,n) = b(i)\nend do\n", "c2", DIR_COPYOUT, NULL },
  /* a step of 2 leaves holes: copy */
  { "step-2", "", "do k = 1, n, 2\n do i = 1, n\n  c2(i,k) = b(i)\n end do\nend do\n", "c2",
    DIR_COPY, "loop 'k' at line 6 steps by 2" },
  /* a step of -2 too: copy */
  { "step-minus-2", "", "do k = n, 1, -2\n do i = 1, n\n  c2(i,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPY, "steps by -2" },
  /* a triangle inside its bounding box: copy */
  { "triangular", "", "do k = 1, n\n do i = 1, n - k\n  c2(i,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPY, "the bounds of loop 'i' at line 7 depend on 'k'" },
  /* min() in a bound is not affine: copy */
  { "triangular-min", "", "do j = 1, n\n do k = 1, min(n, j)\n  c2(j,k) = b(j)\n end do\nend do\n",
    "c2", DIR_COPY, "the bounds of loop 'k' at line 7 are read from an array or are not affine" },
  /* a bound read from an array: copy */
  { "bound-from-array", "integer :: top(100)\n",
    "do i = 1, n\n do k = 1, top(i)\n  c2(i,k) = b(i)\n end do\nend do\n", "c2", DIR_COPY,
    "the bounds of loop 'k' at line 8 are read from an array" },
  /* a write under IF may not happen: copy */
  { "under-if", "", "do k = 1, n\n do i = 1, n\n  if (b(i) > 0.0) c2(i,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPY, "the write at line 8 is under the IF at line 8" },
  /* a write in the ELSE branch: copy, naming the IF */
  { "under-else", "",
    "do i = 1, n\n if (b(i) > 0.0) then\n  c(i) = 1.0\n else\n  a(i) = b(i)\n end if\nend do\n",
    "a", DIR_COPY, "the write at line 10 is under the IF at line 7" },
  /* an EXIT after the write can end the loop early: copy */
  { "exit-after-write", "",
    "do i = 1, n\n do k = 1, n\n  c2(i,k) = b(i)\n  if (b(k) > 0.0) exit\n end do\nend do\n", "c2",
    DIR_COPY, "the EXIT at line 9 can end a loop around the write at line 8" },
  /* a CYCLE before the write can skip it: copy */
  { "cycle-before-write", "",
    "do i = 1, n\n do k = 1, n\n  if (b(k) > 0.0) then\n   cycle\n  end if\n  c2(i,k) = b(i)\n"
    " end do\nend do\n", "c2", DIR_COPY, "the CYCLE at line 9 can skip the write at line 11" },
  /* a CYCLE after the write skips nothing of it: copyout */
  { "cycle-after-write", "",
    "do i = 1, n\n do k = 1, n\n  c2(i,k) = b(i)\n  if (b(k) > 0.0) cycle\n  c(i) = 1.0\n"
    " end do\nend do\n", "c2", DIR_COPYOUT, NULL },
  /* an EXIT of an inner search loop does not end the loops around the write: copyout */
  { "exit-in-inner-search", "",
    "do k = 1, n\n do i = 1, n\n  do j = 1, n\n   if (b(j) > 0.0) exit\n  end do\n"
    "  c2(i,k) = b(i)\n end do\nend do\n", "c2", DIR_COPYOUT, NULL },
  /* two writes of the array: the proof takes one, copy */
  { "two-writes", "", "do i = 1, n\n c2(i,1) = b(i)\n do k = 2, n\n  c2(i,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPY, "it is written at lines 7 and 9" },
  /* the diagonal c2(i,i): copy */
  { "diagonal", "", "do i = 1, n\n c2(i,i) = b(i)\nend do\n", "c2", DIR_COPY,
    "the index of loop 'i' appears in two of its subscripts" },
  /* a(2*i) leaves holes: copy */
  { "strided-subscript", "", "do i = 1, 50\n a(2*i) = b(i)\nend do\n", "a", DIR_COPY,
    "its subscript '2*i' at line 7 is not one loop index" },
  /* an outer loop that may run zero times, its index not a subscript: copy */
  { "repeat-may-be-empty", "", "do j = 1, n\n do i = 1, n\n  a(i) = b(i) * j\n end do\nend do\n",
    "a", DIR_COPY, "loop 'j' at line 6, whose index is not a subscript, may run zero times" },
  /* the same outer loop with a constant trip count: copyout */
  { "repeat-runs", "", "do j = 1, 3\n do i = 1, n\n  a(i) = b(i) * j\n end do\nend do\n", "a",
    DIR_COPYOUT, NULL },
  /* read and written: copy, no reason needed */
  { "read-and-written", "", "do i = 1, n\n a(i) = a(i) + b(i)\nend do\n", "a", DIR_COPY, NULL },
  /* only read: copyin */
  { "read-only", "", "do i = 1, n\n a(i) = b(i)\nend do\n", "b", DIR_COPYIN, NULL },
  /* a local array the host never uses, written before it is read: create */
  { "local-written-first", "real :: w(100)\n", "do i = 1, n\n w(i) = b(i)\n a(i) = w(i)\nend do\n",
    "w", DIR_CREATE, NULL },
  /* a local array read from a neighbour column, every element read stored first: create.
   * (Its nest reads a, which the region writes, so it is not recomputed where it is read
   * instead: pass "recompute") */
  { "local-neighbour-read", "real :: w(100)\n",
    "do i = 1, n\n w(i) = a(i)\nend do\ndo i = 2, n\n a(i) = w(i-1)\nend do\n", "w", DIR_CREATE,
    NULL },
  /* the same without the first element stored: w(1) comes from the host */
  { "local-neighbour-read-unwritten", "real :: w(100)\n",
    "do i = 2, n\n w(i) = b(i)\nend do\ndo i = 2, n\n a(i) = w(i-1)\nend do\n", "w", DIR_COPYIN,
    NULL },
};

START_TEST(test_clause_case)
{
  const ClauseCase *c = &clause_cases[_i];
  char *errs;
  Program *p;
  bool ok = cu_plan_region(c->name, c->decls, "", c->body, false, &p, &errs);
  ck_assert_msg(ok, "case %s: planning failed:\n%s", c->name, errs);
  RegionPlan *plan = p->routines[0]->regions[0]->analysis;
  const ArrayPlan *a = cu_array_plan(plan, c->array);
  ck_assert_msg(a != NULL, "case %s: no plan for '%s'", c->name, c->array);
  ck_assert_msg(a->clause == c->clause, "case %s: %s, expected %s (%s)", c->name,
                dir_clause_name(a->clause), dir_clause_name(c->clause),
                a->copy_reason ? a->copy_reason : "no reason");
  if (c->reason)
    ck_assert_msg(a->copy_reason && strstr(a->copy_reason, c->reason),
                  "case %s: reason '%s' lacks '%s'", c->name,
                  a->copy_reason ? a->copy_reason : "(none)", c->reason);
  else
    ck_assert_msg(!a->copy_reason, "case %s: unexpected reason '%s'", c->name, a->copy_reason);
  free(errs);
  cu_reset();
}
END_TEST

/* ---- user clauses ----------------------------------------------------------- */

/* A clause the user wrote wins over the inferred one, even where it
 * contradicts the code: the plan keeps it (user_clause) and the report
 * warns (clause_warning). */
typedef struct UserClauseCase {
  const char *name;
  const char *clauses;  /* on the region directive */
  const char *body;
  const char *array;
  DirClauseKind clause;
  const char *warning;  /* substring of clause_warning; NULL: none expected */
} UserClauseCase;

static const UserClauseCase user_clause_cases[] = {
  /* copyin of an array the region writes: kept, with a warning that the writes are lost */
  { "copyin-written", " copyin(c2)", "do k = 1, n\n do i = 1, n\n  c2(i,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPYIN,
    "copyin(c2) but the region writes 'c2' at line 8; the host will not see those values" },
  /* copy of an array only read (inferred: copyin): kept, no warning */
  { "copy-read-only", " copy(b)", "do k = 1, n\n do i = 1, n\n  c2(i,k) = b(i)\n end do\nend do\n",
    "b", DIR_COPY, NULL },
  /* copyout of an array only read: kept, with a warning that the device copy is uninitialized */
  { "copyout-read-only", " copyout(a)", "do i = 1, n\n c(i) = a(i)\nend do\n", "a", DIR_COPYOUT,
    "copyout(a) but the region reads 'a' at line 7 and never writes it" },
  /* copy of a partly written array (inferred: copy with a reason): kept, no reason needed */
  { "copy-partly-written", " copy(c2)",
    "do k = 1, n, 2\n do i = 1, n\n  c2(i,k) = b(i)\n end do\nend do\n", "c2", DIR_COPY, NULL },
};

START_TEST(test_user_clause_case)
{
  const UserClauseCase *c = &user_clause_cases[_i];
  char *msgs;
  Program *p;
  bool ok = cu_plan_region(c->name, "", c->clauses, c->body, true, &p, &msgs);
  ck_assert_msg(ok, "case %s: planning failed:\n%s", c->name, msgs);
  const ArrayPlan *a = cu_array_plan(p->routines[0]->regions[0]->analysis, c->array);
  ck_assert_msg(a != NULL, "case %s: no plan for '%s'", c->name, c->array);
  ck_assert_msg(a->user_clause, "case %s: the clause of '%s' is not the user's", c->name, c->array);
  ck_assert_msg(a->clause == c->clause, "case %s: %s, expected %s", c->name,
                dir_clause_name(a->clause), dir_clause_name(c->clause));
  if (c->warning) {
    ck_assert_msg(a->clause_warning && strstr(a->clause_warning, c->warning),
                  "case %s: warning '%s' lacks '%s'", c->name,
                  a->clause_warning ? a->clause_warning : "(none)", c->warning);
    ck_assert_msg(strstr(msgs, c->warning), "case %s: the report lacks '%s':\n%s", c->name,
                  c->warning, msgs);
  } else {
    ck_assert_msg(!a->clause_warning, "case %s: unexpected warning '%s'", c->name,
                  a->clause_warning);
  }
  free(msgs);
  cu_reset();
}
END_TEST

/* ---- independent ------------------------------------------------------------ */

/* `independent` vouches for the references that carry the loop index, not
 * for a store to the same elements in every iteration: such an array is
 * kept per thread, or the assertion is refused naming it; and the advice
 * to assert `independent` is given only where it can lead to a correct
 * kernel.  w is a local array, c a dummy. */
typedef struct IndependentCase {
  const char *name;
  const char *body;
  bool ok;               /* planning succeeds */
  const char *message;   /* substring of the diagnostics and report, or NULL */
  const char *absent;    /* must not appear in them, or NULL */
  bool w_private;        /* is w privatized (when ok)? */
} IndependentCase;

static const IndependentCase independent_cases[] = {
  /* every i writes w(k), written before read in each iteration: w kept per thread */
  { "local-array-privatized",
    "!$stencil do independent\ndo i = 1, n\n do k = 1, 10\n  w(k) = b(i) * k\n end do\n"
    " do k = 1, 10\n  c2(i,k) = w(k)\n end do\nend do\n", true, NULL, NULL, true },
  /* w(k) read before it is written: the assertion is not followed, k runs in parallel */
  { "local-array-read-first",
    "!$stencil do independent\ndo i = 1, n\n do k = 1, 10\n  c2(i,k) = w(k)\n  w(k) = b(i)\n"
    " end do\nend do\n", true,
    /* legal without the assertion: one thread per k, i in order inside */
    "'independent' on loop 'i' is not followed: the loop runs sequentially in each thread: every "
    "iteration of loop 'i' writes the same elements w(k) (line 11), so the threads would share "
    "'w'; it cannot be kept per thread: its element w(k) read at line 10", NULL, false },
  /* w(k+1) read for k = 1..9, every level stored before: w kept per thread */
  { "local-array-neighbour",
    "!$stencil do independent\ndo i = 1, n\n do k = 1, 10\n  w(k) = b(i)\n end do\n"
    " do k = 1, 9\n  c2(i,k) = w(k+1)\n end do\nend do\n", true, NULL, NULL, true },
  /* w(k+1) read for k = 1..10: level 11 was never stored: refused, naming the read */
  { "local-array-neighbour-past-top",
    "!$stencil do independent\ndo i = 1, n\n do k = 1, 10\n  w(k) = b(i)\n end do\n"
    " do k = 1, 10\n  c2(i,k) = w(k+1)\n end do\nend do\n", false,
    "it cannot be kept per thread: its element w(k+1) read at line 13", NULL, false },
  /* the shared array is a dummy: refused, the caller sees its values */
  { "dummy-array",
    "!$stencil do independent\ndo i = 1, n\n do k = 1, 10\n  c(k) = b(i)\n end do\n"
    " a(i) = c(1)\nend do\n", false,
    "'c' is a dummy argument: the caller sees its values", NULL, false },
  /* without the assertion: the advice to assert it is withheld, it would not help */
  { "advice-withheld",
    "do i = 1, n\n do k = 1, 10\n  c(k) = b(i)\n end do\n a(i) = c(1)\nend do\n", false,
    "'independent' would not help: every iteration of loop 'i' writes the same elements c(k)",
    "put '!$stencil do independent'", false },
  /* a running sum: the advice to assert `independent` is given */
  { "advice-given",
    "do i = 2, n\n a(i) = a(i-1) + b(i)\nend do\n", false,
    "If the iterations are in fact independent, put '!$stencil do independent'", NULL, false },
  /* asserted on j around i loops that share c(i): not followed, i is the column */
  { "outer-asserted-inner-column",
    "!$stencil do independent\ndo j = 1, n\n do i = 1, n\n  c(i) = b(j)\n end do\n"
    " do i = 1, n\n  c2(i,j) = c(i)\n end do\nend do\n", true,
    "'independent' on loop 'j' is not followed: the loop runs sequentially in each thread: every "
    "iteration of loop 'j' writes the same elements c(i)", NULL, false },
};

START_TEST(test_independent_case)
{
  const IndependentCase *c = &independent_cases[_i];
  char *errs;
  Program *p;
  bool ok = cu_plan_region(c->name, "real :: w(10)\n", "", c->body, true, &p, &errs);
  ck_assert_msg(ok == c->ok, "case %s: planning %s:\n%s", c->name, ok ? "succeeded" : "failed", errs);
  if (c->message)
    ck_assert_msg(strstr(errs, c->message), "case %s: messages lack '%s':\n%s", c->name,
                  c->message, errs);
  if (c->absent)
    ck_assert_msg(!strstr(errs, c->absent), "case %s: messages have '%s':\n%s", c->name,
                  c->absent, errs);
  if (ok) {
    const ArrayPlan *w = cu_array_plan(p->routines[0]->regions[0]->analysis, "w");
    bool w_private = w && w->privatized;
    ck_assert_msg(w_private == c->w_private, "case %s: w %s privatized", c->name,
                  w_private ? "is" : "is not");
  }
  free(errs);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("clause");
  TCase *tc = tcase_create("clause");
  tcase_add_loop_test(tc, test_private_case, 0, (int)(sizeof private_cases / sizeof private_cases[0]));
  tcase_add_loop_test(tc, test_clause_case, 0, (int)(sizeof clause_cases / sizeof clause_cases[0]));
  tcase_add_loop_test(tc, test_user_clause_case, 0,
                      (int)(sizeof user_clause_cases / sizeof user_clause_cases[0]));
  tcase_add_loop_test(tc, test_independent_case, 0,
                      (int)(sizeof independent_cases / sizeof independent_cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
