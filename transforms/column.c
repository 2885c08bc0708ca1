/* column.c — restructure a region into one kernel per column.
 *
 * Weather codes write their loops for CPUs: `do k / do i` nests, often
 * several in a row inside a j loop, k loops that carry recurrences, scalar
 * statements between the nests.  On a GPU we want one thread per column
 * (i, j) that runs the column's part of every nest in the original order:
 * the i and j loops moved outermost (interchange) and fused into one.
 *
 * The transform rests on one fact.  Let C be a set of loop indices such
 * that no dependence of the statements connects two different values of
 * an index in C (two different columns).  Then running, for each column,
 * the statement instances of that column in their original order, all
 * columns in parallel, gives the original results: every dependence links
 * two instances of one column, whose relative order is kept.
 *
 * column_index() decides whether one loop index v can be in C:
 *   - every loop over v has region-invariant bounds and unit step, and no
 *     loop over v lies inside another;
 *   - every reference to an array the statements write is inside a loop
 *     over v and has v itself (coefficient 1, offset 0) as its subscript in
 *     one dimension, the same dimension for all references to that array:
 *     then two columns never touch the same element;
 *   - a scalar assigned inside a loop over v is assigned before it is read
 *     in each iteration and not read outside that loop (each column has its
 *     own copy); v itself is not used outside its loops;
 *   - no CYCLE or EXIT leaves a loop over v.
 * Statements outside the loops over v then only assign scalars, and every
 * column runs them (redundantly, with the same values).  A user's
 * `independent` on the loops over v stands in for the array condition.
 *
 * columnize() builds the thread body: each loop over an index in C is
 * replaced by its body, guarded by its bounds when they differ from the
 * column range.  The loops left (k loops) keep their order and direction.
 */
#include <stdio.h>
#include <string.h>
#include "affine.h"
#include "access.h"
#include "column.h"
#include "visit.h"
#include "report.h"

/* ---- scalars: assigned before read? ------------------------------------------ */

typedef struct Exposed {
  IrSym *const *vars;
  int nvars;
  const IrSymSet *defs;     /* scalars surely assigned so far */
  IrExpr *first;
} Exposed;

static void exposed_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  Exposed *x = ctx;
  (void)in;
  if (x->first || e->kind != IR_E_VAR || ir_symset_has(x->defs, e->u.var))
    return;
  for (int i = 0; i < x->nvars; i++)
    if (x->vars[i] == e->u.var)
      x->first = e;
}

static IrExpr *exposed_in(IrSym *const *vars, int nvars, const IrSymSet *d, IrExpr *e)
{
  Exposed x = { vars, nvars, d, NULL };
  ir_walk_expr(e, NULL, exposed_visit, &x);
  return x.first;
}

static IrExpr *exposed_list(IrSym *const *vars, int nvars, IrStmtList *l, IrSymSet *d);
static IrExpr *exposed_sequential(IrSym *const *vars, int nvars, IrStmt *s, IrSymSet *d);

/* Statement s with d the scalars surely assigned before it; d becomes
 * those surely assigned after it. */
static IrExpr *exposed_stmt(IrSym *const *vars, int nvars, IrStmt *s, IrSymSet *d)
{
  IrExpr *bad;
  switch (s->kind) {
  case IR_S_ASSIGN:
    if ((bad = exposed_in(vars, nvars, d, s->u.assign.rhs)))
      return bad;
    if (s->u.assign.lhs->kind == IR_E_VAR) {
      ir_symset_add(d, s->u.assign.lhs->u.var);
      return NULL;
    }
    return exposed_in(vars, nvars, d, s->u.assign.lhs);
  case IR_S_DO: {
    if ((bad = exposed_in(vars, nvars, d, s->u.loop.lo)) ||
        (bad = exposed_in(vars, nvars, d, s->u.loop.hi)))
      return bad;
    IrSymSet inner = ir_symset_copy(d); /* the body may run zero times: its assignments do not count after */
    ir_symset_add(&inner, s->u.loop.iv);
    bad = exposed_list(vars, nvars, &s->u.loop.body, &inner);
    ir_symset_add(d, s->u.loop.iv);
    return bad;
  }
  case IR_S_IF: {
    if ((bad = exposed_in(vars, nvars, d, s->u.cond.test)))
      return bad;
    IrSymSet t = ir_symset_copy(d), e = ir_symset_copy(d);
    if (!(bad = exposed_list(vars, nvars, &s->u.cond.then, &t)) &&
        !(bad = exposed_list(vars, nvars, &s->u.cond.els, &e)))
      for (int k = 0; k < t.n; k++)
        if (ir_symset_has(&e, t.syms[k]))
          ir_symset_add(d, t.syms[k]);
    return bad;
  }
  case IR_S_WHILE:
  case IR_S_BLOCK:
    if ((bad = exposed_in(vars, nvars, d, s->u.loop.test)))
      return bad;
    return exposed_sequential(vars, nvars, s, d);
  case IR_S_CALL:
    S2S_BUG("call of '%s' was not inlined", s->u.call.name);
  case IR_S_WHERE: S2S_BUG("WHERE left after pass normalize");
  case IR_S_CYCLE:
  case IR_S_EXIT:
    break;
  }
  return NULL;
}

/* A WHILE or BLOCK (control flow, issue 9): its body with its own copy of
 * d.  What counts after it: nothing of a DO WHILE's body (it may run zero
 * times); of a loop without a test or a block, what its body's statements
 * assign before the first one that holds a jump out of the body (every
 * way out passes them). */
static IrExpr *exposed_sequential(IrSym *const *vars, int nvars, IrStmt *s, IrSymSet *d)
{
  IrSymSet inner = ir_symset_copy(d), sure = ir_symset_copy(d);
  bool prefix = !s->u.loop.test;
  IrStmtList *body = &s->u.loop.body;
  for (int i = 0; i < body->n; i++) {
    IrExpr *bad = exposed_stmt(vars, nvars, body->v[i], &inner);
    if (bad)
      return bad;
    prefix = prefix && !ir_stmt_jump_leaving(body->v[i], -1);
    if (prefix)
      sure = ir_symset_copy(&inner);
  }
  for (int k = 0; k < sure.n; k++)
    ir_symset_add(d, sure.syms[k]);
  return NULL;
}

/* Walk l in order with d the scalars surely assigned so far.  Not on the
 * visitor: each branch of an IF starts from its own copy of d, and only
 * what both branches assign counts after it. */
static IrExpr *exposed_list(IrSym *const *vars, int nvars, IrStmtList *l, IrSymSet *d)
{
  IrExpr *bad = NULL;
  for (int i = 0; i < l->n && !bad; i++)
    bad = exposed_stmt(vars, nvars, l->v[i], d);
  return bad;
}

IrExpr *xf_first_exposed(IrStmtList *l, IrSym *const *vars, int nvars, IrSym *const *assigned,
                         int nassigned)
{
  IrSymSet d = { 0 };
  for (int i = 0; i < nassigned; i++)
    ir_symset_add(&d, assigned[i]);
  return exposed_list(vars, nvars, l, &d);
}

/* ---- small walks ----------------------------------------------------------- */

/* The column index candidates of a statement list are its first
 * COLUMN_CANDIDATES loop indices in the order of the walk: a bound on the
 * search, which column_indices and column_run_indices share. */
enum { COLUMN_CANDIDATES = DEP_MAX_DEPTH };

static IrVisitStep add_loop_index(IrStmt *s, IrVisit *v)
{
  if (s->kind == IR_S_DO)
    ir_symset_add(v->ctx, s->u.loop.iv);
  return IR_VISIT_CONTINUE;
}

/* The loop indices of l, in the order of the walk, added to *out. */
static void loop_indices(IrStmtList *l, IrSymSet *out)
{
  IrVisit v = { .pre = add_loop_index, .ctx = out };
  ir_visit_stmts(l, &v);
}

static bool in_list(IrSym *const *v, int n, const IrSym *s)
{
  for (int i = 0; i < n; i++)
    if (v[i] == s)
      return true;
  return false;
}

/* ---- the conditions on one index --------------------------------------------- */

typedef struct Check {
  const ColumnCtx *cx;
  IrSym *v;
  IrStmtList *stmts;
  bool ok;
  const char *why;           /* first reason v is not a column index */
  Loc where;
  bool all_independent;      /* every loop over v asserted `independent` */
  int nloops;
  bool by_dependence;        /* the first reason is a dependence between iterations of v */
} Check;

static void fail(Check *c, Loc where, const char *why)
{
  if (!c->ok)
    return;
  c->ok = false;
  c->why = why;
  c->where = where;
}

/* A reason that is a dependence between two iterations of v (an element or
 * a scalar one column gives another): a kernel boundary between the
 * statements involved can resolve it, which a reason of shape (a statement
 * outside the loops over v, bounds that change) never needs. */
static void fail_dependence(Check *c, Loc where, const char *why)
{
  if (c->ok)
    c->by_dependence = true;
  fail(c, where, why);
}

typedef struct Mention { IrSym *const *v; int n; bool found; } Mention;

static void mention_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  Mention *m = ctx;
  (void)in;
  if (e->kind == IR_E_VAR && in_list(m->v, m->n, e->u.var))
    m->found = true;
}

/* Does e mention a scalar assigned in the region (loop indices included)? */
static bool variant(const ColumnCtx *cx, IrExpr *e)
{
  Mention m = { cx->written, cx->nwritten, false };
  ir_walk_expr(e, NULL, mention_visit, &m);
  return m.found;
}

static IrVisitStep check_loop(IrStmt *loop, IrVisit *vis)
{
  Check *c = vis->ctx;
  if (loop->kind != IR_S_DO || loop->u.loop.iv != c->v)
    return IR_VISIT_CONTINUE;
  c->nloops++;
  long step = 1;
  Directive *adv = loop->u.loop.advice;
  c->all_independent &= adv && adv->independent;
  if (ir_visit_loop_over(vis, c->v))
    fail(c, loop->loc, "a loop over it is nested inside another loop over it");
  else if (adv && adv->seq)
    fail(c, loop->loc, "the user asked for it to stay sequential (seq)");
  else if (loop->u.loop.step && (!ir_eval_const(loop->u.loop.step, &step) || (step != 1 && step != -1)))
    fail(c, loop->loc, "a loop over it has a step other than 1 or -1");
  else if (variant(c->cx, loop->u.loop.lo) || variant(c->cx, loop->u.loop.hi))
    fail(c, loop->loc, "the bounds of a loop over it change inside the region");
  return IR_VISIT_CONTINUE;
}

static void check_loops(Check *c, IrStmtList *l)
{
  IrVisit v = { .pre = check_loop, .ctx = c };
  ir_visit_stmts(l, &v);
}

/* Is `a` (an access of a written array) inside a loop over v, with v as
 * its subscript in dimension *dim (-1: not fixed yet)? */
static bool column_access(const Access *a, const IrSym *v, int *dim)
{
  bool inside = false;
  for (int l = 0; l < a->nloops; l++)
    inside |= a->loops[l]->u.loop.iv == v;
  if (!inside)
    return false;
  for (int d = 0; d < a->ref->u.elem.n; d++) {
    Affine f;
    if (!aff_build(a->ref->u.elem.sub[d], &f) || f.n != 1 || f.c != 0 || f.t[0].var != v ||
        f.t[0].coef != 1 || f.t[0].scale)
      continue;
    if (*dim < 0 || *dim == d) {
      *dim = d;
      return true;
    }
  }
  return false;
}

/* The outermost loop over v around access a, or NULL. */
static const IrStmt *outer_v_loop(const Access *a, const IrSym *v)
{
  for (int l = 0; l < a->nloops; l++)
    if (a->loops[l]->u.loop.iv == v)
      return a->loops[l];
  return NULL;
}

