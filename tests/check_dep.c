/* check_dep.c — table-driven tests of the dependence tests (analysis/dep.c)
 * and of the loop mapping decisions they drive.
 *
 * Each case is a small Fortran loop nest in a region.  The test parses it
 * with the real front end, builds the dependence graph of the region body,
 * and compares every dependence, described as dep_describe prints it, with
 * the expected list (in order).  Cases whose answer must be "unknown" or
 * "dependent" are here as much as the independent ones.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dep.h"
#include "frontend.h"
#include "access.h"
#include "report.h"
#include "column.h"
#include "transforms.h"

typedef struct DepCase {
  const char *name;
  const char *decls;    /* extra declarations */
  const char *body;     /* the region body */
  const char *expect;   /* dependences, one per line, as dep_describe prints them */
} DepCase;

static const DepCase cases[] = {
  { "self-distance-0", "", "do i = 1, n\n a(i) = a(i) + 1.0\nend do\n",
    "'a' (anti dependence, distance (0) along i)\n" },
  { "flow-distance-1", "", "do i = 2, n\n a(i) = a(i-1) * 2.0\nend do\n",
    "'a' (flow dependence, distance (1) along i)\n" },
  { "write-ahead", "", "do i = 1, n - 1\n a(i+1) = b(i)\n c(i) = a(i)\nend do\n",
    "'a' (flow dependence, distance (1) along i)\n" },
  { "gcd-independent", "", "do i = 1, n / 2\n a(2*i) = a(2*i+1)\nend do\n", "" },
  { "ziv-independent", "", "do i = 1, n\n a(1) = a(2) + b(i)\nend do\n",
    "'a' (output dependence, distance (*) along i)\n" },
  { "reduction-into-k", "", "do k = 1, n\n do i = 1, n\n  a(k) = a(k) + b(i)\n end do\nend do\n",
    "'a' (anti dependence, distance (0,*) along k,i)\n"
    "'a' (output dependence, distance (0,*) along k,i)\n" },
  { "k-recurrence", "",
    "do i = 1, n\n do k = 2, n\n  c2(i,k) = c2(i,k-1) + 1.0\n end do\nend do\n",
    "'c2' (flow dependence, distance (0,1) along i,k)\n" },
  { "indirect-unknown", "integer :: idx(100)\n",
    "do i = 1, n\n a(idx(i)) = b(i)\nend do\n",
    "'a' (output dependence, distance (*) along i; subscripts not affine)\n" },
  { "different-invariants", "integer :: m\n",
    "do i = 1, n\n c2(i, n) = c2(i, m) + 1.0\nend do\n",
    "'c2' (anti dependence, distance (0) along i)\n" },
  { "variant-subscript", "integer :: kk\n",
    "do i = 1, n\n kk = i + 1\n a(kk) = b(i)\nend do\n",
    "'a' (output dependence, distance (*) along i; subscripts not affine)\n" },
  { "conflicting-distances", "",
    "do i = 2, n\n c2(i, i) = c2(i-1, i)\nend do\n", "" },
  { "weak-zero-outside", "",
    "do i = 1, 10\n a(i) = a(20) + 1.0\nend do\n", "" },
  { "weak-zero-inside", "",
    "do i = 1, 10\n a(i) = a(5) + 1.0\nend do\n",
    "'a' (anti dependence, distance (*) along i)\n" },
  { "weak-crossing-disjoint", "",
    "do i = 1, 10\n a(i) = a(-i + 40)\nend do\n", "" },
  { "weak-crossing-meets", "",
    "do i = 1, 10\n a(i) = a(-i + 11)\nend do\n",
    "'a' (anti dependence, distance (*) along i)\n" },
  { "miv-banerjee", "",
    "do j = 1, 10\n do i = 1, 10\n  a(i + 10*j) = a(i + 10*j + 200)\n end do\nend do\n",
    /* read and write never meet; the write with itself is injective, which
     * the bounds test cannot see: conservatively dependent */
    "'a' (output dependence, distance (*,*) along j,i)\n" },
  { "symbolic-bounds-unknown", "",
    "do i = 1, n\n a(i) = a(n + 1 - i)\nend do\n",
    "'a' (anti dependence, distance (*) along i)\n" },
  { "negative-step", "",
    "do k = n, 2, -1\n a(k) = a(k-1)\nend do\n",
    "'a' (anti dependence, distance (1) along k)\n" },
};

