/* check_column.c — table-driven tests of the kernel-shaping decisions
 * (transforms/column.c, transforms/map.c):
 *   - mapping: which loops of a kernel run in parallel, and why one is refused;
 *   - column indices: which loop indices can be spread over the grid, one
 *     thread per column (column_indices), and the incremental ColumnRun of
 *     split_groups cross-checked against it;
 *   - fusion of the loops left sequential in a thread (column_fuse): fused,
 *     or not and why;
 *   - kernel split and distribution (split_groups, distribute): where a
 *     region becomes several kernels, and the reason reported.
 * Each case is a small Fortran region parsed with the real front end
 * (tests/check_util.h gives its source: the body starts at line 6, or one
 * line later per line of declarations).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "column.h"

/* ---- mapping: the loops of a kernel that run in parallel ------------------ */

/* The mapping must refuse loops that carry dependences and map the rest. */
typedef struct MapCase {
  const char *name;
  const char *body;
  bool ok;              /* planning succeeds */
  int nmapped;          /* loops mapped in the first kernel */
  const char *message;  /* substring of the diagnostics, or NULL */
} MapCase;

static const MapCase map_cases[] = {
  /* a 2-D stencil reading only b: both loops mapped */
  { "stencil-2d", "do k = 1, n\n do i = 2, n-1\n  c2(i,k) = b(i-1) + b(i+1)\n end do\nend do\n",
    true, 2, NULL },
  /* a running sum along the only loop: refused, naming the carried dependence */
  { "running-sum-i", "do i = 2, n\n a(i) = a(i-1) + b(i)\nend do\n", false, 0,
    "loop 'i' cannot run in parallel: loop carried dependence of 'a'" },
  /* a recurrence along the inner k: i mapped, k sequential inside */
  { "k-recurrence-inside", "do i = 1, n\n do k = 2, n\n  c2(i,k) = c2(i,k-1) + b(i)\n end do\nend do\n",
    true, 1, NULL },
  /* a scalar read before it is assigned in the iteration: refused */
  { "scalar-carried", "do i = 1, n\n a(i) = k\n k = i\nend do\n", false, 0,
    "scalar 'k' may be read before it is assigned" },
  /* a scalar assigned before each read: private, the loop is mapped */
  { "private-scalar", "do i = 1, n\n j = i * 2\n a(i) = real(j)\nend do\n", true, 1, NULL },
  /* a scalar assigned only under IF, read always: refused */
  { "conditional-scalar", "do i = 1, n\n if (b(i) > 0.0) j = i\n a(i) = real(j)\nend do\n", false, 0,
    "scalar 'j' may be read before it is assigned" },
  /* the same with the user's private(j): mapped */
  { "user-private-scalar",
    "!$stencil do private(j)\ndo i = 1, n\n if (b(i) > 0.0) j = i\n a(i) = real(j)\nend do\n",
    true, 1, NULL },
  /* private(c) of a dummy array: not followed (the caller sees its values), the loop refused */
  { "private-array", "!$stencil do private(c)\ndo i = 1, n\n c(1) = b(i)\n a(i) = c(1)\nend do\n",
    false, 0, "it cannot be kept per thread: 'c' is a dummy argument: the caller sees its values" },
  /* the only loop marked seq: refused, nothing left to map */
  { "seq-outer", "!$stencil do seq\ndo i = 1, n\n a(i) = b(i)\nend do\n", false, 0,
    "loop 'i' is marked seq" },
  /* `independent` on a running sum: the assertion is followed, the loop mapped */
  { "independent-asserted", "!$stencil do independent\ndo i = 2, n\n a(i) = a(i-1)\nend do\n",
    true, 1, NULL },
};

