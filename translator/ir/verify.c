/* verify.c — check the IR's invariants between passes (verify.h).
 *
 * One walk over the program: every module's and routine's symbols, every
 * routine body the front end lowered (the callees of inlining), every
 * region body and host directive, and from IR_STAGE_PLANNED on every
 * region's plan and the kernel nests it points at.  A violation is
 * counted; the first is described.  The walk reads the IR only, so it can
 * run after any pass, however broken the IR that pass left.
 *
 * What counts as in scope follows what the passes do to symbols: a routine
 * sees its own symbols, its module's and those of the modules it uses
 * (ir_lookup); the inliner adds the callee's locals to the caller under new
 * names (so they are the caller's symbols), but leaves the callee's named
 * constants where they are, so from IR_STAGE_INLINED on a named constant
 * of any routine whose body the front end lowered is accepted too.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "plan.h"
#include "verify.h"

/* A violation about one IR node, already counted. */
typedef struct Reported {
  const void *node;
  const char *fmt;
} Reported;

typedef struct Verifier {
  const Program *prog;
  IrStage stage;
  const IrRoutine *routine;   /* whose symbols are in scope; NULL in a module */
  const IrRegion *region;     /* NULL outside regions */
  Loc near;                   /* the innermost valid location around: where a node
                                 without one is reported */
  IrSym **open_loops;         /* indices of the loops around the statement (xrealloc) */
  int nopen, open_cap;
  const IrStmt **constructs;  /* DO, WHILE and BLOCK statements around it, innermost
                                 last: the targets its jumps may name (xrealloc) */
  int nconstructs, constructs_cap;
  const char **kernel_names;  /* of the regions checked so far (xrealloc) */
  int nkernel_names, kernel_names_cap;
  Reported *reported;         /* node violations counted so far (xrealloc) */
  int nreported, reported_cap;
  int violations;
  char *why;
  size_t size;
} Verifier;

/* A location names a registered source and a line; column 0 is allowed
 * (locations made from a user line alone, as the mapping's reports do). */
static bool loc_valid(Loc at)
{
  return diag_source(at.file) != NULL && at.line >= 1 && at.col >= 0;
}

static void describe(Verifier *v, Loc at, const char *fmt, va_list ap)
{
  if (v->violations++ > 0 || !v->why || v->size == 0)
    return;
  if (!loc_valid(at))
    at = v->near;
  int n = loc_valid(at) ? snprintf(v->why, v->size, "%s:%d:%d: ", diag_user_file(at),
                                   diag_user_line(at), at.col)
                        : snprintf(v->why, v->size, "%s: ", v->prog->path ? v->prog->path : "?");
  if (n >= 0 && (size_t)n < v->size)
    vsnprintf(v->why + n, v->size - (size_t)n, fmt, ap);
}