static Program *parse(const char *decls, const char *body)
{
  char *text = xasprintf(
      "subroutine t(n, a, b, c, c2)\n  implicit none\n  integer :: n, i, j, k\n"
      "  real :: a(100), b(100), c(100), c2(100,100)\n%s!$stencil region\n%s!$stencil end region\n"
      "end subroutine t\n", decls, body);
  int file = diag_add_source(xstrdup("t.f90"), text, strlen(text));
  return fe_fortran(file);
}

/* Parse and plan a case; *msgs gets the diagnostics and, with
 * with_report, the feedback report too (caller frees).  Returns the
 * planning result; the program is in *out. */
static bool plan_case(const char *name, const char *decls, const char *body, bool with_report,
                      Program **out, char **msgs)
{
  size_t len = 0;
  *msgs = NULL;
  FILE *f = open_memstream(msgs, &len);
  diag_set_stream(f);
  Program *p = parse(decls, body);
  ck_assert_msg(p != NULL, "case %s does not parse", name);
  bool ok = xf_plan_program(p);
  if (with_report)
    report_print(f);
  fclose(f);
  diag_set_stream(stderr);
  *out = p;
  return ok;
}

static char *describe_all(const DepGraph *g)
{
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  for (int i = 0; i < g->ndeps; i++) {
    char buf[256];
    dep_describe(g, &g->deps[i], buf, sizeof buf);
    fprintf(f, "%s\n", buf);
  }
  fclose(f);
  return out;
}

START_TEST(test_dep_case)
{
  const DepCase *c = &cases[_i];
  Program *p = parse(c->decls, c->body);
  ck_assert_msg(p != NULL, "case %s does not parse", c->name);
  IrRegion *g = p->routines[0]->regions[0];
  IrSym *kk = ir_lookup(p->routines[0], "kk");
  DepGraph dg = { .nvariant = kk ? 1 : 0, .variant = &kk };
  dep_build(&g->body, &dg);
  char *got = describe_all(&dg);
  ck_assert_msg(!strcmp(got, c->expect), "case %s:\n got:\n%s expected:\n%s", c->name, got, c->expect);
  free(got);
  dep_free(&dg);
  ir_arena_free();
  diag_reset();
}
END_TEST

/* The mapping must refuse loops that carry dependences and map the rest. */
typedef struct MapCase {
  const char *name;
  const char *body;
  bool ok;              /* planning succeeds */
  int nmapped;          /* loops mapped in the first kernel */
  const char *message;  /* substring of the diagnostics, or NULL */
} MapCase;

static const MapCase map_cases[] = {
  { "stencil-2d", "do k = 1, n\n do i = 2, n-1\n  c2(i,k) = b(i-1) + b(i+1)\n end do\nend do\n",
    true, 2, NULL },
  { "running-sum-i", "do i = 2, n\n a(i) = a(i-1) + b(i)\nend do\n", false, 0,
    "loop 'i' cannot run in parallel: loop carried dependence of 'a'" },
  { "k-recurrence-inside", "do i = 1, n\n do k = 2, n\n  c2(i,k) = c2(i,k-1) + b(i)\n end do\nend do\n",
    true, 1, NULL },
  { "scalar-carried", "do i = 1, n\n a(i) = k\n k = i\nend do\n", false, 0,
    "scalar 'k' may be read before it is assigned" },
  { "private-scalar", "do i = 1, n\n j = i * 2\n a(i) = real(j)\nend do\n", true, 1, NULL },
  { "conditional-scalar", "do i = 1, n\n if (b(i) > 0.0) j = i\n a(i) = real(j)\nend do\n", false, 0,
    "scalar 'j' may be read before it is assigned" },
  { "user-private-scalar",
    "!$stencil do private(j)\ndo i = 1, n\n if (b(i) > 0.0) j = i\n a(i) = real(j)\nend do\n",
    true, 1, NULL },
  { "private-array", "!$stencil do private(c)\ndo i = 1, n\n c(1) = b(i)\n a(i) = c(1)\nend do\n",
    false, 0, "private(c): privatization of arrays is not implemented yet" },
  { "seq-outer", "!$stencil do seq\ndo i = 1, n\n a(i) = b(i)\nend do\n", false, 0,
    "loop 'i' is marked seq" },
  { "independent-asserted", "!$stencil do independent\ndo i = 2, n\n a(i) = a(i-1)\nend do\n",
    true, 1, NULL },
};