START_TEST(test_map_case)
{
  const MapCase *c = &map_cases[_i];
  char *errs;
  Program *p;
  bool ok = cu_plan_region(c->name, "", "", c->body, false, &p, &errs);
  ck_assert_msg(ok == c->ok, "case %s: planning %s:\n%s", c->name, ok ? "succeeded" : "failed", errs);
  if (c->message)
    ck_assert_msg(strstr(errs, c->message), "case %s: diagnostics lack '%s':\n%s", c->name,
                  c->message, errs);
  if (ok) {
    RegionPlan *plan = p->routines[0]->regions[0]->analysis;
    ck_assert_int_eq(plan->kernels[0].nmapped, c->nmapped);
  }
  free(errs);
  cu_reset();
}
END_TEST

/* ---- column indices ------------------------------------------------------- */

/* Which loop indices can be spread over the grid, one thread per column. */
typedef struct ColumnCase {
  const char *name;
  const char *body;
  const char *expect;   /* the column indices, space separated, in the order found */
} ColumnCase;

static const ColumnCase column_cases[] = {
  /* k outermost carries a recurrence: j and i are columns, k is not */
  { "thomas-k-outer",
    "do k = 2, n\n do j = 1, n\n  do i = 1, n\n   c3(i,k,j) = c3(i,k-1,j) * 0.5\n  end do\n"
    " end do\nend do\n", "j i" },
  /* a stencil reading only d3: all three indices are columns */
  { "stencil-3d", "do j = 2, n-1\n do k = 1, n\n  do i = 2, n-1\n"
    "   c3(i,k,j) = d3(i-1,k,j) + d3(i+1,k,j) + d3(i,k,j-1)\n  end do\n end do\nend do\n", "j k i" },
  /* a recurrence along i: only j */
  { "i-recurrence", "do j = 1, n\n do i = 2, n\n  c2(i,j) = c2(i-1,j) + 1.0\n end do\nend do\n", "j" },
  /* a sum over i into a scalar: only j */
  { "sum-over-i", "do j = 1, n\n x = 0.0\n do i = 1, n\n  x = x + c2(i,j)\n end do\n a(j) = x\nend do\n",
    "j" },
  /* a scalar assigned in one column and read in another: none */
  { "scalar-from-other-column", "do i = 1, n\n x = b(i)\nend do\ndo i = 1, n\n a(i) = x\nend do\n",
    "" },
  /* the second loop reads the neighbours of what the first writes: none */
  { "neighbour-of-written", "do i = 1, n\n a(i) = b(i)\nend do\ndo i = 2, n-1\n c(i) = a(i-1) + a(i+1)\nend do\n",
    "" },
  /* different bounds but the same element: i stays a column (guarded) */
  { "guarded-bounds", "do i = 1, n\n a(i) = b(i)\nend do\ndo i = 2, n\n c(i) = a(i) - 1.0\nend do\n", "i" },
  /* `kernel` on j: the loops inside do not become columns, j does */
  { "kernel-clause", "!$stencil do kernel\ndo j = 1, n\n do i = 1, n\n  c2(i,j) = 1.0\n end do\nend do\n",
    "j" },
  /* the loop index read after the loop: none */
  { "iv-used-after", "do i = 1, n\n a(i) = b(i)\nend do\nb(1) = real(i)\n", "" },
  /* conditions that tie statements together (the run must see them too) */
  /* the first access fixes c2's dimension 1 for i; the second uses dimension 2: none */
  { "dimension-fixed-by-first", "do i = 1, n\n c2(i,i) = 1.0\nend do\ndo i = 1, n\n c2(1,i) = 2.0\nend do\n",
    "" },
  /* b(i+1) read before another column writes b(i+1): none */
  { "read-then-written", "do i = 1, n\n a(i) = b(i+1)\nend do\ndo i = 1, n\n b(i) = 1.0\nend do\n", "" },
  /* x read in one loop before another loop assigns it: none */
  { "scalar-read-then-assigned", "do i = 1, n\n a(i) = x\nend do\ndo i = 1, n\n x = b(i)\n c(i) = x\nend do\n",
    "" },
  /* `independent` on one loop over i does not cover the other: none */
  { "independent-on-one-loop", "!$stencil do independent\ndo i = 1, n - 1\n a(i) = a(i+1)\nend do\n"
    "do i = 1, n\n c(i) = b(i)\nend do\n", "" },
  /* `independent` on every loop over i: i */
  { "independent-on-both", "!$stencil do independent\ndo i = 1, n - 1\n a(i) = a(i+1)\nend do\n"
    "!$stencil do independent\ndo i = 1, n\n c(i) = b(i)\nend do\n", "i" },
  /* `independent` does not cover a store to the same elements in every iteration */
  /* a(k) written by every i inside the asserted loop: none */
  { "independent-shared-write", "!$stencil do independent\ndo i = 1, n\n do k = 1, n\n"
    "  a(k) = b(i)\n end do\n c2(i,1) = a(1)\nend do\n", "" },
  /* a(1) written by every i of a later asserted loop: none */
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
  Program *p = cu_parse_region(c->name, "real :: c3(100,100,100), d3(100,100,100), x\n", c->body);
  IrRegion *g = p->routines[0]->regions[0];
  IrSym *written[16];
  int nw = 0;
  for (IrSym *s = p->routines[0]->symbols; s; s = s->hh.next)
    if (!s->rank && s->kind == IR_SYM_VAR && strchr("ijkx", s->name[0]) && !s->name[1])
      written[nw++] = s;
  ColumnCtx cx = { .lang = IR_FORTRAN, .routine = "t", .written = written, .nwritten = nw };
  IrSym *cols[3];
  char got[64];
  columns_text(cols, column_indices(&cx, &g->body, cols), got, sizeof got);
  ck_assert_msg(!strcmp(got, c->expect), "case %s: got '%s', expected '%s'", c->name, got, c->expect);
  check_run(c, &cx, &g->body);
  cu_reset();
}
END_TEST

