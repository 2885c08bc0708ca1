/* check_recompute.c — table-driven tests of pass recompute
 * (transforms/recompute.c): a work array that planning left in device memory
 * and that a later nest reads at neighbouring points is computed where it is
 * read (its producer nest inlined into the statements that read it), when
 * that is legal and cheap; otherwise a note says why it stays stored.
 *
 * Each case is a small Fortran region parsed with the real front end
 * (tests/check_util.h gives its source: one line of declarations, so the
 * body starts at line 7).  The dummies a, b, c, c2 of the harness routine
 * are never candidates; the work arrays are locals declared per case.  A case
 * gives the number of "recomputed where it is read" report lines, a fragment
 * the report must have and one it must not, the kernels and their mapped
 * loops ("j i | j i": two kernels), and optionally a work array no statement
 * of the region body may name any more once planning is done.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"

typedef struct RecomputeCase {
  const char *name;
  const char *decls;     /* one line */
  const char *body;
  int ninlined;          /* report lines "recomputed where it is read" */
  const char *present;   /* substring of the report, or NULL */
  const char *absent;    /* substring the report must not have, or NULL */
  const char *kernels;   /* mapped loops per kernel */
  const char *gone;      /* "lap(": no reference left in the region body, or NULL */
  bool off;              /* with S2S_RECOMPUTE=0 */
} RecomputeCase;

#define WORK2 "real :: lap(100,100), flx(100,100)\n"

/* lap from b and c, flx reading lap at i+1, c2 reading flx at i-1 */
#define CHAIN_2D                                                                              \
  "do j = 1, 100\n do i = 2, 99\n  lap(i,j) = b(i-1) + b(i+1) - 2.0*b(i) + c(j)\n end do\n"  \
  "end do\n"                                                                                  \
  "do j = 1, 100\n do i = 2, 98\n  flx(i,j) = lap(i+1,j) - lap(i,j)\n end do\nend do\n"       \
  "do j = 1, 100\n do i = 3, 98\n  c2(i,j) = flx(i,j) - flx(i-1,j)\n end do\nend do\n"

/* lap read at i+1 and j+1 (so that it cannot be kept per column either) */
#define LAP_PRODUCER "do j = 1, 100\n do i = 2, 99\n  lap(i,j) = b(i) + c(j)\n end do\nend do\n"
#define LAP_CONSUMER                                                                          \
  "do j = 1, 99\n do i = 2, 98\n  c2(i,j) = lap(i+1,j) + lap(i,j+1)\n end do\nend do\n"