START_TEST(test_map_case)
{
  const MapCase *c = &map_cases[_i];
  char *errs;
  Program *p;
  bool ok = plan_case(c->name, "", c->body, false, &p, &errs);
  ck_assert_msg(ok == c->ok, "case %s: planning %s:\n%s", c->name, ok ? "succeeded" : "failed", errs);
  if (c->message)
    ck_assert_msg(strstr(errs, c->message), "case %s: diagnostics lack '%s':\n%s", c->name,
                  c->message, errs);
  if (ok) {
    RegionPlan *plan = p->routines[0]->regions[0]->analysis;
    ck_assert_int_eq(plan->kernels[0].nmapped, c->nmapped);
  }
  free(errs);
  report_clear();
  ir_arena_free();
  diag_reset();
}
END_TEST

/* Which loop indices can be spread over the grid, one thread per column. */
typedef struct ColumnCase {
  const char *name;
  const char *body;
  const char *expect;   /* the column indices, space separated, in the order found */
} ColumnCase;

static const ColumnCase column_cases[] = {
  { "thomas-k-outer",
    "do k = 2, n\n do j = 1, n\n  do i = 1, n\n   c3(i,k,j) = c3(i,k-1,j) * 0.5\n  end do\n"
    " end do\nend do\n", "j i" },
  { "stencil-3d", "do j = 2, n-1\n do k = 1, n\n  do i = 2, n-1\n"
    "   c3(i,k,j) = d3(i-1,k,j) + d3(i+1,k,j) + d3(i,k,j-1)\n  end do\n end do\nend do\n", "j k i" },
  { "i-recurrence", "do j = 1, n\n do i = 2, n\n  c2(i,j) = c2(i-1,j) + 1.0\n end do\nend do\n", "j" },
  { "sum-over-i", "do j = 1, n\n x = 0.0\n do i = 1, n\n  x = x + c2(i,j)\n end do\n a(j) = x\nend do\n",
    "j" },
  { "scalar-from-other-column", "do i = 1, n\n x = b(i)\nend do\ndo i = 1, n\n a(i) = x\nend do\n",
    "" },
  { "neighbour-of-written", "do i = 1, n\n a(i) = b(i)\nend do\ndo i = 2, n-1\n c(i) = a(i-1) + a(i+1)\nend do\n",
    "" },
  { "guarded-bounds", "do i = 1, n\n a(i) = b(i)\nend do\ndo i = 2, n\n c(i) = a(i) - 1.0\nend do\n", "i" },
  { "kernel-clause", "!$stencil do kernel\ndo j = 1, n\n do i = 1, n\n  c2(i,j) = 1.0\n end do\nend do\n",
    "j" },
  { "iv-used-after", "do i = 1, n\n a(i) = b(i)\nend do\nb(1) = real(i)\n", "" },
  /* conditions that tie statements together (the run must see them too) */
  { "dimension-fixed-by-first", "do i = 1, n\n c2(i,i) = 1.0\nend do\ndo i = 1, n\n c2(1,i) = 2.0\nend do\n",
    "" },
  { "read-then-written", "do i = 1, n\n a(i) = b(i+1)\nend do\ndo i = 1, n\n b(i) = 1.0\nend do\n", "" },
  { "scalar-read-then-assigned", "do i = 1, n\n a(i) = x\nend do\ndo i = 1, n\n x = b(i)\n c(i) = x\nend do\n",
    "" },
  { "independent-on-one-loop", "!$stencil do independent\ndo i = 1, n - 1\n a(i) = a(i+1)\nend do\n"
    "do i = 1, n\n c(i) = b(i)\nend do\n", "" },
  { "independent-on-both", "!$stencil do independent\ndo i = 1, n - 1\n a(i) = a(i+1)\nend do\n"
    "!$stencil do independent\ndo i = 1, n\n c(i) = b(i)\nend do\n", "i" },
  /* `independent` does not cover a store to the same elements in every iteration */
  { "independent-shared-write", "!$stencil do independent\ndo i = 1, n\n do k = 1, n\n"
    "  a(k) = b(i)\n end do\n c2(i,1) = a(1)\nend do\n", "" },
  { "independent-shared-write-later", "!$stencil do independent\ndo i = 1, n\n c(i) = b(i)\nend do\n"
    "!$stencil do independent\ndo i = 1, n\n a(1) = b(i)\nend do\n", "" },
};

