/* inline.c — replace the calls inside regions by the bodies of the called
 * routines (subroutines of the same file), before any analysis.
 *
 * Weather codes call per-column physics from inside their loops; a GPU
 * kernel cannot call host routines, and the analyses need to see the whole
 * loop body.  Each call becomes a copy of the callee's executable part
 * (lowered by the front end, fe_fortran.c) in which:
 *   - a scalar dummy stands for its actual (an expression; an assigned
 *     dummy needs a variable or an array element as actual);
 *   - an array dummy stands for the actual array under Fortran sequence
 *     association, supported where it maps element for element onto the
 *     actual's subscripts: the actual is the whole array or an element, and
 *     the dummy's dimensions line up with the actual's (same extents, and
 *     the element starts at the lower bound of every dimension the dummy
 *     spans): WRF's `call wsm52d(t(ims,kms,j))` with `t(ims:ime,kms:kme)`.
 *     d(s1,..,sn) becomes a(e1+s1-l1, .., en+sn-ln, e(n+1), ..).  The
 *     dummy's bounds must be expressions of the callee's scalars: not
 *     assumed-size (how far it reaches is unknown) nor assumed-shape;
 *   - the callee's locals become new locals of the caller (renamed
 *     `callee_name`), so privatization sees them as work arrays;
 *   - named constants and module variables visible at the call stay.
 * Anything else is refused with the reason, never approximated.
 */
#include <stdio.h>
#include <string.h>
#include "affine.h"
#include "dep.h"
#include "inline.h"
#include "visit.h"
#include "report.h"

#define INLINE_DEPTH 8

typedef struct Binding {
  IrSym *dummy;
  bool absent;           /* an optional dummy the call does not pass */
  IrExpr *actual;        /* scalar dummies: the actual expression */
  IrSym *array;          /* array dummies: the actual array */
  IrExpr *first[IR_MAX_RANK]; /* ... and its element matching the dummy's first element */
  int nfirst;
  IrSym *local;          /* callee locals: the caller's new symbol */
} Binding;

typedef struct Inline {
  Program *prog;
  IrRoutine *caller;
  IrRoutine *callee;
  IrStmtList *region_body;   /* the region the call is in */
  IrSym **around;            /* indices of the loops around the call */
  int naround;
  Loc call_loc;
  int nbind;
  Binding *bind;
  bool ok;
} Inline;

static IrExpr *clone_expr(Inline *in, IrExpr *e);

static Binding *binding_of(Inline *in, const IrSym *s)
{
  for (int i = 0; i < in->nbind; i++)
    if (in->bind[i].dummy == s)
      return &in->bind[i];
  return NULL;
}

static bool fail(Inline *in, Loc at, const char *why)
{
  if (in->ok)
    diag_at(DIAG_ERROR, at, 1, "cannot inline '%s' (called at line %d): %s", in->callee->name,
            diag_user_line(in->call_loc), why);
  in->ok = false;
  return false;
}

static bool same_affine(const IrExpr *a, const IrExpr *b)
{
  Affine x, y;
  return a && b && aff_build(a, &x) && aff_build(b, &y) && x.c == y.c && aff_same_terms(&x, &y);
}

/* hi - lo of dimension d, as an affine form comparison of two arrays.  An
 * assumed-size dimension (no upper bound) has no extent to compare. */
static bool same_extent(const IrSym *a, int da, const IrSym *b, int db, Inline *in)
{
  if (!a->hi[da] || !a->lo[da] || !b->hi[db] || !b->lo[db])
    return false;
  IrExpr *ea = ir_binary(IR_OP_SUB, clone_expr(in, a->hi[da]), clone_expr(in, a->lo[da]), a->loc);
  IrExpr *eb = ir_binary(IR_OP_SUB, b->hi[db], b->lo[db], b->loc);
  return same_affine(ea, eb);
}

/* ---- symbols ------------------------------------------------------------------- */