static const RecomputeCase cases[] = {
  /* a Laplacian and a flux chain: both inlined, one kernel, no work array left */
  { "chain-2d", WORK2, CHAIN_2D, 2,
    "t.f90:12:1: info: Array 'flx' recomputed where it is read (stencil inlining): the nest at "
    "line 12 runs inside the statements that read it, up to 2 evaluations per point "
    "(9 operations each) instead of storing 4 bytes per point and reading them back",
    "stored, not recomputed", "j i", "lap(", false },
  /* the same chain with S2S_RECOMPUTE=0: three kernels, the work arrays stored */
  { "chain-2d-off", WORK2, CHAIN_2D, 0, "Region split into 3 kernels", "recomputed",
    "j i | j i | j i", NULL, true },
  /* the producer's own scalar, an IF in its body, and reads at i+1 and j+1 by an assignment
   * under IF: inlined (the copies go inside the branch, before the assignment) */
  { "scalar-and-if", "real :: lap(100,100), x\n",
    "do j = 1, 100\n do i = 1, 100\n  x = b(i) * c(j)\n  lap(i,j) = x - 1.0\n"
    "  if (x > 0.5) lap(i,j) = 0.0\n end do\nend do\n"
    "do j = 1, 99\n do i = 1, 99\n  if (b(i) > 0.0) c2(i,j) = lap(i+1,j) - lap(i,j+1)\n"
    " end do\nend do\n", 1,
    "Array 'lap' recomputed where it is read (stencil inlining): the nest at line 7 runs inside "
    "the statements that read it, up to 2 evaluations per point (4 operations each)",
    "stored, not recomputed", "j i", "lap(", false },
  /* hdiff's shape: the nests inside a k loop, the work array indexed by k too */
  { "inside-k-loop", "real :: w3(100,10,100)\n",
    "do k = 1, 10\n do j = 1, 100\n  do i = 1, 100\n   w3(i,k,j) = b(i) * c(k) + c(j)\n"
    "  end do\n end do\n do j = 2, 99\n  do i = 2, 99\n"
    "   c2(i,j) = w3(i-1,k,j) + w3(i+1,k,j-1) + w3(i,k,j+1)\n  end do\n end do\nend do\n", 1,
    "Array 'w3' recomputed where it is read (stencil inlining): the nest at line 8 runs inside "
    "the statements that read it, up to 3 evaluations per point", "stored, not recomputed",
    "j i", "w3(", false },
  /* the consumer reads lap(i+1,j) for i = 99, which the producer (i = 2..99) never stores */
  { "read-outside-bounds", WORK2,
    LAP_PRODUCER "do j = 1, 100\n do i = 2, 99\n  c2(i,j) = lap(i+1,j) - lap(i,j)\n end do\n"
    "end do\n", 0,
    "t.f90:7:1: note: Array 'lap' stored, not recomputed where it is read: lap(i+1,j) is read at "
    "points its nest (line 7) does not store", "(stencil inlining)", "j i | j i", NULL, false },
  /* below the lower bound along j: the producer starts at j = 2, lap(i,j-1) for j = 2 is
   * lap(i,1) */
  { "read-outside-lower-bound", WORK2,
    "do j = 2, 100\n do i = 1, 100\n  lap(i,j) = b(i) + c(j)\n end do\nend do\n"
    "do j = 2, 100\n do i = 1, 99\n  c2(i,j) = lap(i+1,j) + lap(i,j-1)\n end do\nend do\n", 0,
    "lap(i,j-1) is read at points its nest (line 7) does not store", "(stencil inlining)",
    "j i | j i", NULL, false },
  /* the producer reads b, which a later nest of the region overwrites */
  { "input-written-later", WORK2,
    "do j = 1, 100\n do i = 2, 99\n  lap(i,j) = b(i-1) + b(i+1) - 2.0*b(i) + c(j)\n end do\n"
    "end do\n" LAP_CONSUMER "do i = 1, 100\n b(i) = 0.0\nend do\n", 0,
    "t.f90:7:1: note: Array 'lap' stored, not recomputed where it is read: its nest reads 'b', "
    "which the region writes", "(stencil inlining)", "j i | i", NULL, false },
  /* the producer reads x, which the region body assigns again between the nests */
  { "scalar-assigned-between", "real :: lap(100,100), x\n",
    "x = 2.0\ndo j = 1, 100\n do i = 2, 99\n  lap(i,j) = x * b(i) + c(j)\n end do\nend do\n"
    "x = 3.0\n" LAP_CONSUMER, 0,
    "t.f90:8:1: note: Array 'lap' stored, not recomputed where it is read: its nest reads the "
    "scalar 'x', which changes between the nests", "(stencil inlining)", "j i | j i", NULL,
    false },
  /* five intrinsic calls read at five points: (5 - 1) * 27 > 4 * 8 */
  { "cost-model", WORK2,
    "do j = 1, 100\n do i = 2, 99\n"
    "  lap(i,j) = exp(b(i)) + sqrt(c(j)) + exp(c(j)*b(i)) + sqrt(b(i)+c(j)) + exp(b(i)-c(j))\n"
    " end do\nend do\n"
    "do j = 2, 99\n do i = 3, 98\n"
    "  c2(i,j) = lap(i+1,j) + lap(i-1,j) + lap(i,j+1) + lap(i,j-1) - 4.0*lap(i,j)\n"
    " end do\nend do\n", 0,
    "Array 'lap' stored, not recomputed where it is read: recomputing it costs 108 operations "
    "per point where storing it moves 8 bytes (the cost model allows 4 per byte)",
    "(stencil inlining)", "j i | j i", NULL, false },
  /* the same producer read at two points: 27 extra operations, under the 32 allowed */
  { "cost-model-two-points", WORK2,
    "do j = 1, 100\n do i = 2, 99\n"
    "  lap(i,j) = exp(b(i)) + sqrt(c(j)) + exp(c(j)*b(i)) + sqrt(b(i)+c(j)) + exp(b(i)-c(j))\n"
    " end do\nend do\n"
    "do j = 1, 100\n do i = 3, 99\n  c2(i,j) = lap(i,j) - lap(i-1,j)\n end do\nend do\n", 1,
    "up to 2 evaluations per point (27 operations each)", "stored, not recomputed", "j i",
    "lap(", false },
  /* the only store of lap reads lap's old value: not a producer, nothing said */
  { "first-store-reads-itself", WORK2,
    "do j = 1, 100\n do i = 2, 99\n  lap(i,j) = lap(i,j) * 2.0 + b(i)\n end do\nend do\n"
    LAP_CONSUMER, 0, NULL, "ecomputed", "j i | j i", NULL, false },
  /* lap stored by a second nest (t = t*2) too: stored, the reason given */
  { "stored-twice", WORK2,
    LAP_PRODUCER "do j = 1, 100\n do i = 2, 99\n  lap(i,j) = lap(i,j) * 2.0\n end do\nend do\n"
    LAP_CONSUMER, 0,
    "t.f90:7:1: note: Array 'lap' stored, not recomputed where it is read: other statements "
    "store it too", "(stencil inlining)", "j i | j i", NULL, false },
  /* lap read before its producer in the list */
  { "read-before-producer", WORK2,
    "do j = 1, 100\n a(j) = lap(5,j)\nend do\n" LAP_PRODUCER LAP_CONSUMER, 0,
    "t.f90:10:1: note: Array 'lap' stored, not recomputed where it is read: statements before its "
    "nest, or outside the loop around it, use it", "(stencil inlining)", "j | j i | j i", NULL,
    false },
  /* read only at the point itself: privatization keeps it per thread, this pass says nothing */
  { "same-point-only", WORK2,
    "do j = 1, 100\n do i = 1, 100\n  lap(i,j) = b(i) + c(j)\n end do\n"
    " do i = 1, 100\n  c2(i,j) = lap(i,j) * 2.0\n end do\nend do\n", 0,
    "Array 'lap' scalarized (one value per column, no device copy)", "ecomputed", "j i", NULL,
    false },
  /* a dummy array read at neighbours: never a candidate */
  { "dummy-array", WORK2,
    "do i = 1, 100\n a(i) = b(i) * 2.0\nend do\ndo i = 2, 99\n c(i) = a(i+1) - a(i-1)\nend do\n",
    0, "Region split into 2 kernels", "ecomputed", "i | i", NULL, false },
};


