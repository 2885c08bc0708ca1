/* check_reduction.c — table-driven tests of the reduction decisions
 * (plan_reductions in transforms/map.c, check_reduction in
 * transforms/column.c): which scalars updated like reductions become GPU
 * reductions (per-thread partial results combined across the threads),
 * which stay sums kept in order inside each thread, and which are refused
 * and why.
 *
 * Every case is a region of cu_region_source's subroutine t (a, b, c(100),
 * c2(100,100), n, i, j, k) with the scalars declared by DECLS below; the
 * whole planning runs on it (the body starts at line 9).  The case names its scalar and says what it
 * becomes: for a GPU reduction the operator, whether it starts from a value
 * the region assigns, the number of kernels and the column indices of the
 * kernel that reduces; for a per-thread one that planning succeeds without
 * a GPU reduction; for a refusal a substring of the diagnostics.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "column.h"
#include "visit.h"

#define DECLS "real :: s, x\ninteger :: m\nlogical :: w\n"

typedef enum Verdict { GPU, PER_THREAD, REFUSED } Verdict;

typedef struct ReductionCase {
  const char *name;
  const char *body;
  const char *scalar;
  Verdict verdict;
  ReduceOp op;            /* GPU */
  bool init;              /* GPU: starts from a value assigned in the region */
  int nkernels;           /* GPU: kernels of the region */
  int ncolumns;           /* GPU: column indices of the kernel that reduces */
  const char *message;    /* REFUSED: substring of the diagnostics */
} ReductionCase;

#define NEST2(stmt) "do j = 1, n\n  do i = 1, n\n    " stmt "\n  end do\nend do\n"
#define LOOP1(stmt) "do i = 1, n\n  " stmt "\nend do\n"