static IrSym *new_local(Inline *in, IrSym *s)
{
  IrSym *n = ir_alloc(sizeof *n);
  *n = *s;
  memset(&n->hh, 0, sizeof n->hh);
  n->is_dummy = false;
  n->dummy_index = -1;
  n->inlined_local = true;
  const char *base = ir_printf("%s_%s", in->callee->name, s->name);
  n->name = (char *)base;
  for (int k = 2; ir_lookup(in->caller, n->name); k++)
    n->name = ir_printf("%s_%d", base, k);
  HASH_ADD_KEYPTR(hh, in->caller->symbols, n->name, strlen(n->name), n);
  for (int d = 0; d < s->rank; d++) {
    n->lo[d] = s->lo[d] ? clone_expr(in, s->lo[d]) : NULL;
    n->hi[d] = s->hi[d] ? clone_expr(in, s->hi[d]) : NULL;
  }
  return n;
}

typedef struct IndexUse { const IrSym *c; bool other_use; } IndexUse;

static void index_use_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  IndexUse *u = ctx;
  (void)in;
  u->other_use |= (e->kind == IR_E_VAR && e->u.var == u->c) ||
                  (e->kind == IR_E_ELEM && e->u.elem.sym == u->c);
}

/* A loop over c and what is inside it are fine; any other mention of c
 * (its own bounds included) is a use. */
static IrVisitStep index_use_pre(IrStmt *s, IrVisit *v)
{
  IndexUse *u = v->ctx;
  ir_walk_stmt_exprs(s, index_use_visit, u);
  if (u->other_use)
    return IR_VISIT_STOP;
  return s->kind == IR_S_DO && s->u.loop.iv == u->c ? IR_VISIT_SKIP_CHILDREN : IR_VISIT_CONTINUE;
}

/* Is every use of c in l inside a loop over c (so that c holds nothing
 * between those loops that anyone reads)? */
static bool used_only_as_index(IrStmtList *l, const IrSym *c)
{
  IndexUse u = { c, false };
  IrVisit v = { .pre = index_use_pre, .ctx = &u };
  ir_visit_stmts(l, &v);
  return !u.other_use;
}

/* A callee's loop index can be the caller's variable of the same name when
 * the caller uses that variable only as the index of its own loops in the
 * region and the call is not inside one of them: then neither ever reads a
 * value the other left.  Sharing it lets the column restructuring see the
 * caller's i loops and the inlined ones as loops over the same index. */
static IrSym *shareable(Inline *in, const IrSym *s, const char *name)
{
  IrSym *c = ir_lookup(in->caller, name);
  if (!c || c == s || c->type != s->type || c->rank || c->kind != IR_SYM_VAR || c->is_dummy ||
      c->is_module || !ir_type_is_integer(c->type))
    return NULL;
  for (int i = 0; i < in->naround; i++)
    if (in->around[i] == c)
      return NULL;
  return used_only_as_index(in->region_body, c) ? c : NULL;
}

/* The caller's variable of the same name, or the one an earlier inlined
 * copy of the callee made: so the i loops of the caller and of every
 * inlined copy run over one index. */
static IrSym *shared_index(Inline *in, IrSym *s)
{
  if (!used_only_as_index(&in->callee->body, s))
    return NULL;
  IrSym *c = shareable(in, s, s->name);
  return c ? c : shareable(in, s, ir_printf("%s_%s", in->callee->name, s->name));
}

/* The binding of a callee symbol that is neither a dummy nor a constant:
 * a local (renamed into the caller), or a module variable (kept, if the
 * caller sees the same one). */
static Binding *bind_other(Inline *in, IrSym *s)
{
  Binding b = { .dummy = s };
  if (s->is_saved) {
    fail(in, s->loc, ir_printf("its local '%s' keeps its value from one call to the next (SAVE, "
                               "DATA or an initializer)", s->name));
    return NULL;
  }
  if (s->bound_of && !s->is_module) {
    fail(in, s->loc, ir_printf("its local array '%s' has bounds known only at run time "
                               "(allocatable), which is not supported yet", s->bound_of->name));
    return NULL;
  }
  if (s->is_module) {
    if (ir_lookup(in->caller, s->name) != s) {
      fail(in, s->loc, ir_printf("it uses module variable '%s', which the calling routine does "
                                 "not see", s->name));
      return NULL;
    }
    return NULL;
  }
  b.local = shared_index(in, s);
  if (!b.local)
    b.local = new_local(in, s);
  IR_PUSH(in->bind, in->nbind, b);
  return &in->bind[in->nbind - 1];
}

