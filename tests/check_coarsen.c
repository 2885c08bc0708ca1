/* check_coarsen.c — table-driven tests of pass "coarsen" (transforms/
 * coarsen.c): each thread computes several consecutive points of the loop
 * on grid axis y, so that the loads they share issue once.
 *   - the cost rule: which kernels are coarsened and by how much (the
 *     plan's KernelPlan.coarsen), with the report's count of loads per
 *     point ("9 loads of 'u' per point become 6"); the kernels it leaves
 *     alone without a word (not bound by issuing loads, nothing shared,
 *     reads inside a loop of the thread, no loop on axis y); the trip count
 *     too short for the factor;
 *   - every legality condition of the file comment refused in turn, with
 *     its reason ("Kernel t_r1 not coarsened: ..."), also under a forced
 *     factor;
 *   - -Mcoarsen=N (xf_config.coarsen, S2S_COARSEN=N) forcing the factor,
 *     -Mnocoarsen and S2S_COARSEN=0 turning the pass off.
 * Each case is a small Fortran region parsed with the real front end
 * (tests/check_util.h gives its source: with the two lines of declarations
 * below, the body starts at line 8).  Loops k / j / i over u(i,j,k) put i
 * on grid axis x, j on y, k on z.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "transforms.h"

/* The declarations every case gets (two lines: the body starts at line 8).
 * The kernels write the dummy c2(i,j) (a device array) and read u at level
 * kk (a scalar the region never writes); a(i) is a dummy too. */
static const char decls[] =
  "real :: u(100,100,50), r\n"
  "integer :: kk\n";

typedef struct CoarsenCase {
  const char *name;
  const char *body;
  int config;           /* xf_config.coarsen: 0 the rule, 1 off, N forced */
  const char *env;      /* S2S_COARSEN, or NULL */
  bool smem;            /* -Msmem */
  int points;           /* the last kernel's KernelPlan.coarsen (0: not coarsened) */
  int ncoarsened;       /* report lines "... points of '...' per thread" */
  int nrefused;         /* report lines "... not coarsened: ..." */
  const char *present;  /* substring of the report, or NULL */
} CoarsenCase;

/* 9 distinct loads of u around (i, j), 2 arrays moved (u, c2): a kernel
 * bound by issuing loads under the rule (9 >= 4 x 2).  4 points: x=0 reads
 * j-2..j+5 (8), x=+-1 and +-2 j..j+3 (16), 24 for 4 points, 6 each; 8
 * points: 12 + 32 = 44, 5.5 each; 2 points: 14, 7 each (not a quarter less). */
#define STAR9 "u(i+1,j,kk) + u(i-1,j,kk) + u(i+2,j,kk) + u(i-2,j,kk) + u(i,j+1,kk) + " \
              "u(i,j-1,kk) + u(i,j+2,kk) + u(i,j-2,kk) - 8.0*u(i,j,kk)"
/* hdiff's 13 loads: x=0 j-2..j+2, x=+-1 j-1..j+1, x=+-2 j; 2 points 18 (9 each), 4 points 28 */
#define HD13 STAR9 " + u(i+1,j+1,kk) + u(i+1,j-1,kk) + u(i-1,j+1,kk) + u(i-1,j-1,kk)"
#define NEST2(jlo, jhi, stmt) "do j = " jlo ", " jhi "\n do i = 3, n-2\n  " stmt "\n end do\n" \
                              "end do\n"

