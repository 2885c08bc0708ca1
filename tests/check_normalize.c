/* check_normalize.c — table-driven tests of the decisions pass normalize
 * (transforms/normalize.c) rests on: when two sections provably have the
 * same extent (conformability), and in which order the loops of an array
 * assignment must run so that a read of the array the left side writes
 * sees only old values (or that no order is proven safe); then, end to
 * end, what the pass makes of a few statements and what it refuses.
 *
 * Every case is a statement in the region of subroutine t, whose arrays
 * are a(n), b(n) and c(n,n); the decision cases read the sections of its
 * two sides as the front end lowered them.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "normalize.h"

static char *source(const char *stmt)
{
  return ir_printf("subroutine t(n, m, k, a, b, c, x)\n  implicit none\n"
                   "  integer, intent(in) :: n, m, k\n  real, intent(inout) :: a(n), b(n), c(n,n), x\n"
                   "  integer :: i\n!$stencil region\n%s\n!$stencil end region\n"
                   "end subroutine t\n", stmt);
}

static bool parse_only(Program *p)
{
  (void)p;
  return true;
}

/* The first statement of the region of `stmt`, as parsed (not normalized). */
static IrStmt *parsed(const char *stmt)
{
  char *msgs;
  Program *p;
  bool ok = cu_run(source(stmt), parse_only, false, &p, &msgs);
  ck_assert_msg(ok && p, "'%s' does not parse:\n%s", stmt, msgs);
  free(msgs);
  IrStmt *s = cu_first_region(p)->body.v[0];
  ck_assert_int_eq(s->kind, IR_S_ASSIGN);
  return s;
}

/* The first range of section e. */
static const IrTriplet *first_range(const IrExpr *e)
{
  ck_assert_int_eq(e->kind, IR_E_SECTION);
  for (int d = 0; d < e->u.section.n; d++)
    if (e->u.section.dim[d].is_range)
      return &e->u.section.dim[d];
  ck_abort_msg("no range");
  return NULL;
}

/* ---- conformability ---------------------------------------------------------------- */

typedef struct ExtentCase {
  const char *lhs, *rhs;
  bool same;
} ExtentCase;

static const ExtentCase extent_cases[] = {
  { "a(1:n)", "b(1:n)", true },
  { "a(2:n)", "b(1:n-1)", true },           /* the same affine distance hi-lo */
  { "a(1:n)", "b(2:n)", false },
  { "a(:)", "b(1:n)", true },               /* a whole dimension: the declared bounds */
  { "a", "b(1:n)", true },                  /* a whole array */
  { "a(1:m)", "b(1:n)", false },            /* m and n may differ */
  { "a(1:10:2)", "b(3:7)", true },          /* constant extents: 5 and 5 */
  { "a(1:9:2)", "b(2:10:2)", true },
  { "a(1:n:2)", "b(2:n+1:2)", true },       /* same stride, same distance */
  { "a(1:n:2)", "b(1:n)", false },
  { "a(1:n)", "b(n:1:-1)", false },         /* a reversed section: not proven */
  { "c(1:n,k)", "b(1:n)", true },
  { "c(k,:)", "a(:)", true },
  { "a(5:4)", "b(9:1)", true },             /* both empty */
};

START_TEST(test_extent)
{
  const ExtentCase *c = &extent_cases[_i];
  IrStmt *s = parsed(ir_printf("%s = %s", c->lhs, c->rhs));
  bool same = xf_same_extent(first_range(s->u.assign.lhs), first_range(s->u.assign.rhs));
  ck_assert_msg(same == c->same, "%s vs %s: %s, expected %s", c->lhs, c->rhs,
                same ? "same" : "not proven", c->same ? "same" : "not proven");
  cu_reset();
}
END_TEST

/* ---- overlap of a read with the left side -------------------------------------------- */

typedef struct OrderCase {
  const char *lhs, *ref;     /* the statement is `lhs = ref` */
  XfOrder order;
  int loop;                  /* ASCENDING, DESCENDING: which loop (0: fastest) */
} OrderCase;

static const OrderCase order_cases[] = {
  { "a(1:n)", "a(1:n)", XF_ORDER_ANY, 0 },              /* element for element */
  { "a", "a(1:n)", XF_ORDER_ANY, 0 },
  { "a(2:n)", "a(1:n-1)", XF_ORDER_DESCENDING, 0 },     /* reads what an upward loop stored */
  { "a(1:n-1)", "a(2:n)", XF_ORDER_ASCENDING, 0 },
  { "a(1:5)", "a(6:10)", XF_ORDER_ANY, 0 },             /* apart */
  { "a(1:n:2)", "a(2:n:2)", XF_ORDER_ANY, 0 },          /* odd and even: never the same */
  { "a(3:n:2)", "a(1:n-2:2)", XF_ORDER_DESCENDING, 0 }, /* one step of 2 behind */
  { "a(2:n)", "a(1)", XF_ORDER_ANY, 0 },                /* an element below the section */
  { "a(1:n)", "a(1)", XF_ORDER_UNKNOWN, 0 },            /* an element it stores */
  { "a(1:n)", "a(n:1:-1)", XF_ORDER_UNKNOWN, 0 },       /* reversed: no order is safe */
  { "c(:,1)", "c(:,2)", XF_ORDER_ANY, 0 },              /* other columns */
  { "c(:,k)", "c(:,k-1)", XF_ORDER_ANY, 0 },
  { "c(:,k)", "c(:,m)", XF_ORDER_UNKNOWN, 0 },          /* m may be k, shifted or not */
  { "c(2:n,k)", "c(1:n-1,k)", XF_ORDER_DESCENDING, 0 },
  { "c(2,1:n)", "c(1:n,2)", XF_ORDER_UNKNOWN, 0 },      /* transposed */
  { "c(1:n,2:n)", "c(1:n,1:n-1)", XF_ORDER_DESCENDING, 1 },
  /* the outer loop decides: the read is one column ahead, one row behind */
  { "c(2:n,2:n-1)", "c(1:n-1,3:n)", XF_ORDER_ASCENDING, 1 },
};