/* The column indices as text: "j k i". */
static void columns_text(IrSym **cols, int n, char *buf, size_t size)
{
  buf[0] = 0;
  for (int i = 0; i < n; i++)
    snprintf(buf + strlen(buf), size - strlen(buf), "%s%s", i ? " " : "", cols[i]->name);
}

/* A run (split_groups' incremental column indices) must answer as
 * column_indices does, for every prefix plus the next statement. */
static void check_run(const ColumnCase *c, const ColumnCtx *cx, IrStmtList *body)
{
  ColumnScope *scope = column_scope_new(cx);
  ColumnRun *run = column_run_new(scope);
  IrStmtList prefix = { 0, 0, NULL };
  for (int i = 0; i < body->n; i++) {
    IrSym *cols[3], *want[3];
    char got[64], expect[64];
    columns_text(cols, column_run_indices(run, body->v[i], cols), got, sizeof got);
    ir_list_push(&prefix, body->v[i]);
    columns_text(want, column_indices(cx, &prefix, want), expect, sizeof expect);
    ck_assert_msg(!strcmp(got, expect), "case %s, statements 1..%d: the run says '%s', "
                  "column_indices '%s'", c->name, i + 1, got, expect);
    column_run_push(run, body->v[i]);
  }
  column_scope_free(scope);
}

START_TEST(test_column_case)
{
  const ColumnCase *c = &column_cases[_i];
  Program *p = parse("real :: c3(100,100,100), d3(100,100,100), x\n", c->body);
  ck_assert_msg(p != NULL, "case %s does not parse", c->name);
  IrRegion *g = p->routines[0]->regions[0];
  IrSym *written[16];
  int nw = 0;
  for (IrSym *s = p->routines[0]->symbols; s; s = s->hh.next)
    if (!s->rank && s->kind == IR_SYM_VAR && strchr("ijkx", s->name[0]) && !s->name[1])
      written[nw++] = s;
  ColumnCtx cx = { 0, IR_FORTRAN, "t", written, nw, NULL, 0, NULL };
  IrSym *cols[3];
  char got[64];
  columns_text(cols, column_indices(&cx, &g->body, cols), got, sizeof got);
  ck_assert_msg(!strcmp(got, c->expect), "case %s: got '%s', expected '%s'", c->name, got, c->expect);
  check_run(c, &cx, &g->body);
  ir_arena_free();
  diag_reset();
}
END_TEST

/* Which work arrays each thread gets its own copy of. */
typedef struct PrivateCase {
  const char *name;
  const char *body;
  const char *after;      /* host code after the region */
  bool privatized;        /* is 'w' privatized? */
} PrivateCase;