static const CoarsenCase cases[] = {
  /* the rule coarsens */
  { "star-9-point", NEST2("3", "n-2", "c2(i,j) = " STAR9), 0, NULL, false, 8, 1, 0,
    "t.f90:8:1: info: Kernel t_r1 computes 8 points of 'j' per thread (thread coarsening): 9 "
    "loads of 'u' per point become 5.5; grid [(n-4)/128 x (n-4)/8]" },
  /* a(i) does not follow j: every point reads the same element, loaded once */
  { "row-coefficient", NEST2("3", "n-2", "c2(i,j) = a(i) * (" HD13 ")"), 0, NULL, false, 8, 1,
    0, "1 load of 'a' per point become 0.125, 13 loads of 'u' per point become 6" },
  /* the same with a(i) moved as well: 10 loads for 3 arrays, not bound by issuing loads */
  { "row-coefficient-star", NEST2("3", "n-2", "c2(i,j) = a(i) * (" STAR9 ")"), 0, NULL, false, 0,
    0, 0, NULL },
  /* a scalar temporary per point: assigned before use at every point */
  { "scalar-temporary", NEST2("3", "n-2", "r = " STAR9 "\n  c2(i,j) = r * r"), 0, NULL, false, 8,
    1, 0, "9 loads of 'u' per point become 5.5" },
  /* 12 iterations of j: too few for 4 points (16), enough for 2 (8) */
  { "short-y-loop", NEST2("3", "14", "c2(i,j) = " HD13), 0, NULL, false, 2, 1, 0,
    "computes 2 points of 'j' per thread (thread coarsening): 13 loads of 'u' per point become 9" },
  /* 6 iterations: too few for either */
  { "too-short-y-loop", NEST2("3", "8", "c2(i,j) = " HD13), 0, NULL, false, 0, 0, 1,
    "note: Kernel t_r1 not coarsened: loop 'j' runs 6 times, too few for 2 points per thread" },
  /* the rule leaves alone, silently */
  /* a 7-point stencil: 7 loads for 2 arrays, not bound by issuing loads */
  { "seven-points",
    NEST2("3", "n-2", "c2(i,j) = u(i+1,j,kk) + u(i-1,j,kk) + u(i,j+1,kk) + u(i,j-1,kk) + "
          "u(i,j+2,kk) + u(i,j-2,kk) - 6.0*u(i,j,kk)"), 0, NULL, false, 0, 0, 0, NULL },
  /* 9 loads, none along j: nothing shared */
  { "no-reuse-along-j",
    NEST2("1", "n", "c2(i,j) = u(i+1,j,kk) + u(i-1,j,kk) + u(i+2,j,kk) + u(i-2,j,kk) + "
          "u(i,j,kk+1) + u(i,j,kk-1) + u(i+1,j,kk+1) + u(i-1,j,kk-1) + u(i,j,kk)"), 0, NULL,
    false, 0, 0, 0, NULL },
  /* the reads under an IF are loads of their own at each point */
  { "reads-under-if", NEST2("3", "n-2", "c2(i,j) = 0.0\n  if (kk > 0) c2(i,j) = " STAR9), 0,
    NULL, false, 0, 0, 0, NULL },
  /* reads inside a loop of the thread: nvcc shares nothing across two loops */
  { "reads-in-thread-loop",
    "do j = 3, n-2\n do i = 3, n-2\n  c2(i,j) = 0.0\n  do k = 1, 4\n"
    "   c2(i,j) = c2(i,j) + " STAR9 "\n  end do\n end do\nend do\n", 0, NULL, false, 0, 0, 0,
    NULL },
  /* a kernel over i alone: no loop on axis y, even forced */
  { "one-axis", "do i = 3, 98\n a(i) = b(i-2) + b(i+2)\nend do\n", 4, NULL, false, 0, 0, 0,
    NULL },
  /* refused, with the reason */
  { "reduction", "r = 0.0\n" NEST2("3", "n-2", "r = r + (" STAR9 ")"), 0, NULL, false, 0, 0, 1,
    "t.f90:9:1: note: Kernel t_r1 not coarsened: the kernel combines a reduction" },
  { "smem-tiles", NEST2("3", "n-2", "c2(i,j) = " STAR9), 0, NULL, true, 0, 0, 1,
    "note: Kernel t_r1 not coarsened: its reads come from shared-memory tiles (-Msmem)" },
  { "forced-reduction", "r = 0.0\n" NEST2("1", "n", "r = r + (u(i,j,1))"), 2, NULL, false, 0, 0,
    1, "not coarsened: the kernel combines a reduction" },
  /* forced: whatever it saves */
  { "forced-no-reuse", NEST2("1", "n", "c2(i,j) = 2.0*u(i,j,kk)"), 3, NULL, false, 3, 1, 0,
    "computes 3 points of 'j' per thread (thread coarsening, -Mcoarsen=3): no load is shared; "
    "grid [(n-4)/128 x n/3]" },
  { "forced-by-env", NEST2("2", "n-1", "c2(i,j) = u(i,j+1,kk) - u(i,j,kk)"), 0, "2", false, 2,
    1, 0, "2 loads of 'u' per point become 1.5" },
  /* forced below the trip-count rule: no note, coarsened */
  { "forced-short-loop", NEST2("3", "4", "c2(i,j) = " STAR9), 4, NULL, false, 4, 1, 0, NULL },
  /* off */
  { "off-by-option", NEST2("3", "n-2", "c2(i,j) = " STAR9), 1, NULL, false, 0, 0, 0, NULL },
  { "off-by-env", NEST2("3", "n-2", "c2(i,j) = " STAR9), 0, "0", false, 0, 0, 0, NULL },
  { "env-over-option", NEST2("3", "n-2", "c2(i,j) = " STAR9), 4, "0", false, 0, 0, 0, NULL },
};

START_TEST(test_coarsen_case)
{
  const CoarsenCase *c = &cases[_i];
  char *msgs;
  Program *p;
  xf_config.coarsen = c->config;
  xf_config.smem = c->smem;
  if (c->env)
    setenv("S2S_COARSEN", c->env, 1);
  bool ok = cu_plan_region(c->name, decls, "", c->body, true, &p, &msgs);
  xf_config.coarsen = 0;
  xf_config.smem = false;
  unsetenv("S2S_COARSEN");
  ck_assert_msg(ok, "case %s: planning failed:\n%s", c->name, msgs);
  const RegionPlan *plan = cu_first_region(p)->analysis;
  const KernelPlan *k = &plan->kernels[plan->nkernels - 1];
  int points = k->coarsen > 1 ? k->coarsen : 0;
  ck_assert_msg(points == c->points, "case %s: %d points per thread, expected %d:\n%s", c->name,
                points, c->points, msgs);
  int coarsened = cu_count_lines(msgs, " per thread (thread coarsening");
  int refused = cu_count_lines(msgs, " not coarsened: ");
  ck_assert_msg(coarsened == c->ncoarsened && refused == c->nrefused,
                "case %s: %d coarsened and %d refused lines, expected %d and %d:\n%s", c->name,
                coarsened, refused, c->ncoarsened, c->nrefused, msgs);
  if (c->present)
    ck_assert_msg(strstr(msgs, c->present), "case %s: the report lacks '%s':\n%s", c->name,
                  c->present, msgs);
  free(msgs);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("coarsen");
  TCase *tc = tcase_create("cases");
  tcase_add_loop_test(tc, test_coarsen_case, 0, (int)(sizeof cases / sizeof cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