START_TEST(test_recompute_case)
{
  const RecomputeCase *c = &cases[_i];
  char *msgs;
  Program *p;
  if (c->off)
    setenv("S2S_RECOMPUTE", "0", 1);
  bool ok = cu_plan_region(c->name, c->decls, "", c->body, true, &p, &msgs);
  if (c->off)
    unsetenv("S2S_RECOMPUTE");
  ck_assert_msg(ok, "case %s: planning failed:\n%s", c->name, msgs);
  int n = cu_count_lines(msgs, "recomputed where it is read (stencil inlining)");
  ck_assert_msg(n == c->ninlined, "case %s: %d arrays recomputed, expected %d:\n%s", c->name, n,
                c->ninlined, msgs);
  if (c->present)
    ck_assert_msg(strstr(msgs, c->present), "case %s: the report lacks '%s':\n%s", c->name,
                  c->present, msgs);
  if (c->absent)
    ck_assert_msg(!strstr(msgs, c->absent), "case %s: the report has '%s':\n%s", c->name,
                  c->absent, msgs);
  IrRegion *g = cu_first_region(p);
  if (c->kernels) {
    char *got = cu_kernels_text(g->analysis);
    ck_assert_msg(!strcmp(got, c->kernels), "case %s: kernels '%s', expected '%s':\n%s",
                  c->name, got, c->kernels, msgs);
    free(got);
  }
  if (c->gone) {
    char *dump = cu_dump_stmts(&g->body);
    ck_assert_msg(!strstr(dump, c->gone), "case %s: the region body still has '%s':\n%s",
                  c->name, c->gone, dump);
    ck_assert_msg(strstr(dump, "s2s_"), "case %s: no scalar of an inlined copy:\n%s", c->name,
                  dump);
    free(dump);
  }
  free(msgs);
  cu_reset();
}
END_TEST

/* The chain's body once inlined: c2's statement reads four copies of lap
 * (two per flx copy), computed before it in the same loop, and the
 * producers' loops are gone (one nest left). */
START_TEST(test_chain_body)
{
  char *msgs;
  Program *p;
  bool ok = cu_plan_region("chain-body", WORK2, "", CHAIN_2D, true, &p, &msgs);
  ck_assert_msg(ok, "planning failed:\n%s", msgs);
  IrRegion *g = cu_first_region(p);
  ck_assert_int_eq(g->body.n, 1);
  char *dump = cu_dump_stmts(&g->body);
  ck_assert_msg(!strstr(dump, "lap(") && !strstr(dump, "flx("), "work arrays left:\n%s", dump);
  ck_assert_msg(cu_count_lines(dump, "s2s_lap_") >= 4, "fewer than 4 copies of lap:\n%s", dump);
  ck_assert_msg(cu_count_lines(dump, "s2s_flx_") >= 2, "fewer than 2 copies of flx:\n%s", dump);
  free(dump);
  free(msgs);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("recompute");
  TCase *tc = tcase_create("recompute");
  tcase_add_loop_test(tc, test_recompute_case, 0, (int)(sizeof cases / sizeof cases[0]));
  tcase_add_test(tc, test_chain_body);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
