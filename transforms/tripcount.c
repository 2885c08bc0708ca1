/* tripcount.c — a sub-stepping loop whose count is a maximum over columns
 * becomes a loop to each column's own count (WSM5's mstep).
 *
 * CPU microphysics keeps i innermost, so a recurrence that each column
 * repeats mstep(i) times is written with the maximum over the columns and
 * a test in the innermost loop:
 *
 *     mstepmax = 1
 *     do i = its, ite
 *       if (mstepmax .le. mstep(i)) mstepmax = mstep(i)
 *     end do
 *     do n = 1, mstepmax
 *       do k = kts, kte
 *         do i = its, ite
 *           if (n .le. mstep(i)) then ... end if
 *
 * The maximum is a reduction across columns, which one thread per column
 * cannot compute.  But for column i, the iterations n > mstep(i) do
 * nothing, and mstepmax >= mstep(i) for every column the loops visit: so
 * each column can run n = 1, mstep(i) itself, which is what the article
 * (../shared/seeds) did by hand:
 *
 *     do i = its, ite
 *       do n = 1, mstep(i)
 *         do k = kts, kte
 *           ...
 *
 * and the maximum is no longer needed.  The rewrite is made only when:
 *   - every statement of the n loop is, or is inside, a loop over one index
 *     i whose body is a test n <= mstep(i) alone (mstep one array, indexed
 *     by i), or assigns a scalar a value that does not change in the n loop
 *     and that nothing outside reads (k = kte);
 *   - the maximum is computed by a loop over i, with the bounds of every
 *     tested loop, right before (only statements that leave it and mstep
 *     alone in between), and nothing else in the region or after it reads
 *     it; mstep and n are not assigned in the n loop, and n is not read
 *     after it;
 *   - i can be a column index of the rewritten nest (column.c): columns
 *     are independent, so running each column's iterations together keeps
 *     every column's statements in their order.
 * Otherwise nothing changes, and the later passes say why i cannot be a
 * column index (the reduction).
 */
#include <string.h>
#include "access.h"
#include "affine.h"
#include "column.h"
#include "report.h"
#include "tripcount.h"
#include "visit.h"

/* What one n loop was found to be. */
typedef struct SubStep {
  IrStmt *loop;              /* do n = lo, mstepmax */
  IrSym *n, *max;            /* n, mstepmax */
  IrSym *col;                /* i */
  IrSym *count;              /* mstep */
  const IrStmt *tested;      /* the first loop over i with its test */
  IrSymSet unguarded;        /* scalars assigned outside the tests (k = kte) */
  bool ok;
} SubStep;

static bool is_var(const IrExpr *e, const IrSym *s)
{
  return e->kind == IR_E_VAR && e->u.var == s;
}

/* count(col), col a loop index: the element the test compares with n. */
static bool count_element(const IrExpr *e, SubStep *st)
{
  e = ir_strip_converts(e);
  if (e->kind != IR_E_ELEM || e->u.elem.n != 1 || e->u.elem.sym->rank != 1)
    return false;
  const IrExpr *sub = ir_strip_converts(e->u.elem.sub[0]);
  if (sub->kind != IR_E_VAR)
    return false;
  if (st->count && (st->count != e->u.elem.sym || st->col != sub->u.var))
    return false;
  st->count = e->u.elem.sym;
  st->col = sub->u.var;
  return true;
}

/* n <= count(i), or count(i) >= n. */
static bool is_test(const IrExpr *t, SubStep *st)
{
  t = ir_strip_converts(t);
  if (t->kind != IR_E_BINARY)
    return false;
  const IrExpr *a = ir_strip_converts(t->u.binary.lhs);
  const IrExpr *b = ir_strip_converts(t->u.binary.rhs);
  if (t->u.binary.op == IR_OP_LE)
    return is_var(a, st->n) && count_element(b, st);
  if (t->u.binary.op == IR_OP_GE)
    return is_var(b, st->n) && count_element(a, st);
  return false;
}

/* A loop over i whose body is the test alone, without ELSE. */
static bool tested_loop(const IrStmt *s, SubStep *st)
{
  if (s->kind != IR_S_DO || s->u.loop.body.n != 1)
    return false;
  const IrStmt *t = s->u.loop.body.v[0];
  if (t->kind != IR_S_IF || t->u.cond.els.n || !is_test(t->u.cond.test, st) ||
      s->u.loop.iv != st->col)
    return false;
  /* an EXIT or CYCLE out of the tested statements would find other loops
   * around it once the loop over i is gone */
  if (ir_jump_leaving(&t->u.cond.then, -1))
    return false;
  if (s->u.loop.step) {
    long step;
    if (!ir_eval_const(s->u.loop.step, &step) || (step != 1 && step != -1))
      return false;
  }
  if (!st->tested)
    st->tested = s;
  return true;
}

