/* invariant.c — scalars that hold one value throughout a region.
 *
 * Column code sets scalars from the routine's arguments before its loops
 * and bounds the loops with them: `l = ite; n = kte` at the top of the
 * region, `nlev = ite - its + 1` inside the j loop.  Each is assigned in
 * the region, so to the later analyses it is a value that may change, and
 * a loop bounded by it could not be spread over the grid ("the bounds of a
 * loop over it change inside the region").  But when every assignment to
 * the scalar stores the same expression, that expression reads nothing the
 * region assigns, and no read of the scalar can come before an assignment,
 * then every read sees that expression's value: the reads are replaced by
 * the expression, and the loops are bounded by region-invariant values.
 * The assignments stay (each thread sets its own copy, unused).
 *
 * The same reasoning inside one statement list: after `k = kte`, the
 * statements up to the next that may assign k (or a scalar of kte) read
 * kte (propagate_local_values): jumps only leave constructs (ir.h), so the
 * statements after it in its list are reached only through it.
 */
#include <string.h>
#include "diag.h"
#include "access.h"
#include "affine.h"
#include "column.h"
#include "invariant.h"
#include "report.h"
#include "visit.h"

/* ---- expressions ----------------------------------------------------------------- */

/* Is e made of literals, named constants, intrinsic calls and scalars
 * the region never assigns? */
static bool invariant_expr(const IrExpr *e, const IrSymSet *written)
{
  switch (e->kind) {
  case IR_E_INT:
  case IR_E_REAL:
  case IR_E_LOGICAL:
    return true;
  case IR_E_VAR:   /* an EQUIVALENCE'd scalar changes when its partner is stored */
    return e->u.var->rank == 0 && !e->u.var->in_equivalence && !ir_symset_has(written, e->u.var);
  case IR_E_UNARY:
    return invariant_expr(e->u.unary.arg, written);
  case IR_E_BINARY:
    return invariant_expr(e->u.binary.lhs, written) && invariant_expr(e->u.binary.rhs, written);
  case IR_E_CONVERT:
    return invariant_expr(e->u.operand, written);
  case IR_E_CALL:
    if (e->u.call.fn == IR_FN_USER || e->u.call.fn == IR_FN_PRESENT)
      return false;
    for (int i = 0; i < e->u.call.n; i++)
      if (!invariant_expr(e->u.call.args[i], written))
        return false;
    return true;
  case IR_E_COND:
    return invariant_expr(e->u.cond.test, written) && invariant_expr(e->u.cond.then, written) &&
           invariant_expr(e->u.cond.els, written);
  default:
    return false;
  }
}

/* ---- the scalars ----------------------------------------------------------------- */

typedef struct Stores {
  const IrSym *s;
  const IrExpr *value;       /* the expression every assignment stores, or NULL */
  const IrStmt *first;       /* the first assignment */
  bool mixed;                /* assigned otherwise: a DO over it, other values */
} Stores;

static IrVisitStep stores_pre(IrStmt *t, IrVisit *v)
{
  Stores *st = v->ctx;
  if (!ir_stmt_assigns(t, st->s))
    return IR_VISIT_CONTINUE;
  if (t->kind != IR_S_ASSIGN || t->u.assign.lhs->kind != IR_E_VAR) {
    st->mixed = true;
    return IR_VISIT_STOP;
  }
  if (!st->value) {
    st->value = t->u.assign.rhs;
    st->first = t;
  } else if (!ir_expr_equal(st->value, t->u.assign.rhs)) {
    st->mixed = true;
    return IR_VISIT_STOP;
  }
  return IR_VISIT_CONTINUE;
}

/* The value s holds wherever the region reads it, or NULL. */
static const IrExpr *invariant_value(IrStmtList *body, IrSym *s, const IrSymSet *written,
                                     const IrStmt **at)
{
  if (s->rank != 0 || s->is_module || s->in_equivalence || s->kind != IR_SYM_VAR ||
      !ir_type_is_integer(s->type))
    return NULL;       /* integers: what bounds loops and subscripts */
  Stores st = { s, NULL, NULL, false };
  IrVisit v = { .pre = stores_pre, .ctx = &st };
  ir_visit_stmts(body, &v);
  if (st.mixed || !st.value || !invariant_expr(st.value, written))
    return NULL;
  IrSym *vars[1] = { s };
  if (xf_first_exposed(body, vars, 1, NULL, 0))
    return NULL;       /* some read may see the value from before the region */
  *at = st.first;
  return st.value;
}

/* ---- replacing the reads ------------------------------------------------------------- */

typedef struct Replace {
  const IrSym *s;
  const IrExpr *value;
  int count;
} Replace;

static IrExpr *replaced(IrExpr *e, Replace *r);

static void replace_in(IrExpr **slot, Replace *r)
{
  if (*slot)
    *slot = replaced(*slot, r);
}

static IrExpr *replaced(IrExpr *e, Replace *r)
{
  switch (e->kind) {
  case IR_E_VAR:
    if (e->u.var != r->s)
      return e;
    r->count++;
    return ir_convert(ir_expr_copy(r->value), e->type);
  case IR_E_ELEM:
    for (int d = 0; d < e->u.elem.n; d++)
      replace_in(&e->u.elem.sub[d], r);
    return e;
  case IR_E_UNARY:
    replace_in(&e->u.unary.arg, r);
    return e;
  case IR_E_BINARY:
    replace_in(&e->u.binary.lhs, r);
    replace_in(&e->u.binary.rhs, r);
    return e;
  case IR_E_CONVERT:
    replace_in(&e->u.operand, r);
    return e;
  case IR_E_CALL:
    for (int i = 0; i < e->u.call.n; i++)
      replace_in(&e->u.call.args[i], r);
    return e;
  case IR_E_COND:
    replace_in(&e->u.cond.test, r);
    replace_in(&e->u.cond.then, r);
    replace_in(&e->u.cond.els, r);
    return e;
  default:
    return e;
  }
}