static const PrivateCase private_cases[] = {
  { "written-then-read",
    "do j = 1, n\n do k = 1, n\n  do i = 1, n\n   w(i,k) = b(i)\n  end do\n end do\n"
    " do k = 1, n\n  do i = 1, n\n   c3(i,k,j) = w(i,k)\n  end do\n end do\nend do\n", "", true },
  { "neighbour-read",
    "do j = 1, n\n do k = 1, n\n  do i = 1, n\n   w(i,k) = b(i)\n  end do\n end do\n"
    " do k = 1, n\n  do i = 2, n\n   c3(i,k,j) = w(i-1,k)\n  end do\n end do\nend do\n", "", false },
  { "used-after-region",
    "do j = 1, n\n do i = 1, n\n  w(i,1) = b(i)\n  c3(i,1,j) = w(i,1)\n end do\nend do\n",
    "  a(1) = w(1,1)\n", false },
  { "read-before-write",
    "do j = 1, n\n do i = 1, n\n  c3(i,1,j) = w(i,1)\n  w(i,1) = b(i)\n end do\nend do\n", "", false },
  { "conditional-write",
    "do j = 1, n\n do i = 1, n\n  if (b(i) > 0.0) w(i,1) = b(i)\n  c3(i,1,j) = w(i,1)\n end do\nend do\n",
    "", false },
  { "first-level-read",
    "do j = 1, n\n do k = 1, n\n  do i = 1, n\n   w(i,k) = b(i)\n  end do\n end do\n"
    " do i = 1, n\n  c3(i,1,j) = w(i,1) + w(i,n)\n end do\nend do\n", "", true },
};