/* ---- fusion of the loops sequential in a thread --------------------------- */

/* Adjacent loops with the same header left sequential in each thread
 * (here k, which carries a recurrence, inside the column loop i) are fused
 * where no dependence would run backwards; each decision is a report line
 * "Loops at lines X,Y fused (loop k, inside each thread)" or
 * "Loops at lines X,Y not fused: WHY". */
typedef struct FusionCase {
  const char *name;
  const char *body;
  int nfused;           /* report lines "... fused (loop k, inside each thread)" */
  const char *refused;  /* the "not fused" report line (a substring), NULL: none at all */
} FusionCase;

static const FusionCase fusion_cases[] = {
  /* the second loop reads the element the first wrote in the same iteration: fused */
  { "forward-same-iteration",
    "do i = 1, n\n do k = 2, n\n  c2(i,k) = c2(i,k-1) + b(k)\n end do\n"
    " do k = 2, n\n  d2(i,k) = c2(i,k) * 2.0\n end do\nend do\n", 1, NULL },
  /* the second loop reads an element written one iteration earlier: still forward, fused */
  { "forward-earlier-iteration",
    "do i = 1, n\n do k = 2, n\n  c2(i,k) = c2(i,k-1) + b(k)\n end do\n"
    " do k = 2, n\n  d2(i,k) = c2(i,k-1) * 2.0\n end do\nend do\n", 1, NULL },
  /* the second loop reads c2(i,k+1), which the first writes one iteration later: backward */
  { "backward-dependence",
    "do i = 1, n\n do k = 2, n - 1\n  c2(i,k) = c2(i,k-1) + b(k)\n end do\n"
    " do k = 2, n - 1\n  d2(i,k) = c2(i,k+1) * 2.0\n end do\nend do\n", 0,
    "Loops at lines 8,11 not fused: a dependence between them would run backwards" },
  /* a CYCLE in the first loop would skip the second's statement too (commit bf17874) */
  { "cycle-in-first",
    "do i = 1, n\n do k = 2, n\n  if (b(k) > 0.0) cycle\n  c2(i,k) = c2(i,k-1) + b(k)\n end do\n"
    " do k = 2, n\n  d2(i,k) = c2(i,k) * 2.0\n end do\nend do\n", 0,
    "Loops at lines 8,12 not fused: a CYCLE or EXIT in one of them would also skip the other's "
    "statements" },
  /* an EXIT in the second loop would end the first too (commit bf17874) */
  { "exit-in-second",
    "do i = 1, n\n do k = 2, n\n  c2(i,k) = c2(i,k-1) + b(k)\n end do\n"
    " do k = 2, n\n  if (b(k) > 0.0) exit\n  d2(i,k) = c2(i,k) * 2.0\n end do\nend do\n", 0,
    "Loops at lines 8,11 not fused: a CYCLE or EXIT in one of them would also skip the other's "
    "statements" },
  /* both loops assign the scalar x before reading it, the second at every iteration: a
   * temporary of each iteration, and the value left after the loops is the second's last,
   * fused or not: fused */
  { "shared-scalar-temporary",
    "do i = 1, n\n do k = 2, n\n  x = b(k)\n  c2(i,k) = c2(i,k-1) + x\n end do\n"
    " do k = 2, n\n  x = c2(i,k)\n  d2(i,k) = x * 2.0\n end do\nend do\n", 1, NULL },
  /* two sweeps over the same levels under different indices (as an array-syntax line's
   * generated index before a `do k`), j dead after them: the first runs over k instead and
   * they fuse (e2(i,k) is stored before the second part reads it in each iteration) */
  { "renamed-index",
    "do i = 1, n\n e2(i,1) = 0.0\n do j = 2, n\n  e2(i,j) = e2(i,j-1) + b(j)\n end do\n"
    " do k = 2, n\n  c2(i,k) = c2(i,k-1) + e2(i,k)\n end do\nend do\n", 1, NULL },
  /* the same with j read after them (its value when its loop ends): j keeps its loop */
  { "renamed-index-live",
    "do i = 1, n\n e2(i,1) = 0.0\n do j = 2, n\n  e2(i,j) = e2(i,j-1) + b(j)\n end do\n"
    " do k = 2, n\n  c2(i,k) = c2(i,k-1) + e2(i,k)\n end do\n c2(i,1) = j\nend do\n", 0, NULL },
  /* renamed, the second reads the first's element one level up: a dependence that would run
   * backwards, so not fused (and no note: such pairs are not fusion's usual ones) */
  { "renamed-index-backward",
    "do i = 1, n\n e2(i,1) = 0.0\n do j = 2, n\n  e2(i,j) = e2(i,j-1) + b(j)\n end do\n"
    " do k = 2, n - 1\n  c2(i,k) = c2(i,k-1) + e2(i,k+1)\n end do\nend do\n", 0, NULL },
  /* the first loop leaves x for the second, which reads it without assigning it: the
   * second would see each iteration's x instead of the last: kept apart, x named */
  { "scalar-flows-between",
    "do i = 1, n\n x = 0.0\n do k = 2, n\n  x = b(k)\n  c2(i,k) = c2(i,k-1) + x\n end do\n"
    " do k = 2, n\n  d2(i,k) = x * 2.0\n end do\nend do\n", 0,
    "not fused: a scalar assigned in one loop is used in the other ('x')" },
  /* the second loop reads x before assigning it (the previous iteration's value, or the
   * first loop's last): kept apart */
  { "scalar-read-before-assigned",
    "do i = 1, n\n x = 0.0\n do k = 2, n\n  x = b(k)\n  c2(i,k) = c2(i,k-1) + x\n end do\n"
    " do k = 2, n\n  d2(i,k) = x * 2.0\n  x = c2(i,k)\n end do\nend do\n", 0,
    "not fused: a scalar assigned in one loop is used in the other ('x')" },
  /* both loops assign x under an IF and read it under the same IF (WSM5's coeres); nothing
   * reads x after them: fused */
  { "scalar-temporary-under-if-dead",
    "do i = 1, n\n do k = 2, n\n  if (b(k) > 0.0) then\n   x = b(k)\n   c2(i,k) = c2(i,k-1) + x\n"
    "  end if\n end do\n do k = 2, n\n  if (c2(i,k) > 0.0) then\n   x = c2(i,k)\n"
    "   d2(i,k) = x * 2.0\n  end if\n end do\nend do\n", 1, NULL },
  /* the same, but x is read after the loops: which loop assigned it last would change */
  { "scalar-temporary-under-if-live",
    "do i = 1, n\n x = 0.0\n do k = 2, n\n  if (b(k) > 0.0) then\n   x = b(k)\n"
    "   c2(i,k) = c2(i,k-1) + x\n  end if\n end do\n do k = 2, n\n  if (c2(i,k) > 0.0) then\n"
    "   x = c2(i,k)\n   d2(i,k) = x * 2.0\n  end if\n end do\n c2(i,1) = x\nend do\n", 0,
    "not fused: a scalar assigned in one loop is used in the other ('x')" },
  /* the same, x read at the top of the next iteration of a sequential loop around them (j),
   * before it is assigned there: live, kept apart */
  { "scalar-temporary-under-if-next-iteration",
    "do i = 1, n\n x = 0.0\n do j = 1, 3\n  e2(i,j) = x\n  do k = 2, n\n   if (b(k) > 0.0) then\n"
    "    x = b(k)\n    c2(i,k) = c2(i,k-1) + x\n   end if\n  end do\n  do k = 2, n\n"
    "   if (c2(i,k) > 0.0) then\n    x = c2(i,k)\n    d2(i,k) = x * 2.0\n   end if\n  end do\n"
    " end do\nend do\n", 0,
    "not fused: a scalar assigned in one loop is used in the other ('x')" },
};

