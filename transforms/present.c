/* present.c — present() of optional dummies inside regions: one kernel
 * variant per combination of present and absent arguments.
 *
 * WSM5-style microphysics takes its snow and ice fields as OPTIONAL
 * arguments and tests `if (present(qs))` inside its loops.  Whether an
 * argument is there is known only on the host, and a kernel must not
 * touch (or have copied) an argument that is absent.  So, as the PGI
 * engineers did by hand with two copies of the loop, the region becomes
 * one region per combination: in each, present() is a constant, the
 * branches it does not take are dropped, and whatever an absent argument
 * was used for goes with them.  Every variant is then planned on its own
 * (its own kernels, data clauses and launcher), and the host file tests
 * presence and calls the matching launcher (emit_host.c).
 *
 * The inliner decides present() of a callee's dummies per call before
 * this pass runs; what is left to decide here is present() of the dummies
 * of the routine the region is in.
 */
#include <string.h>
#include "diag.h"
#include "present.h"

/* ---- deciding present() ------------------------------------------------------- */

int xf_fold_presence(const IrExpr *e, XfPresence decide, void *ctx)
{
  switch (e->kind) {
  case IR_E_LOGICAL:
    return e->u.ival != 0;
  case IR_E_CALL:
    return e->u.call.fn == IR_FN_PRESENT && decide ? decide(e->u.call.args[0]->u.var, ctx) : -1;
  case IR_E_UNARY: {
    int v = e->u.unary.op == IR_OP_NOT ? xf_fold_presence(e->u.unary.arg, decide, ctx) : -1;
    return v < 0 ? -1 : !v;
  }
  case IR_E_BINARY: {
    int a = xf_fold_presence(e->u.binary.lhs, decide, ctx);
    int b = xf_fold_presence(e->u.binary.rhs, decide, ctx);
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

/* ---- one variant's copy of the body ---------------------------------------------- */

static int variant_presence(const IrSym *dummy, void *ctx)
{
  const IrVariant *v = ctx;
  for (int i = 0; i < v->ntested; i++)
    if (v->tested[i] == dummy)
      return v->present[i];
  return -1;
}

static IrExpr *logical_constant(int value, Loc loc)
{
  IrExpr *e = ir_expr_new(IR_E_LOGICAL, IR_T_LOGICAL, loc);
  e->u.ival = value;
  return e;
}

/* .true. .and. x is x, .false. .or. x is x: so that a test that only
 * partly depends on presence reads, in the kernel, as what is left of it. */
static IrExpr *drop_neutral_operand(IrExpr *e)
{
  if (e->kind != IR_E_BINARY || (e->u.binary.op != IR_OP_AND && e->u.binary.op != IR_OP_OR))
    return e;
  int neutral = e->u.binary.op == IR_OP_AND;
  if (xf_fold_presence(e->u.binary.lhs, NULL, NULL) == neutral)
    return e->u.binary.rhs;
  if (xf_fold_presence(e->u.binary.rhs, NULL, NULL) == neutral)
    return e->u.binary.lhs;
  return e;
}

/* A copy of e (no node shared) with present() of the tested dummies
 * replaced by constants, and the logical operations they decide folded. */
static IrExpr *copy_expr(const IrVariant *v, const IrExpr *e)
{
  if (!e)
    return NULL;
  IrExpr *c = ir_alloc(sizeof *c);
  *c = *e;
  switch (e->kind) {
  case IR_E_ELEM:
    for (int k = 0; k < e->u.elem.n; k++)
      c->u.elem.sub[k] = copy_expr(v, e->u.elem.sub[k]);
    return c;
  case IR_E_UNARY:
    c->u.unary.arg = copy_expr(v, e->u.unary.arg);
    break;
  case IR_E_BINARY:
    c->u.binary.lhs = copy_expr(v, e->u.binary.lhs);
    c->u.binary.rhs = copy_expr(v, e->u.binary.rhs);
    break;
  case IR_E_CALL: {
    int known = e->u.call.fn == IR_FN_PRESENT ? xf_fold_presence(e, variant_presence, (void *)v)
                                              : -1;
    if (known >= 0)
      return logical_constant(known, e->loc);
    c->u.call.args = ir_alloc(sizeof *c->u.call.args * (size_t)(e->u.call.n + 1));
    for (int k = 0; k < e->u.call.n; k++)
      c->u.call.args[k] = copy_expr(v, e->u.call.args[k]);
    return c;
  }
  case IR_E_COND:
    c->u.cond.test = copy_expr(v, e->u.cond.test);
    c->u.cond.then = copy_expr(v, e->u.cond.then);
    c->u.cond.els = copy_expr(v, e->u.cond.els);
    return c;
  case IR_E_CONVERT:
    c->u.operand = copy_expr(v, e->u.operand);
    return c;
  default:
    return c;
  }
  int known = xf_fold_presence(c, NULL, NULL);
  return known >= 0 ? logical_constant(known, e->loc) : drop_neutral_operand(c);
}

static void copy_list(const IrVariant *v, const IrStmtList *from, IrStmtList *to);

static IrStmt *copy_stmt(const IrVariant *v, const IrStmt *s)
{
  IrStmt *c = ir_stmt(s->kind, s->loc);
  switch (s->kind) {
  case IR_S_ASSIGN:
    c->u.assign.lhs = copy_expr(v, s->u.assign.lhs);
    c->u.assign.rhs = copy_expr(v, s->u.assign.rhs);
    break;
  case IR_S_DO:
    c->u.loop = s->u.loop;
    c->u.loop.lo = copy_expr(v, s->u.loop.lo);
    c->u.loop.hi = copy_expr(v, s->u.loop.hi);
    c->u.loop.step = copy_expr(v, s->u.loop.step);
    memset(&c->u.loop.body, 0, sizeof c->u.loop.body);
    copy_list(v, &s->u.loop.body, &c->u.loop.body);
    break;
  case IR_S_IF:
    c->u.cond.test = copy_expr(v, s->u.cond.test);
    copy_list(v, &s->u.cond.then, &c->u.cond.then);
    copy_list(v, &s->u.cond.els, &c->u.cond.els);
    break;
  case IR_S_WHILE:
  case IR_S_BLOCK:
    c->u.loop = s->u.loop;
    c->u.loop.test = copy_expr(v, s->u.loop.test);
    memset(&c->u.loop.body, 0, sizeof c->u.loop.body);
    copy_list(v, &s->u.loop.body, &c->u.loop.body);
    break;
  case IR_S_CALL:
    S2S_BUG("call of '%s' left in a region after inlining", s->u.call.name);
  case IR_S_WHERE: S2S_BUG("WHERE left after pass normalize");
  case IR_S_CYCLE:
  case IR_S_EXIT:
    c->u.jump = s->u.jump;
    break;
  }
  return c;
}

/* An IF whose test the variant decides keeps only its taken branch: the
 * other may use an absent argument.  Not on the visitor: it builds new
 * statement lists. */
static void copy_list(const IrVariant *v, const IrStmtList *from, IrStmtList *to)
{
  for (int i = 0; i < from->n; i++) {
    const IrStmt *s = from->v[i];
    int known = s->kind == IR_S_IF ? xf_fold_presence(s->u.cond.test, variant_presence,
                                                      (void *)v) : -1;
    if (known >= 0)
      copy_list(v, known ? &s->u.cond.then : &s->u.cond.els, to);
    else
      ir_list_push(to, copy_stmt(v, s));
  }
}

/* ---- which dummies a region tests ------------------------------------------------------ */

typedef struct Tested {
  const IrRoutine *routine;
  IrSymSet dummies;          /* in the order of their first test */
  Loc *first_test;           /* first_test[i]: where dummies.syms[i] is first tested */
  int cap;
} Tested;

static void tested_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  Tested *t = ctx;
  (void)in;
  if (e->kind != IR_E_CALL || e->u.call.fn != IR_FN_PRESENT)
    return;
  IrSym *d = e->u.call.args[0]->u.var;
  if (!d->is_dummy || ir_lookup(t->routine, d->name) != d)
    S2S_BUG("present(%s) in a region of '%s' is not about one of its dummies", d->name,
            t->routine->name);
  int n = t->dummies.n;
  if (ir_symset_add(&t->dummies, d)) {
    int count = n;
    IR_APPEND(t->first_test, count, t->cap, e->loc);
  }
}

/* ---- the variants ------------------------------------------------------------------- */

/* Is the i-th of n tested dummies present in the variant of 0-based
 * index k?  Variant 1 takes them all as present, the last all as absent;
 * the first dummy varies slowest. */
static bool present_in(int k, int i, int n)
{
  return !(k & (1 << (n - 1 - i)));
}

static const char *combination_text(IrSym *const *tested, int n, int k)
{
  const char *text = "";
  for (int i = 0; i < n; i++)
    text = ir_printf("%s%s%s %s", text, i ? " and " : "", tested[i]->name,
                     present_in(k, i, n) ? "present" : "absent");
  return text;
}

const char *xf_variant_text(const IrVariant *v)
{
  return combination_text(v->tested, v->ntested, v->index - 1);
}

const char *xf_variants_summary(const IrVariant *v)
{
  const char *tests = "", *cases = "";
  for (int i = 0; i < v->ntested; i++)
    tests = ir_printf("%s%spresent(%s)", tests, i ? ", " : "", v->tested[i]->name);
  for (int k = 0; k < v->count; k++)
    cases = ir_printf("%s%s%s", cases, k ? ", " : "", combination_text(v->tested, v->ntested, k));
  return ir_printf("Kernel variants for %s: %d (%s)", tests, v->count, cases);
}

static bool is_absent(const IrVariant *v, const IrSym *s)
{
  return s && variant_presence(s, (void *)v) == 0;
}

/* The region directive of a variant: the items of its data clauses that
 * name an absent argument left out (nothing of it may be moved), and a
 * clause left with no item dropped. */
static Directive *variant_directive(const Directive *d, const IrVariant *v)
{
  Directive *c = ir_alloc(sizeof *c);
  *c = *d;
  c->clauses = ir_alloc(sizeof *c->clauses * (size_t)(d->nclauses + 1));
  c->nclauses = 0;
  for (int k = 0; k < d->nclauses; k++) {
    DirClause cl = d->clauses[k];
    cl.items = ir_alloc(sizeof *cl.items * (size_t)(cl.nitems + 1));
    cl.nitems = 0;
    for (int i = 0; i < d->clauses[k].nitems; i++)
      if (!is_absent(v, d->clauses[k].items[i].sym))
        cl.items[cl.nitems++] = d->clauses[k].items[i];
    if (cl.nitems || !d->clauses[k].nitems)
      c->clauses[c->nclauses++] = cl;
  }
  return c;
}

static IrVariant *new_variant(const Tested *t, int index)
{
  IrVariant *v = ir_alloc(sizeof *v);
  int n = t->dummies.n;
  v->index = index + 1;
  v->count = 1 << n;
  v->ntested = n;
  v->tested = t->dummies.syms;
  v->present = ir_alloc(sizeof *v->present * (size_t)n);
  for (int i = 0; i < n; i++)
    v->present[i] = present_in(index, i, n);
  return v;
}

static IrRegion *make_variant(const IrRegion *g, const Tested *t, int index)
{
  IrVariant *v = new_variant(t, index);
  IrRegion *c = ir_alloc(sizeof *c);
  *c = *g;
  c->name = ir_printf("%s_v%d", g->name, v->index);
  c->launcher = ir_printf("%s_v%d", g->launcher, v->index);
  c->dir = variant_directive(g->dir, v);
  memset(&c->body, 0, sizeof c->body);
  copy_list(v, &g->body, &c->body);
  c->variant = v;
  return c;
}

typedef struct Mention { const IrSym *s; const IrExpr *at; } Mention;

static void mention_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  Mention *m = ctx;
  (void)in;
  if (!m->at && ((e->kind == IR_E_VAR && e->u.var == m->s) ||
                 (e->kind == IR_E_ELEM && e->u.elem.sym == m->s)))
    m->at = e;
}

/* A variant that takes a dummy as absent must not use it: the use is not
 * under a present() test the variant decides.  Each dummy is reported
 * once, at its first such use. */
static bool absent_unused(IrRegion **variants, int count)
{
  bool ok = true;
  const IrVariant *any = variants[0]->variant;
  for (int i = 0; i < any->ntested; i++) {
    const IrSym *d = any->tested[i];
    Mention m = { d, NULL };
    for (int k = 0; k < count && !m.at; k++)
      if (is_absent(variants[k]->variant, d))
        ir_walk_exprs(&variants[k]->body, mention_visit, &m);
    if (!m.at)
      continue;
    diag_at(DIAG_ERROR, m.at->loc, (int)strlen(ir_sym_user_name(d)), "'%s' is used inside the region outside "
            "a present(%s) test: s2s-cuda makes one kernel for each case of present(), and in "
            "the one where the optional argument '%s' is absent it would still be used; put "
            "this use under if (present(%s))", ir_sym_user_name(d), ir_sym_user_name(d), ir_sym_user_name(d), ir_sym_user_name(d));
    ok = false;
  }
  return ok;
}

/* The variants of region g into *out (appended), or g itself when its body
 * tests no presence.  False on a refusal (reported). */
static bool split_region(IrRegion *g, IrRegion ***out, int *nout)
{
  Tested t = { .routine = g->routine };
  ir_walk_exprs(&g->body, tested_visit, &t);
  int n = t.dummies.n;
  if (n == 0) {
    IR_PUSH(*out, *nout, g);
    return true;
  }
  if (n > XF_MAX_PRESENCE_TESTS) {
    const char *names = "";
    for (int i = 0; i < n; i++)
      names = ir_printf("%s%s%s", names, i ? ", " : "", t.dummies.syms[i]->name);
    diag_at(DIAG_ERROR, t.first_test[XF_MAX_PRESENCE_TESTS], (int)strlen("present"),
            "the region tests present() of %d optional arguments (%s): s2s-cuda makes one "
            "kernel variant for each combination of present and absent arguments, for at most "
            "%d of them (%d variants); test the others outside the region, or split the region",
            n, names, XF_MAX_PRESENCE_TESTS, 1 << XF_MAX_PRESENCE_TESTS);
    return false;
  }
  IrRegion **variants = ir_alloc(sizeof *variants * (size_t)(1 << n));
  for (int k = 0; k < 1 << n; k++)
    variants[k] = make_variant(g, &t, k);
  if (!absent_unused(variants, 1 << n))
    return false;
  for (int k = 0; k < 1 << n; k++)
    IR_PUSH(*out, *nout, variants[k]);
  return true;
}

bool xf_present_variants(Program *p)
{
  bool ok = true;
  for (int r = 0; r < p->nroutines; r++) {
    IrRoutine *rt = p->routines[r];
    IrRegion **regions = NULL;
    int n = 0;
    for (int i = 0; i < rt->nregions; i++)
      ok &= split_region(rt->regions[i], &regions, &n);
    rt->regions = regions;
    rt->nregions = n;
  }
  return ok;
}