static void violation(Verifier *v, Loc at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void node_violation(Verifier *v, const void *node, Loc at, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Count one violation; describe it if it is the first. */
static void violation(Verifier *v, Loc at, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  describe(v, at, fmt, ap);
  va_end(ap);
}

/* The same about an IR node (NULL: a missing one), counted once per node
 * and problem: the mapping shares statements between the region's body and
 * the nests it builds, so the walk may meet one node twice. */
static void node_violation(Verifier *v, const void *node, Loc at, const char *fmt, ...)
{
  for (int i = 0; node && i < v->nreported; i++)
    if (v->reported[i].node == node && v->reported[i].fmt == fmt)
      return;
  if (v->nreported == v->reported_cap) {
    v->reported_cap = v->reported_cap ? 2 * v->reported_cap : 16;
    v->reported = xrealloc(v->reported, sizeof *v->reported * (size_t)v->reported_cap);
  }
  v->reported[v->nreported++] = (Reported){ node, fmt };
  va_list ap;
  va_start(ap, fmt);
  describe(v, at, fmt, ap);
  va_end(ap);
}

/* ---- scope ------------------------------------------------------------------ */

static bool declared_in(IrSym *table, const IrSym *s)
{
  IrSym *found = NULL;
  HASH_FIND_STR(table, s->name, found);
  return found == s;
}

/* A named constant of a routine that can be inlined: the inliner leaves a
 * callee's constants in place (inline.c clone_var). */
static bool callee_constant(const Program *p, const IrSym *s)
{
  if (s->kind != IR_SYM_PARAM)
    return false;
  for (int r = 0; r < p->nroutines; r++)
    if (p->routines[r]->body_lowered && declared_in(p->routines[r]->symbols, s))
      return true;
  return false;
}

static bool module_symbol(const Program *p, const IrSym *s)
{
  return ir_module_of(p, s) != NULL;
}

static bool in_scope(const Verifier *v, const IrSym *s)
{
  if (!s->name)
    return false;
  if (!v->routine)    /* a module's declarations may name any module's constants */
    return module_symbol(v->prog, s);
  if (ir_lookup(v->routine, s->name) == s)
    return true;
  for (IrUseName *u = v->routine->use_names; u; u = u->hh.next)
    if (u->sym == s)
      return true;      /* renamed by a USE (`kp => kind_phys`) */
  /* an inlined callee's constants, and the variables and constants of
   * modules it uses, which the caller need not see (`use m, only: proc`:
   * qsat reads ep2 of physcons; the host file passes it through a USE it
   * adds, emit_host.c) */
  return v->stage >= IR_STAGE_INLINED &&
         (callee_constant(v->prog, s) || module_symbol(v->prog, s));
}

static void check_sym_ref(Verifier *v, const void *node, const IrSym *s, Loc at)
{
  if (!s)
    node_violation(v, node, at, "an expression names no symbol");
  else if (!in_scope(v, s))
    node_violation(v, node, at, "symbol '%s' is not in scope in %s '%s'",
                   s->name ? s->name : "?", v->routine ? "routine" : "module",
                   v->routine ? v->routine->name : "");
}

/* ---- expressions -------------------------------------------------------------- */

static void check_expr(Verifier *v, const IrExpr *e);

/* Array syntax: a triplet or subscript per dimension, and only before
 * pass "normalize" expands it. */
static void check_section(Verifier *v, const IrExpr *e, Loc at)
{
  const IrSym *s = e->u.section.sym;
  check_sym_ref(v, e, s, at);
  if (v->stage >= IR_STAGE_NORMALIZED)
    node_violation(v, e, at, "array section of '%s' left after normalize", s ? s->name : "?");
  if (s && e->u.section.n != s->rank)
    node_violation(v, e, at, "section of '%s' has %d subscript%s but rank %d", s->name,
                   e->u.section.n, e->u.section.n == 1 ? "" : "s", s->rank);
  for (int k = 0; k < e->u.section.n && k < IR_MAX_RANK; k++) {
    const IrTriplet *t = &e->u.section.dim[k];
    check_expr(v, t->lo);
    if (t->hi)
      check_expr(v, t->hi);
    if (t->stride)
      check_expr(v, t->stride);
  }
}

/* Is the walk in the body of a __device__ function (IrRoutine.device_why),
 * which the generated file holds as it is? */
static bool in_device_body(const Verifier *v)
{
  return !v->region && v->routine && v->routine->device_why;
}

static bool program_routine(const Program *p, const IrRoutine *r)
{
  for (int i = 0; i < p->nroutines; i++)
    if (p->routines[i] == r)
      return true;
  return false;
}

/* A function reference the inliner kept is the call of a __device__
 * function: the program's function of that name, made one, given a scalar
 * per dummy.  After inlining no other reference is left in a region nor in
 * the body of a __device__ function. */
static void check_user_call(Verifier *v, const IrExpr *e)
{
  const IrRoutine *fn = e->u.call.device_fn;
  const char *name = e->u.call.name ? e->u.call.name : "?";
  if (fn) {
    int nparams = fn->ndummies;   /* a subroutine's result function: all but its OUT ones */
    const IrSym *d = e->u.call.result_of;
    for (int i = 0; d && i < fn->ndummies; i++)
      nparams -= !ir_device_entry_arg(fn->dummies[i]);
    if (!program_routine(v->prog, fn) || !fn->device_why || !e->u.call.name ||
        strcmp(fn->name, e->u.call.name) || e->u.call.n != nparams || fn->is_function != !d ||
        (d && (!d->device_by_ref || d->dummy_index < 0 || d->dummy_index >= fn->ndummies ||
               fn->dummies[d->dummy_index] != d)))
      node_violation(v, e, e->loc, "reference to '%s' marked as the call of a __device__ function "
                     "that it does not fit", name);
    for (int k = 0; k < e->u.call.n; k++)
      if (e->u.call.args[k] && e->u.call.args[k]->kind == IR_E_VAR && e->u.call.args[k]->u.var &&
          e->u.call.args[k]->u.var->rank)
        node_violation(v, e, e->loc, "__device__ function '%s' is passed the whole array '%s'",
                       name, e->u.call.args[k]->u.var->name);
    return;
  }
  if (v->stage < IR_STAGE_INLINED)
    return;
  if (v->region)
    node_violation(v, e, e->loc, "call of function '%s' left in region '%s' after inlining",
                   name, v->region->name);
  else if (in_device_body(v))
    node_violation(v, e, e->loc, "reference to '%s' in __device__ function '%s' is not the call "
                   "of a __device__ function", name, v->routine->name);
}

static void check_expr(Verifier *v, const IrExpr *e)
{
  if (!e) {
    node_violation(v, e, v->near, "an expression is missing");
    return;
  }
  if (!loc_valid(e->loc))
    node_violation(v, e, v->near, "expression without a location");
  Loc at = loc_valid(e->loc) ? e->loc : v->near;
  switch (e->kind) {
  case IR_E_INT:
  case IR_E_REAL:
  case IR_E_LOGICAL:
    break;
  case IR_E_VAR:
    check_sym_ref(v, e, e->u.var, at);
    break;
  case IR_E_ELEM: {
    const IrSym *s = e->u.elem.sym;
    check_sym_ref(v, e, s, at);
    if (s && e->u.elem.n != s->rank)
      node_violation(v, e, at, "'%s' has %d subscript%s but rank %d", s->name, e->u.elem.n,
                     e->u.elem.n == 1 ? "" : "s", s->rank);
    for (int k = 0; k < e->u.elem.n && k < IR_MAX_RANK; k++)
      check_expr(v, e->u.elem.sub[k]);
    break;
  }
  case IR_E_UNARY:
    check_expr(v, e->u.unary.arg);
    break;
  case IR_E_BINARY:
    check_expr(v, e->u.binary.lhs);
    check_expr(v, e->u.binary.rhs);
    break;
  case IR_E_CALL:
    if (ir_is_reduction(e) && v->stage >= IR_STAGE_NORMALIZED)
      node_violation(v, e, at, "reduction '%s' left after normalize",
                     ir_intrinsic_name(e->u.call.fn));
    if (e->u.call.fn == IR_FN_USER)
      check_user_call(v, e);
    else if (e->u.call.device_fn)
      node_violation(v, e, e->loc, "intrinsic call marked as a call of __device__ function '%s'",
                     e->u.call.device_fn->name ? e->u.call.device_fn->name : "?");
    for (int k = 0; k < e->u.call.n; k++)
      check_expr(v, e->u.call.args[k]);
    break;
  case IR_E_COND:
    check_expr(v, e->u.cond.test);
    check_expr(v, e->u.cond.then);
    check_expr(v, e->u.cond.els);
    break;
  case IR_E_CONVERT:
    check_expr(v, e->u.operand);
    break;
  case IR_E_SECTION:
    check_section(v, e, at);
    break;
  default:
    node_violation(v, e, at, "expression of unknown kind %d", (int)e->kind);
  }
}

/* ---- statements ---------------------------------------------------------------- */

static bool loop_open(const Verifier *v, const IrSym *iv)
{
  for (int i = 0; i < v->nopen; i++)
    if (v->open_loops[i] == iv)
      return true;
  return false;
}

static void open_loop(Verifier *v, IrSym *iv)
{
  if (v->nopen == v->open_cap) {
    v->open_cap = v->open_cap ? 2 * v->open_cap : 16;
    v->open_loops = xrealloc(v->open_loops, sizeof *v->open_loops * (size_t)v->open_cap);
  }
  v->open_loops[v->nopen++] = iv;
}

static void open_construct(Verifier *v, const IrStmt *s)
{
  if (v->nconstructs == v->constructs_cap) {
    v->constructs_cap = v->constructs_cap ? 2 * v->constructs_cap : 16;
    v->constructs = xrealloc(v->constructs, sizeof *v->constructs * (size_t)v->constructs_cap);
  }
  v->constructs[v->nconstructs++] = s;
}

static void check_list(Verifier *v, const IrStmtList *l);

static void check_loop(Verifier *v, const IrStmt *s)
{
  IrSym *iv = s->u.loop.iv;
  if (!iv) {
    node_violation(v, s, s->loc, "loop without an index");
  } else {
    check_sym_ref(v, s, iv, s->loc);
    if (iv->rank != 0 || !ir_type_is_integer(iv->type))
      node_violation(v, s, s->loc, "loop index '%s' is not an integer scalar", iv->name);
    if (loop_open(v, iv))
      node_violation(v, s, s->loc, "loop index '%s' is assigned inside its loop (as the index "
                     "of an inner loop)", iv->name);
  }
  check_expr(v, s->u.loop.lo);
  check_expr(v, s->u.loop.hi);
  if (s->u.loop.step)
    check_expr(v, s->u.loop.step);
  open_loop(v, iv);
  open_construct(v, s);
  check_list(v, &s->u.loop.body);
  v->nconstructs--;
  v->nopen--;
}

/* A WHILE or BLOCK: no index; a test (WHILE only) that is logical. */
static void check_sequential(Verifier *v, const IrStmt *s)
{
  if (s->u.loop.iv || s->u.loop.lo || s->u.loop.hi || s->u.loop.step)
    node_violation(v, s, s->loc, "%s with a loop index or bounds",
                   s->kind == IR_S_WHILE ? "WHILE loop" : "block");
  if (s->u.loop.test) {
    check_expr(v, s->u.loop.test);
    if (s->kind == IR_S_BLOCK || s->u.loop.test->type != IR_T_LOGICAL)
      node_violation(v, s, s->loc, "%s with a test that is not a logical WHILE test",
                     s->kind == IR_S_WHILE ? "WHILE loop" : "block");
  }
  open_construct(v, s);
  check_list(v, &s->u.loop.body);
  v->nconstructs--;
}

/* A named EXIT or CYCLE names a statement around it (ir.h); CYCLE a loop. */
static void check_jump(Verifier *v, const IrStmt *s)
{
  const char *name = s->u.jump.name;
  if (!name)
    return;
  for (int i = v->nconstructs - 1; i >= 0; i--) {
    const IrStmt *c = v->constructs[i];
    if (!c->u.loop.name || strcmp(c->u.loop.name, name))
      continue;
    if (s->kind == IR_S_CYCLE && c->kind == IR_S_BLOCK)
      node_violation(v, s, s->loc, "CYCLE of block '%s', which is not a loop", name);
    return;
  }
  node_violation(v, s, s->loc, "%s names '%s', which is not a loop or block around it",
                 s->kind == IR_S_CYCLE ? "CYCLE" : "EXIT", name);
}

static void check_assign(Verifier *v, const IrStmt *s)
{
  const IrExpr *lhs = s->u.assign.lhs;
  check_expr(v, lhs);
  check_expr(v, s->u.assign.rhs);
  if (!lhs)
    return;
  if (lhs->kind != IR_E_VAR && lhs->kind != IR_E_ELEM && lhs->kind != IR_E_SECTION)
    node_violation(v, s, s->loc, "assignment to an expression that is neither a variable nor "
                   "an array element");
  else if (lhs->kind == IR_E_VAR && lhs->u.var && loop_open(v, lhs->u.var))
    node_violation(v, s, s->loc, "loop index '%s' is assigned inside its loop", lhs->u.var->name);
}

static void check_call(Verifier *v, const IrStmt *s)
{
  if (v->region && v->stage >= IR_STAGE_INLINED)
    node_violation(v, s, s->loc, "call of '%s' left in region '%s' after inlining",
                   s->u.call.name ? s->u.call.name : "?", v->region->name);
  else if (in_device_body(v)) {
    /* the call of a __device__ subroutine, one actual per dummy, in order;
     * a pointer to a variable or element for each dummy it assigns */
    const IrRoutine *g = s->u.call.device_fn;
    if (!g || !program_routine(v->prog, g) || !g->device_why || g->is_function ||
        s->u.call.nargs != g->ndummies || s->u.call.keywords)
      node_violation(v, s, s->loc, "call of '%s' in __device__ function '%s' is not the call of "
                     "a __device__ subroutine that it fits", s->u.call.name ? s->u.call.name :
                     "?", v->routine->name);
    for (int k = 0; g && k < s->u.call.nargs && k < g->ndummies; k++) {
      const IrExpr *a = s->u.call.args[k];
      if (a && g->dummies[k]->device_by_ref && a->kind != IR_E_ELEM &&
          !(a->kind == IR_E_VAR && a->u.var && !a->u.var->rank))
        node_violation(v, s, s->loc, "argument '%s' of __device__ subroutine '%s' is assigned "
                       "but not given a variable", g->dummies[k]->name, g->name);
    }
  }
  for (int k = 0; k < s->u.call.nargs; k++)
    check_expr(v, s->u.call.args[k]);
}

static void check_stmt(Verifier *v, const IrStmt *s)
{
  if (!s) {
    node_violation(v, s, v->near, "a statement is missing");
    return;
  }
  Loc outer = v->near;
  if (loc_valid(s->loc))
    v->near = s->loc;
  else
    node_violation(v, s, outer, "statement without a location");
  switch (s->kind) {
  case IR_S_ASSIGN: check_assign(v, s); break;
  case IR_S_DO: check_loop(v, s); break;
  case IR_S_IF:
    check_expr(v, s->u.cond.test);
    check_list(v, &s->u.cond.then);
    check_list(v, &s->u.cond.els);
    break;
  case IR_S_WHERE:
    if (v->stage >= IR_STAGE_NORMALIZED)
      node_violation(v, s, s->loc, "WHERE left after normalize");
    check_expr(v, s->u.cond.test);
    check_list(v, &s->u.cond.then);
    check_list(v, &s->u.cond.els);
    break;
  case IR_S_CYCLE:
  case IR_S_EXIT: check_jump(v, s); break;
  case IR_S_CALL: check_call(v, s); break;
  case IR_S_WHILE:
  case IR_S_BLOCK: check_sequential(v, s); break;
  default: node_violation(v, s, v->near, "statement of unknown kind %d", (int)s->kind);
  }
  v->near = outer;
}

static void check_list(Verifier *v, const IrStmtList *l)
{
  for (int i = 0; i < l->n; i++)
    check_stmt(v, l->v[i]);
}

/* ---- symbols ----------------------------------------------------------------------- */

static void check_symbol(Verifier *v, const IrSym *s)
{
  if (!loc_valid(s->loc))
    node_violation(v, s, v->near, "symbol '%s' without a location", s->name);
  if (s->rank < 0 || s->rank > IR_MAX_RANK) {
    node_violation(v, s, s->loc, "symbol '%s' has rank %d", s->name, s->rank);
    return;
  }
  Loc outer = v->near;
  if (loc_valid(s->loc))
    v->near = s->loc;
  for (int d = 0; d < s->rank; d++) {
    if (!s->lo[d])
      node_violation(v, s, s->loc, "array '%s' has no lower bound for dimension %d", s->name,
                     d + 1);
    else
      check_expr(v, s->lo[d]);
    if (s->hi[d])
      check_expr(v, s->hi[d]);
  }
  if (s->init)
    check_expr(v, s->init);
  v->near = outer;
}

static void check_symbols(Verifier *v, IrSym *table)
{
  for (const IrSym *s = table; s; s = s->hh.next)
    check_symbol(v, s);
}

/* ---- plans ------------------------------------------------------------------------- */

static bool is_top_level(const IrStmtList *l, const IrStmt *s)
{
  for (int i = 0; i < l->n; i++)
    if (l->v[i] == s)
      return true;
  return false;
}

static void note_kernel_name(Verifier *v, const char *name, Loc at)
{
  for (int i = 0; i < v->nkernel_names; i++)
    if (!strcmp(v->kernel_names[i], name)) {
      violation(v, at, "kernel name '%s' is used twice", name);
      return;
    }
  if (v->nkernel_names == v->kernel_names_cap) {
    v->kernel_names_cap = v->kernel_names_cap ? 2 * v->kernel_names_cap : 16;
    v->kernel_names = xrealloc(v->kernel_names,
                               sizeof *v->kernel_names * (size_t)v->kernel_names_cap);
  }
  v->kernel_names[v->nkernel_names++] = name;
}

/* mapped[] are perfectly nested DO loops from `nest` down, and `body` is
 * what the innermost of them runs. */
static void check_kernel_loops(Verifier *v, const KernelPlan *k, Loc at)
{
  if (k->nmapped < 1 || k->nmapped > 3) {
    violation(v, at, "kernel '%s' maps %d loops (must be 1 to 3)", k->name, k->nmapped);
    return;
  }
  if (!k->nest || k->nest->kind != IR_S_DO) {
    violation(v, at, "kernel '%s' has no loop nest", k->name);
    return;
  }
  for (int i = 0; i < k->nmapped; i++)
    if (!k->mapped[i] || k->mapped[i]->kind != IR_S_DO) {
      violation(v, at, "kernel '%s': mapped loop %d is not a DO loop", k->name, i + 1);
      return;
    }
  if (k->mapped[0] != k->nest)
    violation(v, at, "kernel '%s': its outermost mapped loop is not its nest", k->name);
  for (int i = 1; i < k->nmapped; i++) {
    const IrStmtList *outer = &k->mapped[i - 1]->u.loop.body;
    if (outer->n != 1 || outer->v[0] != k->mapped[i])
      violation(v, k->mapped[i]->loc, "kernel '%s': mapped loop %d is not the only statement "
                "of mapped loop %d", k->name, i + 1, i);
  }
  if (k->body != &k->mapped[k->nmapped - 1]->u.loop.body)
    violation(v, at, "kernel '%s': its body is not the body of its innermost mapped loop",
              k->name);
}

/* Distinct grid axes in 0..2; positive block sizes, at most 1024 threads. */
static void check_kernel_grid(Verifier *v, const KernelPlan *k, Loc at)
{
  for (int i = 0; i < k->nmapped && i < 3; i++) {
    if (k->axis[i] < 0 || k->axis[i] > 2)
      violation(v, at, "kernel '%s': mapped loop %d has grid axis %d (must be 0 to 2)", k->name,
                i + 1, k->axis[i]);
    for (int j = 0; j < i; j++)
      if (k->axis[j] == k->axis[i])
        violation(v, at, "kernel '%s': mapped loops %d and %d share grid axis %d", k->name,
                  j + 1, i + 1, k->axis[i]);
  }
  long threads = 1;
  for (int a = 0; a < 3; a++) {
    if (k->block[a] < 1) {
      violation(v, at, "kernel '%s': block size %d along axis %d", k->name, k->block[a], a);
      return;
    }
    threads *= k->block[a];
  }
  if (threads > 1024)
    violation(v, at, "kernel '%s': %ld threads per block (at most 1024)", k->name, threads);
}

static void check_kernel(Verifier *v, const IrRegion *g, const KernelPlan *k)
{
  Loc at = k->nest && loc_valid(k->nest->loc) ? k->nest->loc : v->near;
  if (!k->name) {
    violation(v, at, "kernel without a name");
    return;
  }
  note_kernel_name(v, k->name, at);
  check_kernel_loops(v, k, at);
  check_kernel_grid(v, k, at);
  for (int i = 0; i < k->nfirstprivate; i++) {
    check_sym_ref(v, k, k->firstprivate[i], at);
    if (k->firstprivate[i] && k->firstprivate[i]->rank)
      violation(v, at, "kernel '%s': firstprivate '%s' is not a scalar", k->name,
                k->firstprivate[i]->name);
  }
  /* a nest built by the mapping (column kernels, distribution) is not in
   * the region's body: its statements are checked here */
  if (k->nest && !is_top_level(&g->body, k->nest)) {
    v->nopen = 0;
    check_stmt(v, k->nest);
  }
}

static void check_array_plan(Verifier *v, const RegionPlan *p, int i, Loc at)
{
  const ArrayPlan *a = &p->arrays[i];
  const IrSym *s = a->sym;
  if (!s) {
    violation(v, at, "array plan %d has no symbol", i + 1);
    return;
  }
  check_sym_ref(v, a, s, at);
  if (s->rank < 1)
    violation(v, at, "array plan of scalar '%s'", s->name);
  for (int j = 0; j < i; j++)
    if (p->arrays[j].sym == s)
      violation(v, at, "array '%s' has two array plans", s->name);
  if (a->clause < DIR_COPYIN || a->clause > DIR_PRESENT)
    violation(v, at, "array '%s' has data clause %d, not one of copyin .. present", s->name,
              (int)a->clause);
  if (a->user_clause && a->clause_line < 1)
    violation(v, at, "array '%s' has a user clause but no clause line", s->name);
  if (a->privatized && !a->privatizable)
    violation(v, at, "array '%s' is privatized but not privatizable", s->name);
  if (a->privatized)
    return;
  for (int d = 0; d < s->rank && d < IR_MAX_RANK; d++) {
    if (!a->box_lo[d] || !a->box_hi[d]) {
      violation(v, at, "array '%s' has no box %s bound for dimension %d", s->name,
                a->box_lo[d] ? "upper" : "lower", d + 1);
      continue;
    }
    check_expr(v, a->box_lo[d]);
    check_expr(v, a->box_hi[d]);
  }
}

static bool listed(IrSym *const *list, int n, const IrSym *s)
{
  for (int i = 0; i < n; i++)
    if (list[i] == s)
      return true;
  return false;
}

/* inputs, privates, params: scalars in scope, each listed once; named
 * constants among the params only; no input is also a private. */
static void check_scalar_list(Verifier *v, IrSym *const *list, int n, const char *what,
                              bool constants, Loc at)
{
  for (int i = 0; i < n; i++) {
    const IrSym *s = list[i];
    check_sym_ref(v, &list[i], s, at);
    if (!s)
      continue;
    if (s->rank)
      violation(v, at, "%s '%s' is not a scalar", what, s->name);
    if ((s->kind == IR_SYM_PARAM) != constants)
      violation(v, at, "%s '%s' is %sa named constant", what, s->name, constants ? "not " : "");
    if (listed(list, i, s))
      violation(v, at, "%s '%s' is listed twice", what, s->name);
  }
}

/* Everything a plan promises the emitter (plan.h).  Keep the plan's
 * invariants here, in this one function and its helpers above, so that a
 * change to plan.h has one place to update. */
static void verify_region_plan(Verifier *v, const IrRegion *g)
{
  const RegionPlan *p = g->analysis;
  Loc at = v->near;
  if (!p) {
    violation(v, at, "region '%s' has no plan", g->name);
    return;
  }
  for (int k = 0; k < p->nkernels; k++)
    check_kernel(v, g, &p->kernels[k]);
  v->near = at;
  for (int i = 0; i < p->narrays; i++)
    check_array_plan(v, p, i, at);
  check_scalar_list(v, p->inputs, p->ninputs, "input", false, at);
  check_scalar_list(v, p->privates, p->nprivates, "private", false, at);
  check_scalar_list(v, p->params, p->nparams, "param", true, at);
  for (int i = 0; i < p->ninputs; i++)
    if (p->inputs[i] && listed(p->privates, p->nprivates, p->inputs[i]))
      violation(v, at, "'%s' is both an input and a private", p->inputs[i]->name);
}

/* ---- regions, routines, modules ------------------------------------------------------ */

static void check_region(Verifier *v, const IrRoutine *r, const IrRegion *g)
{
  Loc at = g->dir && loc_valid(g->dir->loc) ? g->dir->loc : r->loc;
  if (!g->dir || !loc_valid(g->dir->loc))
    violation(v, at, "region '%s' has no directive with a location", g->name);
  if (g->routine != r)
    violation(v, at, "region '%s' does not point back to routine '%s'", g->name, r->name);
  if (g->first_line < 1 || g->last_line < g->first_line)
    violation(v, at, "region '%s' spans lines %d to %d", g->name, g->first_line, g->last_line);
  v->region = g;
  v->near = at;
  v->nopen = 0;
  check_list(v, &g->body);
  if (v->stage >= IR_STAGE_PLANNED)
    verify_region_plan(v, g);
  v->region = NULL;
}

static void check_host_directive(Verifier *v, const IrRoutine *r, const IrHostDirective *h)
{
  if (!h->dir || !loc_valid(h->dir->loc))
    violation(v, r->loc, "host directive %d of routine '%s' has no directive with a location",
              h->index, r->name);
  Loc at = h->dir && loc_valid(h->dir->loc) ? h->dir->loc : r->loc;
  if (h->first_line < 1 || h->last_line < h->first_line)
    violation(v, at, "host directive spans lines %d to %d", h->first_line, h->last_line);
  if (h->partner && h->partner->partner != h)
    violation(v, at, "host directive's partner does not point back to it");
}

/* A __device__ function takes scalars by value and returns a scalar: a
 * function whose body the generated file can hold. */
static void check_device_function(Verifier *v, const IrRoutine *r)
{
  if ((r->is_function && (!r->result || r->result->rank)) || !r->body_lowered)
    violation(v, r->loc, "__device__ function '%s' is neither a function with a scalar result "
              "nor a subroutine, with a body", r->name);
  for (int i = 0; i < r->ndummies; i++)
    if (r->dummies[i] && (r->dummies[i]->rank || r->dummies[i]->is_optional))
      violation(v, r->loc, "__device__ function '%s' has the dummy '%s', which is not a scalar "
                "it can take by value or by pointer", r->name, r->dummies[i]->name);
    else if (r->dummies[i] && r->dummies[i]->device_by_ref && r->is_function)
      violation(v, r->loc, "__device__ function '%s' takes its dummy '%s' by pointer, which "
                "only a subroutine does", r->name, r->dummies[i]->name);
}

static void check_routine(Verifier *v, const IrRoutine *r)
{
  v->routine = r;
  v->region = NULL;
  v->near = r->loc;
  if (!loc_valid(r->loc))
    violation(v, r->loc, "routine '%s' without a location", r->name);
  check_symbols(v, r->symbols);
  for (int i = 0; i < r->ndummies; i++)
    if (!r->dummies[i] || !declared_in(r->symbols, r->dummies[i]))
      violation(v, r->loc, "dummy argument %d of routine '%s' is not one of its symbols", i + 1,
                r->name);
  if (r->body_lowered) {
    v->nopen = 0;
    check_list(v, &r->body);
  }
  if (r->device_why)
    check_device_function(v, r);
  for (int i = 0; i < r->nregions; i++)
    check_region(v, r, r->regions[i]);
  for (int i = 0; i < r->nhost_dirs; i++)
    check_host_directive(v, r, r->host_dirs[i]);
}

int ir_verify(const Program *p, IrStage stage, char *why, size_t size)
{
  Verifier v = { .prog = p, .stage = stage, .why = why, .size = size };
  for (int m = 0; m < p->nmodules; m++) {
    v.near = (Loc){ p->file, 0, 0 };
    check_symbols(&v, p->modules[m]->symbols);
  }
  for (int r = 0; r < p->nroutines; r++)
    check_routine(&v, p->routines[r]);
  free(v.open_loops);
  free(v.constructs);
  free(v.kernel_names);
  free(v.reported);
  return v.violations;
}
