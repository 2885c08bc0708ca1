/* inline.c — replace the calls inside regions by the bodies of the called
 * routines, and references to functions by their values, before any
 * analysis.
 *
 * Weather codes call per-column physics from inside their loops; a GPU
 * kernel cannot call host routines, and the analyses need to see the whole
 * loop body.  The callee is found by name among the Program's routines
 * (find_routine: the same lookup for routines of this file and, later,
 * routines given to the Program from elsewhere) and must have its body
 * lowered.  Each call becomes a copy of the callee's executable part
 * (lowered by the front end, fe_fortran.c) in which:
 *   - a scalar dummy stands for its actual (an expression; an assigned
 *     dummy needs a variable or an array element as actual);
 *   - an explicit-shape or assumed-size array dummy stands for its actual
 *     under Fortran sequence association, where that maps element for
 *     element onto the actual's subscripts: the actual is the whole array,
 *     an element or a stride-1 section; the dummy's leading dimensions line
 *     up with the actual's (same extents, starting at their lower bounds)
 *     and its last one runs along the actual's next dimension from the
 *     element it starts at.  d(s1,..,sn) becomes a(e1+s1-l1, .., en+sn-ln,
 *     e(n+1), ..).  Along a dimension that is not the actual's last, the
 *     references must provably stay inside it (check_reaches: the loop
 *     bounds, the argument's value at the call, values the region sets
 *     before it), since beyond it sequence association goes on into the
 *     next column and the mapping does not.  Dimensions of extent 1 drop
 *     out on either side (a dummy y(n,1) on a 1-D actual);
 *   - an assumed-shape dummy x(:), x(its:,:) takes the shape of its actual
 *     (a whole array or a section) from its declared lower bound, or 1;
 *   - an inlined loop whose index subscripts the dummies, all at the same
 *     offset from their actuals, is shifted to run over the actual's
 *     subscripts (`do i = 1, n` over y(i) on work(its) becomes `do i = its,
 *     ite` over work(i)), so that MASS-style vector helpers fuse with the
 *     column loops;
 *   - the callee's locals become new locals of the caller (renamed
 *     `callee_name`), so privatization sees them as work arrays; a loop
 *     index shares the caller's of the same name when neither reads what
 *     the other left;
 *   - named constants and module variables visible at the call stay.
 * A reference to a function of the program (IR_FN_USER) is expanded the
 * same way: a body that is one assignment to the result becomes that
 * expression, any other goes before the statement, its result in a new
 * local; a function may give values only to its result and locals.
 * A function that cannot be inlined (recursive, or too deep a loop nest
 * once inlined) stays a call, of a __device__ function, when its body
 * allows (see "__device__ functions": it then reads its by-value arguments
 * and nothing else).  Anything else (recursion, unsupported shapes) is
 * refused with the reason, never approximated.
 */
#include <stdio.h>
#include <string.h>
#include "access.h"
#include "affine.h"
#include "dep.h"
#include "inline.h"
#include "present.h"
#include "visit.h"
#include "report.h"

#define INLINE_DEPTH 8

typedef struct Binding {
  IrSym *dummy;
  bool absent;           /* an optional dummy the call does not pass */
  IrExpr *actual;        /* scalar dummies: the actual expression */
  IrSym *array;          /* array dummies: the actual array */
  IrExpr *actual_ref;    /* ... as the call writes it (for messages) */
  IrExpr *first[IR_MAX_RANK]; /* ... and its element matching the dummy's first element */
  int nfirst;
  const IrSection *section; /* the actual is a section (first: where it starts), or NULL */
  int along[IR_MAX_RANK];/* the actual's dimension each dummy dimension runs along */
  /* Sequence association that the declarations alone do not show to stay
   * inside the actual: the dummy dimension whose subscripts are checked
   * (-1: none), and the bounds of the actual's dimension it runs along. */
  int reach_dim;
  IrExpr *reach_lo, *reach_hi;
  IrSym *local;          /* callee locals: the caller's new symbol */
} Binding;

/* A reference to a dummy under a checked sequence association: its
 * subscript along Binding.reach_dim (in the caller's terms) and the inlined
 * loops around it, outermost first. */
typedef struct Reach {
  int bind;              /* index in Inline.bind */
  IrExpr *sub;
  IrStmt **loops;
  int nloops;
  Loc loc;
} Reach;

/* A statement list being rebuilt with the calls inlined: the list as it
 * was, the statements already done (those before the one being inlined),
 * and the DO statement whose body it is (NULL: a region or IF body, or an
 * inlined routine's). */
typedef struct Frame {
  IrStmtList *orig;
  IrStmtList *out;
  IrStmt *loop;
} Frame;

typedef struct Site {
  Program *prog;
  IrRoutine *caller;
  IrRegion *region;          /* ... whose launcher checks the assumptions (check_reaches) */
  IrStmtList *region_body;
  IrSym **around;            /* indices of the loops around the statement (arena) */
  IrStmt **around_loops;     /* ... and the loops */
  int naround, cap, loops_cap;
  Frame *frames;             /* the lists around the statement, outermost first */
  int nframes, frames_cap;
  IrRoutine **active;        /* the routines being inlined, from the region's call in */
  Loc *active_at;            /* ... and where each is called */
  int nactive, active_cap, active_at_cap;
} Site;

typedef struct Inline {
  Program *prog;
  IrRoutine *caller;
  IrRoutine *callee;
  IrStmtList *region_body;   /* the region the call is in */
  IrSym **around;            /* indices of the loops around the call */
  IrStmt **around_loops;     /* ... and the loops */
  int naround;
  Site *site;                /* where the call is (values set before it: scalar_def) */
  Loc call_loc;
  int nbind;
  Binding *bind;
  bool ok;
  IrStmt **loops;            /* the inlined loops around the statement being cloned */
  int nloops, loops_cap;
  int nreach, reach_cap;
  Reach *reach;              /* references to check once the body is cloned */
  int nshifts, shifts_cap;
  struct Shift *shifts;      /* the inlined loops being cloned shifted (shift_of) */
} Inline;

/* An inlined loop over `iv` whose index is shifted by `delta` so that it
 * runs over the actual's subscripts: `do i = 1, n` over y(i) on the actual
 * work(its) becomes `do i = its, its+n-1` over work(i), which the column
 * restructuring can fuse with the caller's own loops over i. */
typedef struct Shift {
  IrSym *iv;                 /* the callee's index */
  IrSym *to;                 /* the caller's index standing for it */
  IrExpr *delta;
} Shift;

/* What check_reaches reasons with (see "how far a sequence-associated dummy reaches"). */
typedef struct Reasoning {
  Inline *in;
  IrStmt **loops;            /* loops around the call, then inlined loops, outermost first */
  int nloops;
  IrSymSet seen;             /* scalars the proof relied on */
  IrSymSet replaced;         /* scalars replaced by the value set before the call */
  bool keep_scalars;         /* replace none (messages name the scalars as written) */
} Reasoning;

static IrExpr *clone_expr(Inline *in, IrExpr *e);
static bool is_assumed_shape(const IrSym *d);
static Reasoning reasoning(Inline *in, IrStmt **inner, int ninner);
static bool replace_defs(Reasoning *rs, Affine *a);

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

/* ---- symbols ------------------------------------------------------------------- */

