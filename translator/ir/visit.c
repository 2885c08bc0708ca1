/* visit.c — the statement visitor and the queries on statement lists that
 * every pass asks (who assigns a scalar, which scalars a list assigns).
 *
 * One recursive walk here replaces the copies of it each pass used to
 * carry: a pass says what it does with one statement (visit.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include "visit.h"

/* ---- the visitor -------------------------------------------------------------- */

static void push_loop(IrVisit *v, IrStmt *loop)
{
  if (v->nloops == v->cap) {
    v->cap *= 2;
    if (!v->loops_on_heap) {
      IrStmt **heap = xmalloc(sizeof *heap * (size_t)v->cap);
      memcpy(heap, v->loops, sizeof *heap * (size_t)v->nloops);
      v->loops = heap;
      v->loops_on_heap = true;
    } else {
      v->loops = xrealloc(v->loops, sizeof *v->loops * (size_t)v->cap);
    }
  }
  v->loops[v->nloops++] = loop;
}

static void visit_list(IrStmtList *l, IrVisit *v);

static void visit_stmt(IrStmt *s, IrVisit *v)
{
  IrVisitStep step = v->pre ? v->pre(s, v) : IR_VISIT_CONTINUE;
  if (step == IR_VISIT_STOP) {
    v->stopped = true;
    return;
  }
  if (step == IR_VISIT_CONTINUE && s->kind == IR_S_DO) {
    push_loop(v, s);
    visit_list(&s->u.loop.body, v);
    v->nloops--;
  } else if (step == IR_VISIT_CONTINUE && (s->kind == IR_S_IF || s->kind == IR_S_WHERE)) {
    v->under_if++;
    visit_list(&s->u.cond.then, v);
    visit_list(&s->u.cond.els, v);
    v->under_if--;
  } else if (step == IR_VISIT_CONTINUE && (s->kind == IR_S_WHILE || s->kind == IR_S_BLOCK)) {
    /* not a DO: not among v->loops, whose members have an index */
    v->under_sequential++;
    visit_list(&s->u.loop.body, v);
    v->under_sequential--;
  }
  if (v->post && !v->stopped)
    v->post(s, v);
}

static void visit_list(IrStmtList *l, IrVisit *v)
{
  for (int i = 0; i < l->n && !v->stopped; i++)
    visit_stmt(l->v[i], v);
}

bool ir_visit_stmts(IrStmtList *l, IrVisit *v)
{
  IrStmt *loops[IR_VISIT_LOOPS_INLINE];
  v->loops = loops;
  v->cap = IR_VISIT_LOOPS_INLINE;
  v->loops_on_heap = false;
  v->nloops = 0;
  v->under_if = 0;
  v->under_sequential = 0;
  v->stopped = false;
  visit_list(l, v);
  if (v->loops_on_heap)
    free(v->loops);
  v->loops = NULL;
  v->nloops = 0;
  return !v->stopped;
}

IrStmt *ir_visit_loop(const IrVisit *v)
{
  return v->nloops ? v->loops[v->nloops - 1] : NULL;
}

IrStmt *ir_visit_loop_over(const IrVisit *v, const IrSym *iv)
{
  for (int i = 0; i < v->nloops; i++)
    if (v->loops[i]->u.loop.iv == iv)
      return v->loops[i];
  return NULL;
}

/* ---- expressions of statements ---------------------------------------------- */

void ir_walk_stmt_exprs(IrStmt *s, IrExprVisit fn, void *ctx)
{
  switch (s->kind) {
  case IR_S_ASSIGN:
    ir_walk_expr(s->u.assign.lhs, s, fn, ctx);
    ir_walk_expr(s->u.assign.rhs, s, fn, ctx);
    break;
  case IR_S_DO:
    ir_walk_expr(s->u.loop.lo, s, fn, ctx);
    ir_walk_expr(s->u.loop.hi, s, fn, ctx);
    ir_walk_expr(s->u.loop.step, s, fn, ctx);
    break;
  case IR_S_IF:
  case IR_S_WHERE:
    ir_walk_expr(s->u.cond.test, s, fn, ctx);
    break;
  case IR_S_CALL:
    for (int k = 0; k < s->u.call.nargs; k++) {
      ir_walk_expr(s->u.call.args[k], s, fn, ctx);
      for (int d = 0; s->u.call.sections && s->u.call.sections[k] && d < IR_MAX_RANK; d++)
        ir_walk_expr(s->u.call.sections[k]->hi[d], s, fn, ctx);
    }
    break;
  case IR_S_WHILE:
    ir_walk_expr(s->u.loop.test, s, fn, ctx);
    break;
  case IR_S_BLOCK:
  case IR_S_CYCLE:
  case IR_S_EXIT:
    break;
  }
}

typedef struct ExprWalk { IrExprVisit fn; void *ctx; } ExprWalk;

static IrVisitStep exprs_pre(IrStmt *s, IrVisit *v)
{
  ExprWalk *w = v->ctx;
  ir_walk_stmt_exprs(s, w->fn, w->ctx);
  return IR_VISIT_CONTINUE;
}