static const ReductionCase cases[] = {
  /* ---- GPU reductions ---- */
  { "sum-2d-from-zero", "s = 0.0\n" NEST2("s = s + c2(i,j)"), "s", GPU, REDUCE_SUM, true, 1, 2, NULL },
  { "sum-from-host", NEST2("s = s + c2(i,j)"), "s", GPU, REDUCE_SUM, false, 1, 2, NULL },
  { "sum-on-the-right", LOOP1("s = a(i) * 2.0 + s"), "s", GPU, REDUCE_SUM, false, 1, 1, NULL },
  { "difference", LOOP1("s = s - a(i)"), "s", GPU, REDUCE_SUM, false, 1, 1, NULL },
  { "max-intrinsic", "s = -1.0e30\n" LOOP1("s = max(s, a(i))"), "s", GPU, REDUCE_MAX, true, 1, 1, NULL },
  { "max-if-form", LOOP1("if (s < a(i)) s = a(i)"), "s", GPU, REDUCE_MAX, false, 1, 1, NULL },
  { "max-if-form-mirrored", LOOP1("if (a(i) .ge. s) s = a(i)"), "s", GPU, REDUCE_MAX, false, 1, 1, NULL },
  { "min-if-form", LOOP1("if (s > a(i)) s = a(i)"), "s", GPU, REDUCE_MIN, false, 1, 1, NULL },
  { "integer-min", "m = n\n" NEST2("m = min(m, int(c2(i,j)))"), "m", GPU, REDUCE_MIN, true, 1, 2, NULL },
  { "integer-count-under-if", "m = 0\n" LOOP1("if (a(i) > 0.0) m = m + 1"), "m", GPU, REDUCE_SUM, true,
    1, 1, NULL },
  /* the result read by a later nest: a kernel that reduces, one that uses it */
  { "used-later", "s = 0.0\n" LOOP1("s = s + a(i)") LOOP1("b(i) = a(i) / s"), "s", GPU, REDUCE_SUM,
    true, 2, 1, NULL },
  /* ... and by a scalar statement between the nests, which starts the second kernel */
  { "used-later-by-scalar", "s = 0.0\n" NEST2("s = s + c2(i,j)") "x = s / real(n)\n"
    NEST2("c2(i,j) = c2(i,j) - x"), "s", GPU, REDUCE_SUM, true, 2, 2, NULL },
  /* the update in the j loop, outside the i loop: i cannot be a column index
   * (every i thread would add c(j)), j is */
  { "update-in-outer-loop", "do j = 1, n\n  s = s + c(j)\n  do i = 1, n\n    c2(i,j) = 0.0\n"
    "  end do\nend do\n", "s", GPU, REDUCE_SUM, false, 1, 1, NULL },
  /* the sum inside a k loop that stays sequential in each thread */
  { "sum-over-levels-in-thread", "s = 0.0\ndo i = 1, n\n  do k = 2, n\n    c2(i,k) = c2(i,k-1) + a(i)\n"
    "    s = s + c2(i,k)\n  end do\nend do\n", "s", GPU, REDUCE_SUM, true, 1, 1, NULL },
  /* ---- per-thread sums, kept in order in each thread ---- */
  /* restarted for every j: each (j) thread sums its row */
  { "row-sum-per-thread", "do j = 1, n\n  s = 0.0\n  do i = 1, n\n    s = s + c2(i,j)\n  end do\n"
    "  do i = 1, n\n    c2(i,j) = c2(i,j) / s\n  end do\nend do\n", "s", PER_THREAD, 0, false, 0, 0, NULL },
  /* restarted for every i: each thread sums its column over k */
  { "column-sum-per-thread", "do i = 1, n\n  s = 0.0\n  do k = 1, n\n    s = s + c2(i,k)\n  end do\n"
    "  b(i) = s\nend do\n", "s", PER_THREAD, 0, false, 0, 0, NULL },
  /* ---- refused ---- */
  { "partial-read", LOOP1("s = s + a(i)\n  b(i) = s"), "s", REFUSED, 0, false, 0, 0,
    "its partial value is read at line 11" },
  { "read-before-updates", "s = 0.0\nx = s\n" LOOP1("s = s + a(i)") LOOP1("b(i) = x"), "s", REFUSED, 0,
    false, 0, 0, "its partial value is read at line 10" },
  { "mixed-operators", LOOP1("s = s + a(i)\n  s = max(s, b(i))"), "s", REFUSED, 0, false, 0, 0,
    "it is also updated with max at line 11, and one reduction has one operator" },
  { "product", LOOP1("s = s * a(i)"), "s", REFUSED, 0, false, 0, 0,
    "only +, max and min are combined on the GPU, not products" },
  { "logical", LOOP1("w = w .or. a(i) > 0.0"), "w", REFUSED, 0, false, 0, 0,
    "logical reductions are not implemented" },
  { "update-outside-loops", "s = s + 1.0\n" LOOP1("s = s + a(i)"), "s", REFUSED, 0, false, 0, 0,
    "its update at line 9 is outside every loop" },
  { "initial-value-from-region", "s = a(1)\n" LOOP1("s = s + a(i)"), "s", REFUSED, 0, false, 0, 0,
    "its initial value at line 9 is computed from values of the region" },
  { "assigned-otherwise", LOOP1("s = s + a(i)\n  if (a(i) < 0.0) s = 0.0"), "s", REFUSED, 0, false, 0, 0,
    "it is set again at line 11 inside the loops" },
  /* a sum that restarts and is read: a running value carried across i */
  { "running-value", LOOP1("s = s + a(i)\n  b(i) = s * 0.5"), "s", REFUSED, 0, false, 0, 0,
    "a GPU reduction only gives the final value" },
};

/* The column indices as text: "j i". */
static void columns_text(IrSym **cols, int n, char *buf, size_t size)
{
  buf[0] = 0;
  for (int i = 0; i < n; i++)
    snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? " " : "", cols[i]->name);
}

/* split_groups' incremental ColumnRun must answer as column_indices does
 * about the reduction scalars too, for every prefix of the region body
 * plus the next statement (column.c keeps check_reduction and the run's
 * scalar facts in step). */