static bool same_bounds(const IrStmt *a, const IrStmt *b)
{
  Affine x, y;
  const IrExpr *ea[3] = { a->u.loop.lo, a->u.loop.hi, a->u.loop.step };
  const IrExpr *eb[3] = { b->u.loop.lo, b->u.loop.hi, b->u.loop.step };
  for (int i = 0; i < 3; i++) {
    if (!ea[i] || !eb[i]) {
      if (ea[i] != eb[i])
        return false;
      continue;
    }
    if (!aff_build(ea[i], &x) || !aff_build(eb[i], &y) || x.c != y.c || !aff_same_terms(&x, &y))
      return false;
  }
  return true;
}

typedef struct Fixed { const IrSymSet *assigned; bool fixed; } Fixed;

static void fixed_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  Fixed *f = ctx;
  (void)in;
  if (e->kind == IR_E_ELEM || (e->kind == IR_E_CALL && e->u.call.fn == IR_FN_USER) ||
      (e->kind == IR_E_VAR && ir_symset_has(f->assigned, e->u.var)))
    f->fixed = false;
}

/* Does e keep one value throughout the n loop: no scalar the loop assigns,
 * no array element? */
static bool fixed_in_loop(IrExpr *e, const IrSymSet *assigned)
{
  Fixed f = { assigned, true };
  ir_walk_expr(e, NULL, fixed_visit, &f);
  return f.fixed;
}

/* Is every statement of l tested (see the header), or a loop over another
 * index holding only such statements? */
static bool all_tested(const IrStmtList *l, SubStep *st, const IrSymSet *assigned)
{
  for (int i = 0; i < l->n; i++) {
    const IrStmt *s = l->v[i];
    if (s->kind == IR_S_DO && tested_loop(s, st)) {
      if (!same_bounds(s, st->tested))
        return false;
      continue;
    }
    if (s->kind == IR_S_DO && s->u.loop.iv != st->n && s->u.loop.iv != st->col &&
        all_tested(&s->u.loop.body, st, assigned))
      continue;
    if (s->kind == IR_S_ASSIGN && s->u.assign.lhs->kind == IR_E_VAR &&
        s->u.assign.lhs->u.var->rank == 0 && fixed_in_loop(s->u.assign.rhs, assigned) &&
        !ir_expr_mentions(s->u.assign.rhs, st->n)) {
      ir_symset_add(&st->unguarded, s->u.assign.lhs->u.var);
      continue;
    }
    return false;
  }
  return true;
}

/* The loop that computes the maximum: `do i` (the bounds of the tested
 * loops) whose body is max = max(max, count(i)), or
 * if (max <= count(i)) max = count(i)  (also <, and the mirrored forms). */
static bool is_max_update(const IrStmt *s, const SubStep *st)
{
  if (s->kind == IR_S_ASSIGN) {
    const IrExpr *r = ir_strip_converts(s->u.assign.rhs);
    if (!is_var(s->u.assign.lhs, st->max) || r->kind != IR_E_CALL || r->u.call.fn != IR_FN_MAX ||
        r->u.call.n != 2)
      return false;
    const IrExpr *a = ir_strip_converts(r->u.call.args[0]);
    const IrExpr *b = ir_strip_converts(r->u.call.args[1]);
    SubStep probe = *st;
    return (is_var(a, st->max) && count_element(b, &probe)) ||
           (is_var(b, st->max) && count_element(a, &probe));
  }
  if (s->kind != IR_S_IF || s->u.cond.els.n || s->u.cond.then.n != 1)
    return false;
  const IrStmt *set = s->u.cond.then.v[0];
  SubStep probe = *st;
  if (set->kind != IR_S_ASSIGN || !is_var(set->u.assign.lhs, st->max) ||
      !count_element(set->u.assign.rhs, &probe))
    return false;
  const IrExpr *t = ir_strip_converts(s->u.cond.test);
  if (t->kind != IR_E_BINARY)
    return false;
  const IrExpr *a = ir_strip_converts(t->u.binary.lhs);
  const IrExpr *b = ir_strip_converts(t->u.binary.rhs);
  switch (t->u.binary.op) {
  case IR_OP_LE: case IR_OP_LT:     /* max <= count(i) */
    return is_var(a, st->max) && count_element(b, &probe);
  case IR_OP_GE: case IR_OP_GT:     /* count(i) >= max */
    return is_var(b, st->max) && count_element(a, &probe);
  default:
    return false;
  }
}

static bool is_max_loop(const IrStmt *s, const SubStep *st)
{
  return s->kind == IR_S_DO && s->u.loop.iv == st->col && s->u.loop.body.n == 1 &&
         is_max_update(s->u.loop.body.v[0], st) && same_bounds(s, st->tested);
}

/* ---- reads ------------------------------------------------------------------ */