/* ---- expressions ----------------------------------------------------------------- */

/* d(s1..sn) for a dummy array bound to an actual array. */
static IrExpr *map_element(Inline *in, const Binding *b, IrExpr *e)
{
  IrSym *d = b->dummy, *a = b->array;
  IrExpr *r = ir_expr_new(IR_E_ELEM, a->type, e->loc);
  r->u.elem.sym = a;
  r->u.elem.n = a->rank;
  for (int k = 0; k < a->rank; k++) {
    if (k < d->rank) {
      IrExpr *s = clone_expr(in, e->u.elem.sub[k]);
      IrExpr *off = ir_binary(IR_OP_SUB, s, clone_expr(in, d->lo[k]), e->loc);
      r->u.elem.sub[k] = ir_binary(IR_OP_ADD, b->first[k], off, e->loc);
    } else {
      r->u.elem.sub[k] = b->first[k];
    }
  }
  return r;
}

static IrExpr *copy_node(IrExpr *e)
{
  IrExpr *c = ir_alloc(sizeof *c);
  *c = *e;
  return c;
}

static IrExpr *clone_var(Inline *in, IrExpr *e)
{
  IrSym *s = e->u.var;
  if (s->kind == IR_SYM_PARAM)
    return e;
  Binding *b = binding_of(in, s);
  if (!b && (!s->is_module || s->bound_of))
    b = bind_other(in, s);
  if (!b)
    return e;
  if (b->local)
    return ir_var(b->local, e->loc);
  if (b->absent) {
    fail(in, e->loc, ir_printf("it uses optional argument '%s', which this call does not pass, "
                               "outside a present() test", s->name));
    return e;
  }
  if (b->actual)
    return b->actual;
  fail(in, e->loc, ir_printf("dummy array '%s' is used as a whole", s->name));
  return e;
}

/* The caller's OPTIONAL dummy that a call passes on for an optional dummy,
 * or NULL: then present() in the callee is present() of the caller's
 * dummy, which only the host knows (transforms/present.c makes a kernel
 * variant for each case). */
static IrSym *passed_on_optional(const Inline *in, const Binding *b)
{
  IrSym *a = b->array ? b->array : b->actual && b->actual->kind == IR_E_VAR ? b->actual->u.var
                                                                           : NULL;
  return a && a->is_optional && a->is_dummy && ir_lookup(in->caller, a->name) == a ? a : NULL;
}

/* The value of a logical expression made of present() tests and
 * constants: 1, 0, or -1 when it depends on anything else. */
static int fold_logical(Inline *in, const IrExpr *e)
{
  switch (e->kind) {
  case IR_E_LOGICAL:
    return e->u.ival != 0;
  case IR_E_CALL: {
    if (e->u.call.fn != IR_FN_PRESENT)
      return -1;
    const Binding *b = binding_of(in, e->u.call.args[0]->u.var);
    if (b && passed_on_optional(in, b))
      return -1;
    return b && !b->absent;
  }
  case IR_E_UNARY: {
    int v = e->u.unary.op == IR_OP_NOT ? fold_logical(in, e->u.unary.arg) : -1;
    return v < 0 ? -1 : !v;
  }
  case IR_E_BINARY: {
    int a = fold_logical(in, e->u.binary.lhs), b = fold_logical(in, e->u.binary.rhs);
    switch (e->u.binary.op) {
    case IR_OP_AND: return a == 0 || b == 0 ? 0 : a == 1 && b == 1 ? 1 : -1;
    case IR_OP_OR: return a == 1 || b == 1 ? 1 : a == 0 && b == 0 ? 0 : -1;
    case IR_OP_EQV: return a < 0 || b < 0 ? -1 : a == b;
    case IR_OP_NEQV: return a < 0 || b < 0 ? -1 : a != b;
    default: return -1;
    }
  }
  default:
    return -1;
  }
}

