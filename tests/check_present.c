/* check_present.c — table-driven tests of present() inside regions
 * (transforms/present.c): how a test of presence folds once presence is
 * decided, and which kernel variants a region becomes.
 *
 * Every case is a region of subroutine t(n, a, flag, x, y, z, w), whose
 * x, y, z and w are OPTIONAL arrays: the fold cases decide the test of an
 * IF in it with a given presence of x and y; the variant cases plan the
 * whole program as the driver does and look at the variants made, and at
 * which of them move x at all.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "present.h"

/* The source of t around one region: CLAUSES on the region directive, BODY
 * inside `do i = 1, n` (one line each, ending with a newline). */
static char *source(const char *clauses, const char *body)
{
  return ir_printf("subroutine t(n, a, flag, x, y, z, w)\n  implicit none\n"
                   "  integer, intent(in) :: n\n  real, intent(inout) :: a(n)\n"
                   "  logical, intent(in) :: flag\n"
                   "  real, intent(in), optional :: x(n), y(n), z(n), w(n)\n"
                   "  integer :: i\n  logical :: have\n!$stencil region%s\n  do i = 1, n\n%s"
                   "  end do\n!$stencil end region\nend subroutine t\n", clauses, body);
}

/* ---- folding ---------------------------------------------------------------------- */

typedef struct FoldCase {
  const char *test;      /* the IF's test */
  int x, y;              /* presence of x and y: 1, 0, -1 (not known) */
  int value;             /* xf_fold_presence: 1, 0, -1 */
} FoldCase;

static const FoldCase fold_cases[] = {
  { "present(x)", 1, -1, 1 },
  { "present(x)", 0, -1, 0 },
  { "present(x)", -1, 1, -1 },                      /* x not decided */
  { ".not. present(x)", 0, -1, 1 },
  { "present(x) .and. present(y)", 1, 0, 0 },
  { "present(x) .and. present(y)", 1, 1, 1 },
  { "present(x) .and. present(y)", 1, -1, -1 },
  { "present(x) .and. present(y)", 0, -1, 0 },      /* short-circuit: y does not matter */
  { "present(x) .or. present(y)", 1, -1, 1 },
  { "present(x) .or. present(y)", 0, 0, 0 },
  { "present(x) .eqv. present(y)", 0, 0, 1 },
  { "present(x) .neqv. present(y)", 1, 0, 1 },
  { "present(x) .and. flag", 0, -1, 0 },            /* absent: the data does not matter */
  { "present(x) .and. flag", 1, -1, -1 },           /* present: it does */
  { "present(x) .or. flag", 1, -1, 1 },
  { "present(x) .and. a(i) > 0.0", 1, -1, -1 },
  { ".true. .and. .not. present(y)", -1, 0, 1 },
  { "flag", 1, 1, -1 },
};

typedef struct Presence { int x, y; } Presence;

static int decide(const IrSym *dummy, void *ctx)
{
  const Presence *p = ctx;
  return !strcmp(dummy->name, "x") ? p->x : !strcmp(dummy->name, "y") ? p->y : -1;
}

static bool parse_only(Program *p)
{
  (void)p;
  return true;
}

START_TEST(test_fold)
{
  const FoldCase *c = &fold_cases[_i];
  char *msgs;
  Program *p;
  bool ok = cu_run(source("", ir_printf("    if (%s) a(i) = 0.0\n", c->test)), parse_only, false,
                   &p, &msgs);
  ck_assert_msg(ok, "'%s' does not parse:\n%s", c->test, msgs);
  IrStmt *loop = cu_find_loop(&cu_first_region(p)->body, "i");
  const IrStmt *s = loop->u.loop.body.v[0];
  ck_assert_int_eq(s->kind, IR_S_IF);
  Presence presence = { c->x, c->y };
  int value = xf_fold_presence(s->u.cond.test, decide, &presence);
  ck_assert_msg(value == c->value, "'%s' with x %d, y %d: %d, expected %d", c->test, c->x, c->y,
                value, c->value);
  free(msgs);
  cu_reset();
}
END_TEST

/* ---- variants ----------------------------------------------------------------------- */

typedef struct VariantCase {
  const char *name;
  const char *clauses;
  const char *body;
  bool planned;          /* the whole program plans */
  const char *message;   /* a substring of the diagnostics and report, or NULL */
  int nregions;          /* regions of t after planning (variants counted) */
  const char *moves_x;   /* per region, in order: '1' if its plan moves x, '0' if not */
} VariantCase;