/* A new local of the caller for callee symbol s, named `base` (made unique). */
static IrSym *new_local_named(Inline *in, IrSym *s, const char *base)
{
  IrSym *n = ir_alloc(sizeof *n);
  *n = *s;
  memset(&n->hh, 0, sizeof n->hh);
  n->is_dummy = false;
  n->dummy_index = -1;
  n->inlined_local = true;
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

static IrSym *new_local(Inline *in, IrSym *s)
{
  return new_local_named(in, s, ir_printf("%s_%s", in->callee->name, s->name));
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
  if (!c)
    c = shareable(in, s, ir_printf("%s_%s", in->callee->name, s->name));
  /* no such name in the caller: the index keeps it, so that the next
   * routine inlined into this region shares it in turn */
  if (!c && ir_type_is_integer(s->type) && !s->rank && !ir_lookup(in->caller, s->name))
    c = new_local_named(in, s, s->name);
  return c;
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

/* The affine form a as an expression: `its`, `ite - its`, `(its + 1)`. */
static IrExpr *affine_expr(const Affine *a, Loc loc)
{
  IrExpr *e = NULL;
  for (int i = 0; i < a->n; i++) {
    IrExpr *v = ir_var(a->t[i].var, loc);
    long c = a->t[i].coef < 0 ? -a->t[i].coef : a->t[i].coef;
    if (a->t[i].scale)
      v = ir_binary(IR_OP_MUL, v, ir_var(a->t[i].scale, loc), loc);
    if (c != 1)
      v = ir_binary(IR_OP_MUL, ir_int(c, loc), v, loc);
    if (!e)
      e = a->t[i].coef < 0 ? ir_binary(IR_OP_SUB, ir_int(0, loc), v, loc) : v;
    else
      e = ir_binary(a->t[i].coef < 0 ? IR_OP_SUB : IR_OP_ADD, e, v, loc);
  }
  if (!e)
    return ir_int(a->c, loc);
  if (a->c)
    e = ir_binary(a->c < 0 ? IR_OP_SUB : IR_OP_ADD, e, ir_int(a->c < 0 ? -a->c : a->c, loc), loc);
  return e;
}

/* first - lo along dummy dimension k of b: how far the actual's subscript
 * is ahead of the dummy's, as a simplified expression, or NULL when it is
 * not affine. */
static IrExpr *dimension_offset(Inline *in, const Binding *b, int k, Loc loc)
{
  Affine first, lo;
  if (!aff_build(b->first[b->along[k]], &first) ||
      !aff_build(clone_expr(in, b->dummy->lo[k]), &lo) || !aff_combine(&first, &lo, -1))
    return NULL;
  return affine_expr(&first, loc);
}

/* The shift of the loop over the callee's index `sub` (a plain reference
 * to it) when dimension k of b is the one it was chosen for. */
static const Shift *shift_of(Inline *in, const Binding *b, int k, const IrExpr *sub)
{
  if (sub->kind != IR_E_VAR)
    return NULL;
  for (int i = in->nshifts - 1; i >= 0; i--)
    if (in->shifts[i].iv == sub->u.var) {
      IrExpr *off = dimension_offset(in, b, k, sub->loc);
      return off && same_affine(off, in->shifts[i].delta) ? &in->shifts[i] : NULL;
    }
  return NULL;
}

/* The inlined loops around the reference being cloned, for a Reach. */
static void note_reach(Inline *in, int bind, IrExpr *sub, Loc loc)
{
  Reach r = { bind, sub, NULL, in->nloops, loc };
  r.loops = ir_alloc(sizeof *r.loops * (size_t)(in->nloops + 1));
  for (int i = 0; i < in->nloops; i++)
    r.loops[i] = in->loops[i];
  IR_APPEND(in->reach, in->nreach, in->reach_cap, r);
}

/* d(s1..sn) for a dummy array bound to an actual array: along the actual's
 * dimension that dummy dimension k runs along, its first element plus
 * sk - lk; the actual's other dimensions stay at its first element. */
static IrExpr *map_element(Inline *in, const Binding *b, IrExpr *e)
{
  IrSym *d = b->dummy, *a = b->array;
  int bind = (int)(b - in->bind);   /* cloning may move in->bind */
  IrExpr *r = ir_expr_new(IR_E_ELEM, a->type, e->loc);
  r->u.elem.sym = a;
  r->u.elem.n = a->rank;
  for (int k = 0; k < a->rank; k++)
    r->u.elem.sub[k] = b->first[k];
  for (int k = 0; k < d->rank; k++) {
    if (b->along[k] < 0)     /* extent 1: its subscript is its lower bound */
      continue;
    IrExpr *s = clone_expr(in, e->u.elem.sub[k]);
    b = &in->bind[bind];
    if (k == b->reach_dim)
      note_reach(in, bind, s, e->loc);
    const Shift *shift = shift_of(in, b, k, e->u.elem.sub[k]);
    IrExpr *off = ir_binary(IR_OP_SUB, s, clone_expr(in, d->lo[k]), e->loc);
    r->u.elem.sub[b->along[k]] = shift ? ir_var(shift->to, e->loc)
                                       : ir_binary(IR_OP_ADD, b->first[b->along[k]], off, e->loc);
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
  for (int i = in->nshifts - 1; i >= 0; i--)
    if (in->shifts[i].iv == s)
      return ir_binary(IR_OP_SUB, ir_var(in->shifts[i].to, e->loc), in->shifts[i].delta, e->loc);
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

/* present(d) of a callee's dummy at this call: 1 when the call passes it,
 * 0 when not, -1 when it passes on the caller's own optional dummy (only
 * the host knows then). */
static int call_presence(const IrSym *dummy, void *ctx)
{
  Inline *in = ctx;
  const Binding *b = binding_of(in, dummy);
  if (b && passed_on_optional(in, b))
    return -1;
  return b && !b->absent;
}

/* The value of a logical expression made of present() tests and
 * constants: 1, 0, or -1 when it depends on anything else. */
static int fold_logical(Inline *in, const IrExpr *e)
{
  return xf_fold_presence(e, call_presence, in);
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
  if (!b->array) {
    fail(in, e->loc, ir_printf("it passes optional argument '%s', which this call does not "
                               "pass, on to another routine", b->dummy->name));
    return e;
  }
  /* an assumed-shape dummy passes its shape on: the whole actual (a section
   * keeps its element here and its bounds in pass_on_sections) */
  if (b->actual_ref->kind == IR_E_VAR && !b->section && is_assumed_shape(b->dummy))
    return ir_var(b->array, e->loc);
  IrExpr *r = ir_expr_new(IR_E_ELEM, b->array->type, e->loc);
  r->u.elem.sym = b->array;
  r->u.elem.n = b->array->rank;
  for (int k = 0; k < b->array->rank; k++)
    r->u.elem.sub[k] = b->first[k];
  return r;
}

/* The sections among the actuals of call s inside the callee, their upper
 * bounds in the caller's terms: those the call writes, and the dummies
 * bound to a section that it passes on whole (the elements they run
 * through are the section's).  A section of a dummy
 * array would need its bounds mapped onto the dummy's actual: refused.
 * NULL when there is none. */
static IrSection **clone_sections(Inline *in, IrStmt *s)
{
  IrSection **out = ir_alloc(sizeof *out * (size_t)(s->u.call.nargs + 1));
  bool any = false;
  for (int k = 0; k < s->u.call.nargs; k++) {
    const IrSection *from = s->u.call.sections ? s->u.call.sections[k] : NULL;
    IrExpr *a = s->u.call.args[k];
    const Binding *passed = a->kind == IR_E_VAR ? binding_of(in, a->u.var) : NULL;
    if (passed && passed->array && passed->section) {
      out[k] = (IrSection *)passed->section;
      any = true;
    }
    if (!from)
      continue;
    any = true;
    const Binding *b = binding_of(in, s->u.call.args[k]->u.elem.sym);
    if (b && b->array) {
      fail(in, s->u.call.args[k]->loc, ir_printf("it passes a section of its dummy array '%s' "
           "on to '%s', which is not supported yet", b->dummy->name, s->u.call.name));
      return out;
    }
    out[k] = ir_alloc(sizeof *out[k]);
    for (int d = 0; d < IR_MAX_RANK; d++)
      out[k]->hi[d] = clone_expr(in, from->hi[d]);
  }
  return any ? out : NULL;
}

/* ---- statements ------------------------------------------------------------------ */

static void clone_list(Inline *in, const IrStmtList *from, IrStmtList *to);

typedef struct ShiftScan {
  Inline *in;
  IrSym *iv;
  IrExpr *delta;             /* the offset of the first plain reference */
  bool mixed;                /* plain references with different offsets */
} ShiftScan;

static void shift_scan(IrExpr *e, IrStmt *at, void *ctx)
{
  ShiftScan *sc = ctx;
  (void)at;
  Binding *b = e->kind == IR_E_ELEM ? binding_of(sc->in, e->u.elem.sym) : NULL;
  for (int k = 0; b && b->array && k < b->dummy->rank; k++) {
    if (b->along[k] < 0 || e->u.elem.sub[k]->kind != IR_E_VAR || e->u.elem.sub[k]->u.var != sc->iv)
      continue;
    IrExpr *off = dimension_offset(sc->in, b, k, e->loc);
    if (!off || (sc->delta && !same_affine(off, sc->delta)))
      sc->mixed = true;
    else if (!sc->delta)
      sc->delta = off;
  }
}

/* The caller's scalars the inlined body may assign: those its dummies are
 * bound to, its locals as renamed, the module variables it writes. */
static IrSymSet callee_writes(Inline *in)
{
  IrSymSet callee = { 0 }, caller = { 0 };
  ir_assigned_scalars(&in->callee->body, &callee);
  for (int i = 0; i < callee.n; i++) {
    Binding *b = binding_of(in, callee.syms[i]);
    if (!b)
      ir_symset_add(&caller, callee.syms[i]);
    else if (b->local)
      ir_symset_add(&caller, b->local);
    else if (b->actual && b->actual->kind == IR_E_VAR)
      ir_symset_add(&caller, b->actual->u.var);
  }
  return caller;
}

/* Loop s of the callee, cloned as c: its body, and the shift that makes
 * its index the actual's subscript where the dummies it indexes all start
 * at the same offset from their actuals (not where they already agree):
 * the bounds move by the offset, a plain dummy subscript becomes the index
 * itself, any other use of the index the index minus the offset.  When the
 * body changes a scalar of the offset, the loop is cloned again unshifted. */
static void clone_loop_body(Inline *in, IrStmt *s, IrStmt *c)
{
  ShiftScan sc = { in, s->u.loop.iv, NULL, false };
  ir_walk_exprs(&s->u.loop.body, shift_scan, &sc);
  Affine delta, lo, hi;
  Reasoning rs = reasoning(in, NULL, 0);   /* bounds with the values set before the call */
  rs.nloops = 0;
  bool shift = sc.delta && !sc.mixed && aff_build(sc.delta, &delta) && delta.n &&
               aff_build(c->u.loop.lo, &lo) && aff_build(c->u.loop.hi, &hi) &&
               aff_combine(&lo, &delta, 1) && aff_combine(&hi, &delta, 1) &&
               replace_defs(&rs, &lo) && replace_defs(&rs, &hi);
  int nreach = in->nreach;
  memset(&c->u.loop.body, 0, sizeof c->u.loop.body);
  IR_APPEND(in->loops, in->nloops, in->loops_cap, c);
  if (shift) {
    Shift sh = { s->u.loop.iv, c->u.loop.iv, sc.delta };
    IR_APPEND(in->shifts, in->nshifts, in->shifts_cap, sh);
    IrExpr *lo0 = c->u.loop.lo, *hi0 = c->u.loop.hi;
    c->u.loop.lo = affine_expr(&lo, c->loc);
    c->u.loop.hi = affine_expr(&hi, c->loc);
    clone_list(in, &s->u.loop.body, &c->u.loop.body);
    in->nshifts--;
    IrSymSet assigned = callee_writes(in);
    ir_assigned_scalars(&c->u.loop.body, &assigned);
    for (int i = 0; i < delta.n && shift; i++)
      shift = !ir_symset_has(&assigned, delta.t[i].var);
    for (int i = 0; i < rs.replaced.n && shift; i++)
      shift = !ir_symset_has(&assigned, rs.replaced.syms[i]);
    if (!shift) {
      c->u.loop.lo = lo0;
      c->u.loop.hi = hi0;
      in->nreach = nreach;
      memset(&c->u.loop.body, 0, sizeof c->u.loop.body);
    }
  }
  if (!shift)
    clone_list(in, &s->u.loop.body, &c->u.loop.body);
  in->nloops--;
}

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
    if (iv->kind == IR_E_VAR)
      clone_loop_body(in, s, c);
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
    c->u.call.sections = clone_sections(in, s);
    break;
  case IR_S_WHILE:
  case IR_S_BLOCK:
    c->u.loop = s->u.loop;
    c->u.loop.test = clone_expr(in, s->u.loop.test);
    memset(&c->u.loop.body, 0, sizeof c->u.loop.body);
    clone_list(in, &s->u.loop.body, &c->u.loop.body);
    break;
  case IR_S_WHERE: S2S_BUG("WHERE left after pass normalize");
  case IR_S_CYCLE:
  case IR_S_EXIT:
    c->u.jump = s->u.jump;
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

/* ---- how far a sequence-associated dummy reaches ------------------------------------ */

/* A dummy `y(*)` or `y(n)` on the actual `work(its)` reaches as far along
 * work's dimension as its subscripts go.  Inlining maps y(s) onto
 * work(its + s - 1), which is the element sequence association gives only
 * while it stays inside that dimension; beyond it the mapped subscript
 * would run past the dimension instead of into the next column.  So each
 * reference's subscript, in the caller's terms, must provably stay inside
 * the actual's bounds: the loop indices around it are replaced by the
 * bound where the difference is least (innermost loop first), scalars the
 * region set before the call by their value there, and what is left must
 * be a constant >= 0.  Every other scalar the proof leans on must hold the
 * same value at the reference as where the actual's bounds were taken: not
 * assigned by the routine, the region or the inlined body. */


/* a + factor * b; false when it needs more terms than an Affine holds. */
static void collect_sym(IrExpr *e, IrStmt *in, void *ctx)
{
  (void)in;
  if (e->kind == IR_E_VAR)
    ir_symset_add(ctx, e->u.var);
}

typedef struct Touch { Program *prog; IrSym *x; int depth; bool found; } Touch;

static IrRoutine *find_routine(Program *p, const char *name);

static bool touches_at(Program *prog, IrStmtList *l, IrSym *x, int depth);

/* Can `call` change x, which its k-th actual mentions?  A module variable
 * always can (the callee may USE it); any other only when the actual is x
 * itself (or an element or section of it) and the dummy is not intent(in)
 * nor left unassigned by the callee's body (and the calls in it, `depth`
 * deep): `call vrec(rp(its,k), p(its,k), n)` keeps its, k and n. */
static bool call_may_change(Program *prog, IrStmt *call, int k, IrSym *x, int depth)
{
  const IrExpr *a = call->u.call.args[k];
  if (x->is_module)
    return true;
  if (!(a->kind == IR_E_VAR && a->u.var == x) && !(a->kind == IR_E_ELEM && a->u.elem.sym == x))
    return false;
  IrRoutine *callee = find_routine(prog, call->u.call.name);
  if (!callee)
    return true;
  const char *kw = call->u.call.keywords ? call->u.call.keywords[k] : NULL;
  IrSym *dummy = !kw && k < callee->ndummies ? callee->dummies[k] : NULL;
  for (int i = 0; kw && i < callee->ndummies; i++)
    if (!strcmp(callee->dummies[i]->name, kw))
      dummy = callee->dummies[i];
  if (!dummy || dummy->intent == IR_INTENT_OUT || dummy->intent == IR_INTENT_INOUT)
    return true;
  return dummy->intent != IR_INTENT_IN &&
         (!callee->body_lowered || depth >= INLINE_DEPTH ||
          touches_at(prog, &callee->body, dummy, depth + 1));
}

static IrVisitStep touch_pre(IrStmt *s, IrVisit *v)
{
  Touch *t = v->ctx;
  for (int i = 0; s->kind == IR_S_CALL && i < s->u.call.nargs; i++)
    t->found |= ir_expr_mentions(s->u.call.args[i], t->x) &&
                call_may_change(t->prog, s, i, t->x, t->depth);
  t->found |= ir_stmt_assigns(s, t->x);
  return t->found ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

/* Does a statement of l (nested ones included) assign x, or pass it to a
 * call that might? */
static bool touches_at(Program *prog, IrStmtList *l, IrSym *x, int depth)
{
  Touch t = { prog, x, depth, false };
  IrVisit v = { .pre = touch_pre, .ctx = &t };
  ir_visit_stmts(l, &v);
  return t.found;
}

static bool list_touches(Program *prog, IrStmtList *l, IrSym *x)
{
  return touches_at(prog, l, x, 0);
}

static bool stmt_touches(Program *prog, IrStmt *s, IrSym *x)
{
  IrStmtList one = { 1, 1, &s };
  return list_touches(prog, &one, x);
}

/* Between the statement at out[p] of frame f and the call being inlined,
 * can x change?  The statements after it in its list and every statement
 * of the lists inside it up to the call run in between; so do, through
 * their other iterations, the whole bodies of the loops inside it. */
static bool changes_after(Site *site, int f, int p, IrSym *x)
{
  for (int g = f; g < site->nframes; g++) {
    Frame *fr = &site->frames[g];
    for (int k = g == f ? p + 1 : 0; k < fr->out->n; k++)
      if (stmt_touches(site->prog, fr->out->v[k], x))
        return true;
    if (g > f && fr->loop && (fr->loop->u.loop.iv == x || list_touches(site->prog, fr->orig, x)))
      return true;
  }
  return false;
}

/* The value scalar v has at the call when the region (or an inlined body
 * around the call) sets it with `v = expr` before the call, on every path,
 * and neither v nor what expr reads can change in between: expr, or NULL. */
static IrExpr *scalar_def(Site *site, IrSym *v)
{
  for (int f = site->nframes - 1; f >= 0; f--) {
    Frame *fr = &site->frames[f];
    for (int p = fr->out->n - 1; p >= 0; p--) {
      IrStmt *s = fr->out->v[p];
      bool def = s->kind == IR_S_ASSIGN && s->u.assign.lhs->kind == IR_E_VAR &&
                 s->u.assign.lhs->u.var == v;
      if (!def && stmt_touches(site->prog, s, v))
        return NULL;
      if (!def)
        continue;
      IrSymSet reads = { 0 };
      ir_walk_expr(s->u.assign.rhs, s, collect_sym, &reads);
      for (int i = 0; i < reads.n; i++)
        if (reads.syms[i] == v || changes_after(site, f, p, reads.syms[i]))
          return NULL;
      return s->u.assign.rhs;
    }
    if (fr->loop && (fr->loop->u.loop.iv == v || list_touches(site->prog, fr->orig, v)))
      return NULL;
  }
  return NULL;
}

static bool is_range_index(const Reasoning *rs, const IrSym *v)
{
  for (int i = 0; i < rs->nloops; i++)
    if (rs->loops[i]->u.loop.iv == v)
      return true;
  return false;
}

static void note_seen(Reasoning *rs, const Affine *a)
{
  for (int i = 0; i < a->n; i++) {
    ir_symset_add(&rs->seen, a->t[i].var);
    if (a->t[i].scale)
      ir_symset_add(&rs->seen, a->t[i].scale);
  }
}

/* Replace in a the first scalar that the region (or an inlined body) sets
 * before the call (scalar_def) by its affine value there, unless it is in
 * `replaced` already, scales a term, or is an index of rs's loops (rs may
 * be NULL).  1: replaced (added to `replaced`), 0: none left, -1: a has no
 * room for the value. */
static int replace_one_def(Site *site, const Reasoning *rs, IrSymSet *replaced, Affine *a)
{
  IrSym *v = NULL;
  Affine value;
  for (int i = 0; i < a->n && !v; i++) {
    IrSym *t = a->t[i].var;
    IrExpr *e = a->t[i].scale || (rs && is_range_index(rs, t)) || ir_symset_has(replaced, t)
                ? NULL : scalar_def(site, t);
    if (e && aff_build(e, &value))
      v = t;
  }
  if (!v)
    return 0;
  ir_symset_add(replaced, v);
  return aff_replace(a, v, &value) ? 1 : -1;
}

/* Replace in a the scalars set before the call by their values there. */
static bool replace_defs(Reasoning *rs, Affine *a)
{
  for (int round = 0; round < INLINE_DEPTH && !rs->keep_scalars; round++) {
    note_seen(rs, a);
    int r = replace_one_def(rs->in->site, rs, &rs->replaced, a);
    if (r <= 0)
      return r == 0;
  }
  return true;
}

/* The least (least) or greatest value of a over the iterations of the
 * loops, as an affine form of other scalars: each index, innermost loop
 * first, replaced by the bound where a is least (greatest). */
static bool extreme(Reasoning *rs, Affine *a, bool least)
{
  if (!replace_defs(rs, a))
    return false;
  for (int i = rs->nloops - 1; i >= 0; i--) {
    IrStmt *l = rs->loops[i];
    long coef, step = 1;
    if (!aff_coef(a, l->u.loop.iv, &coef))
      return false;
    if (!coef)
      continue;
    if (l->u.loop.step && (!ir_eval_const(l->u.loop.step, &step) || !step))
      return false;
    bool at_lo = (coef > 0) == least;
    Affine bound;
    if (!aff_build(step > 0 ? (at_lo ? l->u.loop.lo : l->u.loop.hi)
                            : (at_lo ? l->u.loop.hi : l->u.loop.lo), &bound) ||
        !aff_replace(a, l->u.loop.iv, &bound) || !replace_defs(rs, a))
      return false;
  }
  note_seen(rs, a);
  return true;
}

/* Can s have another value at the inlined reference than where the
 * caller's declarations took it?  `assigned`: the scalars the inlined body
 * assigns. */
static bool unstable(Inline *in, const IrSymSet *assigned, IrSym *s)
{
  if (s->kind == IR_SYM_PARAM || s->bound_of)
    return false;
  if (s->is_module || s->inlined_local || ir_symset_has(assigned, s))
    return true;
  IrHostUses *u;
  HASH_FIND_STR(in->caller->host_uses, s->name, u);
  for (int i = 0; u && i < u->n; i++)
    if (u->v[i].assigns)
      return true;
  return false;
}

/* What the run must show for a reach to stay inside: the residual
 * forms (>= 0) that the loops' extremes left in scalars only. */
typedef struct Assumed {
  int n;
  Affine v[2];               /* one per side of the dimension */
} Assumed;

/* Can the region change s anywhere: its statements, the bodies inlined
 * around the call (frames), or a call that might (list_touches)? */
static bool region_touches(Site *site, IrSym *s)
{
  for (int f = 0; f < site->nframes; f++)
    if (list_touches(site->prog, site->frames[f].orig, s))
      return true;
  return false;
}

/* May `a` (>= 0 wanted) be left to a check before the launch?  Only when
 * each of its scalars has one value through the whole region: a plain
 * scalar of the caller that neither the region nor the host code assigns
 * (the launcher then evaluates it with the value the kernels see). */
static bool assumable(Reasoning *rs, const Affine *a, const IrSymSet *assigned)
{
  for (int i = 0; i < a->n; i++) {
    IrSym *s = a->t[i].var;
    if (a->t[i].scale || s->rank || s->kind == IR_SYM_PARAM || s->bound_of || s->is_module ||
        s->inlined_local || is_range_index(rs, s) || unstable(rs->in, assigned, s) ||
        region_touches(rs->in->site, s))
      return false;
  }
  return a->n > 0;
}

/* Is `value` >= 0 at every reference?  With `assume`: or is what is left
 * after the loops' extremes something the launcher can check (added to it). */
static bool nonneg_or_assumed(Reasoning *rs, Affine value, const IrSymSet *assigned,
                              Assumed *assume)
{
  if (!extreme(rs, &value, true))
    return false;
  if (value.n == 0)
    return value.c >= 0;
  if (!assume || !assumable(rs, &value, assigned))
    return false;
  assume->v[assume->n++] = value;
  return true;
}


/* Does every scalar the proof used keep its value? */
static bool proof_holds(Reasoning *rs, const IrSymSet *assigned)
{
  for (int i = 0; i < rs->seen.n; i++) {
    IrSym *s = rs->seen.syms[i];
    bool replaced = ir_symset_has(&rs->replaced, s);
    if (replaced ? ir_symset_has(assigned, s) : !is_range_index(rs, s) &&
                                                 unstable(rs->in, assigned, s))
      return false;
  }
  return true;
}

static Reasoning reasoning(Inline *in, IrStmt **inner, int ninner)
{
  Reasoning rs = { in, NULL, 0, { 0 }, { 0 }, false };
  rs.loops = ir_alloc(sizeof *rs.loops * (size_t)(in->naround + ninner + 1));
  for (int i = 0; i < in->naround; i++)
    rs.loops[rs.nloops++] = in->around_loops[i];
  for (int i = 0; i < ninner; i++)
    rs.loops[rs.nloops++] = inner[i];
  return rs;
}

/* lo <= first + (sub - dummy_lo) <= hi along the actual's dimension, for
 * every value sub takes in the loops of rs. */
static bool stays_inside(Reasoning *rs, const Binding *b, IrExpr *sub, IrExpr *dummy_lo,
                         const IrSymSet *assigned, Assumed *assume)
{
  Affine s, dlo, first, lo, hi;
  if (!aff_build(sub, &s) || !aff_build(dummy_lo, &dlo) ||
      !aff_build(b->first[b->along[b->reach_dim]], &first) || !b->reach_lo || !b->reach_hi ||
      !aff_build(b->reach_lo, &lo) || !aff_build(b->reach_hi, &hi))
    return false;
  Affine above = first, below = hi;   /* actual subscript - lo, hi - actual subscript */
  if (!aff_combine(&above, &s, 1) || !aff_combine(&above, &dlo, -1) ||
      !aff_combine(&above, &lo, -1) || !aff_combine(&below, &first, -1) ||
      !aff_combine(&below, &s, -1) || !aff_combine(&below, &dlo, 1))
    return false;
  return nonneg_or_assumed(rs, above, assigned, assume) &&
         nonneg_or_assumed(rs, below, assigned, assume) && proof_holds(rs, assigned);
}

/* e as Fortran text when it is affine (`its+n-1`), else "?". */
static const char *affine_text(const Affine *a, bool ok)
{
  char buf[256];
  if (!ok)
    return "?";
  Affine sorted = *a;        /* positive terms first: `ite-its+2`, not `-its+ite+2` */
  int n = 0;
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < a->n; i++)
      if ((a->t[i].coef > 0) == (pass == 0))
        sorted.t[n++] = a->t[i];
  aff_print(&sorted, buf, sizeof buf);
  return ir_strdup(buf);
}

/* The least and greatest values of sub + shift - dummy_lo (shift NULL:
 * of sub alone) over the loops of rs, as text for a message. */
static void range_text(Reasoning *rs, IrExpr *sub, IrExpr *shift, IrExpr *dummy_lo,
                       const char **lo_text, const char **hi_text)
{
  Affine s, lo, hi;
  bool ok = aff_build(sub, &s);
  if (shift) {
    Affine f, d;
    ok = ok && aff_build(shift, &f) && aff_build(dummy_lo, &d) && aff_combine(&s, &f, 1) &&
         aff_combine(&s, &d, -1);
  }
  lo = s;
  hi = s;
  bool lo_ok = ok && extreme(rs, &lo, true);
  bool hi_ok = ok && extreme(rs, &hi, false);
  *lo_text = affine_text(&lo, lo_ok);
  *hi_text = affine_text(&hi, hi_ok);
}

/* The array actual of b as the call writes it: `q`, `q(its,k)`, `q(its:ite,k)`. */
static const char *actual_text(const Binding *b)
{
  const IrExpr *e = b->actual_ref;
  if (e->kind == IR_E_VAR)
    return e->u.var->name;
  if (!b->section)
    return an_ref_text(e, IR_FORTRAN);
  char *text = ir_printf("%s(", e->u.elem.sym->name);
  for (int k = 0; k < e->u.elem.n; k++) {
    Affine lo, hi;
    const IrExpr *h = b->section->hi[k];
    bool lo_ok = aff_build(e->u.elem.sub[k], &lo), hi_ok = h && aff_build(h, &hi);
    text = ir_printf("%s%s%s%s%s", text, k ? "," : "", affine_text(&lo, lo_ok), h ? ":" : "",
                     h ? affine_text(&hi, hi_ok) : "");
  }
  return ir_printf("%s)", text);
}

static bool refuse_reach(Inline *in, const Reach *r)
{
  const Binding *b = &in->bind[r->bind];
  int k = b->reach_dim, ak = b->along[k];
  IrExpr *dlo = clone_expr(in, b->dummy->lo[k]);
  Reasoning rs = reasoning(in, r->loops, r->nloops);
  rs.keep_scalars = true;
  const char *dummy_lo, *dummy_hi, *actual_lo, *actual_hi;
  range_text(&rs, r->sub, NULL, NULL, &dummy_lo, &dummy_hi);
  range_text(&rs, r->sub, b->first[ak], dlo, &actual_lo, &actual_hi);
  Affine lo, hi;
  bool lo_ok = b->reach_lo && aff_build(b->reach_lo, &lo);
  bool hi_ok = b->reach_hi && aff_build(b->reach_hi, &hi);
  return fail(in, b->actual_ref->loc, ir_printf("dummy '%s' is sequence-associated with '%s' "
              "and reaches %s(%s:%s) at line %d: dimension %d of '%s' from %s to %s, declared "
              "%s:%s; s2s-cuda cannot prove that this stays inside the dimension, which the "
              "element-for-element mapping needs; pass the extent as an expression of the "
              "actual's bounds, such as ite-its+1", b->dummy->name,
              actual_text(b), b->dummy->name, dummy_lo, dummy_hi,
              diag_user_line(r->loc), ak + 1, b->array->name, actual_lo, actual_hi,
              affine_text(&lo, lo_ok), affine_text(&hi, hi_ok)));
}

/* Does the dummy's declared extent along reach_dim fit inside the actual
 * (explicit-shape dummies: every legal reference stays inside it)? */
static bool declared_fits(Inline *in, const Binding *b, const IrSymSet *assigned)
{
  int k = b->reach_dim;
  IrSym *d = b->dummy;
  if (!d->hi[k])
    return false;
  IrExpr *dlo = clone_expr(in, d->lo[k]), *dhi = clone_expr(in, d->hi[k]);
  Reasoning rs = reasoning(in, NULL, 0);
  return stays_inside(&rs, b, dlo, dlo, assigned, NULL) &&
         stays_inside(&rs, b, dhi, dlo, assigned, NULL);
}

/* `a >= 0` as text with no negative term: `its >= ims`, `ime >= ite`. */
static const char *nonneg_text(const Affine *a)
{
  Affine pos = { 0 }, neg = { 0 };
  for (int i = 0; i < a->n; i++)
    aff_add_term(a->t[i].coef > 0 ? &pos : &neg, a->t[i].var, a->t[i].scale,
                 a->t[i].coef > 0 ? a->t[i].coef : -a->t[i].coef);
  (a->c > 0 ? &pos : &neg)->c = a->c > 0 ? a->c : -a->c;
  return ir_printf("%s >= %s", affine_text(&pos, true), affine_text(&neg, true));
}

/* Record on the region that the reach of b needs a >= 0 at run time (once
 * per form); `texts` collects the call's for its -Minfo line. */
static void add_assumption(Inline *in, const Binding *b, const Affine *a, const char **texts)
{
  IrRegion *g = in->site->region;
  const char *text = nonneg_text(a);
  for (int i = 0; i < g->nassumptions; i++)
    if (!strcmp(g->assumptions[i].text, text))
      return;
  IrAssumption x = { affine_expr(a, b->actual_ref->loc), b->actual_ref->loc, text,
                     ir_printf("dimension %d of '%s' reached by the call of '%s' at line %d stays "
                               "inside its declared bounds", b->along[b->reach_dim] + 1,
                               b->array->name, in->callee->name, diag_user_line(in->call_loc)) };
  IR_APPEND(g->assumptions, g->nassumptions, g->assumptions_cap, x);
  *texts = *texts ? ir_printf("%s, %s", *texts, text) : text;
}

/* Check every reference of a dummy whose sequence association the
 * declarations do not show to stay inside its actual. */
static bool check_reaches(Inline *in, IrStmtList *body)
{
  const char *texts = NULL;
  IrSymSet assigned = { 0 };
  ir_assigned_scalars(body, &assigned);
  IrSymSet fits = { 0 };
  for (int i = 0; i < in->nbind; i++) {
    Binding *b = &in->bind[i];
    if (b->array && b->reach_dim >= 0 && declared_fits(in, b, &assigned))
      ir_symset_add(&fits, b->dummy);
  }
  for (int i = 0; i < in->nreach && in->ok; i++) {
    Reach *r = &in->reach[i];
    const Binding *b = &in->bind[r->bind];
    if (ir_symset_has(&fits, b->dummy))
      continue;
    Reasoning rs = reasoning(in, r->loops, r->nloops);
    Assumed assume = { 0 };
    if (!stays_inside(&rs, b, r->sub, clone_expr(in, b->dummy->lo[b->reach_dim]), &assigned,
                      &assume))
      return refuse_reach(in, r);
    for (int k = 0; k < assume.n; k++)
      add_assumption(in, b, &assume.v[k], &texts);
  }
  if (in->ok && texts)
    report_at(REPORT_INFO, in->caller->name, in->call_loc, "Assumed at run time: %s (checked "
              "before the launch)", texts);
  return in->ok;
}

/* ---- binding the arguments --------------------------------------------------------- */

static bool is_runtime_bound(const IrExpr *e)
{
  return e && e->kind == IR_E_VAR && e->u.var->bound_of;
}

/* The dimensions of an actual that the elements of a dummy run through, in
 * order, with their bounds: every dimension of a whole array or an element
 * (as declared), the ranges of a section (as written). */
typedef struct Extent {
  int n;
  int dim[IR_MAX_RANK];
  IrExpr *lo[IR_MAX_RANK], *hi[IR_MAX_RANK];
} Extent;

static Extent actual_extent(const IrSym *a, const IrExpr *actual, const IrSection *section)
{
  Extent x = { 0 };
  for (int k = 0; k < a->rank; k++) {
    if (section && !section->hi[k])
      continue;
    x.dim[x.n] = k;
    x.lo[x.n] = section ? actual->u.elem.sub[k] : a->lo[k];
    x.hi[x.n] = section ? section->hi[k] : a->hi[k];
    x.n++;
  }
  return x;
}

/* a with the scalars set before the call (scalar_def) replaced by their
 * values there, as far as they are affine: `n` passed for an extent after
 * `n = ite - its + 1` is that difference. */
static bool with_values_at_call(Site *site, Affine *a)
{
  IrSymSet replaced = { 0 };
  for (int round = 0; round < INLINE_DEPTH; round++) {
    int r = replace_one_def(site, NULL, &replaced, a);
    if (r <= 0)
      return r == 0;
  }
  return true;
}

/* Do dimension k of dummy d and dimension m of the actual's extent x have
 * the same extent, as written or with the values scalars have at the call? */
static bool same_extent_as(Inline *in, const IrSym *d, int k, const Extent *x, int m)
{
  if (!d->hi[k] || !d->lo[k] || !x->hi[m] || !x->lo[m])
    return false;
  IrExpr *ed = ir_binary(IR_OP_SUB, clone_expr(in, d->hi[k]), clone_expr(in, d->lo[k]), d->loc);
  IrExpr *ea = ir_binary(IR_OP_SUB, x->hi[m], x->lo[m], d->loc);
  if (same_affine(ed, ea))
    return true;
  Affine a, b;
  return aff_build(ed, &a) && aff_build(ea, &b) && with_values_at_call(in->site, &a) &&
         with_values_at_call(in->site, &b) && a.c == b.c && aff_same_terms(&a, &b);
}

/* Is lo:hi provably one element? */
static bool unit_extent(IrExpr *lo, IrExpr *hi)
{
  return lo && hi && same_affine(lo, hi);
}

/* Leave out of x dimensions of extent 1 where the actual starts at their
 * lower bound, first to last, until `want` are left. */
static void drop_unit_dimensions(Extent *x, IrExpr *const *first, int want)
{
  for (int m = 0; m < x->n && x->n > want;) {
    if (unit_extent(x->lo[m], x->hi[m]) && same_affine(first[x->dim[m]], x->lo[m])) {
      for (int r = m; r + 1 < x->n; r++) {
        x->dim[r] = x->dim[r + 1];
        x->lo[r] = x->lo[r + 1];
        x->hi[r] = x->hi[r + 1];
      }
      x->n--;
    } else {
      m++;
    }
  }
}

static bool is_assumed_shape(const IrSym *d)
{
  for (int k = 0; k < d->rank; k++)
    if (is_runtime_bound(d->lo[k]) || is_runtime_bound(d->hi[k]))
      return true;
  return false;
}

/* An assumed-shape dummy `x(:)`, `x(its:, :)` takes its shape from the
 * actual: dimension k runs along the actual's k-th, from the declared lower
 * bound (or 1) over the actual's extent.  The hidden scalars standing for
 * its run-time bounds (fe_fortran.c, runtime_bound) get those values. */
static bool bind_assumed_shape(Inline *in, int bi, const Extent *x)
{
  Binding *b = &in->bind[bi];
  IrSym *d = b->dummy, *a = b->array;
  if (b->actual_ref->kind == IR_E_ELEM && !b->section)
    return fail(in, b->actual_ref->loc, ir_printf("assumed-shape dummy '%s' needs an array or "
                "an array section as actual, not the element '%s'", d->name,
                actual_text(b)));
  if (x->n != d->rank)
    return fail(in, b->actual_ref->loc, ir_printf("assumed-shape dummy '%s' has rank %d, the "
                "actual '%s' %d", d->name, d->rank, actual_text(b),
                x->n));
  IrExpr *lo[IR_MAX_RANK], *hi[IR_MAX_RANK];
  for (int k = 0; k < d->rank; k++) {
    if (!x->lo[k] || !x->hi[k])
      return fail(in, b->actual_ref->loc, ir_printf("the bounds of '%s' are not known", a->name));
    b->along[k] = x->dim[k];
    lo[k] = is_runtime_bound(d->lo[k]) ? ir_int(1, d->loc) : clone_expr(in, d->lo[k]);
    hi[k] = ir_binary(IR_OP_ADD, lo[k], ir_binary(IR_OP_SUB, x->hi[k], x->lo[k], d->loc), d->loc);
    b = &in->bind[bi];
  }
  for (IrSym *s = in->callee->symbols; s; s = s->hh.next)
    if (s->bound_of == d) {
      Binding hidden = { .dummy = s, .actual = s->bound_is_upper ? hi[s->bound_dim] : lo[s->bound_dim] };
      IR_PUSH(in->bind, in->nbind, hidden);
    }
  return true;
}

/* An array actual for array dummy d: the whole array, one element or a
 * section.  An explicit-shape or assumed-size dummy is sequence-associated:
 * its leading dimensions must line up with the actual's; along the last one
 * it may start anywhere in the actual's dimension and reach as far as it
 * provably stays inside it (checked once the body is cloned:
 * check_reaches). */
static bool bind_array(Inline *in, int bi, IrExpr *actual, const IrSection *section)
{
  Binding *b = &in->bind[bi];
  IrSym *d = b->dummy;
  IrSym *a = actual->kind == IR_E_VAR ? actual->u.var : actual->u.elem.sym;
  if (a->type != d->type)
    return fail(in, actual->loc, ir_printf("the actual array '%s' is %s, the dummy '%s' %s",
                a->name, ir_type_name(a->type), d->name, ir_type_name(d->type)));
  b->array = a;
  b->actual_ref = actual;
  b->nfirst = a->rank;
  b->section = section;
  b->reach_dim = -1;
  for (int k = 0; k < a->rank; k++)
    b->first[k] = actual->kind == IR_E_VAR ? a->lo[k] : actual->u.elem.sub[k];
  Extent x = actual_extent(a, actual, section);
  if (is_assumed_shape(d))
    return bind_assumed_shape(in, bi, &x);
  /* a dimension of extent 1 holds one element, whichever side it is on: a
   * dummy y(n,1) on a 1-D actual, or y(n) on an actual a(1:1,n), maps
   * element for element along the other dimensions */
  bool unit[IR_MAX_RANK] = { false };
  int dims = d->rank, last = d->rank - 1;
  for (int k = 0; k < d->rank && d->rank > x.n; k++)
    if ((unit[k] = unit_extent(clone_expr(in, d->lo[k]), clone_expr(in, d->hi[k]))))
      dims--;
  if (dims < x.n)
    drop_unit_dimensions(&x, b->first, dims);
  if (dims > x.n)
    return fail(in, actual->loc, ir_printf("dummy '%s' has more dimensions than the actual '%s'",
                d->name, a->name));
  while (last >= 0 && unit[last])
    last--;
  b = &in->bind[bi];
  for (int k = 0, m = 0; k < d->rank; k++) {
    b->along[k] = unit[k] ? -1 : x.dim[m];
    if (unit[k])
      continue;
    if (!b->first[x.dim[m]])
      return fail(in, actual->loc, ir_printf("the bounds of '%s' are not known", a->name));
    bool lined_up = same_affine(b->first[x.dim[m]], x.lo[m]) && same_extent_as(in, d, k, &x, m);
    b = &in->bind[bi];
    if (k < last && !lined_up)
      return fail(in, actual->loc, ir_printf("dimension %d of dummy '%s' does not line up with "
                  "the actual '%s' (s2s-cuda maps a dummy onto its actual element for element "
                  "only when the leading extents are equal and the actual starts at their lower "
                  "bounds)", k + 1, d->name, a->name));
    /* along the actual's last dimension, a dummy that ran past it would run
     * past the whole actual (or section), which no valid program does; along
     * another, into the actual's next column, which the mapping does not
     * follow */
    if (k == last && !lined_up && m < x.n - 1) {
      b->reach_dim = k;
      b->reach_lo = x.lo[m];
      b->reach_hi = x.hi[m];
    }
    m++;
  }
  return true;
}

/* The actual of each dummy: positional arguments first, then keywords;
 * optional dummies the call does not pass are absent. */
static bool match_actuals(Inline *in, IrStmt *call, IrExpr **actual, const IrSection **section)
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
    section[d] = call->u.call.sections ? call->u.call.sections[k] : NULL;
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
  const IrSection **sections = ir_alloc(sizeof *sections * (size_t)(r->ndummies + 1));
  if (!match_actuals(in, call, actuals, sections))
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
    if (sections[i])
      return fail(in, actual->loc, ir_printf("scalar dummy '%s' gets the array section '%s'",
                  r->dummies[i]->name, actual->u.elem.sym->name));
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
    if (!bind_array(in, in->nbind - 1, actual, sections[i]))
      return false;
  }
  return true;
}

/* ---- __device__ functions -------------------------------------------------------------- */

/* A function or subroutine that cannot be inlined — it is recursive, or
 * its loops inside the loops around the call would nest deeper than the
 * analyses support — stays a call, of a __device__ function of the
 * generated file, when its body is one a thread can run on its own
 * (device_obstacle): scalar arguments (a function's never assigned, so
 * passed by value; those a subroutine assigns passed by pointer); a scalar
 * result; locals of fixed size that keep nothing from one call to the
 * next; named constants, intrinsics, and calls of functions and
 * subroutines that can be __device__ functions in turn.  All a function
 * reference does is then to read its arguments, which the analyses see as
 * the operands of its IR_E_CALL: it touches no array of the caller and no
 * module variable behind their back.  A subroutine's call in a region
 * becomes one such reference per argument it assigns (keep_device_call),
 * `x = <x after sub(a, x)>`, so that the analyses see what it changes as
 * the plain assignments they know. */

typedef struct RoutineList {
  IrRoutine **v;
  int n, cap;
} RoutineList;

static bool routine_listed(const RoutineList *l, const IrRoutine *r)
{
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == r)
      return true;
  return false;
}

typedef struct Callees {
  Program *prog;
  RoutineList found;
} Callees;

static void add_callee(Callees *c, const char *name)
{
  IrRoutine *r = find_routine(c->prog, name);
  if (r && !routine_listed(&c->found, r))
    IR_APPEND(c->found.v, c->found.n, c->found.cap, r);
}

static void callee_expr(IrExpr *e, IrStmt *in, void *ctx)
{
  (void)in;
  if (e->kind == IR_E_CALL && e->u.call.fn == IR_FN_USER)
    add_callee(ctx, e->u.call.name);
}

static IrVisitStep callee_stmt(IrStmt *s, IrVisit *v)
{
  ir_walk_stmt_exprs(s, callee_expr, v->ctx);
  if (s->kind == IR_S_CALL)
    add_callee(v->ctx, s->u.call.name);
  return IR_VISIT_CONTINUE;
}

/* The routines of the program that r's body calls (statements and
 * function references), each once, in the order of their first call. */
static RoutineList callees_of(Program *p, IrRoutine *r)
{
  Callees c = { p, { NULL, 0, 0 } };
  IrVisit v = { .pre = callee_stmt, .ctx = &c };
  if (r->body_lowered)
    ir_visit_stmts(&r->body, &v);
  return c.found;
}

/* The calls by which r reaches `target`, "r -> .. -> target", searched
 * depth first; NULL when it does not.  `seen`: routines already searched. */
static const char *call_chain(Program *p, IrRoutine *r, IrRoutine *target, RoutineList *seen)
{
  RoutineList callees = callees_of(p, r);
  for (int i = 0; i < callees.n; i++) {
    IrRoutine *c = callees.v[i];
    if (c == target)
      return ir_printf("%s -> %s", r->name, target->name);
    if (routine_listed(seen, c))
      continue;
    IR_APPEND(seen->v, seen->n, seen->cap, c);
    const char *rest = call_chain(p, c, target, seen);
    if (rest)
      return ir_printf("%s -> %s", r->name, rest);
  }
  return NULL;
}

/* How fn calls itself ("fact -> fact", "ping -> pong -> ping"), or NULL
 * when it is not recursive. */
static const char *recursion_of(Program *p, IrRoutine *fn)
{
  RoutineList seen = { NULL, 0, 0 };
  return call_chain(p, fn, fn, &seen);
}

/* The actual of each dummy of callee in call, in the dummies' order
 * (keywords matched), or NULL when they do not match one for one (an
 * absent optional argument included). */
static IrExpr **actuals_in_order(const IrStmt *call, const IrRoutine *callee)
{
  IrExpr **actual = ir_alloc(sizeof *actual * (size_t)(callee->ndummies + 1));
  if (call->u.call.nargs != callee->ndummies)
    return NULL;
  for (int k = 0; k < call->u.call.nargs; k++) {
    const char *kw = call->u.call.keywords ? call->u.call.keywords[k] : NULL;
    int d = kw ? -1 : k;
    for (int i = 0; kw && i < callee->ndummies; i++)
      if (!strcmp(callee->dummies[i]->name, kw))
        d = i;
    if (d < 0 || actual[d] || (call->u.call.sections && call->u.call.sections[k]))
      return NULL;
    actual[d] = call->u.call.args[k];
  }
  return actual;
}

typedef struct AssignScan {
  Program *prog;
  IrSym *dummy;
  IrSymSet *checking;        /* dummies whose check is under way */
  bool found;
} AssignScan;

static bool assigns_dummy(Program *p, IrRoutine *fn, IrSym *d, IrSymSet *checking);

static IrVisitStep assign_scan_stmt(IrStmt *s, IrVisit *v)
{
  AssignScan *a = v->ctx;
  IrRoutine *g = s->kind == IR_S_CALL ? find_routine(a->prog, s->u.call.name) : NULL;
  IrExpr **actual = g && g->body_lowered ? actuals_in_order(s, g) : NULL;
  for (int i = 0; actual && i < g->ndummies && !a->found; i++)
    a->found = actual[i]->kind == IR_E_VAR && actual[i]->u.var == a->dummy &&
               assigns_dummy(a->prog, g, g->dummies[i], a->checking);
  return a->found ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

/* Does fn's body assign its scalar dummy d: by an assignment, or by
 * passing it (by reference) to a subroutine that assigns its dummy in
 * turn?  A dummy whose check is under way (recursion) counts as not
 * assigned: what the cycle assigns is found on its other paths. */
static bool assigns_dummy(Program *p, IrRoutine *fn, IrSym *d, IrSymSet *checking)
{
  if (!fn->body_lowered || ir_symset_has(checking, d))
    return false;
  if (ir_assignment_of(&fn->body, d))
    return true;
  ir_symset_add(checking, d);
  AssignScan a = { p, d, checking, false };
  IrVisit v = { .pre = assign_scan_stmt, .ctx = &a };
  ir_visit_stmts(&fn->body, &v);
  return a.found;
}

static bool dummy_assigned(Program *p, IrRoutine *fn, IrSym *d)
{
  IrSymSet checking = { 0 };
  return assigns_dummy(p, fn, d, &checking);
}

typedef struct DepthScan {
  Program *prog;
  int guard;                 /* routines being inlined around this one */
  int nloops;                /* loops around the statement being scanned */
  int max;
} DepthScan;

static int inlined_depth(Program *p, IrRoutine *r, int guard);

static void call_depth(DepthScan *d, const char *name)
{
  IrRoutine *c = find_routine(d->prog, name);
  if (!c || d->guard >= INLINE_DEPTH || recursion_of(d->prog, c))
    return;                  /* not inlined */
  int n = d->nloops + inlined_depth(d->prog, c, d->guard + 1);
  if (n > d->max)
    d->max = n;
}

static void call_depth_expr(IrExpr *e, IrStmt *in, void *ctx)
{
  (void)in;
  if (e->kind == IR_E_CALL && e->u.call.fn == IR_FN_USER)
    call_depth(ctx, e->u.call.name);
}

/* A function referenced in a statement is inlined before it, at its depth. */
static IrVisitStep inlined_depth_pre(IrStmt *s, IrVisit *v)
{
  DepthScan *d = v->ctx;
  d->nloops = v->nloops;
  if (s->kind == IR_S_DO && v->nloops + 1 > d->max)
    d->max = v->nloops + 1;
  if (s->kind == IR_S_CALL)
    call_depth(d, s->u.call.name);
  ir_walk_stmt_exprs(s, call_depth_expr, d);
  return IR_VISIT_CONTINUE;
}

/* How many loops deep r's body nests once the calls in it are inlined
 * (recursive callees are not). */
static int inlined_depth(Program *p, IrRoutine *r, int guard)
{
  DepthScan d = { p, guard, 0, 0 };
  IrVisit v = { .pre = inlined_depth_pre, .ctx = &d };
  if (r->body_lowered)
    ir_visit_stmts(&r->body, &v);
  return d.max;
}

typedef struct Obstacle {
  Program *prog;
  RoutineList *checking;
  const char *why;           /* the first obstacle found, or NULL */
} Obstacle;

static const char *device_obstacle_of(Program *p, IrRoutine *fn, RoutineList *checking);

static void obstacle_expr(IrExpr *e, IrStmt *in, void *ctx)
{
  Obstacle *o = ctx;
  (void)in;
  if (o->why || e->kind != IR_E_CALL || e->u.call.fn != IR_FN_USER)
    return;
  IrRoutine *g = find_routine(o->prog, e->u.call.name);
  if (!g || !g->body_lowered) {
    o->why = ir_printf("it calls '%s', whose body s2s-cuda does not have", e->u.call.name);
    return;
  }
  const char *why = device_obstacle_of(o->prog, g, o->checking);
  if (why)
    o->why = ir_printf("it calls '%s', which cannot be one either: %s", g->name, why);
}

/* Why the call statement s in a would-be __device__ function keeps it
 * from being one, or NULL: the subroutine called must be able to be one
 * too, and get a variable or an array element, of its own type, for each
 * argument it assigns (a pointer to it is passed). */
static const char *call_obstacle(Obstacle *o, IrStmt *s)
{
  int line = diag_user_line(s->loc);
  IrRoutine *g = find_routine(o->prog, s->u.call.name);
  if (!g || !g->body_lowered || g->is_function)
    return ir_printf("it calls '%s' (line %d), whose body s2s-cuda does not have",
                     s->u.call.name, line);
  IrExpr **actual = actuals_in_order(s, g);
  if (!actual)
    return ir_printf("its call of '%s' (line %d) does not pass one actual for each of its "
                     "arguments", g->name, line);
  const char *why = device_obstacle_of(o->prog, g, o->checking);
  if (why)
    return ir_printf("it calls '%s', which cannot be one either: %s", g->name, why);
  for (int i = 0; i < g->ndummies; i++) {
    const IrExpr *a = actual[i];
    bool lvalue = (a->kind == IR_E_VAR && !a->u.var->rank && a->u.var->kind == IR_SYM_VAR) ||
                  a->kind == IR_E_ELEM;
    if (a->type != g->dummies[i]->type || (a->kind == IR_E_VAR && a->u.var->rank))
      return ir_printf("its call of '%s' (line %d) passes %s to its argument '%s', which is "
                       "a scalar %s", g->name, line, a->kind == IR_E_VAR && a->u.var->rank ?
                       "an array" : ir_type_name(a->type), g->dummies[i]->name,
                       ir_type_name(g->dummies[i]->type));
    if (!lvalue && dummy_assigned(o->prog, g, g->dummies[i]))
      return ir_printf("its call of '%s' (line %d) passes an expression to argument '%s', which "
                       "'%s' assigns", g->name, line, g->dummies[i]->name, g->name);
  }
  return NULL;
}

static IrVisitStep obstacle_stmt(IrStmt *s, IrVisit *v)
{
  Obstacle *o = v->ctx;
  switch (s->kind) {
  case IR_S_ASSIGN:
  case IR_S_DO:
  case IR_S_IF:
  case IR_S_CYCLE:
  case IR_S_EXIT:
  case IR_S_WHILE:
  case IR_S_BLOCK:
    break;
  case IR_S_CALL:
    o->why = call_obstacle(o, s);
    break;
  default:   /* a statement kind the emitter has not been taught for them */
    o->why = ir_printf("its statement at line %d cannot be put in a __device__ function",
                       diag_user_line(s->loc));
    break;
  }
  if (!o->why)
    ir_walk_stmt_exprs(s, obstacle_expr, o);
  return o->why ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

static bool constant_bounds(const IrSym *s)
{
  long v;
  for (int d = 0; d < s->rank; d++)
    if (!s->lo[d] || !s->hi[d] || !ir_eval_const(s->lo[d], &v) || !ir_eval_const(s->hi[d], &v))
      return false;
  return true;
}

/* Why symbol s, which fn's body names (or a dummy of fn), keeps fn from
 * being a __device__ function, or NULL. */
static const char *symbol_obstacle(Program *p, IrRoutine *fn, IrSym *s)
{
  if (s->kind == IR_SYM_PARAM)
    return s->rank ? ir_printf("it uses the named constant array '%s'", s->name) : NULL;
  if (s->is_module && ir_assignment_of(&fn->body, s))
    return ir_printf("it assigns module variable '%s', which all threads would share", s->name);
  if (s->is_module)
    return ir_printf("it reads module variable '%s' (pass its value as an argument instead)",
                     s->name);
  IrSym *own = NULL;
  HASH_FIND_STR(fn->symbols, s->name, own);
  if (own != s)
    return ir_printf("it uses '%s' of another scope", s->name);
  if (s->is_dummy) {
    if (s->rank)
      return ir_printf("its argument '%s' is an array (a __device__ function takes scalars, "
                       "by value)", s->name);
    if (s->is_optional)
      return ir_printf("its argument '%s' is OPTIONAL", s->name);
    if (fn->is_function && dummy_assigned(p, fn, s))
      return ir_printf("it assigns its argument '%s' (a __device__ function made from a "
                       "function takes scalars, by value)", s->name);
    return NULL;
  }
  if (s->is_saved || s->in_common || s->in_equivalence)
    return ir_printf("its local '%s' keeps its value from one call to the next (SAVE, DATA, "
                     "COMMON, EQUIVALENCE or an initializer), which all threads would share",
                     s->name);
  if (s->rank && !constant_bounds(s))
    return ir_printf("its local array '%s' has bounds known only at run time", s->name);
  return NULL;
}

/* Why fn cannot be a __device__ function, or NULL when it can (and so can
 * every function it calls).  `checking`: functions whose check is under
 * way, taken as able (the check of each covers its own body). */
static const char *device_obstacle_of(Program *p, IrRoutine *fn, RoutineList *checking)
{
  if (fn->device_why || routine_listed(checking, fn))
    return NULL;
  if (!fn->body_lowered)
    return "s2s-cuda does not have its body";
  if (fn->is_function && (!fn->result || fn->result->rank || fn->result->type == IR_T_VOID))
    return "it returns an array";
  IR_APPEND(checking->v, checking->n, checking->cap, fn);
  for (int i = 0; i < fn->ndummies; i++) {
    const char *why = symbol_obstacle(p, fn, fn->dummies[i]);
    if (why)
      return why;
  }
  IrSymSet *named = ir_list_symbols(&fn->body);
  for (int i = 0; i < named->n; i++) {
    const char *why = symbol_obstacle(p, fn, named->syms[i]);
    if (why)
      return why;
  }
  Obstacle o = { p, checking, NULL };
  IrVisit v = { .pre = obstacle_stmt, .ctx = &o };
  ir_visit_stmts(&fn->body, &v);
  return o.why;
}

/* Why fn cannot be a __device__ function (device_obstacle_of), or NULL. */
static const char *device_obstacle(Program *p, IrRoutine *fn)
{
  RoutineList checking = { NULL, 0, 0 };
  return device_obstacle_of(p, fn, &checking);
}

typedef struct DeviceMark {
  Site *site;
  IrRoutine *fn;
} DeviceMark;

static void make_device_function(Site *site, IrRoutine *fn, const char *why, Loc at);

static const char *called_by(const IrRoutine *fn)
{
  return ir_printf("called by __device__ %s '%s'", fn->is_function ? "function" : "subroutine",
                   fn->name);
}

static void mark_device_call(IrExpr *e, IrStmt *in, void *ctx)
{
  DeviceMark *m = ctx;
  (void)in;
  if (e->kind != IR_E_CALL || e->u.call.fn != IR_FN_USER)
    return;
  e->u.call.device_fn = find_routine(m->site->prog, e->u.call.name);
  make_device_function(m->site, e->u.call.device_fn, called_by(m->fn), e->loc);
}

/* A call statement in a __device__ function's body: of one too, its
 * actuals put in the order of the dummies (device_obstacle checked that
 * they match). */
static IrVisitStep mark_device_call_stmt(IrStmt *s, IrVisit *v)
{
  DeviceMark *m = v->ctx;
  if (s->kind != IR_S_CALL)
    return IR_VISIT_CONTINUE;
  IrRoutine *g = find_routine(m->site->prog, s->u.call.name);
  s->u.call.args = actuals_in_order(s, g);
  s->u.call.keywords = NULL;
  s->u.call.device_fn = g;
  make_device_function(m->site, g, called_by(m->fn), s->loc);
  return IR_VISIT_CONTINUE;
}

/* Make fn, which device_obstacle allows, a __device__ function (why: for
 * the report, once per function), and so every function it calls, their
 * calls in its body marked as such. */
static void make_device_function(Site *site, IrRoutine *fn, const char *why, Loc at)
{
  if (fn->device_why)
    return;
  fn->device_why = why;
  report_at(REPORT_INFO, site->caller->name, at, "%s '%s' generated as a __device__ "
            "function (%s)", fn->is_function ? "Function" : "Subroutine", fn->name, why);
  for (int i = 0; !fn->is_function && i < fn->ndummies; i++)
    fn->dummies[i]->device_by_ref = dummy_assigned(site->prog, fn, fn->dummies[i]);
  DeviceMark m = { site, fn };
  ir_walk_exprs(&fn->body, mark_device_call, &m);
  IrVisit v = { .pre = mark_device_call_stmt, .ctx = &m };
  ir_visit_stmts(&fn->body, &v);
}

/* Why the reference to fn is kept as the call of a __device__ function
 * rather than inlined (for the report), or NULL: inline it.  A recursive
 * fn that cannot be one is refused here (reported, *refused set). */
static const char *device_reason(Site *site, IrRoutine *fn, Loc at, bool *refused)
{
  const char *chain = recursion_of(site->prog, fn);
  const char *why = NULL;
  if (chain) {
    why = "recursive: cannot be inlined";
  } else {
    int loops = inlined_depth(site->prog, fn, 0);
    if (site->naround + loops > DEP_MAX_DEPTH)
      why = ir_printf("too deep to inline: its %d nested loops inside the %d loops around the "
                      "call would nest %d deep, more than %d levels", loops, site->naround,
                      site->naround + loops, DEP_MAX_DEPTH);
  }
  const char *obstacle = why ? device_obstacle(site->prog, fn) : NULL;
  if (chain && obstacle) {
    diag_at(DIAG_ERROR, at, 1, "cannot inline '%s' (called at line %d): it is recursive (%s); a "
            "recursive routine cannot be inlined, and it cannot be a __device__ function: %s",
            fn->name, diag_user_line(at), chain, obstacle);
    *refused = true;
  }
  return obstacle ? NULL : why;   /* too deep and no __device__ function: refused inlining */
}

/* ---- the pass ------------------------------------------------------------------------ */

static IrRoutine *find_routine(Program *p, const char *name)
{
  for (int i = 0; i < p->nroutines; i++)
    if (!strcmp(p->routines[i]->name, name))
      return p->routines[i];
  return NULL;
}

static bool inline_list(Site *site, IrStmtList *l, IrStmt *loop, int depth);
static bool recursive_call(Site *site, IrRoutine *callee);
static void enter_callee(Site *site, IrRoutine *callee, Loc at);
static IrExpr *expand_functions(Site *site, IrExpr *e, IrStmtList *out, int depth);

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

/* Is callee already being inlined around this call (recursion)?  Then
 * report it once, at the call in the region that started the chain. */
static bool recursive_call(Site *site, IrRoutine *callee)
{
  for (int i = 0; i < site->nactive; i++)
    if (site->active[i] == callee) {
      const char *chain = site->active[i]->name;
      for (int k = i + 1; k < site->nactive; k++)
        chain = ir_printf("%s -> %s", chain, site->active[k]->name);
      diag_at(DIAG_ERROR, site->active_at[0], 1, "cannot inline '%s' (called at line %d): it is "
              "recursive (%s -> %s); a recursive routine cannot be inlined, and %s cannot be a "
              "__device__ function: %s", site->active[0]->name,
              diag_user_line(site->active_at[0]), chain, callee->name,
              i ? ir_printf("'%s'", callee->name) : "it", device_obstacle(site->prog, callee));
      return true;
    }
  return false;
}

/* The routine callee is being inlined at `at` while the body is cloned and
 * its calls inlined in turn. */
static void enter_callee(Site *site, IrRoutine *callee, Loc at)
{
  int n = site->nactive;
  IR_APPEND(site->active_at, n, site->active_at_cap, at);
  IR_APPEND(site->active, site->nactive, site->active_cap, callee);
}

/* A literal or a named constant: the same value before and after a call. */
static bool is_literal(const IrExpr *e)
{
  return e->kind == IR_E_INT || e->kind == IR_E_REAL || e->kind == IR_E_LOGICAL ||
         (e->kind == IR_E_VAR && e->u.var->kind == IR_SYM_PARAM) ||
         (e->kind == IR_E_UNARY && is_literal(e->u.unary.arg)) ||
         (e->kind == IR_E_CONVERT && is_literal(e->u.operand));
}

/* Does e name one of syms? */
static bool mentions(const IrExpr *e, const IrSymSet *syms)
{
  for (int i = 0; i < syms->n; i++)
    if (ir_expr_mentions(e, syms->syms[i]))
      return true;
  return false;
}

/* The call `call` of subroutine fn in a region, kept as the call of a
 * __device__ function (why: device_reason): one assignment per argument it
 * assigns, `x = <the value of x after fn(args)>`, a reference to the
 * function s2s_devretK_fn that runs fn and returns that argument.  With two
 * or more, the arguments it reads are first copied to new locals, so that
 * each run starts from the values of the call (the body runs once per
 * assigned argument: said in the report).  A subroutine that assigns none
 * changes nothing a thread keeps: its call is dropped. */
static bool keep_device_call(Site *site, IrRoutine *fn, IrStmt *call, const char *why,
                             IrStmtList *out)
{
  Inline in = { .prog = site->prog, .caller = site->caller, .callee = fn,
                .region_body = site->region_body, .around = site->around,
                .around_loops = site->around_loops, .naround = site->naround, .site = site,
                .call_loc = call->loc, .ok = true };
  if (!bind_arguments(&in, call))
    return false;
  IrSymSet assigned = { 0 };   /* the caller's variables the call assigns */
  int nassigned = 0;
  const char *names = "";
  for (int i = 0; i < fn->ndummies; i++) {
    IrSym *d = fn->dummies[i];
    IrExpr *a = binding_of(&in, d)->actual;
    if (!dummy_assigned(site->prog, fn, d))
      continue;
    if (a->kind != IR_E_VAR && a->kind != IR_E_ELEM) {
      diag_at(DIAG_ERROR, a->loc, 1, "cannot call '%s' here (line %d): %s, and as a __device__ "
              "function it assigns its argument '%s', whose actual here is an expression, not "
              "a variable", fn->name, diag_user_line(call->loc), why, d->name);
      return false;
    }
    ir_symset_add(&assigned, a->kind == IR_E_VAR ? a->u.var : a->u.elem.sym);
    names = ir_printf("%s%s'%s'", names, nassigned ? ", " : "", d->name);
    nassigned++;
  }
  if (!nassigned) {
    report_at(REPORT_INFO, site->caller->name, call->loc, "Call of '%s' removed (%s): it "
              "assigns none of its arguments, and changes nothing else", fn->name, why);
    return true;
  }
  make_device_function(site, fn, why, call->loc);
  IrExpr **params = ir_alloc(sizeof *params * (size_t)(fn->ndummies + 1));
  int nparams = 0;
  for (int i = 0; i < fn->ndummies; i++) {
    IrSym *d = fn->dummies[i];
    IrExpr *a = binding_of(&in, d)->actual;
    if (d->device_by_ref && a->kind == IR_E_ELEM && nassigned > 1 && mentions(a, &assigned))
      for (int k = 0; k < a->u.elem.n; k++)
        if (mentions(a->u.elem.sub[k], &assigned))
          return fail(&in, a->loc, ir_printf("the subscripts of the actual of '%s' name a "
                      "variable the call assigns", d->name));
    if (!ir_device_entry_arg(d))
      continue;                 /* not read on entry: not passed */
    if (nassigned > 1 && !is_literal(a)) {
      IrSym *copy = new_local_named(&in, d, ir_printf("%s_%s", fn->name, d->name));
      copy->device_by_ref = false;
      copy->intent = IR_INTENT_NONE;
      IrStmt *set = ir_stmt(IR_S_ASSIGN, call->loc);
      set->u.assign.lhs = ir_var(copy, a->loc);
      set->u.assign.rhs = ir_expr_copy(a);
      ir_list_push(out, set);
      a = ir_var(copy, a->loc);
    }
    params[nparams++] = a;
  }
  for (int i = 0; i < fn->ndummies; i++) {
    IrSym *d = fn->dummies[i];
    if (!d->device_by_ref)
      continue;
    IrExpr *value = ir_expr_new(IR_E_CALL, d->type, call->loc);
    value->u.call.fn = IR_FN_USER;
    value->u.call.name = fn->name;
    value->u.call.n = nparams;
    value->u.call.args = ir_alloc(sizeof *value->u.call.args * (size_t)(nparams + 1));
    for (int k = 0; k < nparams; k++)
      value->u.call.args[k] = ir_expr_copy(params[k]);
    value->u.call.device_fn = fn;
    value->u.call.result_of = d;
    d->device_returned = true;
    IrStmt *set = ir_stmt(IR_S_ASSIGN, call->loc);
    set->u.assign.lhs = ir_expr_copy(binding_of(&in, d)->actual);
    set->u.assign.rhs = value;
    ir_list_push(out, set);
  }
  if (nassigned > 1)
    report_at(REPORT_INFO, site->caller->name, call->loc, "Call of '%s': it assigns %d of its "
              "arguments (%s) and a __device__ function returns one value, so its body runs "
              "once for each", fn->name, nassigned, names);
  return true;
}

/* A call in a region of a procedure that is neither in the file nor in a
 * summary another file's translation left (an EXTERNAL, or a file not yet
 * translated): what it is, and the two ways to give the inliner its body. */
static void not_in_file_error(const Program *p, Loc loc, const char *what, const char *name)
{
  if (p->lang == IR_C) {
    diag_at(DIAG_ERROR, loc, 1, "call of %s '%s' inside a region: it is not defined in this "
            "file; s2s-cuda inlines what a region calls, so define '%s' in this file", what,
            name, name);
    return;
  }
  diag_at(DIAG_ERROR, loc, 1, "call of %s '%s' inside a region: it is not in this file and no "
          "translation left a summary of it (%s.s2sproc); s2s-cuda inlines what a region calls, "
          "so translate the file that defines '%s' first (on the same command line or with the "
          "same -o or -J directory), or move '%s' into this file", what, name, name, name, name);
}

static bool expand_call(Site *site, IrStmt *call, IrStmtList *out, int depth)
{
  Program *p = site->prog;
  IrRoutine *caller = site->caller;
  IrRoutine *callee = find_routine(p, call->u.call.name);
  if (!callee) {
    not_in_file_error(p, call->loc, "subroutine", call->u.call.name);
    return false;
  }
  if (!callee->body_lowered || callee->is_function) {
    diag_at(DIAG_ERROR, call->loc, 1, "call of '%s' inside a region: only subroutines of the same "
            "file can be called (they are inlined)", call->u.call.name);
    return false;
  }
  bool refused = false;
  const char *device_why = device_reason(site, callee, call->loc, &refused);
  if (refused)
    return false;
  if (device_why)
    return keep_device_call(site, callee, call, device_why, out);
  if (recursive_call(site, callee))
    return false;
  if (depth >= INLINE_DEPTH) {
    diag_at(DIAG_ERROR, call->loc, 1, "calls nested more than %d deep (recursion?) inside a "
            "region", INLINE_DEPTH);
    return false;
  }
  Inline in = { .prog = p, .caller = caller, .callee = callee, .region_body = site->region_body,
                .around = site->around, .around_loops = site->around_loops,
                .naround = site->naround, .site = site, .call_loc = call->loc, .ok = true };
  if (!bind_arguments(&in, call))
    return false;
  IrStmtList body = { 0, 0, NULL };
  clone_list(&in, &callee->body, &body);
  enter_callee(site, callee, call->loc);
  bool inlined = in.ok && check_reaches(&in, &body) && inline_list(site, &body, NULL, depth + 1);
  site->nactive--;
  if (!inlined)
    return false;
  int loops = nest_depth(&body);
  if (site->naround + loops > DEP_MAX_DEPTH) {
    const char *obstacle = device_obstacle(site->prog, callee);
    diag_at(DIAG_ERROR, call->loc, 1, "cannot inline '%s' here: its %d nested loops inside the %d "
            "loops around the call make a loop nest deeper than %d levels, which is not "
            "supported in a region%s%s", callee->name, loops, site->naround, DEP_MAX_DEPTH,
            obstacle ? ", and it cannot be a __device__ function: " : "", obstacle ? obstacle : "");
    return false;
  }
  report_at(REPORT_INFO, caller->name, call->loc, "Routine '%s' inlined", callee->name);
  for (int i = 0; i < body.n; i++)
    ir_list_push(out, body.v[i]);
  return true;
}

/* ---- functions ------------------------------------------------------------------------ */

/* Why function fn cannot be expanded inside an expression, or NULL: the
 * expression around the reference must see the values it saw before, so
 * the body may give values to its result and locals only. */
static const char *function_side_effect(const IrRoutine *fn)
{
  if (!fn->result || fn->result->rank)
    return "it returns an array, which s2s-cuda cannot use inside a region";
  IrSymSet assigned = { 0 };
  ir_assigned_scalars((IrStmtList *)&fn->body, &assigned);
  for (int i = 0; i < assigned.n; i++)
    if (assigned.syms[i]->is_dummy || assigned.syms[i]->is_module)
      return ir_printf("it assigns %s '%s', which a function called in an expression must not "
                       "change", assigned.syms[i]->is_dummy ? "its argument" : "module variable",
                       assigned.syms[i]->name);
  for (int i = 0; i < fn->ndummies; i++)
    if (fn->dummies[i]->rank && ir_assignment_of(&fn->body, fn->dummies[i]))
      return ir_printf("it assigns elements of its argument '%s', which a function called in "
                       "an expression must not change", fn->dummies[i]->name);
  return NULL;
}

/* The single statement `result = expr` of a function's body, or NULL. */
static IrExpr *result_expression(const IrRoutine *fn)
{
  IrStmt *s = fn->body.n == 1 ? fn->body.v[0] : NULL;
  return s && s->kind == IR_S_ASSIGN && s->u.assign.lhs->kind == IR_E_VAR &&
         s->u.assign.lhs->u.var == fn->result ? s->u.assign.rhs : NULL;
}

/* Reference e to a function of the program, its arguments already
 * expanded: the function's value.  A body that is one assignment to the
 * result becomes that expression; any other is inlined before the
 * statement (in *out), its result in a new local of the caller.  NULL when
 * it cannot be inlined (reported). */
static IrExpr *expand_function(Site *site, IrExpr *e, IrStmtList *out, int depth)
{
  IrRoutine *fn = find_routine(site->prog, e->u.call.name);
  if (!fn) {
    not_in_file_error(site->prog, e->loc, "function", e->u.call.name);
    return NULL;
  }
  if (!fn->body_lowered || !fn->is_function) {
    diag_at(DIAG_ERROR, e->loc, 1, "call of function '%s' inside a region: only functions of the "
            "same file can be called (they are inlined)", e->u.call.name);
    return NULL;
  }
  bool refused = false;
  const char *device_why = device_reason(site, fn, e->loc, &refused);
  if (refused || (!device_why && recursive_call(site, fn)))
    return NULL;
  if (!device_why && depth >= INLINE_DEPTH) {
    diag_at(DIAG_ERROR, e->loc, 1, "calls nested more than %d deep (recursion?) inside a region",
            INLINE_DEPTH);
    return NULL;
  }
  IrStmt *call = ir_stmt(IR_S_CALL, e->loc);
  call->u.call.name = fn->name;
  call->u.call.nargs = e->u.call.n;
  call->u.call.args = e->u.call.args;
  Inline in = { .prog = site->prog, .caller = site->caller, .callee = fn,
                .region_body = site->region_body, .around = site->around,
                .around_loops = site->around_loops, .naround = site->naround, .site = site,
                .call_loc = e->loc, .ok = true };
  const char *effect = device_why ? NULL : function_side_effect(fn);
  if (effect) {
    fail(&in, e->loc, effect);
    return NULL;
  }
  if (!bind_arguments(&in, call))
    return NULL;
  if (device_why) {   /* e is the caller's own copy (expand_functions) */
    make_device_function(site, fn, device_why, e->loc);
    e->u.call.device_fn = fn;
    return e;
  }
  IrExpr *value = result_expression(fn);
  IrStmtList body = { 0, 0, NULL };
  if (value) {
    value = clone_expr(&in, value);
  } else {
    const char *base = strcmp(fn->result->name, fn->name) ? ir_printf("%s_%s", fn->name,
                       fn->result->name) : ir_printf("%s_result", fn->name);
    Binding result = { .dummy = fn->result, .local = new_local_named(&in, fn->result, base) };
    IR_PUSH(in.bind, in.nbind, result);
    clone_list(&in, &fn->body, &body);
    value = ir_var(result.local, e->loc);
  }
  enter_callee(site, fn, e->loc);
  bool inlined = in.ok && check_reaches(&in, &body) && inline_list(site, &body, NULL, depth + 1);
  IrExpr *nested = inlined ? expand_functions(site, value, out, depth + 1) : NULL;
  site->nactive--;
  if (!nested)
    return NULL;
  int loops = nest_depth(&body);
  if (site->naround + loops > DEP_MAX_DEPTH) {
    const char *obstacle = device_obstacle(site->prog, fn);
    diag_at(DIAG_ERROR, e->loc, 1, "cannot inline '%s' here: its %d nested loops inside the %d "
            "loops around the call make a loop nest deeper than %d levels, which is not "
            "supported in a region%s%s", fn->name, loops, site->naround, DEP_MAX_DEPTH,
            obstacle ? ", and it cannot be a __device__ function: " : "", obstacle ? obstacle : "");
    return NULL;
  }
  report_at(REPORT_INFO, site->caller->name, e->loc, "Function '%s' inlined", fn->name);
  for (int i = 0; i < body.n; i++)
    ir_list_push(out, body.v[i]);
  return ir_convert(nested, e->type);
}

typedef struct FindUser { bool found; } FindUser;

static void find_user_call(IrExpr *e, IrStmt *in, void *ctx)
{
  (void)in;
  ((FindUser *)ctx)->found |= e->kind == IR_E_CALL && e->u.call.fn == IR_FN_USER;
}

/* e with its references to functions of the program expanded, innermost
 * first (their statements go to *out, in order); nodes on no path to one
 * are kept, shared.  NULL when one cannot be expanded (reported). */
static IrExpr *expand_functions(Site *site, IrExpr *e, IrStmtList *out, int depth)
{
  FindUser u = { false };
  if (e)
    ir_walk_expr(e, NULL, find_user_call, &u);
  if (!u.found)
    return e;
  IrExpr *c = copy_node(e);
  bool ok = true;
  switch (e->kind) {
  case IR_E_ELEM:
    for (int k = 0; k < e->u.elem.n && ok; k++)
      ok = (c->u.elem.sub[k] = expand_functions(site, e->u.elem.sub[k], out, depth)) != NULL;
    return ok ? c : NULL;
  case IR_E_UNARY:
    return (c->u.unary.arg = expand_functions(site, e->u.unary.arg, out, depth)) ? c : NULL;
  case IR_E_BINARY:
    ok = (c->u.binary.lhs = expand_functions(site, e->u.binary.lhs, out, depth)) &&
         (c->u.binary.rhs = expand_functions(site, e->u.binary.rhs, out, depth));
    return ok ? c : NULL;
  case IR_E_CALL:
    c->u.call.args = ir_alloc(sizeof *c->u.call.args * (size_t)(e->u.call.n + 1));
    for (int k = 0; k < e->u.call.n && ok; k++)
      ok = (c->u.call.args[k] = expand_functions(site, e->u.call.args[k], out, depth)) != NULL;
    if (!ok)
      return NULL;
    return e->u.call.fn == IR_FN_USER ? expand_function(site, c, out, depth) : c;
  case IR_E_COND:
    ok = (c->u.cond.test = expand_functions(site, e->u.cond.test, out, depth)) &&
         (c->u.cond.then = expand_functions(site, e->u.cond.then, out, depth)) &&
         (c->u.cond.els = expand_functions(site, e->u.cond.els, out, depth));
    return ok ? c : NULL;
  case IR_E_CONVERT:
    return (c->u.operand = expand_functions(site, e->u.operand, out, depth)) ? c : NULL;
  default:
    return e;
  }
}

/* A WHILE test runs before every iteration, so the statements of a
 * function it calls cannot go before the loop: the test becomes the body's
 * first statement, `if (.not. test) exit`, where they can go before it. */
static void test_in_body(IrStmt *loop)
{
  FindUser u = { false };
  if (loop->u.loop.test)
    ir_walk_expr(loop->u.loop.test, NULL, find_user_call, &u);
  if (!u.found)
    return;
  IrStmt *guard = ir_stmt(IR_S_IF, loop->loc);
  guard->u.cond.test = ir_expr_new(IR_E_UNARY, IR_T_LOGICAL, loop->u.loop.test->loc);
  guard->u.cond.test->u.unary.op = IR_OP_NOT;
  guard->u.cond.test->u.unary.arg = loop->u.loop.test;
  ir_list_push(&guard->u.cond.then, ir_stmt(IR_S_EXIT, loop->loc)); /* unnamed: this loop */
  IrStmtList body = { 0, 0, NULL };
  ir_list_push(&body, guard);
  for (int i = 0; i < loop->u.loop.body.n; i++)
    ir_list_push(&body, loop->u.loop.body.v[i]);
  loop->u.loop.body = body;
  loop->u.loop.test = NULL;
}

/* Expand the function references in statement s's own expressions (not
 * its bodies'), their statements before it in *out. */
static bool expand_stmt_functions(Site *site, IrStmt *s, IrStmtList *out, int depth)
{
  IrExpr **slots[4 + IR_MAX_RANK];
  int n = 0;
  switch (s->kind) {
  case IR_S_ASSIGN:
    slots[n++] = &s->u.assign.lhs;
    slots[n++] = &s->u.assign.rhs;
    break;
  case IR_S_DO:
    slots[n++] = &s->u.loop.lo;
    slots[n++] = &s->u.loop.hi;
    slots[n++] = &s->u.loop.step;
    break;
  case IR_S_IF:
    slots[n++] = &s->u.cond.test;
    break;
  case IR_S_WHILE:
    test_in_body(s);
    break;
  case IR_S_CALL:
    for (int k = 0; k < s->u.call.nargs; k++) {
      IrExpr *e = expand_functions(site, s->u.call.args[k], out, depth);
      if (!e)
        return false;
      s->u.call.args[k] = e;
    }
    break;
  default:
    break;
  }
  for (int i = 0; i < n; i++) {
    IrExpr *e = expand_functions(site, *slots[i], out, depth);
    if (*slots[i] && !e)
      return false;
    *slots[i] = e;
  }
  return true;
}

/* Not on the visitor: it rebuilds each statement list (and keeps the lists
 * around the statement for scalar_def).  `loop`: the DO whose body l is. */
static bool inline_list(Site *site, IrStmtList *l, IrStmt *loop, int depth)
{
  IrStmtList out = { 0, 0, NULL };
  Frame frame = { l, &out, loop };
  IR_APPEND(site->frames, site->nframes, site->frames_cap, frame);
  bool ok = true;
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    if (!expand_stmt_functions(site, s, &out, depth)) {
      ok = false;
      continue;
    }
    if (s->kind == IR_S_CALL) {
      ok &= expand_call(site, s, &out, depth);
      continue;
    }
    if (s->kind == IR_S_DO) {
      int nloops = site->naround;
      IR_APPEND(site->around_loops, nloops, site->loops_cap, s);
      IR_APPEND(site->around, site->naround, site->cap, s->u.loop.iv);
      ok &= inline_list(site, &s->u.loop.body, s, depth);
      site->naround--;
    }
    if (s->kind == IR_S_IF)
      ok &= inline_list(site, &s->u.cond.then, NULL, depth) &&
            inline_list(site, &s->u.cond.els, NULL, depth);
    /* a WHILE body is a loop's (its values change from one iteration to the
     * next), a BLOCK's runs once like an IF's */
    if (s->kind == IR_S_WHILE || s->kind == IR_S_BLOCK)
      ok &= inline_list(site, &s->u.loop.body, s->kind == IR_S_WHILE ? s : NULL, depth);
    ir_list_push(&out, s);
  }
  site->nframes--;
  *l = out;
  return ok;
}

bool xf_inline_program(Program *p)
{
  bool ok = true;
  for (int r = 0; r < p->nroutines; r++)
    for (int i = 0; i < p->routines[r]->nregions; i++) {
      Site site = { .prog = p, .caller = p->routines[r], .region = p->routines[r]->regions[i],
                    .region_body = &p->routines[r]->regions[i]->body };
      /* the user's own nests first, so that a call is blamed only for the
       * loops it adds (expand_call); inlining is the last pass to deepen a
       * nest, and the analyses rely on the limit, so check it once more */
      if (!dep_check_depth(site.region_body) || !inline_list(&site, site.region_body, NULL, 0)) {
        ok = false;
        continue;
      }
      ok = ok && dep_check_depth(site.region_body);
    }
  return ok;
}