START_TEST(test_order)
{
  const OrderCase *c = &order_cases[_i];
  IrStmt *s = parsed(ir_printf("%s = %s", c->lhs, c->ref));
  int loop = -1;
  XfOrder order = xf_read_order(s->u.assign.lhs, s->u.assign.rhs, &loop);
  ck_assert_msg(order == c->order, "%s = %s: order %d, expected %d", c->lhs, c->ref, order,
                c->order);
  if (order == XF_ORDER_ASCENDING || order == XF_ORDER_DESCENDING)
    ck_assert_msg(loop == c->loop, "%s = %s: loop %d, expected %d", c->lhs, c->ref, loop, c->loop);
  cu_reset();
}
END_TEST

/* ---- the pass ------------------------------------------------------------------------------ */

typedef struct PassCase {
  const char *name;
  const char *body;
  bool ok;
  const char *expect;        /* in the region's dump after the pass, or in the error */
} PassCase;

static const PassCase pass_cases[] = {
  { "broadcast", "a = 0.0", true, "a(s2s_i1) = 0.0_4" },
  { "user-index", "do i = 1, n\n  b(i) = 1.0\nend do\na(:) = b(:)", true, "a(i) = b(i)" },
  { "offset", "a(1:n-1) = b(2:n)", true, "a(s2s_i1) = b((s2s_i1 + 1))" },
  { "stride-to-unit", "a(1:9:2) = b(1:5)", true, "a(s2s_i1) = b((1 + ((s2s_i1 - 1) / 2)))" },
  { "stride-not-proven", "a(1:n:2) = b(1:(n+1)/2)", false, "are not provably equal" },
  { "downwards", "a(2:n) = a(1:n-1)", true, "do s2s_i1 = n, 2, -1" },
  { "fastest-inside", "c = 0.0", true, "  do s2s_i1 = 1, n\n" },
  { "where", "where (a > 0.0) a = 0.0", true, "if ((a(s2s_i1) > 0.0_4)) then" },
  { "sum", "x = sum(a(2:n))", true, "s2s_sum = (s2s_sum + a(s2s_i1))" },
  { "count", "i = count(a > 0.0)", true, "s2s_count = (s2s_count + 1)" },
  { "maxloc-position", "i = maxloc(a(3:n), 1)", true, "s2s_maxloc = (s2s_i1 - 2)" },
  { "nested-reduction", "x = maxval(a - minval(a))", true, "s2s_minval" },
  { "not-conformable", "a(1:n) = c(1:n,1:n)", false, "has rank 2, but a(1:n) has rank 1" },
  { "overlap", "a(2:n-1) = a(1:n-2) + a(3:n)", false, "no loop order keeps right" },
  { "if-array", "if (a(1:n) > 0.0) x = 1.0", false, "use WHERE for an array condition" },
  { "where-scalar-mask", "where (x > 0.0) a = 0.0", false, "the mask of WHERE is a scalar" },
  { "where-reduction", "where (a > 0.0)\n  a = 0.0\n  b = sum(a)\nend where", false,
    "'sum' inside WHERE reads 'a', which the WHERE assigns" },
};

START_TEST(test_pass)
{
  const PassCase *c = &pass_cases[_i];
  char *msgs;
  Program *p;
  bool ok = cu_run(source(c->body), xf_normalize_program, false, &p, &msgs);
  ck_assert_msg(p, "case %s does not parse:\n%s", c->name, msgs);
  ck_assert_msg(ok == c->ok, "case %s: %s:\n%s", c->name, ok ? "expanded" : "refused", msgs);
  if (ok) {
    char *dump = cu_dump_stmts(&cu_first_region(p)->body);
    ck_assert_msg(strstr(dump, c->expect), "case %s: no '%s' in:\n%s", c->name, c->expect, dump);
    ck_assert_msg(!strstr(dump, ":") || strstr(c->expect, ":"), "case %s: a section is left:\n%s",
                  c->name, dump);
    free(dump);
  } else {
    ck_assert_msg(strstr(msgs, c->expect), "case %s: no '%s' in:\n%s", c->name, c->expect, msgs);
    ck_assert_msg(cu_count_lines(msgs, "error:") == 1, "case %s: one error expected:\n%s",
                  c->name, msgs);
  }
  free(msgs);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("normalize");
  TCase *tc = tcase_create("normalize");
  tcase_add_loop_test(tc, test_extent, 0, (int)(sizeof extent_cases / sizeof extent_cases[0]));
  tcase_add_loop_test(tc, test_order, 0, (int)(sizeof order_cases / sizeof order_cases[0]));
  tcase_add_loop_test(tc, test_pass, 0, (int)(sizeof pass_cases / sizeof pass_cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