/* An array each thread has its own copy of ties no columns together only
 * when no value passes through it from one iteration of v to another:
 *   - indexed by v: every access must be a column access (work(i,k) in
 *     the loop over k and work(i,kts) outside it would need the copy of
 *     the thread of level kts);
 *   - not indexed by v but written inside a loop over v: every access
 *     must be inside one and the same loop over v, where privatization
 *     (access.c) proved each read preceded by a store of its element in
 *     the same iteration (numdt(i) counted up in the loop over k and read
 *     after it would see only its own level's count);
 *   - otherwise (written outside the loops over v only) each thread
 *     computes the same values.
 * Mirrored by private_rules_out for the runs. */
static void check_private_array(Check *c, const DepGraph *g, const DepArray *a)
{
  int dim = -1;
  const Access *broken = NULL, *outside = NULL, *other = NULL;
  const IrStmt *vloop = NULL;
  bool mentions = false, written_in_v = false;
  for (int p = 0; p < a->n; p++) {
    const Access *x = &g->acc[a->idx[p]];
    for (int d = 0; d < x->ref->u.elem.n; d++)
      mentions |= ir_expr_mentions(x->ref->u.elem.sub[d], c->v);
    if (!broken && !column_access(x, c->v, &dim))
      broken = x;
    const IrStmt *l = outer_v_loop(x, c->v);
    written_in_v |= l && x->write;
    if (!l && !outside)
      outside = x;
    else if (l && vloop && l != vloop && !other)
      other = x;
    if (l && !vloop)
      vloop = l;
  }
  if (mentions && broken)
    fail(c, broken->ref->loc, ir_printf("%s does not index its copy of '%s' kept per thread by "
                                        "'%s', which other accesses do", an_ref_text(broken->ref,
                                        c->cx->lang), ir_sym_user_name(a->sym), ir_sym_user_name(c->v)));
  else if (!mentions && written_in_v && (outside || other))
    fail_dependence(c, (outside ? outside : other)->ref->loc, ir_printf("'%s' is stored in the "
                    "iterations of a loop over '%s' and %s uses it %s, so a copy per thread would "
                    "lose the other iterations' values", ir_sym_user_name(a->sym), ir_sym_user_name(c->v),
                    an_ref_text((outside ? outside : other)->ref, c->cx->lang),
                    outside ? "outside that loop" : "in another loop over it"));
}

/* Arrays in the order of their first access, each one's accesses in
 * order: the first that breaks the condition is the one reported. */
static void check_arrays(Check *c, const DepGraph *g)
{
  DepArray *arrays = dep_arrays(g), *a, *tmp;
  HASH_ITER(hh, arrays, a, tmp) {
    IrSym *arr = (IrSym *)a->sym;
    if (!c->ok)
      break;
    if (in_list(c->cx->private_arrays, c->cx->nprivate_arrays, arr)) {
      check_private_array(c, g, a);
      continue;
    }
    if (!a->written)
      continue;
    int dim = -1;
    for (int p = 0; p < a->n && c->ok; p++) {
      int k = a->idx[p];
      if (!column_access(&g->acc[k], c->v, &dim)) {
        bool inside = false;
        for (int l = 0; l < g->acc[k].nloops; l++)
          inside |= g->acc[k].loops[l]->u.loop.iv == c->v;
        (inside ? fail_dependence : fail)(c, g->acc[k].ref->loc, inside
             ? ir_printf("%s %s another iteration's element of '%s', which the region writes",
                         an_ref_text(g->acc[k].ref, c->cx->lang), g->acc[k].write ? "writes" : "reads",
                         ir_sym_user_name(arr))
             : ir_printf("%s, outside the loops over '%s', %s '%s', which the region writes",
                         an_ref_text(g->acc[k].ref, c->cx->lang), ir_sym_user_name(c->v),
                         g->acc[k].write ? "writes" : "reads", ir_sym_user_name(arr)));
      }
    }
  }
  dep_arrays_free(arrays);
}

const Access *xf_shared_write(const DepGraph *g, const IrSym *v, IrSym *const *priv, int npriv)
{
  for (int i = 0; i < g->nacc; i++) {
    const Access *a = &g->acc[i];
    if (!a->write || in_list(priv, npriv, a->ref->u.elem.sym))
      continue;
    bool mentions = false;
    for (int d = 0; d < a->ref->u.elem.n; d++)
      mentions |= ir_expr_mentions(a->ref->u.elem.sub[d], v);
    if (!mentions)
      return a;
  }
  return NULL;
}

const char *xf_shared_write_text(const ColumnCtx *cx, const IrSym *v, const Access *w)
{
  const IrSym *arr = w->ref->u.elem.sym;
  const char *why = NULL;
  for (int i = 0; cx->plan && i < cx->plan->narrays; i++)
    if (cx->plan->arrays[i].sym == arr)
      why = cx->plan->arrays[i].not_private_why;
  bool inside = false;
  for (int l = 0; l < w->nloops; l++)
    inside |= w->loops[l]->u.loop.iv == v;
  const char *where = inside
    ? ir_printf("every iteration of loop '%s' writes the same elements %s (line %d)", ir_sym_user_name(v),
                an_ref_text(w->ref, cx->lang), diag_user_line(w->stmt->loc))
    : ir_printf("every thread would write %s (line %d, outside the loops over '%s')",
                an_ref_text(w->ref, cx->lang), diag_user_line(w->stmt->loc), ir_sym_user_name(v));
  return ir_printf("%s, so the threads would share '%s'; it cannot be kept per thread%s%s", where,
                   ir_sym_user_name(arr), why ? ": " : "", why ? why : "");
}

/* Under `independent` the user vouches for the references that carry v,
 * not for a write that stores the same elements in every iteration: its
 * array must be kept per thread, or v is no column index. */
static void check_shared_writes(Check *c, const DepGraph *g)
{
  const Access *w = xf_shared_write(g, c->v, c->cx->private_arrays, c->cx->nprivate_arrays);
  if (w)
    fail(c, w->ref->loc, xf_shared_write_text(c->cx, c->v, w));
}

/* Where a scalar may be read: inside the loops over v that assign it (its
 * "homes", where each column has its own copy), nowhere else. */
typedef struct ScalarUse {
  Check *c;
  IrSym *s;
  Loc where;            /* first read outside the homes */
  bool found;
  IrExpr *exposed;      /* first read in a home before the home assigns it */
} ScalarUse;

static void outside_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  ScalarUse *u = ctx;
  (void)in;
  if (e->kind == IR_E_VAR && e->u.var == u->s && !u->found) {
    u->found = true;
    u->where = e->loc;
  }
}

/* A loop over v that assigns s (or any loop over v, when s is v) is a home
 * of s: each iteration must assign s before reading it. */