START_TEST(test_fusion_case)
{
  const FusionCase *c = &fusion_cases[_i];
  char *msgs;
  Program *p;
  bool ok = cu_plan_region(c->name, "real :: d2(100,100), e2(100,100), x\n", "", c->body, true,
                           &p, &msgs);
  ck_assert_msg(ok, "case %s: planning failed:\n%s", c->name, msgs);
  int fused = cu_count_lines(msgs, "inside each thread)");
  ck_assert_msg(fused == c->nfused, "case %s: %d fusions, expected %d:\n%s", c->name, fused,
                c->nfused, msgs);
  if (c->refused)
    ck_assert_msg(strstr(msgs, c->refused), "case %s: the report lacks '%s':\n%s", c->name,
                  c->refused, msgs);
  else
    ck_assert_msg(!strstr(msgs, "not fused"), "case %s: a fusion refused:\n%s", c->name, msgs);
  free(msgs);
  cu_reset();
}
END_TEST

/* ---- kernel split and distribution ---------------------------------------- */

/* Where a region becomes several kernels: split_groups ends a kernel before
 * a statement that would lose loops to spread over the grid (reported as
 * "Kernel split before line N: ... REASON"), and distribute splits a single
 * loop over a column index around parts with more parallelism.  `kernels`
 * names each kernel's mapped loops, outermost first, kernels separated by
 * " | ". */
