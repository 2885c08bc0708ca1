/* check_kcache.c — table-driven tests of pass "kcache" (transforms/kcache.c):
 * values a sequential loop of a thread reads at neighbouring iterations kept
 * in registers.
 *   - which arrays are cached, as the report says: one line per loop
 *     "Loop 'k' keeps values in registers across iterations (k-caching): ..."
 *     naming the recurrences' reads ("cp(i,k-1) from the register the
 *     previous iteration stored it in") and the windows ("u(i,k-1), u(i,k)
 *     reused from registers loaded by earlier iterations (one load of
 *     u(i,k+1) per iteration)"), and every legality condition of the file
 *     comment refused in turn (the array left alone);
 *   - S2S_KCACHE=0 turns the pass off;
 *   - the thread body the pass leaves: the registers filled before the loop
 *     under "it runs", the store through the register, the rotation at the
 *     end of the body.
 * Each case is a small Fortran region parsed with the real front end
 * (tests/check_util.h gives its source: with the two lines of declarations
 * below, the body starts at line 8).  The column loop i runs in parallel;
 * the k loop inside it stays sequential in each thread, because it carries
 * a recurrence or because `!$stencil do seq` says so.  Refusals keep a
 * cacheable control array (dp) in the loop where they can, so that the pass
 * is seen to run on the loop and to leave only the refused array alone.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"

/* The declarations every case gets (two lines: the body starts at line 8). */
static const char decls[] =
  "real :: cp(100,100), dp(100,100), d2(100,100), x2(100,100), u(100,100), w(100,100), m\n"
  "integer :: kk\n";

/* The report lines of the pass, concatenated (caller frees). */
static char *kcache_lines(const char *msgs)
{
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  while (*msgs) {
    const char *end = strchr(msgs, '\n');
    size_t n = end ? (size_t)(end - msgs) : strlen(msgs);
    char *line = strndup(msgs, n);
    if (strstr(line, "(k-caching)"))
      fprintf(f, "%s\n", line);
    free(line);
    msgs += n + (end != NULL);
  }
  fclose(f);
  return out;
}

/* ---- which arrays are cached ---------------------------------------------- */

typedef struct KcacheCase {
  const char *name;
  const char *body;
  int nlines;           /* report lines "... (k-caching): ..." */
  const char *present;  /* substring of those lines, or NULL */
  const char *absent;   /* must not appear in them, or NULL */
  bool off;             /* planned with S2S_KCACHE=0 */
} KcacheCase;

/* The Thomas forward sweep: cp and dp recurrences. */
#define THOMAS_FORWARD                                                                   \
  "do i = 1, n\n do k = 2, n\n  m = 1.0 / (c2(i,k) - b(k)*cp(i,k-1))\n  cp(i,k) = c(k)*m\n" \
  "  dp(i,k) = (d2(i,k) - b(k)*dp(i,k-1))*m\n end do\nend do\n"