static IrVisitStep uses_pre(IrStmt *t, IrVisit *v)
{
  ScalarUse *u = v->ctx;
  switch (t->kind) {
  case IR_S_ASSIGN:
    ir_walk_expr(t->u.assign.rhs, t, outside_visit, u);
    if (t->u.assign.lhs->kind == IR_E_ELEM)
      ir_walk_expr(t->u.assign.lhs, t, outside_visit, u);
    break;
  case IR_S_DO:
    if (t->u.loop.iv == u->c->v && (u->s == u->c->v || ir_assignment_of(&t->u.loop.body, u->s))) {
      if (u->s != u->c->v) {
        IrSym *vars[1] = { u->s };
        IrSym *known[1] = { u->c->v };
        u->exposed = xf_first_exposed(&t->u.loop.body, vars, 1, known, 1);
      }
      return u->exposed ? IR_VISIT_STOP : IR_VISIT_SKIP_CHILDREN;
    }
    ir_walk_expr(t->u.loop.lo, t, outside_visit, u);
    ir_walk_expr(t->u.loop.hi, t, outside_visit, u);
    /* Inside a DO over s, s is the loop's own value (its body cannot
     * assign it): `do k ... do i ... vt(i,k)` reads no k another column set */
    if (t->u.loop.iv == u->s)
      return u->found ? IR_VISIT_STOP : IR_VISIT_SKIP_CHILDREN;
    break;
  case IR_S_IF:
    ir_walk_expr(t->u.cond.test, t, outside_visit, u);
    break;
  case IR_S_WHILE:
    ir_walk_expr(t->u.loop.test, t, outside_visit, u);
    break;
  default:
    break;
  }
  return u->found ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

static void scan_uses(IrStmtList *l, ScalarUse *u)
{
  IrVisit v = { .pre = uses_pre, .ctx = u };
  ir_visit_stmts(l, &v);
}

typedef struct InVLoop { const IrSym *v, *s; bool found; } InVLoop;

static IrVisitStep in_v_loop_pre(IrStmt *t, IrVisit *vis)
{
  InVLoop *q = vis->ctx;
  q->found = ir_stmt_assigns(t, q->s) && ir_visit_loop_over(vis, q->v);
  return q->found ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

/* Is scalar s assigned inside some loop over v? */
static bool assigned_in_v_loop(IrStmtList *l, const IrSym *v, const IrSym *s)
{
  InVLoop q = { v, s, false };
  IrVisit vis = { .pre = in_v_loop_pre, .ctx = &q };
  ir_visit_stmts(l, &vis);
  return q.found;
}

/* ---- reductions ---------------------------------------------------------------- */

static bool is_var(const IrExpr *e, const IrSym *s)
{
  e = ir_strip_converts(e);
  return e->kind == IR_E_VAR && e->u.var == s;
}

/* `if (s < e) s = e` (a maximum) or `if (s > e) s = e` (a minimum), either
 * way round, <= and >= too, with nothing else in the IF. */
static ReduceOp if_form(const IrStmt *t, const IrSym *s)
{
  if (t->u.cond.els.n || t->u.cond.then.n != 1)
    return REDUCE_NONE;
  const IrStmt *a = t->u.cond.then.v[0];
  const IrExpr *test = t->u.cond.test;
  if (a->kind != IR_S_ASSIGN || !is_var(a->u.assign.lhs, s) || test->kind != IR_E_BINARY ||
      ir_expr_mentions(a->u.assign.rhs, s))
    return REDUCE_NONE;
  IrOp op = test->u.binary.op;
  const IrExpr *l = test->u.binary.lhs, *r = test->u.binary.rhs;
  bool less = op == IR_OP_LT || op == IR_OP_LE, greater = op == IR_OP_GT || op == IR_OP_GE;
  if (!less && !greater)
    return REDUCE_NONE;
  const IrExpr *e = ir_strip_converts(a->u.assign.rhs);
  if (is_var(l, s) && ir_expr_equal(ir_strip_converts(r), e))
    return less ? REDUCE_MAX : REDUCE_MIN;          /* s < e: e is larger */
  if (is_var(r, s) && ir_expr_equal(ir_strip_converts(l), e))
    return greater ? REDUCE_MAX : REDUCE_MIN;       /* e > s */
  return REDUCE_NONE;
}

ReduceOp xf_reduction_update(const IrStmt *t, const IrSym *s)
{
  if (t->kind == IR_S_IF)
    return if_form(t, s);
  if (t->kind != IR_S_ASSIGN || !is_var(t->u.assign.lhs, s))
    return REDUCE_NONE;
  const IrExpr *r = ir_strip_converts(t->u.assign.rhs);
  if (r->kind == IR_E_BINARY) {
    const IrExpr *a = r->u.binary.lhs, *b = r->u.binary.rhs;
    bool on_left = is_var(a, s) && !ir_expr_mentions(b, s);
    bool on_right = is_var(b, s) && !ir_expr_mentions(a, s);
    switch (r->u.binary.op) {
    case IR_OP_ADD: return on_left || on_right ? REDUCE_SUM : REDUCE_NONE;
    case IR_OP_SUB: return on_left ? REDUCE_SUM : REDUCE_NONE;
    case IR_OP_MUL: return on_left || on_right ? REDUCE_PRODUCT : REDUCE_NONE;
    case IR_OP_AND:
    case IR_OP_OR:
    case IR_OP_EQV:
    case IR_OP_NEQV: return on_left || on_right ? REDUCE_LOGICAL : REDUCE_NONE;
    default: return REDUCE_NONE;
    }
  }
  if (r->kind == IR_E_CALL && (r->u.call.fn == IR_FN_MAX || r->u.call.fn == IR_FN_MIN)) {
    int self = 0, others = 0;
    for (int i = 0; i < r->u.call.n; i++) {
      if (is_var(r->u.call.args[i], s))
        self++;
      else if (ir_expr_mentions(r->u.call.args[i], s))
        others++;
    }
    if (self == 1 && !others)
      return r->u.call.fn == IR_FN_MAX ? REDUCE_MAX : REDUCE_MIN;
  }
  return REDUCE_NONE;
}

const char *xf_reduce_op_text(ReduceOp op)
{
  switch (op) {
  case REDUCE_SUM: return "+";
  case REDUCE_MAX: return "max";
  case REDUCE_MIN: return "min";
  case REDUCE_PRODUCT: return "*";
  case REDUCE_LOGICAL: return "logical";
  case REDUCE_NONE: break;
  }
  return "?";
}

const ReductionPlan *xf_reduction_of(const RegionPlan *p, const IrSym *s)
{
  for (int i = 0; p && i < p->nreductions; i++)
    if (p->reductions[i].sym == s)
      return &p->reductions[i];
  return NULL;
}

/* Is every assignment to s in l of the form s = s op e (op one of +, max,
 * min, the same throughout)?  Returns the operator's name, or NULL.  Not
 * on the visitor, to keep its answers: a DO or IF met before the first
 * assignment to s, and not assigning s, makes it NULL. */
static const char *reduction_op(const IrStmtList *l, const IrSym *s, const char *op)
{
  for (int i = 0; i < l->n; i++) {
    const IrStmt *t = l->v[i];
    const char *here = NULL;
    ReduceOp u = xf_reduction_update(t, s);
    if (t->kind == IR_S_WHILE || t->kind == IR_S_BLOCK) {
      if (ir_assignment_of(&t->u.loop.body, s))
        return NULL;        /* control flow the question does not follow */
      continue;
    } else if (u == REDUCE_SUM || u == REDUCE_MAX || u == REDUCE_MIN)
      here = xf_reduce_op_text(u);
    else if (t->kind == IR_S_DO)
      here = reduction_op(&t->u.loop.body, s, op);
    else if (t->kind == IR_S_IF)
      here = reduction_op(&t->u.cond.els, s, reduction_op(&t->u.cond.then, s, op));
    else if (t->kind == IR_S_ASSIGN && t->u.assign.lhs->kind == IR_E_VAR && t->u.assign.lhs->u.var == s)
      return NULL;
    else
      continue;
    if (!here || (op && strcmp(op, here)))
      return NULL;
    op = here;
  }
  return op;
}

static bool gpu_reduction(const RegionPlan *p, const IrSym *s)
{
  const ReductionPlan *r = xf_reduction_of(p, s);
  return r && r->gpu;
}

/* Where a GPU reduction's scalar stands in stmts for index v: updates
 * inside a loop over v (each thread adds its own iterations), updates
 * outside every loop over v (every thread would add them: v cannot be a
 * column index), and reads other than by the updates (the result, which
 * the updates of the same kernel have not finished). */
typedef struct ReductionUse {
  const ReductionPlan *r;
  const IrSym *v;
  const IrStmt *stray;       /* first update outside the loops over v */
  bool updated_in_v;
  IrExpr *read;              /* first read of the result */
} ReductionUse;

static bool is_update(const ReductionPlan *r, const IrStmt *t)
{
  for (int i = 0; i < r->nupdates; i++)
    if (r->updates[i] == t)
      return true;
  return false;
}

static void result_read(IrExpr *e, IrStmt *in, void *ctx)
{
  ReductionUse *u = ctx;
  (void)in;
  if (!u->read && e->kind == IR_E_VAR && e->u.var == u->r->sym)
    u->read = e;
}

static IrVisitStep reduction_use_pre(IrStmt *t, IrVisit *vis)
{
  ReductionUse *u = vis->ctx;
  if (is_update(u->r, t)) {
    if (ir_visit_loop_over(vis, u->v))
      u->updated_in_v = true;
    else if (!u->stray)
      u->stray = t;
    return IR_VISIT_SKIP_CHILDREN;
  }
  ir_walk_stmt_exprs(t, result_read, u);
  return IR_VISIT_CONTINUE;
}

static ReductionUse reduction_use(IrStmtList *l, const ReductionPlan *r, const IrSym *v)
{
  ReductionUse u = { r, v, NULL, false, NULL };
  IrVisit vis = { .pre = reduction_use_pre, .ctx = &u };
  ir_visit_stmts(l, &vis);
  return u;
}

/* A GPU reduction's scalar s and index v: v can be a column index when
 * every update of s in the statements lies inside a loop over v, and the
 * statements do not both update s and read its result (the result exists
 * once every thread has added its part: after a kernel boundary). */
static void check_reduction(Check *c, const ReductionPlan *r)
{
  ReductionUse u = reduction_use(c->stmts, r, c->v);
  const char *op = xf_reduce_op_text(r->op);
  if (u.stray)
    fail_dependence(c, u.stray->loc, ir_printf("the %s reduction into '%s' at line %d is outside "
         "the loops over '%s', so every thread would add it", op, ir_sym_user_name(r->sym),
         diag_user_line(u.stray->loc), ir_sym_user_name(c->v)));
  else if (u.updated_in_v && u.read)
    fail_dependence(c, u.read->loc, ir_printf("the result of the %s reduction into '%s' is read "
         "at line %d, which must wait for every column's part (a kernel boundary)", op,
         ir_sym_user_name(r->sym), diag_user_line(u.read->loc)));
}

/* Why scalar s, exposed in a loop over v, is refused: what its reduction
 * plan says, or the generic reason. */
static const char *exposed_reason(const Check *c, const IrSym *s)
{
  const ReductionPlan *r = xf_reduction_of(c->cx->plan, s);
  const char *op = r ? NULL : reduction_op(c->stmts, s, NULL);
  if (r && r->why_not)
    return ir_printf("scalar '%s' is updated like a %s reduction over loop '%s', but %s",
                     ir_sym_user_name(s), xf_reduce_op_text(r->op), ir_sym_user_name(c->v), r->why_not);
  if (op)
    return ir_printf("scalar '%s' is a %s reduction over loop '%s'; parallel reductions are not "
                     "implemented yet", ir_sym_user_name(s), op, ir_sym_user_name(c->v));
  return ir_printf("scalar '%s' may be read before it is assigned in an iteration of the loop "
                   "over '%s': it carries a value from one iteration to the next", ir_sym_user_name(s),
                   ir_sym_user_name(c->v));
}

static void check_scalars(Check *c)
{
  const ColumnCtx *cx = c->cx;
  for (int i = 0; i < cx->nwritten && c->ok; i++) {
    IrSym *s = cx->written[i];
    const ReductionPlan *r = xf_reduction_of(cx->plan, s);
    if (r && r->gpu) {
      check_reduction(c, r);
      continue;
    }
    if (s != c->v && !assigned_in_v_loop(c->stmts, c->v, s))
      continue;                     /* assigned outside loops over v only: same in every column */
    ScalarUse u = { c, s, { 0, 0, 0 }, false, NULL };
    scan_uses(c->stmts, &u);
    if (u.found && s == c->v)
      fail(c, u.where, "its value is used outside the loops over it");
    else if (u.found && r && r->why_not)
      fail_dependence(c, u.where, exposed_reason(c, s));
    else if (u.found)
      fail_dependence(c, u.where, ir_printf("scalar '%s' is assigned inside a loop over '%s' and read "
           "outside it, so it would carry a value from one column to another", ir_sym_user_name(s),
           ir_sym_user_name(c->v)));
    else if (u.exposed)
      fail_dependence(c, u.exposed->loc, exposed_reason(c, s));
  }
}

typedef struct LoopExit {
  const IrSym *v;
  const IrStmt *found;
} LoopExit;

static IrVisitStep exit_pre(IrStmt *s, IrVisit *vis)
{
  LoopExit *x = vis->ctx;
  if (s->kind != IR_S_DO || s->u.loop.iv != x->v)
    return IR_VISIT_CONTINUE;
  x->found = ir_jump_leaving(&s->u.loop.body, -1);
  return x->found ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

/* A CYCLE or EXIT that leaves a loop over v, from anywhere in its body:
 * one of that loop (unnamed, directly in it, or naming it) or of a
 * statement around it (visit.h: ir_jump_leaving).  l is the body of a
 * loop over v when in_v. */
static const IrStmt *loop_exit(const IrStmtList *l, const IrSym *v, bool in_v)
{
  if (in_v)
    return ir_jump_leaving(l, -1);
  LoopExit x = { v, NULL };
  IrVisit vis = { .pre = exit_pre, .ctx = &x };
  ir_visit_stmts((IrStmtList *)l, &vis);
  return x.found;
}

typedef struct UnderKernel { const IrSym *v; const IrStmt *kernel; } UnderKernel;

static IrVisitStep kernel_pre(IrStmt *s, IrVisit *vis)
{
  UnderKernel *k = vis->ctx;
  if (s->kind != IR_S_DO || s->u.loop.iv != k->v)
    return IR_VISIT_CONTINUE;
  for (int i = 0; i < vis->nloops && !k->kernel; i++) {
    const Directive *adv = vis->loops[i]->u.loop.advice;
    if (adv && adv->kernel)
      k->kernel = vis->loops[i];
  }
  return k->kernel ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

/* A loop over v inside a loop marked `kernel`: the user asked for the body
 * of that loop to be the kernel, so the loops inside it stay sequential.
 * Returns the outermost such kernel loop. */
static const IrStmt *under_kernel(IrStmtList *l, const IrSym *v)
{
  UnderKernel k = { v, NULL };
  IrVisit vis = { .pre = kernel_pre, .ctx = &k };
  ir_visit_stmts(l, &vis);
  return k.kernel;
}

/* split_groups asks the same question statement by statement through a
 * ColumnRun (run_column_index, below): a condition changed here must be
 * changed there too; check_dep compares the two answers. */
bool column_index(const ColumnCtx *cx, IrStmtList *stmts, const DepGraph *g, IrSym *v,
                  const char **why, Loc *where)
{
  return column_index_why(cx, stmts, g, v, why, where, NULL);
}

bool column_index_why(const ColumnCtx *cx, IrStmtList *stmts, const DepGraph *g, IrSym *v,
                      const char **why, Loc *where, bool *by_dependence)
{
  Check c = { cx, v, stmts, true, NULL, { 0, 0, 0 }, true, 0, false };
  const IrStmt *k = under_kernel(stmts, v);
  if (k)
    fail(&c, k->loc, "it is inside a loop marked 'kernel', whose body runs in one thread");
  if (c.ok)
    check_loops(&c, stmts);
  if (c.ok && !c.all_independent)
    check_arrays(&c, g);
  else if (c.ok)
    check_shared_writes(&c, g);
  if (c.ok)
    check_scalars(&c);
  const IrStmt *ex = c.ok ? loop_exit(stmts, v, false) : NULL;
  if (ex)
    fail(&c, ex->loc, "a CYCLE or EXIT leaves a loop over it");
  if (!c.ok) {
    *why = c.why;
    *where = c.where;
  }
  if (by_dependence)
    *by_dependence = c.by_dependence;
  return c.ok;
}

/* The accesses of stmts: from the analysis the context offers, or collected. */
static void column_accesses(const ColumnCtx *cx, IrStmtList *stmts, DepGraph *g)
{
  if (cx->accesses) {
    cx->accesses(cx->accesses_ctx, stmts, g);
  } else {
    *g = (DepGraph){ .nvariant = cx->nwritten, .variant = cx->written };
    dep_collect(stmts, g);
  }
  g->nvariant = cx->nwritten;
  g->variant = cx->written;
}

int column_indices(const ColumnCtx *cx, IrStmtList *stmts, IrSym **out)
{
  IrSymSet ivs = { 0 };
  loop_indices(stmts, &ivs);
  DepGraph g;
  column_accesses(cx, stmts, &g);
  int n = 0;
  for (int i = 0; i < ivs.n && i < COLUMN_CANDIDATES && n < 3; i++) {
    const char *why;
    Loc where;
    if (column_index(cx, stmts, &g, ivs.syms[i], &why, &where))
      out[n++] = ivs.syms[i];
  }
  dep_free(&g);
  return n;
}

/* ---- the thread body ------------------------------------------------------------- */

static bool same_expr(const IrExpr *a, const IrExpr *b)
{
  Affine x, y;
  if (aff_build(a, &x) && aff_build(b, &y))
    return x.c == y.c && aff_same_terms(&x, &y);
  return a == b;
}

/* The guard `lo <= v <= hi` (as written: lo/hi swapped for step -1). */
static IrExpr *guard(const IrStmt *loop)
{
  long step = 1;
  if (loop->u.loop.step)
    ir_eval_const(loop->u.loop.step, &step);
  IrExpr *first = step > 0 ? loop->u.loop.lo : loop->u.loop.hi;
  IrExpr *last = step > 0 ? loop->u.loop.hi : loop->u.loop.lo;
  IrExpr *v = ir_var(loop->u.loop.iv, loop->loc);
  return ir_binary(IR_OP_AND, ir_binary(IR_OP_GE, v, first, loop->loc),
                   ir_binary(IR_OP_LE, v, last, loop->loc), loop->loc);
}

static void columnize_list(const ColumnRange *r, int nr, IrStmtList *in, IrStmtList *out);

static const ColumnRange *range_of(const ColumnRange *r, int nr, const IrSym *v)
{
  for (int i = 0; i < nr; i++)
    if (r[i].iv == v)
      return &r[i];
  return NULL;
}

static bool covers_range(const IrStmt *loop, const ColumnRange *r)
{
  long step = 1;
  if (loop->u.loop.step)
    ir_eval_const(loop->u.loop.step, &step);
  const IrExpr *first = step > 0 ? loop->u.loop.lo : loop->u.loop.hi;
  const IrExpr *last = step > 0 ? loop->u.loop.hi : loop->u.loop.lo;
  return same_expr(first, r->lo) && same_expr(last, r->hi);
}

static IrStmt *columnize_stmt(const ColumnRange *r, int nr, IrStmt *s, IrStmtList *out)
{
  IrStmt *n;
  switch (s->kind) {
  case IR_S_DO:
    if (range_of(r, nr, s->u.loop.iv)) {
      const ColumnRange *cr = range_of(r, nr, s->u.loop.iv);
      if (covers_range(s, cr)) {
        columnize_list(r, nr, &s->u.loop.body, out);
        return NULL;
      }
      n = ir_stmt(IR_S_IF, s->loc);
      n->u.cond.test = guard(s);
      columnize_list(r, nr, &s->u.loop.body, &n->u.cond.then);
      return n;
    }
    n = ir_stmt(IR_S_DO, s->loc);
    n->u.loop = s->u.loop;
    memset(&n->u.loop.body, 0, sizeof n->u.loop.body);
    columnize_list(r, nr, &s->u.loop.body, &n->u.loop.body);
    return n;
  case IR_S_IF:
    n = ir_stmt(IR_S_IF, s->loc);
    n->u.cond.test = s->u.cond.test;
    columnize_list(r, nr, &s->u.cond.then, &n->u.cond.then);
    columnize_list(r, nr, &s->u.cond.els, &n->u.cond.els);
    return n;
  case IR_S_WHILE:
  case IR_S_BLOCK:
    /* runs the same way in every column: column_index lets no jump leave a
     * loop over a column index, and no value of another column reach the
     * test (a statement outside those loops reads no array that the
     * region writes, no scalar assigned inside them) */
    n = ir_stmt(s->kind, s->loc);
    n->u.loop = s->u.loop;
    memset(&n->u.loop.body, 0, sizeof n->u.loop.body);
    columnize_list(r, nr, &s->u.loop.body, &n->u.loop.body);
    return n;
  default:
    return s;
  }
}

/* Not on the visitor: it builds new statement lists. */
static void columnize_list(const ColumnRange *r, int nr, IrStmtList *in, IrStmtList *out)
{
  for (int i = 0; i < in->n; i++) {
    IrStmt *s = columnize_stmt(r, nr, in->v[i], out);
    if (s)
      ir_list_push(out, s);
  }
}

void columnize(const ColumnRange *ranges, int nranges, IrStmtList *in, IrStmtList *out)
{
  columnize_list(ranges, nranges, in, out);
}

/* ---- the column range ---------------------------------------------------------- */

typedef struct RangeCtx {
  ColumnRange *r;
  int nloops;
  IrStmt *first;
} RangeCtx;

/* min or max of two loop bounds; when they differ by a constant (its-1
 * and its: fused loops over neighbouring ranges), the answer itself. */
static IrExpr *minmax(IrIntrinsic fn, IrExpr *a, IrExpr *b)
{
  if (same_expr(a, b))
    return a;
  Affine fa, fb;
  if ((fn == IR_FN_MIN || fn == IR_FN_MAX) && aff_build(a, &fa) && aff_build(b, &fb) &&
      aff_same_terms(&fa, &fb))
    return (fa.c < fb.c) == (fn == IR_FN_MIN) ? a : b;
  IrExpr *c = ir_expr_new(IR_E_CALL, a->type, a->loc);
  c->u.call.fn = fn;
  c->u.call.n = 2;
  c->u.call.args = ir_alloc(2 * sizeof *c->u.call.args);
  c->u.call.args[0] = a;
  c->u.call.args[1] = b;
  return c;
}

static IrVisitStep range_visit(IrStmt *loop, IrVisit *v)
{
  RangeCtx *rc = v->ctx;
  if (loop->kind != IR_S_DO || loop->u.loop.iv != rc->r->iv)
    return IR_VISIT_CONTINUE;
  long step = 1;
  if (loop->u.loop.step)
    ir_eval_const(loop->u.loop.step, &step);
  IrExpr *first = step > 0 ? loop->u.loop.lo : loop->u.loop.hi;
  IrExpr *last = step > 0 ? loop->u.loop.hi : loop->u.loop.lo;
  if (!rc->nloops++) {
    rc->first = loop;
    rc->r->lo = first;
    rc->r->hi = last;
  } else {
    rc->r->lo = minmax(IR_FN_MIN, rc->r->lo, first);
    rc->r->hi = minmax(IR_FN_MAX, rc->r->hi, last);
  }
  return IR_VISIT_CONTINUE;
}

IrStmt *column_range(IrStmtList *stmts, ColumnRange *r)
{
  RangeCtx rc = { r, 0, NULL };
  IrVisit v = { .pre = range_visit, .ctx = &rc };
  ir_visit_stmts(stmts, &v);
  return rc.first;
}

/* Loops over v, for the report: their lines, and whether one was inside a
 * loop over another index (so moving it outermost is an interchange). */
typedef struct LoopLines {
  IrSym *const *c;         /* all column indices: loops over them are not "outer" */
  int nc;
  const IrSym *v;
  int n, cap;
  Loc *locs;               /* arena */
  bool interchanged;
  Loc interchanged_at;
  const IrSym *moved_past;
} LoopLines;

static IrVisitStep lines_visit(IrStmt *s, IrVisit *v)
{
  LoopLines *ll = v->ctx;
  if (s->kind != IR_S_DO || s->u.loop.iv != ll->v)
    return IR_VISIT_CONTINUE;
  IR_APPEND(ll->locs, ll->n, ll->cap, s->loc);
  for (int i = 0; i < v->nloops && !ll->interchanged; i++)
    if (!in_list(ll->c, ll->nc, v->loops[i]->u.loop.iv)) {
      ll->interchanged = true;
      ll->interchanged_at = s->loc;
      ll->moved_past = v->loops[i]->u.loop.iv;
    }
  return IR_VISIT_CONTINUE;
}

/* "3,7,12" (arena): the loops' lines; a loop of another file than `at`'s
 * (a routine inlined from it) as "vmass.f90:11". */
static char *line_list(const Loc *locs, int n, Loc at)
{
  const char *here = diag_user_file(at);
  char *text = "";
  for (int i = 0; i < n; i++) {
    const char *file = diag_user_file(locs[i]);
    const char *base = strrchr(file, '/') ? strrchr(file, '/') + 1 : file;
    text = strcmp(file, here) == 0
        ? ir_printf("%s%s%d", text, i ? "," : "", diag_user_line(locs[i]))
        : ir_printf("%s%s%s:%d", text, i ? "," : "", base, diag_user_line(locs[i]));
  }
  return text;
}

void column_report(const ColumnCtx *cx, IrStmtList *stmts, IrSym *const *c, int nc)
{
  for (int k = 0; k < nc; k++) {
    LoopLines ll = { .c = c, .nc = nc, .v = c[k] };
    IrVisit v = { .pre = lines_visit, .ctx = &ll };
    ir_visit_stmts(stmts, &v);
    if (!ll.n)
      continue;
    if (ll.interchanged)
      report_at(REPORT_INFO, cx->routine, ll.interchanged_at,
                 "Loop interchanged: %s moved outside %s (line %d)", ir_sym_user_name(c[k]),
                 ir_sym_user_name(ll.moved_past), diag_user_line(ll.interchanged_at));
    if (ll.n > 1) {
      /* At the second loop, or the first of the region's own file after
       * loops of helpers inlined from another. */
      Loc at = ll.locs[1];
      for (int i = 1; i < ll.n && at.file != cx->file; i++)
        if (ll.locs[i].file == cx->file) at = ll.locs[i];
      report_at(REPORT_INFO, cx->routine, at, "Loops at lines %s fused (loop %s: one thread per "
                "column runs their bodies in order)", line_list(ll.locs, ll.n, at), ir_sym_user_name(c[k]));
    }
  }
}

/* ---- sets of statements (hash tables in the IR arena) --------------------------- */

typedef struct StmtSet {
  const IrStmt *stmt;
  UT_hash_handle hh;
} StmtSet;

static bool stmt_set_has(StmtSet *set, const IrStmt *s)
{
  StmtSet *e;
  HASH_FIND_PTR(set, &s, e);
  return e != NULL;
}

static IrVisitStep stmt_set_add(IrStmt *s, IrVisit *v)
{
  StmtSet **set = v->ctx;
  if (!stmt_set_has(*set, s)) {
    StmtSet *e = ir_alloc(sizeof *e);
    e->stmt = s;
    HASH_ADD_PTR(*set, stmt, e);
  }
  return IR_VISIT_CONTINUE;
}

/* Add the statements of l, nested ones too, to *set. */
static void stmts_of(IrStmtList *l, StmtSet **set)
{
  IrVisit v = { .pre = stmt_set_add, .ctx = set };
  ir_visit_stmts(l, &v);
}

/* ---- fusion of adjacent sequential loops inside a thread ------------------------- */

static bool same_header(const IrStmt *a, const IrStmt *b)
{
  long sa = 1, sb = 1;
  if (a->u.loop.step && !ir_eval_const(a->u.loop.step, &sa))
    return false;
  if (b->u.loop.step && !ir_eval_const(b->u.loop.step, &sb))
    return false;
  return a->u.loop.iv == b->u.loop.iv && sa == sb && same_expr(a->u.loop.lo, b->u.loop.lo) &&
         same_expr(a->u.loop.hi, b->u.loop.hi);
}

/* Where a statement list of the thread body sits, for asking whether a
 * scalar is read after a statement of it: the list, whether it is a DO
 * loop's body (run again from its top), and the statement of the enclosing
 * list whose body or branch it is (`at` in up->list; up NULL: the thread
 * body itself). */
typedef struct ListPlace {
  IrStmtList *list;
  bool loop_body;
  int at;
  const struct ListPlace *up;
} ListPlace;

/* Where two loops of a list are tried for fusion: x at list[head_end],
 * y's successors from list[tail_from] on (fuse_list compacts the list as
 * it goes: what lies between is x's and y's). */
typedef struct FusePlace {
  const ListPlace *place;
  int head_end, tail_from;
} FusePlace;

static IrExpr *exposed_range(IrSym *s, IrStmtList *l, int from, int to, IrSymSet *d)
{
  IrStmtList r = { to - from, to - from, l->v + from };
  return from < to ? exposed_list(&s, 1, &r, d) : NULL;
}

/* Is scalar s never read, after the two loops of fp, before it is assigned
 * again?  The statements after them, the rest of each enclosing list, and
 * the start of the next iteration of each enclosing loop are searched.  A
 * private scalar is dead at the end of the thread body: one that the host
 * reads after the region is refused before (access.c). */
static bool dead_after(IrSym *s, const FusePlace *fp)
{
  const ListPlace *p = fp->place;
  int head_end = fp->head_end, tail_from = fp->tail_from;
  for (;;) {
    IrSymSet d = { 0 };
    if (exposed_range(s, p->list, tail_from, p->list->n, &d))
      return false;
    if (ir_symset_has(&d, s))
      return true;
    if (p->loop_body && exposed_range(s, p->list, 0, head_end, &d))
      return false;
    if (!p->up)
      return true;
    head_end = p->at;
    tail_from = p->at + 1;
    p = p->up;
  }
}

/* May scalar s, assigned in one of the bodies a (first) and b and
 * mentioned in the other, stay as it is when they run as one loop?  Yes
 * when each body assigns it before any read of it in an iteration (every
 * iteration's value is its own, as in the unfused loops), and what the
 * fused loop leaves in it either does not matter (nothing reads it after
 * the loops before assigning it) or is b's last value as before (b surely
 * assigns it in every iteration).  Temporaries set in two loops under
 * IFs (`coeres` in WSM5's microphysics) are what this allows; a value one
 * loop leaves for the other is not. */
static bool scalar_private_to_iterations(IrStmtList *a, IrStmtList *b, IrSym *s,
                                         const FusePlace *fp)
{
  IrSymSet da = { 0 }, db = { 0 };
  if (exposed_list(&s, 1, a, &da) || exposed_list(&s, 1, b, &db))
    return false;
  return ir_symset_has(&db, s) || (fp && dead_after(s, fp));
}

/* A scalar assigned in one body and used in the other, other than the
 * temporaries of each iteration (scalar_private_to_iterations): the value
 * one loop leaves behind would change if the loops ran interleaved.  NULL:
 * none. */
static IrSym *shared_scalar(const ColumnCtx *cx, IrStmtList *a, IrStmtList *b, const IrSym *iv,
                            const FusePlace *fp)
{
  for (int i = 0; i < cx->nwritten; i++) {
    IrSym *s = cx->written[i];
    if (s == iv)
      continue;
    bool in_a = ir_assignment_of(a, s), in_b = ir_assignment_of(b, s);
    if (!in_a && !in_b)
      continue;
    Mention m = { &cx->written[i], 1, false };
    ir_walk_exprs(in_a ? b : a, mention_visit, &m);
    if ((m.found || (in_a && in_b)) && !scalar_private_to_iterations(a, b, s, fp))
      return s;
  }
  return NULL;
}

static const char *shared_scalar_why(const IrSym *s)
{
  return ir_printf("a scalar assigned in one loop is used in the other ('%s')", ir_sym_user_name(s));
}

/* May loops x and y (x first, same header) run as one loop?  Every
 * dependence from x's body to y's body must go forward or stay in one
 * iteration of the fused loop (then x's statements still come first). */
static bool fusion_legal(const ColumnCtx *cx, IrStmt *x, IrStmt *y, const FusePlace *fp,
                         const char **why)
{
  IrSym *shared = shared_scalar(cx, &x->u.loop.body, &y->u.loop.body, x->u.loop.iv, fp);
  if (shared) {
    *why = shared_scalar_why(shared);
    return false;
  }
  IrStmt *fused = ir_stmt(IR_S_DO, x->loc);
  fused->u.loop = x->u.loop;
  memset(&fused->u.loop.body, 0, sizeof fused->u.loop.body);
  for (int i = 0; i < x->u.loop.body.n; i++)
    ir_list_push(&fused->u.loop.body, x->u.loop.body.v[i]);
  for (int i = 0; i < y->u.loop.body.n; i++)
    ir_list_push(&fused->u.loop.body, y->u.loop.body.v[i]);
  IrStmtList one = { 1, 1, &fused };
  DepGraph g = { .nvariant = cx->nwritten, .variant = cx->written };
  dep_build(&one, &g);
  bool ok = true;
  for (int i = 0; i < g.ndeps && ok; i++) {
    const Dep *d = &g.deps[i];
    bool src_x = ir_list_contains(&x->u.loop.body, g.acc[d->src].stmt);
    bool dst_x = ir_list_contains(&x->u.loop.body, g.acc[d->dst].stmt);
    if (src_x == dst_x)
      continue;
    int l = dep_loop_level(&g, d, fused);
    /* distance along the fused loop from src to dst; from x to y it must be >= 0,
     * and a pair oriented from y to x must have distance 0 (then x is first) */
    if (l < 0 || !d->known[l] || (src_x ? d->dist[l] < 0 : d->dist[l] != 0))
      ok = false;
  }
  dep_free(&g);
  if (!ok)
    *why = "a dependence between them would run backwards";
  return ok;
}

/* fuse_list fuses runs of loops, each time the loop fused so far (x) and
 * the next (y).  fusion_legal looks at the whole fused body: every pair of
 * its accesses and a walk per scalar, so a run of n loops costs n^2 or
 * more.  But only some pairs can make it false: one end in x's body and the
 * other in y's, or one end in the fused loop's bounds (no loop level) and
 * the other in x's body.  A FuseChain keeps what x has (accesses as in the
 * fused loop, by array; statements; the scalars it assigns and mentions),
 * so that trying y costs in proportion to y and to x's accesses of the
 * arrays y uses, with fusion_legal's answers. */

typedef struct ChainArray {     /* x's accesses of one array */
  const IrSym *sym;
  int n, nwrites, cap, capw;
  int *all, *writes;            /* indices into the chain's acc[] */
  UT_hash_handle hh;
} ChainArray;

typedef struct FuseChain {
  const ColumnCtx *cx;
  const IrSymSet *written;      /* cx->written */
  IrStmt *loop;                 /* x, NULL before the first try */
  IrStmt *fused;                /* x's header: the outermost loop of the accesses */
  DepGraph g;                   /* the bounds' accesses, x's, then y's while it is tried */
  int nbound, nx, cap;          /* acc[0..nbound) bounds, [nbound..nx) x's body */
  bool bound_dep;               /* a dependence between the bounds and x's body */
  ChainArray *arrays;
  StmtSet *stmts;               /* x's statements, nested ones too */
  IrSymSet assigned, mentioned; /* written scalars (not the index) x assigns, mentions */
  IrSymSet y_assigned, y_mentioned;
} FuseChain;

static void chain_clear(FuseChain *ch)
{
  ChainArray *a, *tmp;
  HASH_ITER(hh, ch->arrays, a, tmp) {
    HASH_DEL(ch->arrays, a);
    free(a->all);
    free(a->writes);
    free(a);
  }
  dep_free(&ch->g);
  FuseChain empty = { .cx = ch->cx, .written = ch->written };
  *ch = empty;
}

static void push_index(int **v, int *n, int *cap, int i)
{
  if (*n == *cap) {
    *cap = *cap ? 2 * *cap : 8;
    *v = xrealloc(*v, sizeof **v * (size_t)*cap);
  }
  (*v)[(*n)++] = i;
}

/* acc[from..to) become x's. */
static void chain_index(FuseChain *ch, int from, int to)
{
  for (int i = from; i < to; i++) {
    const IrSym *sym = ch->g.acc[i].ref->u.elem.sym;
    ChainArray *a;
    HASH_FIND_PTR(ch->arrays, &sym, a);
    if (!a) {
      a = xcalloc(1, sizeof *a);
      a->sym = sym;
      HASH_ADD_PTR(ch->arrays, sym, a);
    }
    push_index(&a->all, &a->n, &a->cap, i);
    if (ch->g.acc[i].write)
      push_index(&a->writes, &a->nwrites, &a->capw, i);
  }
  ch->nx = to;
}

/* Is there a dependence between a bound access and acc[from..to)? */
static bool bound_dep(const FuseChain *ch, int from, int to)
{
  Dep d;
  for (int b = 0; b < ch->nbound; b++)
    for (int i = from; i < to; i++)
      if (ch->g.acc[b].ref->u.elem.sym == ch->g.acc[i].ref->u.elem.sym &&
          (ch->g.acc[b].write || ch->g.acc[i].write) && dep_pair(&ch->g, b, i, &d))
        return true;
  return false;
}

typedef struct Mentioned {
  const IrSymSet *written;
  IrSymSet *out;
  const IrSym *iv;
} Mentioned;

static void mentioned_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  Mentioned *m = ctx;
  (void)in;
  if (e->kind == IR_E_VAR && e->u.var != m->iv && ir_symset_has(m->written, e->u.var))
    ir_symset_add(m->out, e->u.var);
}

/* The written scalars (not iv) body assigns and mentions, as share_scalars
 * sees them (ir_assignment_of, mention_visit). */
static void body_scalars(const FuseChain *ch, IrStmtList *body, const IrSym *iv,
                         IrSymSet *assigned, IrSymSet *mentioned)
{
  IrSymSet a = { 0 };
  ir_assigned_scalars(body, &a);
  for (int i = 0; i < a.n; i++)
    if (a.syms[i] != iv && ir_symset_has(ch->written, a.syms[i]))
      ir_symset_add(assigned, a.syms[i]);
  Mentioned m = { ch->written, mentioned, iv };
  ir_walk_exprs(body, mentioned_visit, &m);
}

/* shared_scalar(x's body, y's body) from the chain's sets. */
static IrSym *chain_shares(const FuseChain *ch, IrStmt *x, IrStmt *y, const FusePlace *fp)
{
  for (int i = 0; i < ch->y_assigned.n; i++) {
    IrSym *s = ch->y_assigned.syms[i];
    if ((ir_symset_has(&ch->assigned, s) || ir_symset_has(&ch->mentioned, s)) &&
        !scalar_private_to_iterations(&x->u.loop.body, &y->u.loop.body, s, fp))
      return s;
  }
  for (int i = 0; i < ch->y_mentioned.n; i++) {
    IrSym *s = ch->y_mentioned.syms[i];
    if (ir_symset_has(&ch->assigned, s) &&
        !scalar_private_to_iterations(&x->u.loop.body, &y->u.loop.body, s, fp))
      return s;
  }
  return NULL;
}

static void chain_start(FuseChain *ch, IrStmt *x)
{
  chain_clear(ch);
  ch->loop = x;
  ch->fused = ir_stmt(IR_S_DO, x->loc);
  ch->fused->u.loop = x->u.loop;        /* as fusion_legal's fused loop, x's body for now */
  IrStmtList one = { 1, 1, &ch->fused };
  DepGraph g = { .nvariant = ch->cx->nwritten, .variant = ch->cx->written };
  dep_collect(&one, &g);
  ch->g = g;
  ch->cap = g.nacc;
  while (ch->nbound < g.nacc && !g.acc[ch->nbound].nloops)
    ch->nbound++;
  chain_index(ch, ch->nbound, g.nacc);
  ch->bound_dep = bound_dep(ch, ch->nbound, g.nacc);
  stmts_of(&x->u.loop.body, &ch->stmts);
  body_scalars(ch, &x->u.loop.body, x->u.loop.iv, &ch->assigned, &ch->mentioned);
}

/* Append y's accesses; false if y shares a statement with x (then only
 * fusion_legal knows which pairs count). */
static bool chain_add_y(FuseChain *ch, IrStmt *y)
{
  DepGraph yg;
  dep_collect_in(&y->u.loop.body, ch->fused, &yg);
  bool shared = false;
  for (int i = 0; i < yg.nacc && !shared; i++)
    shared = stmt_set_has(ch->stmts, yg.acc[i].stmt);
  if (ch->g.nacc + yg.nacc > ch->cap) {
    ch->cap = 2 * (ch->g.nacc + yg.nacc);
    ch->g.acc = xrealloc(ch->g.acc, sizeof *ch->g.acc * (size_t)ch->cap);
  }
  if (yg.nacc)
    memcpy(ch->g.acc + ch->g.nacc, yg.acc, sizeof *yg.acc * (size_t)yg.nacc);
  ch->g.nacc += yg.nacc;
  dep_free(&yg);
  return !shared;
}

/* Does every dependence between x's accesses and y's go forward (or stay
 * in one iteration, x first) along the fused loop? */
static bool chain_forward(const FuseChain *ch)
{
  for (int j = ch->nx; j < ch->g.nacc; j++) {
    const IrSym *sym = ch->g.acc[j].ref->u.elem.sym;
    ChainArray *a;
    HASH_FIND_PTR(ch->arrays, &sym, a);
    if (!a)
      continue;
    int n = ch->g.acc[j].write ? a->n : a->nwrites;
    const int *xs = ch->g.acc[j].write ? a->all : a->writes;
    for (int k = 0; k < n; k++) {
      Dep d;
      if (!dep_pair(&ch->g, xs[k], j, &d))
        continue;
      bool src_x = d.src < ch->nx;
      int l = dep_loop_level(&ch->g, &d, ch->fused);
      if (l < 0 || !d.known[l] || (src_x ? d.dist[l] < 0 : d.dist[l] != 0))
        return false;
    }
  }
  return true;
}

/* fusion_legal(x, y), x the chain's loop (the chain starts there if not). */
static bool chain_fusion_legal(FuseChain *ch, IrStmt *x, IrStmt *y, const FusePlace *fp,
                               const char **why)
{
  if (ch->loop != x)
    chain_start(ch, x);
  ch->g.nacc = ch->nx;
  ch->y_assigned = ch->y_mentioned = (IrSymSet){ 0 };
  body_scalars(ch, &y->u.loop.body, x->u.loop.iv, &ch->y_assigned, &ch->y_mentioned);
  IrSym *shared = chain_shares(ch, x, y, fp);
  if (shared) {
    *why = shared_scalar_why(shared);
    return false;
  }
  if (!chain_add_y(ch, y))
    return fusion_legal(ch->cx, x, y, fp, why);
  if (ch->bound_dep || !chain_forward(ch)) {
    *why = "a dependence between them would run backwards";
    return false;
  }
  return true;
}

/* x and y were fused into f: y's accesses, statements and scalars are x's now. */
static void chain_absorb(FuseChain *ch, IrStmt *f, IrStmt *y)
{
  int from = ch->nx;
  chain_index(ch, from, ch->g.nacc);
  ch->bound_dep |= bound_dep(ch, from, ch->g.nacc);
  stmts_of(&y->u.loop.body, &ch->stmts);
  for (int i = 0; i < ch->y_assigned.n; i++)
    ir_symset_add(&ch->assigned, ch->y_assigned.syms[i]);
  for (int i = 0; i < ch->y_mentioned.n; i++)
    ir_symset_add(&ch->mentioned, ch->y_mentioned.syms[i]);
  ch->loop = f;
}

/* Loops x and y (x first) that run over the same values under different
 * indices (an array-syntax statement's s2s_i2 loop before the user's
 * `do k`): x's index may become y's when neither body names the other's
 * index and nothing reads x's index after the loops (its value when they
 * end), so that the two can be fused. */
static bool renamable(IrStmt *x, IrStmt *y, const FusePlace *fp)
{
  long sx = 1, sy = 1;
  if ((x->u.loop.step && !ir_eval_const(x->u.loop.step, &sx)) ||
      (y->u.loop.step && !ir_eval_const(y->u.loop.step, &sy)))
    return false;
  return x->u.loop.iv != y->u.loop.iv && sx == sy && same_expr(x->u.loop.lo, y->u.loop.lo) &&
         same_expr(x->u.loop.hi, y->u.loop.hi) && !ir_list_mentions(&x->u.loop.body, y->u.loop.iv) &&
         !ir_list_mentions(&y->u.loop.body, x->u.loop.iv) && dead_after(x->u.loop.iv, fp);
}

typedef struct Rename {
  const IrSym *from;
  IrSym *to;
} Rename;

static void rename_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  const Rename *r = ctx;
  (void)in;
  if (e->kind == IR_E_VAR && e->u.var == r->from)
    e->u.var = r->to;
}

/* Loop x runs over index `to` instead of its own. */
static void rename_index(IrStmt *x, IrSym *to)
{
  Rename r = { x->u.loop.iv, to };
  ir_walk_exprs(&x->u.loop.body, rename_visit, &r);
  x->u.loop.iv = to;
}

/* Not on the visitor: it rewrites each statement list, after the lists
 * nested in it. */
static void fuse_list(const ColumnCtx *cx, const IrSymSet *written, const ListPlace *place)
{
  IrStmtList *l = place->list;
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    if (s->kind == IR_S_DO) {
      ListPlace body = { &s->u.loop.body, true, i, place };
      fuse_list(cx, written, &body);
    }
    if (s->kind == IR_S_IF) {
      ListPlace then = { &s->u.cond.then, false, i, place };
      ListPlace els = { &s->u.cond.els, false, i, place };
      fuse_list(cx, written, &then);
      fuse_list(cx, written, &els);
    }
  }
  FuseChain chain = { .cx = cx, .written = written };
  /* Whether a CYCLE or EXIT leaves loop `checked`: remembered, or a run of
   * fusions would walk the growing fused body once per loop added. */
  const IrStmt *checked = NULL;
  bool checked_exits = false;
  int k = 0;
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    IrStmt *prev = k ? l->v[k - 1] : NULL;
    const char *why = NULL;
    FusePlace fp = { place, k - 1, i + 1 };
    IrSym *renamed_from = NULL;   /* prev's own index, while it runs over s's to be tried */
    if (prev && prev->kind == IR_S_DO && s->kind == IR_S_DO && !same_header(prev, s) &&
        renamable(prev, s, &fp)) {
      renamed_from = prev->u.loop.iv;
      rename_index(prev, s->u.loop.iv);
      chain_clear(&chain);        /* its accesses were prev's under the old index */
    }
    if (prev && prev->kind == IR_S_DO && s->kind == IR_S_DO && same_header(prev, s)) {
      /* a CYCLE or EXIT of either loop would, fused, also skip the other's
       * statements (found by random differential testing) */
      bool prev_exits = prev == checked
                        ? checked_exits
                        : loop_exit(&prev->u.loop.body, prev->u.loop.iv, true) != NULL;
      bool s_exits = !prev_exits && loop_exit(&s->u.loop.body, s->u.loop.iv, true);
      if (!prev_exits) {
        checked = s;
        checked_exits = s_exits;
      }
      if (prev_exits || s_exits)
        why = "a CYCLE or EXIT in one of them would also skip the other's statements";
      else if (chain_fusion_legal(&chain, prev, s, &fp, &why)) {
        IrStmt *f = ir_stmt(IR_S_DO, prev->loc);
        f->u.loop = prev->u.loop;  /* and prev's body list: prev is replaced, s's body goes on its end */
        for (int t = 0; t < s->u.loop.body.n; t++)
          ir_list_push(&f->u.loop.body, s->u.loop.body.v[t]);
        report_at(REPORT_INFO, cx->routine, s->loc,
                   "Loops at lines %d,%d fused (loop %s, inside each thread)",
                   diag_user_line(prev->loc), diag_user_line(s->loc), ir_sym_user_name(s->u.loop.iv));
        chain_absorb(&chain, f, s);
        l->v[k - 1] = f;
        checked = f;               /* neither loop had one */
        checked_exits = false;
        continue;
      }
      if (!renamed_from)          /* loops over other indices are not fusion's usual pairs */
        report_at(REPORT_NOTE, cx->routine, s->loc,
                   "Loops at lines %d,%d not fused: %s", diag_user_line(prev->loc),
                   diag_user_line(s->loc), why);
    }
    if (renamed_from) {           /* not fused: prev keeps its own index */
      rename_index(prev, renamed_from);
      chain_clear(&chain);
    }
    l->v[k++] = s;
  }
  l->n = k;
  chain_clear(&chain);
}