typedef struct SplitCase {
  const char *name;
  const char *body;
  const char *kernels;  /* e.g. "j i | j i" */
  const char *message;  /* substring of the report, or NULL */
  const char *absent;   /* must not appear in it, or NULL */
} SplitCase;

static const SplitCase split_cases[] = {
  /* the second loop reads neighbour columns a(i-1), a(i+1) written by the first: split */
  { "neighbour-column",
    "do i = 1, n\n a(i) = b(i)\nend do\ndo i = 2, n-1\n c(i) = a(i-1) + a(i+1)\nend do\n", "i | i",
    "Kernel split before line 10: in one kernel, loop 'i' could not run in parallel: a(i-1) reads "
    "another iteration's element of 'a', which the region writes (line 11)", NULL },
  /* the same along the outer j (c2(i,j-1)): split, both kernels keep (j,i) */
  { "neighbour-column-j",
    "do j = 1, n\n do i = 1, n\n  c2(i,j) = b(i)\n end do\nend do\n"
    "do j = 2, n\n do i = 1, n\n  d2(i,j) = c2(i,j) - c2(i,j-1)\n end do\nend do\n", "j i | j i",
    "Kernel split before line 12: in one kernel, loop 'j' could not run in parallel: c2(i,j-1) "
    "reads another iteration's element of 'c2', which the region writes (line 14)", NULL },
  /* the second loop reads the same column's element: one kernel, the loops fuse */
  { "same-column",
    "do i = 1, n\n a(i) = b(i)\nend do\ndo i = 1, n\n c(i) = a(i) * 2.0\nend do\n", "i",
    "Loops at lines 7,10 fused (loop i: one thread per column runs their bodies in order)",
    "Kernel split" },
  /* together only (j,i), apart (j,k,i): kept together, k loops are not split off just to
   * run in parallel when the stride-1 index i stays */
  { "stride-1-kept",
    "do j = 1, n\n do k = 1, n\n  do i = 1, n\n   c3(i,k,j) = c3(i,k,j) * 2.0\n  end do\n end do\n"
    "end do\ndo j = 1, n\n do k = 2, n\n  do i = 1, n\n   d3(i,k,j) = d3(i,k,j) + c3(i,k-1,j)\n"
    "  end do\n end do\nend do\n", "j i",
    "Loop 'k' runs sequentially in each thread: c3(i,k-1,j) reads another iteration's element",
    "Kernel split" },
  /* the privatized work array e3 must live in one kernel: not split; (j, i) both stay, the
   * second nest's j loop inside its k loop reading only its own j (a DO index read inside
   * a loop over it is that loop's value, not another column's) */
  { "private-array-ties",
    "do j = 1, n\n do k = 1, n\n  do i = 1, n\n   e3(i,k,j) = b(i)\n  end do\n end do\nend do\n"
    "do k = 2, n\n do j = 1, n\n  do i = 1, n\n   d3(i,k,j) = d3(i,k-1,j) + e3(i,k,j)\n  end do\n"
    " end do\nend do\n", "j i", "Array 'e3' privatized per column", "Kernel split" },
  /* the k = kte idiom: the bottom level done after its loop with k set by hand.  Only i
   * stays in one kernel (the statement is outside the loops over k), but no dependence
   * between iterations is lost, so there is no split: k runs in order inside the thread */
  { "bottom-level-index",
    "do k = 1, n-1\n do i = 1, n\n  c2(i,k) = b(i) * 2.0\n end do\nend do\nk = n\n"
    "do i = 1, n\n c2(i,k) = b(i)\nend do\ndo k = 1, n\n do i = 1, n\n  d2(i,k) = c2(i,k)\n"
    " end do\nend do\n", "i",
    "Loop 'k' runs sequentially in each thread: c2(i,n), outside the loops over 'k'", "Kernel split" },
  /* e1(i) counted up in the loop over k and read after it: a copy per (i,k) thread would
   * hold one level's count, so k stays sequential; e1 is kept per (i,j) thread */
  { "private-count-over-levels",
    "do j = 1, n\n do i = 1, n\n  e1(i) = 1.0\n end do\n do k = 1, n\n  do i = 1, n\n"
    "   if (c3(i,k,j) > 0.5) e1(i) = e1(i) + 1.0\n  end do\n end do\n do k = 1, n\n"
    "  do i = 1, n\n   d3(i,k,j) = e1(i)\n  end do\n end do\nend do\n", "j i",
    "'e1' is stored in the iterations of a loop over 'k' and e1(i) uses it outside that loop",
    "Kernel split" },
  /* the same count used only inside the loop over k, stored before: a copy per (i,k,j)
   * thread is right, k stays on the grid */
  { "private-scratch-within-level",
    "do j = 1, n\n do k = 1, n\n  do i = 1, n\n   e1(i) = c3(i,k,j) * 2.0\n"
    "   d3(i,k,j) = e1(i) + 1.0\n  end do\n end do\nend do\n", "j k i",
    "Array 'e1' scalarized", "Kernel split" },
  /* distribution not taken: the j loop's two i loops read the same column, one kernel */
  { "distribution-not-needed",
    "do j = 1, n\n do i = 1, n\n  c2(i,j) = b(i)\n end do\n do i = 1, n\n  d2(i,j) = c2(i,j)\n"
    " end do\nend do\n", "j i", NULL, "Region split" },
  /* a scalar set between two nests (by an IF) and read by a later nest, the region split
   * before the nest after it: the IF starts the second kernel, which reads x (ending the
   * first kernel, x would reach the reader as the host's value: a miscompile found by
   * testing); no firstprivate */
  { "scalar-set-between-kernels",
    "do i = 1, n\n a(i) = b(i)\nend do\nif (n > 2) then\n x = 3.0\nelse\n x = 1.0\nend if\n"
    "do i = 2, n-1\n c(i) = a(i-1) + a(i+1)\nend do\ndo i = 1, n\n b(i) = x\nend do\n", "i | i",
    "Kernel split before line", "firstprivate" },
  /* distribution taken: the second i loop reads the neighbour c2(i-1,j), so together only j
   * stays on the grid (i sequential in each thread, strided accesses); apart, each part has
   * (j, i) with i along threadIdx.x.  The j each part reads is its own copy of the loop's
   * index, not a scalar flowing between the parts */
  { "distribution-outer-index-read",
    "do j = 1, n\n do i = 1, n\n  c2(i,j) = b(i)\n end do\n do i = 2, n\n  d2(i,j) = c2(i-1,j)\n"
    " end do\nend do\n", "j i | j i",
    "Kernel split before line 11: in one kernel, loop 'i' could not run in parallel: c2(i-1,j) "
    "reads another iteration's element of 'c2'", NULL },
  /* distribution not taken: the loop around the nests is already the stride-1 one (i around
   * a k recurrence and a k loop using it); apart, the second part would gain k on the grid
   * but re-read c2 from memory: one kernel over i, the k loops fused in the thread */
  { "distribution-stride1-outer",
    "do i = 1, n\n do k = 2, n\n  c2(i,k) = c2(i,k-1) + b(k)\n end do\n"
    " do k = 2, n\n  d2(i,k) = c2(i,k) * 2.0\n end do\nend do\n", "i",
    "Loops at lines 8,11 fused (loop k, inside each thread)", "Region split" },
};