static const KcacheCase kcache_cases[] = {
  /* cached */
  /* the Thomas forward sweep: both recurrences from registers, one line for the loop */
  { "thomas-forward", THOMAS_FORWARD, 1,
    "t.f90:9:2: info: Loop 'k' keeps values in registers across iterations (k-caching): "
    "cp(i,k-1), dp(i,k-1) from the registers the previous iteration stored them in", NULL, false },
  /* the back substitution downwards (step -1): x2(i,k+1) is what the previous iteration stored */
  { "back-substitution-downward",
    "do i = 1, n\n do k = n-1, 1, -1\n  x2(i,k) = d2(i,k) - c2(i,k)*x2(i,k+1)\n end do\nend do\n", 1,
    "x2(i,k+1) from the register the previous iteration stored it in", "reused", false },
  /* a read-only array at k-1, k, k+1: a window, one load per iteration (the leading k+1) */
  { "window-3-point",
    "do i = 1, n\n!$stencil do seq\n do k = 2, n-1\n  w(i,k) = u(i,k+1) - 2.0*u(i,k) + u(i,k-1)\n"
    " end do\nend do\n", 1,
    "u(i,k-1), u(i,k) reused from registers loaded by earlier iterations (one load of u(i,k+1) "
    "per iteration)", "stored", false },
  /* the same sweeping downwards: the leading element is k-1 */
  { "window-3-point-downward",
    "do i = 1, n\n!$stencil do seq\n do k = n-1, 2, -1\n  w(i,k) = u(i,k+1) - 2.0*u(i,k) + u(i,k-1)\n"
    " end do\nend do\n", 1,
    "u(i,k), u(i,k+1) reused from registers loaded by earlier iterations (one load of u(i,k-1) "
    "per iteration)", NULL, false },
  /* a gap: k-1 and k+1 only (k kept in a register of the window, not named) */
  { "window-gap",
    "do i = 1, n\n!$stencil do seq\n do k = 2, n-1\n  w(i,k) = u(i,k+1) - u(i,k-1)\n end do\n"
    "end do\n", 1,
    "(k-caching): u(i,k-1) reused from registers loaded by earlier iterations (one load of "
    "u(i,k+1) per iteration)", "u(i,k),", false },
  /* the widest window, 8 registers (k-4 .. k+3, read at its ends only) */
  { "window-8-wide",
    "do i = 1, n\n!$stencil do seq\n do k = 5, n-3\n  w(i,k) = u(i,k+3) - u(i,k-4)\n end do\n"
    "end do\n", 1, "u(i,k-4) reused from registers loaded by earlier iterations (one load of "
    "u(i,k+3) per iteration)", NULL, false },
  /* a recurrence and a window in one loop: one line naming both */
  { "recurrence-and-window",
    "do i = 1, n\n do k = 2, n-1\n  cp(i,k) = 0.5*cp(i,k-1) + u(i,k+1) - u(i,k-1)\n end do\nend do\n",
    1, "cp(i,k-1) from the register the previous iteration stored it in; u(i,k-1) reused from "
    "registers loaded by earlier iterations (one load of u(i,k+1) per iteration)", NULL, false },
  /* the one read at k-1 evaluated at every iteration, a second one under IF: both from the
   * register */
  { "recurrence-extra-conditional-read",
    "do i = 1, n\n do k = 2, n\n  cp(i,k) = cp(i,k-1) + b(k)\n"
    "  if (b(k) > 0.0) x2(i,k) = cp(i,k-1)\n end do\nend do\n", 1,
    "cp(i,k-1) from the register the previous iteration stored it in", NULL, false },
  /* refused: the array left alone, the control dp cached */
  /* the write under an IF: the register would not hold what memory holds */
  { "write-under-if",
    "do i = 1, n\n do k = 2, n\n  if (b(k) > 0.0) cp(i,k) = cp(i,k-1) + 1.0\n"
    "  dp(i,k) = dp(i,k-1) + cp(i,k)\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "cp(", false },
  /* two writes of cp in the loop */
  { "two-writes",
    "do i = 1, n\n do k = 2, n\n  cp(i,k) = cp(i,k-1) + b(k)\n  cp(i,k) = cp(i,k) * 0.5\n"
    "  dp(i,k) = dp(i,k-1) + cp(i,k)\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "cp(", false },
  /* the only read at k-1 under an IF: no unconditional read to load early */
  { "read-only-under-if",
    "do i = 1, n\n do k = 2, n\n  cp(i,k) = b(k)\n  if (b(k) > 0.0) x2(i,k) = cp(i,k-1)\n"
    "  dp(i,k) = dp(i,k-1) + 1.0\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "cp(", false },
  /* the only read at k-1 in the arm of .and. that short-circuits */
  { "read-only-after-and",
    "do i = 1, n\n do k = 2, n\n  cp(i,k) = b(k)\n"
    "  if (b(k) > 0.0 .and. cp(i,k-1) > 0.0) x2(i,k) = 1.0\n"
    "  dp(i,k) = dp(i,k-1) + 1.0\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "cp(", false },
  /* a window array read at k+1 only under an IF: the window is k-1..k, loaded k */
  { "window-conditional-lead",
    "do i = 1, n\n!$stencil do seq\n do k = 2, n-1\n  w(i,k) = u(i,k) - u(i,k-1)\n"
    "  if (b(k) > 0.0) w(i,k) = w(i,k) + u(i,k+1)\n end do\nend do\n", 1,
    "u(i,k-1) reused from registers loaded by earlier iterations (one load of u(i,k) per "
    "iteration)", "u(i,k+1)", false },
  /* a CYCLE would skip the rotation at the end of the body: nothing cached */
  { "cycle",
    "do i = 1, n\n do k = 2, n\n  if (b(k) < 0.0) cycle\n  cp(i,k) = cp(i,k-1) + b(k)\n"
    "  dp(i,k) = dp(i,k-1) + 1.0\n end do\nend do\n", 0, NULL, NULL, false },
  /* an EXIT: nothing cached */
  { "exit",
    "do i = 1, n\n do k = 2, n\n  cp(i,k) = cp(i,k-1) + b(k)\n  if (cp(i,k) > 1.0) exit\n"
    "  dp(i,k) = dp(i,k-1) + 1.0\n end do\nend do\n", 0, NULL, NULL, false },
  /* step 2: nothing */
  { "step-2",
    "do i = 1, n\n do k = 3, n, 2\n  cp(i,k) = cp(i,k-2) + b(k)\n  dp(i,k) = dp(i,k-2) + 1.0\n"
    "  w(i,k) = u(i,k+1) - u(i,k-1)\n end do\nend do\n", 0, NULL, NULL, false },
  /* a subscript through a scalar the loop assigns (kk, not known to be k) */
  { "scalar-subscript",
    "do i = 1, n\n do k = 2, n\n  kk = max(k, 2)\n  cp(i,k) = cp(i,kk-1) + b(k)\n"
    "  dp(i,k) = dp(i,k-1) + cp(i,k)\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "cp(", false },
  /* the same with the scalar carried from the previous iteration */
  { "scalar-subscript-carried",
    "do i = 1, n\n kk = 1\n do k = 2, n\n  cp(i,k) = cp(i,kk) + b(k)\n  kk = k\n"
    "  dp(i,k) = dp(i,k-1) + cp(i,k)\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "cp(", false },
  /* u(i,2*k): the coefficient of k is not 1 */
  { "coefficient-2",
    "do i = 1, n\n do k = 2, 40\n  w(i,k) = u(i,2*k) + u(i,k-1) + u(i,k+1)\n"
    "  dp(i,k) = dp(i,k-1) + w(i,k)\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "u(", false },
  /* cp(i,1) beside cp(i,k-1): a fixed element may be any of those the loop stores */
  { "fixed-element",
    "do i = 1, n\n do k = 2, n\n  cp(i,k) = cp(i,k-1) + cp(i,1)\n"
    "  dp(i,k) = dp(i,k-1) + 1.0\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "cp(", false },
  /* u(1,k) beside u(i,k-1), u(i,k+1): the other subscripts differ */
  { "other-subscripts-differ",
    "do i = 1, n\n do k = 2, n-1\n  w(i,k) = u(i,k-1) + u(i,k+1) + u(1,k)\n"
    "  dp(i,k) = dp(i,k-1) + w(i,k)\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "u(", false },
  /* a window of 9 registers (k-4 .. k+4): too wide */
  { "window-9-wide",
    "do i = 1, n\n do k = 5, n-4\n  w(i,k) = u(i,k+4) - u(i,k-4)\n"
    "  dp(i,k) = dp(i,k-1) + w(i,k)\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "u(", false },
  /* u(i,kk*k+1): k scaled by a scalar (the element moves by kk per iteration) */
  { "scaled-subscript",
    "do i = 1, n\n do k = 2, n\n  w(i,k) = u(i,kk*k+1) - u(i,kk*k-1)\n"
    "  dp(i,k) = dp(i,k-1) + w(i,k)\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "u(", false },
  /* a forward GOTO inside the body skips the write: the write is in the block the jump
   * leaves, not at every iteration */
  { "goto-skips-write",
    "do i = 1, n\n do k = 2, n\n  if (b(k) > 0.0) goto 10\n  cp(i,k) = cp(i,k-1) + 1.0\n"
    "10 continue\n  dp(i,k) = dp(i,k-1) + cp(i,k)\n end do\nend do\n", 1,
    "dp(i,k-1) from the register the previous iteration stored it in", "cp(", false },
  /* S2S_KCACHE=0: the Thomas sweep left as it is */
  { "kcache-off", THOMAS_FORWARD, 0, NULL, NULL, true },
};

START_TEST(test_kcache_case)
{
  const KcacheCase *c = &kcache_cases[_i];
  char *msgs;
  Program *p;
  if (c->off)
    setenv("S2S_KCACHE", "0", 1);
  bool ok = cu_plan_region(c->name, decls, "", c->body, true, &p, &msgs);
  if (c->off)
    unsetenv("S2S_KCACHE");
  ck_assert_msg(ok, "case %s: planning failed:\n%s", c->name, msgs);
  /* the k loop runs in each thread, the i loop on the grid */
  const RegionPlan *plan = cu_first_region(p)->analysis;
  ck_assert_msg(plan->nkernels == 1 && plan->kernels[0].nmapped == 1,
                "case %s: expected one kernel over i:\n%s", c->name, msgs);
  char *lines = kcache_lines(msgs);
  int n = cu_count_lines(lines, "(k-caching)");
  ck_assert_msg(n == c->nlines, "case %s: %d k-caching lines, expected %d:\n%s", c->name, n,
                c->nlines, msgs);
  if (c->present)
    ck_assert_msg(strstr(lines, c->present), "case %s: the k-caching lines lack '%s':\n%s",
                  c->name, c->present, lines);
  if (c->absent)
    ck_assert_msg(!strstr(lines, c->absent), "case %s: the k-caching lines have '%s':\n%s",
                  c->name, c->absent, lines);
  /* nothing cached: no register in the thread body */
  char *dump = cu_dump_stmts(plan->kernels[0].body);
  if (!c->nlines)
    ck_assert_msg(!strstr(dump, "s2s_"), "case %s: registers without a report line:\n%s",
                  c->name, dump);
  free(dump);
  free(lines);
  free(msgs);
  cu_reset();
}
END_TEST

/* ---- the thread body the pass leaves --------------------------------------- */

/* Fragments of the kernel's thread body (cu_dump_stmts, --dump-ir's
 * format) that must appear, in this order. */
typedef struct BodyCase {
  const char *name;
  const char *body;
  const char *fragments[16];   /* NULL-terminated */
} BodyCase;

static const BodyCase body_cases[] = {
  /* the fill under "it runs" (the element k-1 of the first iteration), the recurrence's
   * read from the register, the store through it, the rotation at the end */
  { "thomas-forward", THOMAS_FORWARD,
    { "if ((2 <= n)) then", "s2s_cp_km1 = cp(i,1)", "s2s_dp_km1 = dp(i,1)", "end if",
      "do k = 2, n", "(b(k) * s2s_cp_km1)", "s2s_cp_k = (c(k) * m)", "cp(i,k) = s2s_cp_k",
      "(b(k) * s2s_dp_km1)", "dp(i,k) = s2s_dp_k", "s2s_cp_km1 = s2s_cp_k",
      "s2s_dp_km1 = s2s_dp_k" } },
  /* downwards: the guard is lo >= hi, the first register the top element x2(i,n) */
  { "back-substitution-downward",
    "do i = 1, n\n do k = n-1, 1, -1\n  x2(i,k) = d2(i,k) - c2(i,k)*x2(i,k+1)\n end do\nend do\n",
    { "if (((n - 1) >= 1)) then", "s2s_x2_kp1 = x2(i,n)", "end if", "do k = (n - 1), 1, (-1)",
      "s2s_x2_k = (d2(i,k) - (c2(i,k) * s2s_x2_kp1))", "x2(i,k) = s2s_x2_k",
      "s2s_x2_kp1 = s2s_x2_k", "end do" } },
  /* the window: two registers filled, the leading one loaded at the top of the body, every
   * read from a register, the rotation towards the trailing end */
  { "window-3-point",
    "do i = 1, n\n!$stencil do seq\n do k = 2, n-1\n  w(i,k) = u(i,k+1) - 2.0*u(i,k) + u(i,k-1)\n"
    " end do\nend do\n",
    { "if ((2 <= (n - 1))) then", "s2s_u_km1 = u(i,", "s2s_u_k = u(i,", "end if",
      "do k = 2, (n - 1)", "s2s_u_kp1 = u(i,", "w(i,k) = ((s2s_u_kp1 - (2.0_4 * s2s_u_k)) + s2s_u_km1)",
      "s2s_u_km1 = s2s_u_k", "s2s_u_k = s2s_u_kp1", "end do" } },
};

START_TEST(test_body_case)
{
  const BodyCase *c = &body_cases[_i];
  char *msgs;
  Program *p;
  bool ok = cu_plan_region(c->name, decls, "", c->body, true, &p, &msgs);
  ck_assert_msg(ok, "case %s: planning failed:\n%s", c->name, msgs);
  const RegionPlan *plan = cu_first_region(p)->analysis;
  char *dump = cu_dump_stmts(plan->kernels[0].body);
  const char *at = dump;
  for (int f = 0; c->fragments[f]; f++) {
    const char *found = strstr(at, c->fragments[f]);
    ck_assert_msg(found, "case %s: '%s' missing (or out of order) in the thread body:\n%s",
                  c->name, c->fragments[f], dump);
    at = found + strlen(c->fragments[f]);
  }
  /* only loads go: no array element read in the loop where a register holds it */
  ck_assert_msg(!strstr(dump, "(k - 1))") && !strstr(dump, "(k + 1))"),
                "case %s: a neighbour still read from memory:\n%s", c->name, dump);
  free(dump);
  free(msgs);
  cu_reset();
}
END_TEST

int main(void)
{
  /* the work array w of these cases is used a level at a time: pass contract would make it
   * a scalar (s2s_w), which is not what these cases look at */
  setenv("S2S_CONTRACT", "0", 1);
  Suite *s = suite_create("kcache");
  TCase *tc = tcase_create("kcache");
  tcase_add_loop_test(tc, test_kcache_case, 0, (int)(sizeof kcache_cases / sizeof kcache_cases[0]));
  tcase_add_loop_test(tc, test_body_case, 0, (int)(sizeof body_cases / sizeof body_cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