void column_fuse(const ColumnCtx *cx, IrStmtList *body)
{
  IrSymSet written = { 0 };
  for (int i = 0; i < cx->nwritten; i++)
    ir_symset_add(&written, cx->written[i]);
  ListPlace top = { body, false, 0, NULL };
  fuse_list(cx, &written, &top);
}

/* ---- column indices of a growing run of statements ---------------------------- */

/* split_groups (map.c) asks, statement after statement, for the column
 * indices of the current group plus the next statement.  column_indices
 * looks at the whole group each time: a region of n nests costs n^2.  But
 * for one index v the conditions of column_index are facts of single
 * statements, combined over the run:
 *   - a loop header, `kernel` or CYCLE/EXIT that rules v out in one
 *     statement rules it out in every run that holds the statement;
 *   - `independent` must be on every loop over v;
 *   - an array written anywhere in the run needs v in one dimension of
 *     every access, the dimension its first access fixes: per array, that
 *     dimension and whether an access broke it, replayed statement by
 *     statement in order;
 *   - a scalar assigned in a loop over v (in any statement) must not be
 *     read outside those loops, nor before it is assigned in them (in any).
 * A ColumnRun keeps these per index (RunIv) and per array and scalar, and
 * the facts of each statement (StmtFacts: once per statement and index),
 * so trying or adding a statement costs in proportion to the statement.
 * The index candidates are those column_indices sees: the first
 * COLUMN_CANDIDATES loop indices in the order of the walk.  Tables and facts
 * live in the IR arena; column_scope_free releases the access lists. */