static const VariantCase variant_cases[] = {
  { "no-test", "", "    a(i) = 2.0 * a(i)\n", true, NULL, 1, "0" },
  { "one-test", "", "    if (present(x)) a(i) = a(i) + x(i)\n", true,
    "Kernel variants for present(x): 2 (x present, x absent)", 2, "10" },
  /* the ELSE branch is the one kept where x is absent */
  { "else-branch", "",
    "    if (.not. present(x)) then\n      a(i) = 0.0\n    else\n      a(i) = x(i)\n    end if\n",
    true, "Variant t_r1_v2: x absent", 2, "10" },
  /* x is used only where y is there too */
  { "two-tests", "", "    if (present(y) .and. present(x)) a(i) = x(i) + y(i)\n", true,
    "Kernel variants for present(y), present(x): 4 (y present and x present, y present and x "
    "absent, y absent and x present, y absent and x absent)", 4, "1000" },
  { "three-tests", "",
    "    if (present(x)) a(i) = x(i)\n    if (present(y)) a(i) = y(i)\n"
    "    if (present(z)) a(i) = z(i)\n", true, "Variant t_r1_v8: x absent and y absent and z "
    "absent", 8, "11110000" },
  /* a test that depends on the data too stays, with presence decided */
  { "test-with-data", "", "    if (present(x) .and. flag) a(i) = x(i)\n", true, NULL, 2, "10" },
  /* x named in a user clause: left out of the variant where x is absent */
  { "user-clause", " copyin(x)", "    if (present(x)) a(i) = a(i) + x(i)\n", true,
    "Generating copyin(x(1:n))\n", 2, "10" },
  { "four-tests", "",
    "    if (present(x)) a(i) = x(i)\n    if (present(y)) a(i) = y(i)\n"
    "    if (present(z)) a(i) = z(i)\n    if (present(w)) a(i) = w(i)\n", false,
    "t.f90:14:9: error: the region tests present() of 4 optional arguments (x, y, z, w)", 0, NULL },
  /* presence kept in a variable: the use is not under a test the variant decides */
  { "presence-in-variable", "", "    have = present(x)\n    if (have) a(i) = x(i)\n", false,
    "t.f90:12:22: error: 'x' is used inside the region outside a present(x) test", 0, NULL },
  /* x is tested, but also used unguarded */
  { "unguarded-use", "", "    if (present(x)) a(i) = 1.0\n    a(i) = a(i) + x(i)\n", false,
    "'x' is used inside the region outside a present(x) test", 0, NULL },
};

START_TEST(test_variants)
{
  const VariantCase *c = &variant_cases[_i];
  char *msgs;
  Program *p;
  bool ok = cu_run(source(c->clauses, c->body), cu_plan_program, true, &p, &msgs);
  ck_assert_msg(p, "case %s does not parse:\n%s", c->name, msgs);
  ck_assert_msg(ok == c->planned, "case %s: %s:\n%s", c->name, ok ? "planned" : "refused", msgs);
  if (c->message)
    ck_assert_msg(strstr(msgs, c->message), "case %s: messages lack '%s':\n%s", c->name,
                  c->message, msgs);
  ck_assert_msg(cu_count_lines(msgs, "error:") == (c->planned ? 0 : 1),
                "case %s: one error expected at most:\n%s", c->name, msgs);
  if (c->planned) {
    IrRoutine *t = p->routines[0];
    ck_assert_msg(t->nregions == c->nregions, "case %s: %d regions, expected %d", c->name,
                  t->nregions, c->nregions);
    for (int k = 0; k < t->nregions; k++) {
      const IrRegion *g = t->regions[k];
      bool moves = cu_array_plan(g->analysis, "x") != NULL;
      ck_assert_msg(moves == (c->moves_x[k] == '1'), "case %s: region %s %s x", c->name,
                    g->name, moves ? "moves" : "does not move");
      ck_assert_msg(!g->variant == (c->nregions == 1), "case %s: region %s", c->name, g->name);
    }
  }
  free(msgs);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("present");
  TCase *tc = tcase_create("present");
  tcase_add_loop_test(tc, test_fold, 0, (int)(sizeof fold_cases / sizeof fold_cases[0]));
  tcase_add_loop_test(tc, test_variants, 0,
                      (int)(sizeof variant_cases / sizeof variant_cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