START_TEST(test_private_case)
{
  const PrivateCase *c = &private_cases[_i];
  char *text = xasprintf(
      "subroutine t(n, a, b, c3)\n  implicit none\n  integer :: n, i, j, k\n"
      "  real :: a(100), b(100), c3(100,100,100)\n  real :: w(100,100)\n!$stencil region\n%s"
      "!$stencil end region\n%send subroutine t\n", c->body, c->after);
  int file = diag_add_source(xstrdup("t.f90"), text, strlen(text));
  Program *p = fe_fortran(file);
  ck_assert_msg(p != NULL, "case %s does not parse", c->name);
  bool ok = xf_plan_program(p);
  ck_assert_msg(ok, "case %s: planning failed", c->name);
  RegionPlan *plan = p->routines[0]->regions[0]->analysis;
  bool privatized = false;
  for (int i = 0; i < plan->narrays; i++)
    if (!strcmp(plan->arrays[i].sym->name, "w"))
      privatized = plan->arrays[i].privatized;
  ck_assert_msg(privatized == c->privatized, "case %s: w %s privatized", c->name,
                privatized ? "is" : "is not");
  report_clear();
  ir_arena_free();
  diag_reset();
}
END_TEST

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
  { "whole-box", "", "do k = 1, n\n do i = 1, n\n  c2(i,k) = b(i)\n end do\nend do\n", "c2",
    DIR_COPYOUT, NULL },
  { "reverse-unit-step", "", "do k = n, 1, -1\n do i = 1, n\n  c2(i,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPYOUT, NULL },
  { "shifted-subscript", "", "do k = 1, n\n do i = 2, n\n  c2(i-1,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPYOUT, NULL },
  { "invariant-subscript", "", "do i = 1, n\n c2(i,n) = b(i)\nend do\n", "c2", DIR_COPYOUT, NULL },
  { "step-2", "", "do k = 1, n, 2\n do i = 1, n\n  c2(i,k) = b(i)\n end do\nend do\n", "c2",
    DIR_COPY, "loop 'k' at line 6 steps by 2" },
  { "step-minus-2", "", "do k = n, 1, -2\n do i = 1, n\n  c2(i,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPY, "steps by -2" },
  { "triangular", "", "do k = 1, n\n do i = 1, n - k\n  c2(i,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPY, "the bounds of loop 'i' at line 7 depend on 'k'" },
  { "triangular-min", "", "do j = 1, n\n do k = 1, min(n, j)\n  c2(j,k) = b(j)\n end do\nend do\n",
    "c2", DIR_COPY, "the bounds of loop 'k' at line 7 are read from an array or are not affine" },
  { "bound-from-array", "integer :: top(100)\n",
    "do i = 1, n\n do k = 1, top(i)\n  c2(i,k) = b(i)\n end do\nend do\n", "c2", DIR_COPY,
    "the bounds of loop 'k' at line 8 are read from an array" },
  { "under-if", "", "do k = 1, n\n do i = 1, n\n  if (b(i) > 0.0) c2(i,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPY, "the write at line 8 is under the IF at line 8" },
  { "under-else", "",
    "do i = 1, n\n if (b(i) > 0.0) then\n  c(i) = 1.0\n else\n  a(i) = b(i)\n end if\nend do\n",
    "a", DIR_COPY, "the write at line 10 is under the IF at line 7" },
  { "exit-after-write", "",
    "do i = 1, n\n do k = 1, n\n  c2(i,k) = b(i)\n  if (b(k) > 0.0) exit\n end do\nend do\n", "c2",
    DIR_COPY, "the EXIT at line 9 can end a loop around the write at line 8" },
  { "cycle-before-write", "",
    "do i = 1, n\n do k = 1, n\n  if (b(k) > 0.0) then\n   cycle\n  end if\n  c2(i,k) = b(i)\n"
    " end do\nend do\n", "c2", DIR_COPY, "the CYCLE at line 9 can skip the write at line 11" },
  { "cycle-after-write", "",
    "do i = 1, n\n do k = 1, n\n  c2(i,k) = b(i)\n  if (b(k) > 0.0) cycle\n  c(i) = 1.0\n"
    " end do\nend do\n", "c2", DIR_COPYOUT, NULL },
  { "exit-in-inner-search", "",
    "do k = 1, n\n do i = 1, n\n  do j = 1, n\n   if (b(j) > 0.0) exit\n  end do\n"
    "  c2(i,k) = b(i)\n end do\nend do\n", "c2", DIR_COPYOUT, NULL },
  { "two-writes", "", "do i = 1, n\n c2(i,1) = b(i)\n do k = 2, n\n  c2(i,k) = b(i)\n end do\nend do\n",
    "c2", DIR_COPY, "it is written at lines 7 and 9" },
  { "diagonal", "", "do i = 1, n\n c2(i,i) = b(i)\nend do\n", "c2", DIR_COPY,
    "the index of loop 'i' appears in two of its subscripts" },
  { "strided-subscript", "", "do i = 1, 50\n a(2*i) = b(i)\nend do\n", "a", DIR_COPY,
    "its subscript '2*i' at line 7 is not one loop index" },
  { "repeat-may-be-empty", "", "do j = 1, n\n do i = 1, n\n  a(i) = b(i) * j\n end do\nend do\n",
    "a", DIR_COPY, "loop 'j' at line 6, whose index is not a subscript, may run zero times" },
  { "repeat-runs", "", "do j = 1, 3\n do i = 1, n\n  a(i) = b(i) * j\n end do\nend do\n", "a",
    DIR_COPYOUT, NULL },
  { "read-and-written", "", "do i = 1, n\n a(i) = a(i) + b(i)\nend do\n", "a", DIR_COPY, NULL },
};

START_TEST(test_clause_case)
{
  const ClauseCase *c = &clause_cases[_i];
  char *errs;
  Program *p;
  bool ok = plan_case(c->name, c->decls, c->body, false, &p, &errs);
  ck_assert_msg(ok, "case %s: planning failed:\n%s", c->name, errs);
  RegionPlan *plan = p->routines[0]->regions[0]->analysis;
  const ArrayPlan *a = NULL;
  for (int i = 0; i < plan->narrays; i++)
    if (!strcmp(plan->arrays[i].sym->name, c->array))
      a = &plan->arrays[i];
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
  report_clear();
  ir_arena_free();
  diag_reset();
}
END_TEST

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
  { "local-array-privatized",
    "!$stencil do independent\ndo i = 1, n\n do k = 1, 10\n  w(k) = b(i) * k\n end do\n"
    " do k = 1, 10\n  c2(i,k) = w(k)\n end do\nend do\n", true, NULL, NULL, true },
  { "local-array-read-first",
    "!$stencil do independent\ndo i = 1, n\n do k = 1, 10\n  c2(i,k) = w(k)\n  w(k) = b(i)\n"
    " end do\nend do\n", true,
    /* legal without the assertion: one thread per k, i in order inside */
    "'independent' on loop 'i' is not followed: the loop runs sequentially in each thread: every "
    "iteration of loop 'i' writes the same elements w(k) (line 11), so the threads would share "
    "'w'; it cannot be kept per thread: its element w(k) read at line 10", NULL, false },
  { "local-array-neighbour",
    "!$stencil do independent\ndo i = 1, n\n do k = 1, 10\n  w(k) = b(i)\n end do\n"
    " do k = 1, 9\n  c2(i,k) = w(k+1)\n end do\nend do\n", false,
    "it cannot be kept per thread: its element w(k+1) read at line 13", NULL, false },
  { "dummy-array",
    "!$stencil do independent\ndo i = 1, n\n do k = 1, 10\n  c(k) = b(i)\n end do\n"
    " a(i) = c(1)\nend do\n", false,
    "'c' is a dummy argument: the caller sees its values", NULL, false },
  { "advice-withheld",
    "do i = 1, n\n do k = 1, 10\n  c(k) = b(i)\n end do\n a(i) = c(1)\nend do\n", false,
    "'independent' would not help: every iteration of loop 'i' writes the same elements c(k)",
    "put '!$stencil do independent'", false },
  { "advice-given",
    "do i = 2, n\n a(i) = a(i-1) + b(i)\nend do\n", false,
    "If the iterations are in fact independent, put '!$stencil do independent'", NULL, false },
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
  bool ok = plan_case(c->name, "real :: w(10)\n", c->body, true, &p, &errs);
  ck_assert_msg(ok == c->ok, "case %s: planning %s:\n%s", c->name, ok ? "succeeded" : "failed", errs);
  if (c->message)
    ck_assert_msg(strstr(errs, c->message), "case %s: messages lack '%s':\n%s", c->name,
                  c->message, errs);
  if (c->absent)
    ck_assert_msg(!strstr(errs, c->absent), "case %s: messages have '%s':\n%s", c->name,
                  c->absent, errs);
  if (ok) {
    RegionPlan *plan = p->routines[0]->regions[0]->analysis;
    bool w_private = false;
    for (int i = 0; i < plan->narrays; i++)
      if (!strcmp(plan->arrays[i].sym->name, "w"))
        w_private = plan->arrays[i].privatized;
    ck_assert_msg(w_private == c->w_private, "case %s: w %s privatized", c->name,
                  w_private ? "is" : "is not");
  }
  free(errs);
  report_clear();
  ir_arena_free();
  diag_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("dep");
  TCase *tc = tcase_create("dependence");
  tcase_add_loop_test(tc, test_dep_case, 0, (int)(sizeof cases / sizeof cases[0]));
  tcase_add_loop_test(tc, test_map_case, 0, (int)(sizeof map_cases / sizeof map_cases[0]));
  tcase_add_loop_test(tc, test_column_case, 0, (int)(sizeof column_cases / sizeof column_cases[0]));
  tcase_add_loop_test(tc, test_private_case, 0, (int)(sizeof private_cases / sizeof private_cases[0]));
  tcase_add_loop_test(tc, test_clause_case, 0, (int)(sizeof clause_cases / sizeof clause_cases[0]));
  tcase_add_loop_test(tc, test_independent_case, 0,
                      (int)(sizeof independent_cases / sizeof independent_cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