/* The accesses of one array in one statement. */
typedef struct StmtArray {
  const IrSym *sym;
  bool written;
  int n;
  int *idx;                 /* into the statement's acc[] */
} StmtArray;

/* A written scalar of a statement, for one index v. */
typedef struct StmtScalar {
  const IrSym *sym;
  bool assigned;            /* assigned inside a loop over v */
  bool bad;                 /* read outside the loops over v that assign it, or before */
} StmtScalar;

/* One statement, one index v. */
typedef struct StmtIv {
  IrSym *v;
  bool fails;               /* a loop header, `kernel` or CYCLE/EXIT rules v out */
  bool all_independent;     /* every loop over v asserts `independent` */
  bool shared_write;        /* a write, to an array not private, whose subscripts do not
                               mention v (check_shared_writes) */
  int stride1;              /* references with v at unit stride in their fastest dimension */
  bool *inside;             /* per access: inside a loop over v */
  unsigned *exact;          /* per access: the dimensions whose subscript is v itself */
  bool *mentions;           /* per access: a subscript mentions v */
  const IrStmt **vloop;     /* per access: the outermost loop over v around it, or NULL */
  int nscalars;
  StmtScalar *scalars;
} StmtIv;

typedef struct StmtFacts {
  IrStmt *s;
  IrStmtList one;           /* { s } */
  DepGraph g;               /* its accesses */
  IrSymSet ivs;             /* its loop indices, in the order of the walk */
  int narrays;
  StmtArray *arrays;        /* in the order of their first access */
  IrSymSet reads;           /* written scalars it mentions */
  int nfacts;
  StmtIv **facts;           /* per index asked */
  UT_hash_handle hh;        /* in ColumnScope.stmts, keyed by s */
} StmtFacts;