static void check_run(const char *name, const RegionPlan *plan, IrStmtList *body)
{
  ColumnCtx cx = { .lang = IR_FORTRAN, .routine = "t", .written = plan->privates,
                   .nwritten = plan->nprivates, .plan = plan };
  ColumnScope *scope = column_scope_new(&cx);
  ColumnRun *run = column_run_new(scope);
  IrStmtList prefix = { 0, 0, NULL };
  for (int i = 0; i < body->n; i++) {
    IrSym *cols[3], *want[3];
    char got[64], expect[64];
    columns_text(cols, column_run_indices(run, body->v[i], cols), got, sizeof got);
    ir_list_push(&prefix, body->v[i]);
    columns_text(want, column_indices(&cx, &prefix, want), expect, sizeof expect);
    ck_assert_msg(!strcmp(got, expect), "case %s, statements 1..%d: the run says '%s', "
                  "column_indices '%s'", name, i + 1, got, expect);
    column_run_push(run, body->v[i]);
  }
  column_scope_free(scope);
}

START_TEST(test_reduction_case)
{
  const ReductionCase *c = &cases[_i];
  char *msgs;
  Program *p;
  bool ok = cu_plan_region(c->name, DECLS, "", c->body, true, &p, &msgs);
  ck_assert_msg(ok == (c->verdict != REFUSED), "case %s: planning %s:\n%s", c->name,
                ok ? "succeeded" : "failed", msgs);
  if (c->verdict == REFUSED) {
    ck_assert_msg(strstr(msgs, c->message), "case %s: diagnostics lack '%s':\n%s", c->name, c->message,
                  msgs);
    free(msgs);
    cu_reset();
    return;
  }
  IrRegion *g = cu_first_region(p);
  const RegionPlan *plan = g->analysis;
  const ReductionPlan *r = xf_reduction_of(plan, ir_lookup(g->routine, c->scalar));
  check_run(c->name, plan, &g->body);
  if (c->verdict == PER_THREAD) {
    ck_assert_msg(!r || !r->gpu, "case %s: '%s' became a GPU reduction:\n%s", c->name, c->scalar, msgs);
    ck_assert_msg(!strstr(msgs, "Generating reduction"), "case %s: a reduction was reported:\n%s",
                  c->name, msgs);
    free(msgs);
    cu_reset();
    return;
  }
  ck_assert_msg(r && r->gpu, "case %s: '%s' is no GPU reduction (%s):\n%s", c->name, c->scalar,
                r && r->why_not ? r->why_not : "no plan", msgs);
  ck_assert_msg(r->op == c->op, "case %s: operator %s", c->name, xf_reduce_op_text(r->op));
  ck_assert_msg((r->init != NULL) == c->init, "case %s: initial value %s", c->name,
                r->init ? "from the region" : "from the host");
  ck_assert_int_eq(plan->nkernels, c->nkernels);
  ck_assert_int_ge(r->kernel, 0);
  const KernelPlan *k = &plan->kernels[r->kernel];
  ck_assert_msg(k->ncolumns == c->ncolumns, "case %s: %d column indices:\n%s", c->name, k->ncolumns,
                msgs);
  ck_assert_msg(k->nreductions >= 1 && cu_count_lines(msgs, "Generating reduction(") >= 1,
                "case %s: no report line:\n%s", c->name, msgs);
  /* the initial value left the body: no kernel assigns it */
  for (int i = 0; r->init && i < plan->nkernels; i++)
    ck_assert_msg(!ir_list_contains(&plan->kernels[i].stmts, r->init), "case %s: the initial value "
                  "is still in kernel %d", c->name, i + 1);
  free(msgs);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("reduction");
  TCase *tc = tcase_create("decisions");
  tcase_add_loop_test(tc, test_reduction_case, 0, (int)(sizeof cases / sizeof cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