typedef struct Reads {
  const IrSym *s;
  const IrStmt *skip[2];     /* statements not to look into */
  bool found;
} Reads;

static void read_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  Reads *r = ctx;
  (void)in;
  if (e->kind == IR_E_VAR && e->u.var == r->s)
    r->found = true;
}

static IrVisitStep reads_pre(IrStmt *t, IrVisit *v)
{
  Reads *r = v->ctx;
  if (t == r->skip[0] || t == r->skip[1])
    return IR_VISIT_SKIP_CHILDREN;
  /* a read inside a loop over s reads the loop's own value */
  if (t->kind == IR_S_DO && t->u.loop.iv == r->s) {
    ir_walk_expr(t->u.loop.lo, t, read_visit, r);
    ir_walk_expr(t->u.loop.hi, t, read_visit, r);
    if (t->u.loop.step)
      ir_walk_expr(t->u.loop.step, t, read_visit, r);
    return r->found ? IR_VISIT_STOP : IR_VISIT_SKIP_CHILDREN;
  }
  switch (t->kind) {
  case IR_S_ASSIGN:
    ir_walk_expr(t->u.assign.rhs, t, read_visit, r);
    if (t->u.assign.lhs->kind == IR_E_ELEM)
      ir_walk_expr(t->u.assign.lhs, t, read_visit, r);
    break;
  case IR_S_DO:
    ir_walk_expr(t->u.loop.lo, t, read_visit, r);
    ir_walk_expr(t->u.loop.hi, t, read_visit, r);
    if (t->u.loop.step)
      ir_walk_expr(t->u.loop.step, t, read_visit, r);
    break;
  case IR_S_IF:
    ir_walk_expr(t->u.cond.test, t, read_visit, r);
    break;
  case IR_S_WHILE:
    if (t->u.loop.test)
      ir_walk_expr(t->u.loop.test, t, read_visit, r);
    break;
  default:
    break;
  }
  return r->found ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

/* Does the region read s anywhere but inside skip0 and skip1 (and inside
 * loops over s), or the host after the region? */
static bool read_elsewhere(IrRegion *g, const IrSym *s, const IrStmt *skip0, const IrStmt *skip1)
{
  Reads r = { s, { skip0, skip1 }, false };
  IrVisit v = { .pre = reads_pre, .ctx = &r };
  ir_visit_stmts(&g->body, &v);
  return r.found || s->is_module || s->is_dummy ||
         an_host_use(g->routine, s->name, g->last_line + 1, g->routine->last_line, true) != 0;
}

/* ---- the rewrite ------------------------------------------------------------- */

/* l with every tested loop replaced by its test's statements. */
static IrStmtList untested(const IrStmtList *l, const SubStep *st)
{
  IrStmtList out = { 0, 0, NULL };
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    SubStep probe = *st;
    if (s->kind == IR_S_DO && s->u.loop.iv == st->col && tested_loop(s, &probe)) {
      const IrStmtList *then = &s->u.loop.body.v[0]->u.cond.then;
      for (int k = 0; k < then->n; k++)
        ir_list_push(&out, then->v[k]);
    } else if (s->kind == IR_S_DO) {
      IrStmt *c = ir_stmt(IR_S_DO, s->loc);
      c->u.loop = s->u.loop;
      c->u.loop.body = untested(&s->u.loop.body, st);
      ir_list_push(&out, c);
    } else {
      ir_list_push(&out, s);
    }
  }
  return out;
}

/* do i (the tested loops' bounds) / do n = lo, count(i) / the n loop's body
 * without the tests. */
static IrStmt *per_column_nest(const SubStep *st)
{
  const IrStmt *loop = st->loop;
  IrStmt *inner = ir_stmt(IR_S_DO, loop->loc);
  inner->u.loop = loop->u.loop;
  IrExpr *sub = ir_var(st->col, loop->loc);
  IrExpr *count = ir_expr_new(IR_E_ELEM, st->count->type, loop->loc);
  count->u.elem.sym = st->count;
  count->u.elem.n = 1;
  count->u.elem.sub[0] = sub;
  inner->u.loop.hi = ir_convert(count, loop->u.loop.hi->type);
  inner->u.loop.body = untested(&loop->u.loop.body, st);
  IrStmt *outer = ir_stmt(IR_S_DO, st->tested->loc);
  outer->u.loop = st->tested->u.loop;
  outer->u.loop.body = (IrStmtList){ 0, 0, NULL };
  outer->u.loop.advice = NULL;
  ir_list_push(&outer->u.loop.body, inner);
  return outer;
}

typedef struct Pass {
  Program *prog;
  IrRegion *region;
  IrSymSet written;          /* scalars the region assigns */
} Pass;