struct ColumnScope {
  ColumnCtx cx;
  IrSymSet written;         /* cx.written */
  IrSymSet private_arrays;  /* cx.private_arrays */
  StmtFacts *stmts;
};

/* The state of one array, for one index, after the run's accesses. */
typedef struct IvArray {
  const IrSym *sym;
  int dim;                  /* the dimension the first access fixed, -1 none yet */
  bool broken;              /* an access was not a column access */
  bool mentions;            /* an access has v in a subscript */
  /* for a private array not indexed by v (check_private_array) */
  bool written_in_v;        /* stored inside a loop over v */
  bool outside;             /* accessed outside every loop over v */
  const IrStmt *vloop;      /* the loop over v of its accesses ... */
  bool other_vloop;         /* ... and one in another loop over v */
  UT_hash_handle hh;
} IvArray;

typedef struct IvScalar {
  const IrSym *sym;
  bool assigned, bad;       /* in some statement of the run (see StmtScalar) */
  UT_hash_handle hh;
} IvScalar;

/* The conditions of column_index(run, v), summarized. */
typedef struct RunIv {
  IrSym *v;
  bool fails, all_independent, shared_write;
  int stride1;
  int nbroken;              /* arrays written in the run, not private, broken */
  int nbad;                 /* scalars assigned and bad */
  IvArray *arrays;
  IvScalar *scalars;
} RunIv;