static IrExpr *clone_expr(Inline *in, IrExpr *e)
{
  if (!e)
    return NULL;
  IrExpr *c;
  switch (e->kind) {
  case IR_E_VAR:
    return clone_var(in, e);
  case IR_E_ELEM: {
    Binding *b = binding_of(in, e->u.elem.sym);
    if (!b && !e->u.elem.sym->is_module)
      b = bind_other(in, e->u.elem.sym);
    if (b && b->absent) {
      fail(in, e->loc, ir_printf("it uses optional argument '%s', which this call does not pass, "
                                 "outside a present() test", b->dummy->name));
      return e;
    }
    if (b && b->array)
      return map_element(in, b, e);
    c = copy_node(e);
    if (b && b->local)
      c->u.elem.sym = b->local;
    for (int k = 0; k < e->u.elem.n; k++)
      c->u.elem.sub[k] = clone_expr(in, e->u.elem.sub[k]);
    return c;
  }
  case IR_E_UNARY:
    c = copy_node(e);
    c->u.unary.arg = clone_expr(in, e->u.unary.arg);
    return c;
  case IR_E_BINARY:
    c = copy_node(e);
    c->u.binary.lhs = clone_expr(in, e->u.binary.lhs);
    c->u.binary.rhs = clone_expr(in, e->u.binary.rhs);
    return c;
  case IR_E_CALL:
    if (e->u.call.fn == IR_FN_PRESENT) {
      const Binding *b = binding_of(in, e->u.call.args[0]->u.var);
      IrSym *passed_on = b ? passed_on_optional(in, b) : NULL;
      if (passed_on) {
        c = copy_node(e);
        c->u.call.args = ir_alloc(sizeof *c->u.call.args);
        c->u.call.args[0] = ir_var(passed_on, e->loc);
        return c;
      }
      c = ir_expr_new(IR_E_LOGICAL, IR_T_LOGICAL, e->loc);
      c->u.ival = fold_logical(in, e);
      return c;
    }
    c = copy_node(e);
    c->u.call.args = ir_alloc(sizeof *c->u.call.args * (size_t)e->u.call.n);
    for (int k = 0; k < e->u.call.n; k++)
      c->u.call.args[k] = clone_expr(in, e->u.call.args[k]);
    return c;
  case IR_E_COND:
    c = copy_node(e);
    c->u.cond.test = clone_expr(in, e->u.cond.test);
    c->u.cond.then = clone_expr(in, e->u.cond.then);
    c->u.cond.els = clone_expr(in, e->u.cond.els);
    return c;
  case IR_E_CONVERT:
    c = copy_node(e);
    c->u.operand = clone_expr(in, e->u.operand);
    return c;
  default:
    return e;
  }
}

/* An actual argument of a call inside the callee: a dummy array passed on
 * becomes the element of the caller's array where the dummy starts. */
static IrExpr *clone_actual(Inline *in, IrExpr *e)
{
  if (e->kind != IR_E_VAR || !e->u.var->rank)
    return clone_expr(in, e);
  Binding *b = binding_of(in, e->u.var);
  if (!b)
    b = bind_other(in, e->u.var);
  if (!b)
    return e;
  if (b->local)
    return ir_var(b->local, e->loc);
  IrExpr *r = ir_expr_new(IR_E_ELEM, b->array->type, e->loc);
  r->u.elem.sym = b->array;
  r->u.elem.n = b->array->rank;
  for (int k = 0; k < b->array->rank; k++)
    r->u.elem.sub[k] = b->first[k];
  return r;
}

/* ---- statements ------------------------------------------------------------------ */

static void clone_list(Inline *in, const IrStmtList *from, IrStmtList *to);