void ir_walk_exprs(IrStmtList *l, IrExprVisit fn, void *ctx)
{
  ExprWalk w = { fn, ctx };
  IrVisit v = { .pre = exprs_pre, .ctx = &w };
  ir_visit_stmts(l, &v);
}

/* ---- queries ------------------------------------------------------------------ */

bool ir_stmt_assigns(const IrStmt *s, const IrSym *x)
{
  if (s->kind == IR_S_ASSIGN) {
    const IrExpr *lhs = s->u.assign.lhs;
    return (lhs->kind == IR_E_VAR ? lhs->u.var : lhs->kind == IR_E_SECTION ? lhs->u.section.sym
            : lhs->u.elem.sym) == x;
  }
  return s->kind == IR_S_DO && s->u.loop.iv == x;
}

typedef struct Assignment { const IrSym *x; IrStmt *found; } Assignment;

static IrVisitStep assignment_pre(IrStmt *s, IrVisit *v)
{
  Assignment *a = v->ctx;
  if (!ir_stmt_assigns(s, a->x))
    return IR_VISIT_CONTINUE;
  a->found = s;
  return IR_VISIT_STOP;
}

IrStmt *ir_assignment_of(const IrStmtList *l, const IrSym *x)
{
  Assignment a = { x, NULL };
  IrVisit v = { .pre = assignment_pre, .ctx = &a };
  ir_visit_stmts((IrStmtList *)l, &v);
  return a.found;
}

static IrVisitStep assigned_pre(IrStmt *s, IrVisit *v)
{
  if (s->kind == IR_S_ASSIGN && s->u.assign.lhs->kind == IR_E_VAR)
    ir_symset_add(v->ctx, s->u.assign.lhs->u.var);
  else if (s->kind == IR_S_DO)
    ir_symset_add(v->ctx, s->u.loop.iv);
  return IR_VISIT_CONTINUE;
}

void ir_assigned_scalars(const IrStmtList *l, IrSymSet *out)
{
  IrVisit v = { .pre = assigned_pre, .ctx = out };
  ir_visit_stmts((IrStmtList *)l, &v);
}

static IrVisitStep contains_pre(IrStmt *s, IrVisit *v)
{
  return s == v->ctx ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

bool ir_list_contains(const IrStmtList *l, const IrStmt *s)
{
  IrVisit v = { .pre = contains_pre, .ctx = (void *)s };
  return !ir_visit_stmts((IrStmtList *)l, &v);
}

/* ---- jumps -------------------------------------------------------------------- */

/* The constructs around a statement, innermost first, on the C stack. */
typedef struct Around {
  const IrStmt *s;
  const struct Around *out;
} Around;

/* Is the target of jump j (ir.h) among the constructs `in`? */
static bool targets_within(const IrStmt *j, const Around *in)
{
  for (; in; in = in->out) {
    const IrStmt *c = in->s;
    if (j->u.jump.name ? c->u.loop.name && !strcmp(c->u.loop.name, j->u.jump.name)
                       : c->kind != IR_S_BLOCK)
      return true;
  }
  return false;
}

static const IrStmt *leaving_list(const IrStmtList *l, int kind, const Around *in);

static const IrStmt *leaving_stmt(const IrStmt *s, int kind, const Around *in)
{
  const IrStmt *found;
  switch (s->kind) {
  case IR_S_CYCLE:
  case IR_S_EXIT:
    return (kind < 0 || (int)s->kind == kind) && !targets_within(s, in) ? s : NULL;
  case IR_S_IF:
    return (found = leaving_list(&s->u.cond.then, kind, in)) ? found
         : leaving_list(&s->u.cond.els, kind, in);
  case IR_S_DO:
  case IR_S_WHILE:
  case IR_S_BLOCK: {
    Around here = { s, in };
    return leaving_list(&s->u.loop.body, kind, &here);
  }
  default:
    return NULL;
  }
}

static const IrStmt *leaving_list(const IrStmtList *l, int kind, const Around *in)
{
  const IrStmt *found = NULL;
  for (int i = 0; i < l->n && !found; i++)
    found = leaving_stmt(l->v[i], kind, in);
  return found;
}

const IrStmt *ir_jump_leaving(const IrStmtList *l, int kind)
{
  return leaving_list(l, kind, NULL);
}

const IrStmt *ir_stmt_jump_leaving(const IrStmt *s, int kind)
{
  return leaving_stmt(s, kind, NULL);
}

bool ir_is_loop(const IrStmt *s)
{
  return s->kind == IR_S_DO || s->kind == IR_S_WHILE;
}

const char *ir_jump_text(const IrStmt *j)
{
  const char *name = j->u.jump.name;
  if (name && isdigit((unsigned char)name[0]))
    return ir_printf("GOTO %s", name);
  if (name && !strcmp(name, IR_RETURN_NAME))
    return "RETURN";
  return ir_printf("%s%s%s", j->kind == IR_S_CYCLE ? "CYCLE" : "EXIT", name ? " " : "",
                   name ? name : "");
}