typedef struct RunArray {
  const IrSym *sym;
  bool written;
  UT_hash_handle hh;
} RunArray;

struct ColumnRun {
  ColumnScope *scope;
  int nstmts, cap;
  StmtFacts **stmts;
  IrSymSet ivs;             /* loop indices, in the order of the walk */
  int nruniv;
  RunIv **runiv;            /* per index asked */
  RunArray *arrays;         /* every array accessed */
};

ColumnScope *column_scope_new(const ColumnCtx *cx)
{
  ColumnScope *sc = ir_alloc(sizeof *sc);
  sc->cx = *cx;
  for (int i = 0; i < cx->nwritten; i++)
    ir_symset_add(&sc->written, cx->written[i]);
  for (int i = 0; i < cx->nprivate_arrays; i++)
    ir_symset_add(&sc->private_arrays, cx->private_arrays[i]);
  return sc;
}

void column_scope_free(ColumnScope *sc)
{
  StmtFacts *f, *tmp;
  HASH_ITER(hh, sc->stmts, f, tmp)
    dep_free(&f->g);
  sc->stmts = NULL;
}

/* ---- facts of one statement ---- */

typedef struct ReadsCtx {
  const IrSymSet *written;
  IrSymSet *reads;
} ReadsCtx;

static void add_read(IrExpr *e, IrStmt *in, void *ctx)
{
  ReadsCtx *r = ctx;
  (void)in;
  if (e->kind == IR_E_VAR && ir_symset_has(r->written, e->u.var))
    ir_symset_add(r->reads, e->u.var);
}

static StmtFacts *stmt_facts(ColumnScope *sc, IrStmt *s)
{
  StmtFacts *f;
  HASH_FIND_PTR(sc->stmts, &s, f);
  if (f)
    return f;
  f = ir_alloc(sizeof *f);
  f->s = s;
  ir_list_push(&f->one, s);
  column_accesses(&sc->cx, &f->one, &f->g);
  loop_indices(&f->one, &f->ivs);
  DepArray *arrays = dep_arrays(&f->g), *a, *tmp;
  f->arrays = ir_alloc(sizeof *f->arrays * (size_t)(HASH_COUNT(arrays) + 1));
  HASH_ITER(hh, arrays, a, tmp) {
    StmtArray *sa = &f->arrays[f->narrays++];
    sa->sym = a->sym;
    sa->written = a->written;
    sa->n = a->n;
    sa->idx = ir_alloc(sizeof *sa->idx * (size_t)a->n);
    memcpy(sa->idx, a->idx, sizeof *sa->idx * (size_t)a->n);
  }
  dep_arrays_free(arrays);
  ReadsCtx r = { &sc->written, &f->reads };
  ir_walk_exprs(&f->one, add_read, &r);
  HASH_ADD_PTR(sc->stmts, s, f);
  return f;
}

typedef struct InVLoops { const IrSym *v; IrSymSet *out; } InVLoops;

static IrVisitStep in_v_loops_pre(IrStmt *t, IrVisit *vis)
{
  InVLoops *q = vis->ctx;
  if (!ir_visit_loop_over(vis, q->v))
    return IR_VISIT_CONTINUE;
  if (t->kind == IR_S_ASSIGN && t->u.assign.lhs->kind == IR_E_VAR)
    ir_symset_add(q->out, t->u.assign.lhs->u.var);
  else if (t->kind == IR_S_DO)
    ir_symset_add(q->out, t->u.loop.iv);
  return IR_VISIT_CONTINUE;
}

/* Scalars assigned inside loops over v: those assigned_in_v_loop finds. */
static void assigned_in_v_loops(IrStmtList *l, const IrSym *v, IrSymSet *out)
{
  InVLoops q = { v, out };
  IrVisit vis = { .pre = in_v_loops_pre, .ctx = &q };
  ir_visit_stmts(l, &vis);
}

/* The written scalars of f that check_scalars could look at for v: those
 * assigned in a loop over v, and those whose reads scan_uses rejects. */
static void scalar_facts(ColumnScope *sc, StmtFacts *f, StmtIv *fv)
{
  Check c = { &sc->cx, fv->v, &f->one, true, NULL, { 0, 0, 0 }, true, 0, false };
  IrSymSet bad = { 0 };
  for (int i = 0; i < f->reads.n; i++) {
    ScalarUse u = { &c, f->reads.syms[i], { 0, 0, 0 }, false, NULL };
    scan_uses(&f->one, &u);
    if (u.found || u.exposed)
      ir_symset_add(&bad, f->reads.syms[i]);
  }
  IrSymSet assigned = { 0 };
  assigned_in_v_loops(&f->one, fv->v, &assigned);
  const RegionPlan *p = sc->cx.plan;
  fv->scalars = ir_alloc(sizeof *fv->scalars * (size_t)(assigned.n + f->reads.n + (p ? p->nreductions : 0) + 1));
  for (int i = 0; i < assigned.n; i++)
    if (ir_symset_has(&sc->written, assigned.syms[i]) && !gpu_reduction(p, assigned.syms[i]))
      fv->scalars[fv->nscalars++] =
        (StmtScalar){ assigned.syms[i], true, ir_symset_has(&bad, assigned.syms[i]) };
  for (int i = 0; i < f->reads.n; i++)
    if (ir_symset_has(&bad, f->reads.syms[i]) && !ir_symset_has(&assigned, f->reads.syms[i]) &&
        !gpu_reduction(p, f->reads.syms[i]))
      fv->scalars[fv->nscalars++] = (StmtScalar){ f->reads.syms[i], false, true };
  /* check_reduction's two conditions as one pair: a stray update rules v
   * out alone; an update in a loop over v does with a read of the result
   * anywhere in the run */
  for (int i = 0; p && i < p->nreductions; i++) {
    const ReductionPlan *r = &p->reductions[i];
    if (!r->gpu)
      continue;
    ReductionUse u = reduction_use(&f->one, r, fv->v);
    if (u.stray || u.updated_in_v || u.read)
      fv->scalars[fv->nscalars++] =
        (StmtScalar){ r->sym, u.stray || u.updated_in_v, u.stray || u.read };
  }
}

/* The dimensions of ref whose subscript is v itself (see column_access). */
_Static_assert(IR_MAX_RANK <= 32, "a dimension mask is an unsigned");
static unsigned exact_dims(const IrExpr *ref, const IrSym *v)
{
  unsigned dims = 0;
  for (int d = 0; d < ref->u.elem.n; d++) {
    Affine f;
    if (aff_build(ref->u.elem.sub[d], &f) && f.n == 1 && f.c == 0 && f.t[0].var == v &&
        f.t[0].coef == 1 && !f.t[0].scale)
      dims |= 1u << d;
  }
  return dims;
}

static bool unit_stride(const IrExpr *ref, const IrSym *v)
{
  Affine f;
  if (!ref->u.elem.n || !aff_build(ref->u.elem.sub[0], &f))
    return false;
  const AffTerm *t = aff_term(&f, v);
  return t && !t->scale && (t->coef == 1 || t->coef == -1);
}

static StmtIv *stmt_iv(ColumnScope *sc, StmtFacts *f, IrSym *v)
{
  for (int i = 0; i < f->nfacts; i++)
    if (f->facts[i]->v == v)
      return f->facts[i];
  StmtIv *fv = ir_alloc(sizeof *fv);
  fv->v = v;
  Check c = { &sc->cx, v, &f->one, true, NULL, { 0, 0, 0 }, true, 0, false };
  if (under_kernel(&f->one, v))
    fail(&c, f->s->loc, "");
  check_loops(&c, &f->one);
  fv->fails = !c.ok || loop_exit(&f->one, v, false);
  fv->all_independent = c.all_independent;
  fv->shared_write = xf_shared_write(&f->g, v, sc->cx.private_arrays, sc->cx.nprivate_arrays) != NULL;
  fv->inside = ir_alloc(sizeof *fv->inside * (size_t)(f->g.nacc + 1));
  fv->exact = ir_alloc(sizeof *fv->exact * (size_t)(f->g.nacc + 1));
  fv->mentions = ir_alloc(sizeof *fv->mentions * (size_t)(f->g.nacc + 1));
  fv->vloop = ir_alloc(sizeof *fv->vloop * (size_t)(f->g.nacc + 1));
  for (int i = 0; i < f->g.nacc; i++) {
    const Access *a = &f->g.acc[i];
    for (int l = 0; l < a->nloops; l++)
      fv->inside[i] |= a->loops[l]->u.loop.iv == v;
    fv->exact[i] = exact_dims(a->ref, v);
    for (int d = 0; d < a->ref->u.elem.n; d++)
      fv->mentions[i] |= ir_expr_mentions(a->ref->u.elem.sub[d], v);
    fv->vloop[i] = outer_v_loop(a, v);
    fv->stride1 += unit_stride(a->ref, v);
  }
  scalar_facts(sc, f, fv);
  IR_PUSH(f->facts, f->nfacts, fv);
  return fv;
}