static IrStmt *clone_stmt(Inline *in, IrStmt *s)
{
  IrStmt *c = ir_stmt(s->kind, s->loc);
  switch (s->kind) {
  case IR_S_ASSIGN:
    c->u.assign.lhs = clone_expr(in, s->u.assign.lhs);
    c->u.assign.rhs = clone_expr(in, s->u.assign.rhs);
    if (c->u.assign.lhs->kind != IR_E_VAR && c->u.assign.lhs->kind != IR_E_ELEM)
      fail(in, s->loc, "it assigns a dummy argument whose actual is an expression");
    break;
  case IR_S_DO: {
    c->u.loop = s->u.loop;
    IrExpr *iv = clone_var(in, ir_var(s->u.loop.iv, s->loc));
    if (iv->kind != IR_E_VAR)
      fail(in, s->loc, "its DO variable is a dummy argument bound to an expression");
    c->u.loop.iv = iv->u.var;
    c->u.loop.lo = clone_expr(in, s->u.loop.lo);
    c->u.loop.hi = clone_expr(in, s->u.loop.hi);
    c->u.loop.step = clone_expr(in, s->u.loop.step);
    memset(&c->u.loop.body, 0, sizeof c->u.loop.body);
    clone_list(in, &s->u.loop.body, &c->u.loop.body);
    break;
  }
  case IR_S_IF:
    c->u.cond.test = clone_expr(in, s->u.cond.test);
    clone_list(in, &s->u.cond.then, &c->u.cond.then);
    clone_list(in, &s->u.cond.els, &c->u.cond.els);
    break;
  case IR_S_CALL:
    c->u.call = s->u.call;     /* keywords are shared: they do not change */
    c->u.call.args = ir_alloc(sizeof *c->u.call.args * (size_t)(s->u.call.nargs + 1));
    for (int k = 0; k < s->u.call.nargs; k++)
      c->u.call.args[k] = clone_actual(in, s->u.call.args[k]);
    break;
  case IR_S_CYCLE:
  case IR_S_EXIT:
    break;
  }
  return c;
}

/* An IF whose test the call decides (present() of an optional argument)
 * keeps only its taken branch: the other may use the absent argument.
 * Not on the visitor: it builds new statement lists. */
static void clone_list(Inline *in, const IrStmtList *from, IrStmtList *to)
{
  for (int i = 0; i < from->n; i++) {
    IrStmt *s = from->v[i];
    int known = s->kind == IR_S_IF ? fold_logical(in, s->u.cond.test) : -1;
    if (known >= 0)
      clone_list(in, known ? &s->u.cond.then : &s->u.cond.els, to);
    else
      ir_list_push(to, clone_stmt(in, s));
  }
}

/* ---- binding the arguments --------------------------------------------------------- */

static bool is_runtime_bound(const IrExpr *e)
{
  return e && e->kind == IR_E_VAR && e->u.var->bound_of;
}

/* Why dummy array d cannot be mapped onto actual a, or NULL.  Its bounds
 * must be expressions of the callee's scalars: an assumed-size dummy does
 * not say how far it reaches into the actual, and the bounds of an
 * assumed-shape one exist only in the callee's descriptor at run time. */
static const char *unsupported_shape(const IrSym *d, const IrSym *a)
{
  if (!d->hi[d->rank - 1])
    return ir_printf("dummy '%s' is assumed-size (%s(%s*)): which elements of '%s' it reaches "
                     "is not known, and sequence association with assumed-size dummies is not "
                     "supported yet", d->name, d->name, d->rank > 1 ? "..., " : "", a->name);
  for (int k = 0; k < d->rank; k++)
    if (is_runtime_bound(d->lo[k]) || is_runtime_bound(d->hi[k]))
      return ir_printf("dummy '%s' is assumed-shape (%s(:%s)): its bounds exist only at run "
                       "time, and inlining assumed-shape dummies is not supported yet", d->name,
                       d->name, d->rank > 1 ? ", ..." : "");
  return NULL;
}

/* An array actual for array dummy d: the whole array or one element. */
static bool bind_array(Inline *in, Binding *b, IrExpr *actual)
{
  IrSym *d = b->dummy;
  IrSym *a = actual->kind == IR_E_VAR ? actual->u.var : actual->u.elem.sym;
  if (a->type != d->type)
    return fail(in, actual->loc, ir_printf("the actual array '%s' is %s, the dummy '%s' %s",
                a->name, ir_type_name(a->type), d->name, ir_type_name(d->type)));
  if (d->rank > a->rank)
    return fail(in, actual->loc, ir_printf("dummy '%s' has more dimensions than the actual '%s'",
                d->name, a->name));
  const char *shape_problem = unsupported_shape(d, a);
  if (shape_problem)
    return fail(in, actual->loc, shape_problem);
  b->array = a;
  b->nfirst = a->rank;
  for (int k = 0; k < a->rank; k++)
    b->first[k] = actual->kind == IR_E_VAR ? a->lo[k] : actual->u.elem.sub[k];
  for (int k = 0; k < d->rank; k++) {
    if (!b->first[k])
      return fail(in, actual->loc, ir_printf("the bounds of '%s' are not known", a->name));
    bool lined_up = same_affine(b->first[k], a->lo[k]) && same_extent(d, k, a, k, in);
    if (k < d->rank - 1 && !lined_up)
      return fail(in, actual->loc, ir_printf("dimension %d of dummy '%s' does not line up with "
                  "the actual '%s' (s2s-cuda maps a dummy onto its actual element for element "
                  "only when the leading extents are equal and the actual starts at their lower "
                  "bounds)", k + 1, d->name, a->name));
    if (k == d->rank - 1 && !lined_up && !(d->rank == a->rank && actual->kind == IR_E_VAR))
      return fail(in, actual->loc, ir_printf("the last dimension of dummy '%s' may run past the "
                  "actual '%s'", d->name, a->name));
  }
  return true;
}