/* Is st->col a column index of the rewritten nest? */
static bool columns_independent(const Pass *p, IrStmt *nest)
{
  ColumnCtx cx = { p->prog->file, p->prog->lang, p->region->routine->name, p->written.syms,
                   p->written.n, NULL, 0, NULL, NULL, NULL };
  IrStmtList one = { 1, 1, &nest };
  DepGraph g = { .nvariant = p->written.n, .variant = p->written.syms };
  dep_collect(&one, &g);
  const char *why;
  Loc where;
  bool ok = column_index(&cx, &one, &g, nest->u.loop.iv, &why, &where);
  dep_free(&g);
  return ok;
}

/* Try the n loop l->v[at]; true when it was rewritten. */
static bool try_substep(Pass *p, IrStmtList *l, int at)
{
  IrStmt *loop = l->v[at];
  const IrExpr *hi = ir_strip_converts(loop->u.loop.hi);
  long step = 1;
  if (hi->kind != IR_E_VAR || hi->u.var->rank != 0 ||
      (loop->u.loop.step && (!ir_eval_const(loop->u.loop.step, &step) || step != 1)))
    return false;
  SubStep st = { loop, loop->u.loop.iv, hi->u.var, NULL, NULL, NULL, { 0 }, true };
  IrSymSet assigned = { 0 };
  ir_assigned_scalars(&loop->u.loop.body, &assigned);
  if (!all_tested(&loop->u.loop.body, &st, &assigned) || !st.tested ||
      ir_symset_has(&assigned, st.n) || ir_symset_has(&assigned, st.max) ||
      ir_assignment_of(&loop->u.loop.body, st.count) || ir_expr_mentions(loop->u.loop.lo, st.max) ||
      !fixed_in_loop(loop->u.loop.lo, &assigned))
    return false;
  /* the maximum, right before: only statements that leave it and count alone between */
  int m = at - 1;
  while (m >= 0 && !ir_assignment_of(&(IrStmtList){ 1, 1, &l->v[m] }, st.max)) {
    if (ir_assignment_of(&(IrStmtList){ 1, 1, &l->v[m] }, st.count))
      return false;
    m--;
  }
  if (m < 0 || !is_max_loop(l->v[m], &st))
    return false;
  IrStmt *max_loop = l->v[m];
  /* nothing else reads the maximum, n's last value or the unguarded scalars */
  if (read_elsewhere(p->region, st.max, max_loop, loop) || read_elsewhere(p->region, st.n, loop, NULL))
    return false;
  for (int i = 0; i < st.unguarded.n; i++)
    if (read_elsewhere(p->region, st.unguarded.syms[i], loop, NULL))
      return false;
  IrStmt *nest = per_column_nest(&st);
  if (!columns_independent(p, nest))
    return false;
  /* the statement that starts the maximum (max = 1) right before its loop goes too */
  int first = m;
  if (m > 0 && l->v[m - 1]->kind == IR_S_ASSIGN && is_var(l->v[m - 1]->u.assign.lhs, st.max))
    first = m - 1;
  const IrExpr *count = ir_strip_converts(nest->u.loop.body.v[0]->u.loop.hi);
  const char *count_text = an_ref_text(count, p->prog->lang);
  report_at(REPORT_INFO, p->region->routine->name, loop->loc, "Loop '%s' runs to %s in each "
            "column: the maximum over columns '%s' (line %d) and the test %s <= %s are no longer "
            "needed", ir_sym_user_name(st.n), count_text, ir_sym_user_name(st.max), diag_user_line(max_loop->loc),
            ir_sym_user_name(st.n), count_text);
  /* l: [..., first..m (the maximum), ..., at (the n loop), ...] ->
   *    [..., ..., nest, ...] */
  IrStmtList out = { 0, 0, NULL };
  for (int i = 0; i < l->n; i++)
    if (i == at)
      ir_list_push(&out, nest);
    else if (i < first || i > m)
      ir_list_push(&out, l->v[i]);
  *l = out;
  return true;
}

static void substep_lists(Pass *p, IrStmtList *l)
{
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    if (s->kind == IR_S_DO && try_substep(p, l, i)) {
      i = -1;                 /* the list changed: look again from its start */
      continue;
    }
    if (s->kind == IR_S_DO || s->kind == IR_S_WHILE || s->kind == IR_S_BLOCK)
      substep_lists(p, &s->u.loop.body);
    else if (s->kind == IR_S_IF) {
      substep_lists(p, &s->u.cond.then);
      substep_lists(p, &s->u.cond.els);
    }
  }
}

bool xf_per_column_tripcounts(Program *prog)
{
  for (int r = 0; r < prog->nroutines; r++)
    for (int k = 0; k < prog->routines[r]->nregions; k++) {
      Pass p = { prog, prog->routines[r]->regions[k], { 0 } };
      ir_assigned_scalars(&p.region->body, &p.written);
      substep_lists(&p, &p.region->body);
    }
  return true;
}