/* ---- the run ---- */

ColumnRun *column_run_new(ColumnScope *sc)
{
  ColumnRun *r = ir_alloc(sizeof *r);
  r->scope = sc;
  return r;
}

static bool run_written(const ColumnRun *r, const IrSym *sym)
{
  RunArray *a;
  HASH_FIND_PTR(r->arrays, &sym, a);
  return a && a->written;
}

/* One more access of an array, as check_arrays replays them: the first
 * fixes the dimension, each must be inside a loop over v with v there. */
static void replay_access(bool inside, unsigned exact, int *dim, bool *broken)
{
  if (*broken)
    return;
  if (!inside || !exact || (*dim >= 0 && !(exact & (1u << *dim)))) {
    *broken = true;
    return;
  }
  if (*dim < 0)
    for (*dim = 0; !(exact & (1u << *dim)); ++*dim)
      ;
}

/* Does the array rule v out (check_arrays)?  A written array that is not
 * private: when an access is no column access; a private one: as
 * check_private_array says (e: its state, for a private array). */
static bool counts_broken(const ColumnRun *r, const IrSym *sym, bool written, bool broken,
                          bool mentions)
{
  if (ir_symset_has(&r->scope->private_arrays, sym))
    return broken && mentions;
  return written && broken;
}

/* A private array's own condition beyond counts_broken: not indexed by v,
 * stored in a loop over v and accessed outside it or in another one. */
static bool private_rules_out(const ColumnRun *r, const IrSym *sym, bool mentions,
                              bool written_in_v, bool outside, bool other_vloop)
{
  return ir_symset_has(&r->scope->private_arrays, sym) && !mentions && written_in_v &&
         (outside || other_vloop);
}

/* Does array state e (with `written` for the run) rule v out? */
static bool iv_array_rules_out(const ColumnRun *r, const IvArray *e, bool written)
{
  return counts_broken(r, e->sym, written, e->broken, e->mentions) ||
         private_rules_out(r, e->sym, e->mentions, e->written_in_v, e->outside, e->other_vloop);
}

/* One more access of a private array not indexed by v, for private_rules_out. */
static void replay_private(const StmtIv *fv, int i, bool write, bool *written_in_v, bool *outside,
                           const IrStmt **vloop, bool *other_vloop)
{
  const IrStmt *l = fv->vloop[i];
  *written_in_v |= l && write;
  if (!l)
    *outside = true;
  else if (*vloop && l != *vloop)
    *other_vloop = true;
  if (l && !*vloop)
    *vloop = l;
}

static IvArray *iv_array(RunIv *ri, const IrSym *sym)
{
  IvArray *e;
  HASH_FIND_PTR(ri->arrays, &sym, e);
  if (!e) {
    e = ir_alloc(sizeof *e);
    e->sym = sym;
    e->dim = -1;
    HASH_ADD_PTR(ri->arrays, sym, e);
  }
  return e;
}

static IvScalar *iv_scalar(RunIv *ri, const IrSym *sym)
{
  IvScalar *e;
  HASH_FIND_PTR(ri->scalars, &sym, e);
  if (!e) {
    e = ir_alloc(sizeof *e);
    e->sym = sym;
    HASH_ADD_PTR(ri->scalars, sym, e);
  }
  return e;
}

/* Add statement f to the summary ri (the arrays' written flags of the run
 * are those before f; run_add_arrays updates them after). */
static void run_iv_add(const ColumnRun *r, RunIv *ri, StmtFacts *f, const StmtIv *fv)
{
  ri->fails |= fv->fails;
  ri->all_independent &= fv->all_independent;
  ri->shared_write |= fv->shared_write;
  ri->stride1 += fv->stride1;
  for (int i = 0; i < f->narrays; i++) {
    const StmtArray *sa = &f->arrays[i];
    IvArray *e = iv_array(ri, sa->sym);
    bool written = run_written(r, sa->sym);
    bool was = iv_array_rules_out(r, e, written);
    for (int p = 0; p < sa->n; p++) {
      int k = sa->idx[p];
      replay_access(fv->inside[k], fv->exact[k], &e->dim, &e->broken);
      e->mentions |= fv->mentions[k];
      replay_private(fv, k, f->g.acc[k].write, &e->written_in_v, &e->outside, &e->vloop,
                     &e->other_vloop);
    }
    ri->nbroken += iv_array_rules_out(r, e, written) - was;
  }
  for (int i = 0; i < fv->nscalars; i++) {
    IvScalar *e = iv_scalar(ri, fv->scalars[i].sym);
    bool was = e->assigned && e->bad;
    e->assigned |= fv->scalars[i].assigned;
    e->bad |= fv->scalars[i].bad;
    ri->nbad += (e->assigned && e->bad) - was;
  }
}

/* The arrays f accesses join the run; those it writes first count now. */
static void run_add_arrays(ColumnRun *r, const StmtFacts *f)
{
  for (int i = 0; i < f->narrays; i++) {
    const StmtArray *sa = &f->arrays[i];
    RunArray *a;
    HASH_FIND_PTR(r->arrays, &sa->sym, a);
    if (!a) {
      a = ir_alloc(sizeof *a);
      a->sym = sa->sym;
      HASH_ADD_PTR(r->arrays, sym, a);
    }
    if (a->written || !sa->written)
      continue;
    a->written = true;
    for (int k = 0; k < r->nruniv; k++) {
      IvArray *e = iv_array(r->runiv[k], sa->sym);
      r->runiv[k]->nbroken += counts_broken(r, sa->sym, true, e->broken, e->mentions) -
                              counts_broken(r, sa->sym, false, e->broken, e->mentions);
    }
  }
}

/* The summary of the run for index v, made from its statements when first asked. */
static RunIv *run_iv(ColumnRun *r, IrSym *v)
{
  for (int i = 0; i < r->nruniv; i++)
    if (r->runiv[i]->v == v)
      return r->runiv[i];
  RunIv *ri = ir_alloc(sizeof *ri);
  ri->v = v;
  ri->all_independent = true;
  if (ir_symset_has(&r->scope->written, v))
    iv_scalar(ri, v)->assigned = true;  /* check_scalars always looks at v itself */
  /* replay with the written flags of the whole run: count broken arrays at the end */
  for (int i = 0; i < r->nstmts; i++) {
    StmtFacts *f = r->stmts[i];
    StmtIv *fv = stmt_iv(r->scope, f, v);
    ri->fails |= fv->fails;
    ri->all_independent &= fv->all_independent;
    ri->shared_write |= fv->shared_write;
    ri->stride1 += fv->stride1;
    for (int k = 0; k < f->narrays; k++) {
      const StmtArray *sa = &f->arrays[k];
      IvArray *e = iv_array(ri, sa->sym);
      for (int p = 0; p < sa->n; p++) {
        int x = sa->idx[p];
        replay_access(fv->inside[x], fv->exact[x], &e->dim, &e->broken);
        e->mentions |= fv->mentions[x];
        replay_private(fv, x, f->g.acc[x].write, &e->written_in_v, &e->outside, &e->vloop,
                       &e->other_vloop);
      }
    }
    for (int k = 0; k < fv->nscalars; k++) {
      IvScalar *e = iv_scalar(ri, fv->scalars[k].sym);
      e->assigned |= fv->scalars[k].assigned;
      e->bad |= fv->scalars[k].bad;
    }
  }
  IvArray *a, *ta;
  HASH_ITER(hh, ri->arrays, a, ta)
    ri->nbroken += iv_array_rules_out(r, a, run_written(r, a->sym));
  IvScalar *s, *ts;
  HASH_ITER(hh, ri->scalars, s, ts)
    ri->nbad += s->assigned && s->bad;
  IR_PUSH(r->runiv, r->nruniv, ri);
  return ri;
}

void column_run_push(ColumnRun *r, IrStmt *s)
{
  StmtFacts *f = stmt_facts(r->scope, s);
  for (int i = 0; i < r->nruniv; i++)
    run_iv_add(r, r->runiv[i], f, stmt_iv(r->scope, f, r->runiv[i]->v));
  run_add_arrays(r, f);
  for (int i = 0; i < f->ivs.n; i++)
    ir_symset_add(&r->ivs, f->ivs.syms[i]);
  IR_APPEND(r->stmts, r->nstmts, r->cap, f);
}

/* Would v be a column index of the run plus f (NULL: the run alone)?
 * column_index's answer, from the summaries (keep the two in step). */
static bool run_column_index(ColumnRun *r, StmtFacts *f, IrSym *v)
{
  RunIv *ri = run_iv(r, v);
  bool fails = ri->fails, all_independent = ri->all_independent, shared = ri->shared_write;
  int nbroken = ri->nbroken, nbad = ri->nbad;
  if (f) {
    const StmtIv *fv = stmt_iv(r->scope, f, v);
    fails |= fv->fails;
    all_independent &= fv->all_independent;
    shared |= fv->shared_write;
    for (int i = 0; i < f->narrays; i++) {
      const StmtArray *sa = &f->arrays[i];
      IvArray *e, fresh = { .sym = sa->sym, .dim = -1 };
      HASH_FIND_PTR(ri->arrays, &sa->sym, e);
      IvArray t = e ? *e : fresh;     /* the state with f's accesses, not kept */
      bool written = run_written(r, sa->sym);
      bool was = e ? iv_array_rules_out(r, e, written) : false;
      for (int p = 0; p < sa->n; p++) {
        int k = sa->idx[p];
        replay_access(fv->inside[k], fv->exact[k], &t.dim, &t.broken);
        t.mentions |= fv->mentions[k];
        replay_private(fv, k, f->g.acc[k].write, &t.written_in_v, &t.outside, &t.vloop,
                       &t.other_vloop);
      }
      nbroken += iv_array_rules_out(r, &t, written || sa->written) - was;
    }
    for (int i = 0; i < fv->nscalars; i++) {
      IvScalar *e;
      HASH_FIND_PTR(ri->scalars, &fv->scalars[i].sym, e);
      bool assigned = e && e->assigned, bad = e && e->bad;
      nbad += ((assigned || fv->scalars[i].assigned) && (bad || fv->scalars[i].bad)) -
              (assigned && bad);
    }
  }
  /* as column_index: `independent` stands in for the array conditions,
   * except for a store to the same elements in every iteration */
  return !fails && (all_independent ? !shared : !nbroken) && !nbad;
}

int column_run_indices(ColumnRun *r, IrStmt *extra, IrSym **out)
{
  StmtFacts *f = extra ? stmt_facts(r->scope, extra) : NULL;
  /* the candidates, as column_indices picks them */
  IrSym *ivs[COLUMN_CANDIDATES];
  int nivs = 0;
  for (int i = 0; i < r->ivs.n && nivs < COLUMN_CANDIDATES; i++)
    ivs[nivs++] = r->ivs.syms[i];
  for (int i = 0; f && i < f->ivs.n && nivs < COLUMN_CANDIDATES; i++)
    if (!ir_symset_has(&r->ivs, f->ivs.syms[i]))
      ivs[nivs++] = f->ivs.syms[i];
  int n = 0;
  for (int i = 0; i < nivs && n < 3; i++)
    if (run_column_index(r, f, ivs[i]))
      out[n++] = ivs[i];
  return n;
}

int column_run_stride1(ColumnRun *r, IrSym *v)
{
  return run_iv(r, v)->stride1;
}

bool column_run_mentions(const ColumnRun *r, const IrSym *array)
{
  RunArray *a;
  HASH_FIND_PTR(r->arrays, &array, a);
  return a != NULL;
}