/* The actual of each dummy: positional arguments first, then keywords;
 * optional dummies the call does not pass are absent. */
static bool match_actuals(Inline *in, IrStmt *call, IrExpr **actual)
{
  IrRoutine *r = in->callee;
  for (int i = 0; i < r->ndummies; i++)
    actual[i] = NULL;
  for (int k = 0; k < call->u.call.nargs; k++) {
    const char *kw = call->u.call.keywords ? call->u.call.keywords[k] : NULL;
    int d = -1;
    if (!kw) {
      d = k < r->ndummies ? k : -1;
    } else {
      for (int i = 0; i < r->ndummies; i++)
        if (!strcmp(r->dummies[i]->name, kw))
          d = i;
    }
    if (d < 0)
      return fail(in, call->u.call.args[k]->loc, kw ? ir_printf("'%s' has no dummy argument "
                  "'%s'", r->name, kw) : ir_printf("more arguments than the %d dummies",
                  r->ndummies));
    if (actual[d])
      return fail(in, call->u.call.args[k]->loc, ir_printf("dummy '%s' gets two actuals",
                  r->dummies[d]->name));
    actual[d] = call->u.call.args[k];
  }
  for (int i = 0; i < r->ndummies; i++)
    if (!actual[i] && !r->dummies[i]->is_optional)
      return fail(in, call->loc, ir_printf("the call does not pass dummy '%s', which is not "
                  "optional", r->dummies[i]->name));
  return true;
}

static bool bind_arguments(Inline *in, IrStmt *call)
{
  IrRoutine *r = in->callee;
  IrExpr **actuals = ir_alloc(sizeof *actuals * (size_t)(r->ndummies + 1));
  if (!match_actuals(in, call, actuals))
    return false;
  /* scalars first: the bounds of the array dummies are written with them */
  for (int i = 0; i < r->ndummies; i++) {
    Binding b = { .dummy = r->dummies[i], .absent = !actuals[i] };
    IrExpr *actual = actuals[i];
    if (r->dummies[i]->rank && actual)
      continue;
    if (!actual) {
      IR_PUSH(in->bind, in->nbind, b);
      continue;
    }
    if (actual->kind == IR_E_VAR && actual->u.var->rank)
      return fail(in, actual->loc, ir_printf("scalar dummy '%s' gets the whole array '%s'",
                  r->dummies[i]->name, actual->u.var->name));
    if (actual->type != r->dummies[i]->type)
      return fail(in, actual->loc, ir_printf("the actual for '%s' is %s, the dummy %s",
                  r->dummies[i]->name, ir_type_name(actual->type),
                  ir_type_name(r->dummies[i]->type)));
    b.actual = actual;
    IR_PUSH(in->bind, in->nbind, b);
  }
  for (int i = 0; i < r->ndummies; i++) {
    Binding b = { .dummy = r->dummies[i] };
    IrExpr *actual = actuals[i];
    if (!r->dummies[i]->rank || !actual)
      continue;
    if (actual->kind != IR_E_ELEM && !(actual->kind == IR_E_VAR && actual->u.var->rank))
      return fail(in, actual->loc, ir_printf("dummy array '%s' needs an array or an array "
                  "element as actual", r->dummies[i]->name));
    IR_PUSH(in->bind, in->nbind, b);
    if (!bind_array(in, &in->bind[in->nbind - 1], actual))
      return false;
  }
  return true;
}

/* ---- the pass ------------------------------------------------------------------------ */