START_TEST(test_split_case)
{
  const SplitCase *c = &split_cases[_i];
  char *msgs;
  Program *p;
  bool ok = cu_plan_region(c->name, "real :: c3(100,100,100), d3(100,100,100), "
                           "e3(100,100,100), d2(100,100), e1(100), x\n", "", c->body, true, &p, &msgs);
  ck_assert_msg(ok, "case %s: planning failed:\n%s", c->name, msgs);
  char *got = cu_kernels_text(p->routines[0]->regions[0]->analysis);
  ck_assert_msg(!strcmp(got, c->kernels), "case %s: kernels '%s', expected '%s':\n%s", c->name,
                got, c->kernels, msgs);
  if (c->message)
    ck_assert_msg(strstr(msgs, c->message), "case %s: the report lacks '%s':\n%s", c->name,
                  c->message, msgs);
  if (c->absent)
    ck_assert_msg(!strstr(msgs, c->absent), "case %s: the report has '%s':\n%s", c->name,
                  c->absent, msgs);
  free(got);
  free(msgs);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("column");
  TCase *tc = tcase_create("column");
  tcase_add_loop_test(tc, test_map_case, 0, (int)(sizeof map_cases / sizeof map_cases[0]));
  tcase_add_loop_test(tc, test_column_case, 0, (int)(sizeof column_cases / sizeof column_cases[0]));
  tcase_add_loop_test(tc, test_fusion_case, 0, (int)(sizeof fusion_cases / sizeof fusion_cases[0]));
  tcase_add_loop_test(tc, test_split_case, 0, (int)(sizeof split_cases / sizeof split_cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