static IrVisitStep replace_pre(IrStmt *t, IrVisit *v)
{
  Replace *r = v->ctx;
  switch (t->kind) {
  case IR_S_ASSIGN:
    if (t->u.assign.lhs->kind == IR_E_ELEM)
      replace_in(&t->u.assign.lhs, r);   /* its subscripts; a scalar lhs is a store */
    replace_in(&t->u.assign.rhs, r);
    break;
  case IR_S_DO:
    replace_in(&t->u.loop.lo, r);
    replace_in(&t->u.loop.hi, r);
    replace_in(&t->u.loop.step, r);
    break;
  case IR_S_IF:
    replace_in(&t->u.cond.test, r);
    break;
  case IR_S_WHILE:
    replace_in(&t->u.loop.test, r);
    break;
  default:
    break;
  }
  return IR_VISIT_CONTINUE;
}

static void region_invariants(const Program *p, IrRegion *g)
{
  IrSymSet written = { 0 };
  ir_assigned_scalars(&g->body, &written);
  /* In order of first assignment, so that `nlev = n - its + 1` after
   * `n = kte` sees n replaced first; the set shrinks as scalars are found
   * invariant, so a later one may build on an earlier one. */
  bool changed = true;
  IrSymSet done = { 0 };
  while (changed) {
    changed = false;
    for (int i = 0; i < written.n; i++) {
      IrSym *s = written.syms[i];
      if (ir_symset_has(&done, s))
        continue;
      IrSymSet others = { 0 };
      for (int k = 0; k < written.n; k++)
        if (written.syms[k] != s && !ir_symset_has(&done, written.syms[k]))
          ir_symset_add(&others, written.syms[k]);
      ir_symset_add(&others, s);    /* s = s + 1 is no invariant */
      const IrStmt *at = NULL;
      const IrExpr *value = invariant_value(&g->body, s, &others, &at);
      if (!value)
        continue;
      Replace r = { s, value, 0 };
      IrVisit v = { .pre = replace_pre, .ctx = &r };
      ir_visit_stmts(&g->body, &v);
      ir_symset_add(&done, s);
      changed = true;
      if (r.count) {
        char text[200];
        an_expr_text(value, p->lang, text, sizeof text);
        report_at(REPORT_INFO, g->routine->name, at->loc, "Scalar '%s' holds %s throughout the "
                  "region: its reads use that value (region-invariant)", ir_sym_user_name(s), text);
      }
    }
  }
}

/* ---- values known from the statement before ------------------------------------------ */

/* `k = kte` followed by statements that read k: until a statement that may
 * assign k, or one of the scalars kte is made of, every such read is kte.
 * Column code sets the index of the bottom or top level so before doing
 * that level outside its loop; with the reads replaced, the analyses see
 * the element falk(i,kte) that is stored rather than falk(i,k) of an
 * unknown k. */
typedef struct ValueOperands { IrStmtList *after; bool stable; } ValueOperands;

static void operand_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  ValueOperands *o = ctx;
  (void)in;
  if (e->kind == IR_E_VAR && ir_assignment_of(o->after, e->u.var))
    o->stable = false;
}

/* Do the scalars e is made of keep their values through statement s? */
static bool operands_stable(IrExpr *e, IrStmt *s)
{
  ValueOperands o = { &(IrStmtList){ 1, 1, &s }, true };
  ir_walk_expr(e, NULL, operand_visit, &o);
  return o.stable;
}

static void propagate_local_values(IrStmtList *l)
{
  for (int t = 0; t < l->n; t++) {
    IrStmt *s = l->v[t];
    if (s->kind == IR_S_DO || s->kind == IR_S_WHILE || s->kind == IR_S_BLOCK) {
      propagate_local_values(&s->u.loop.body);
      continue;
    }
    if (s->kind == IR_S_IF) {
      propagate_local_values(&s->u.cond.then);
      propagate_local_values(&s->u.cond.els);
      continue;
    }
    if (s->kind != IR_S_ASSIGN || s->u.assign.lhs->kind != IR_E_VAR)
      continue;
    IrSym *x = s->u.assign.lhs->u.var;
    IrExpr *value = s->u.assign.rhs;
    IrSymSet none = { 0 };
    Affine form;   /* an index like kte or kte - 1, not a computation worth keeping once */
    if (x->rank != 0 || x->is_module || x->in_equivalence || !ir_type_is_integer(x->type) ||
        !aff_build(value, &form) ||
        ir_expr_mentions(value, x) || !invariant_expr(value, &none))
      continue;
    for (int u = t + 1; u < l->n; u++) {
      IrStmt *next = l->v[u];
      if (ir_assignment_of(&(IrStmtList){ 1, 1, &next }, x) || !operands_stable(value, next))
        break;
      Replace r = { x, value, 0 };
      IrVisit v = { .pre = replace_pre, .ctx = &r };
      ir_visit_stmts(&(IrStmtList){ 1, 1, &next }, &v);
    }
  }
}

bool xf_region_invariants(Program *p)
{
  for (int r = 0; r < p->nroutines; r++)
    for (int k = 0; k < p->routines[r]->nregions; k++) {
      region_invariants(p, p->routines[r]->regions[k]);
      propagate_local_values(&p->routines[r]->regions[k]->body);
    }
  return true;
}