static IrRoutine *find_routine(Program *p, const char *name)
{
  for (int i = 0; i < p->nroutines; i++)
    if (!strcmp(p->routines[i]->name, name))
      return p->routines[i];
  return NULL;
}

typedef struct Site {
  Program *prog;
  IrRoutine *caller;
  IrStmtList *region_body;
  IrSym **around;            /* indices of the loops around the statement (arena) */
  int naround, cap;
} Site;

static bool inline_list(Site *site, IrStmtList *l, int depth);

static IrVisitStep depth_pre(IrStmt *s, IrVisit *v)
{
  int *max = v->ctx;
  if (s->kind == IR_S_DO && v->nloops + 1 > *max)
    *max = v->nloops + 1;
  return IR_VISIT_CONTINUE;
}

/* How many loops deep the statements of l nest. */
static int nest_depth(IrStmtList *l)
{
  int max = 0;
  IrVisit v = { .pre = depth_pre, .ctx = &max };
  ir_visit_stmts(l, &v);
  return max;
}

static bool expand_call(Site *site, IrStmt *call, IrStmtList *out, int depth)
{
  Program *p = site->prog;
  IrRoutine *caller = site->caller;
  IrRoutine *callee = find_routine(p, call->u.call.name);
  if (!callee || !callee->body_lowered || callee->is_function) {
    diag_at(DIAG_ERROR, call->loc, 1, "call of '%s' inside a region: only subroutines of the same "
            "file can be called (they are inlined)", call->u.call.name);
    return false;
  }
  if (depth >= INLINE_DEPTH) {
    diag_at(DIAG_ERROR, call->loc, 1, "calls nested more than %d deep (recursion?) inside a "
            "region", INLINE_DEPTH);
    return false;
  }
  Inline in = { p, caller, callee, site->region_body, site->around, site->naround, call->loc, 0,
                NULL, true };
  if (!bind_arguments(&in, call))
    return false;
  IrStmtList body = { 0, 0, NULL };
  clone_list(&in, &callee->body, &body);
  if (!in.ok || !inline_list(site, &body, depth + 1))
    return false;
  int loops = nest_depth(&body);
  if (site->naround + loops > DEP_MAX_DEPTH) {
    diag_at(DIAG_ERROR, call->loc, 1, "cannot inline '%s' here: its %d nested loops inside the %d "
            "loops around the call make a loop nest deeper than %d levels, which is not "
            "supported in a region", callee->name, loops, site->naround, DEP_MAX_DEPTH);
    return false;
  }
  report_at(REPORT_INFO, caller->name, call->loc, "Routine '%s' inlined", callee->name);
  for (int i = 0; i < body.n; i++)
    ir_list_push(out, body.v[i]);
  return true;
}

/* Not on the visitor: it rebuilds each statement list. */
static bool inline_list(Site *site, IrStmtList *l, int depth)
{
  IrStmtList out = { 0, 0, NULL };
  bool ok = true;
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    if (s->kind == IR_S_CALL) {
      ok &= expand_call(site, s, &out, depth);
      continue;
    }
    if (s->kind == IR_S_DO) {
      IR_APPEND(site->around, site->naround, site->cap, s->u.loop.iv);
      ok &= inline_list(site, &s->u.loop.body, depth);
      site->naround--;
    }
    if (s->kind == IR_S_IF)
      ok &= inline_list(site, &s->u.cond.then, depth) && inline_list(site, &s->u.cond.els, depth);
    ir_list_push(&out, s);
  }
  *l = out;
  return ok;
}

bool xf_inline_program(Program *p)
{
  bool ok = true;
  for (int r = 0; r < p->nroutines; r++)
    for (int i = 0; i < p->routines[r]->nregions; i++) {
      Site site = { p, p->routines[r], &p->routines[r]->regions[i]->body, NULL, 0, 0 };
      /* the user's own nests first, so that a call is blamed only for the
       * loops it adds (expand_call); inlining is the last pass to deepen a
       * nest, and the analyses rely on the limit, so check it once more */
      if (!dep_check_depth(site.region_body) || !inline_list(&site, site.region_body, 0)) {
        ok = false;
        continue;
      }
      ok = ok && dep_check_depth(site.region_body);
    }
  return ok;
}
