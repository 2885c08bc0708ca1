/* kcache.c — pass "kcache": values a sequential loop of a thread reads at
 * neighbouring iterations kept in registers (rolling scalars).
 *
 * Column kernels sweep k inside each thread: Thomas sweeps, sedimentation,
 * implicit vertical diffusion, vertical stencils.  Two shapes repeat, and
 * each re-reads from memory a value the thread already had:
 *
 *   recurrence   cp(i,k,j) = c(i,k,j) / (b(i,k,j) - a(i,k,j)*cp(i,k-1,j))
 *                cp(i,k-1,j) is the element the previous iteration stored.
 *                The stored value goes to a register as well, and the read
 *                takes it from there (store-to-load forwarding across
 *                iterations):
 *                    s2s_cp_k = c(i,k,j) / (b(i,k,j) - a(i,k,j)*s2s_cp_km1)
 *                    cp(i,k,j) = s2s_cp_k
 *                    ...
 *                    s2s_cp_km1 = s2s_cp_k          (end of the body)
 *   window       w(k) = u(i,j,k+1) - 2*u(i,j,k) + u(i,j,k-1), u not written
 *                in the loop: every element is read at three iterations.
 *                Registers s2s_u_km1, s2s_u_k, s2s_u_kp1 hold the window;
 *                each iteration loads the leading element only and rotates
 *                the others at the end of the body.
 *
 * The registers that start the sweep are loaded before the loop, under a
 * test that the loop runs at all.  What makes this legal (each condition
 * is checked; an array that fails one is left alone):
 *  - every reference to the array in the loop has the same subscripts but
 *    one, that one is `k + constant` (k the loop index, step 1 or -1), and
 *    the others do not change in the loop: one element per iteration and
 *    offset, in one column;
 *  - a window array is not written in the loop; a recurrence array is
 *    written by exactly one assignment, run at every iteration (not under
 *    an IF), so the register holds what memory holds;
 *  - nothing jumps out of the body (CYCLE, EXIT, GOTO), which would skip
 *    the rotation at its end;
 *  - an element loaded early is one the loop reads at every iteration (an
 *    unconditional read at that offset, or at offsets on both sides of it),
 *    so no load reaches outside what the original reads;
 *  - in C, an array that is not `restrict` (nor -Msafeptr given, nor local to the region) is
 *    cached only when the loop writes no other array, which could alias it.
 * Memory is written exactly as before: only loads go.  S2S_KCACHE=0 turns
 * the pass off (for measuring what it gains), as does -Mnokcache.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "affine.h"
#include "plan.h"
#include "report.h"
#include "transforms.h"
#include "visit.h"

enum { KC_MAX_WINDOW = 8 };   /* registers per array at most */

/* One reference to an array in the loop body. */
typedef struct KcRef {
  IrExpr *ref;          /* the IR_E_ELEM node, rewritten in place when cached */
  IrStmt *assign;       /* a write: its assignment; else NULL */
  bool sure;            /* evaluated at every iteration */
  long off;             /* constant of the subscript along the loop index */
} KcRef;

/* The references to one array, and whether they allow caching. */
typedef struct KcArray {
  IrSym *sym;
  bool ok;
  int dim;              /* the subscript that moves with the loop index */
  Affine dim_form;      /* its affine form in the first reference */
  int n, cap;
  KcRef *v;
  int nwrites;
} KcArray;

typedef struct Kc {
  Program *prog;
  IrRoutine *routine;
  KernelPlan *kernel;
  IrStmt *loop;
  IrSymSet assigned;    /* scalars the loop body assigns (its index included) */
  int narrays, cap;
  KcArray *arrays;
} Kc;

/* ---- collecting the references --------------------------------------------------- */

static KcArray *array_entry(Kc *c, IrSym *s)
{
  for (int i = 0; i < c->narrays; i++)
    if (c->arrays[i].sym == s)
      return &c->arrays[i];
  KcArray a = { .sym = s, .ok = true, .dim = -1 };
  IR_APPEND(c->arrays, c->narrays, c->cap, a);
  return &c->arrays[c->narrays - 1];
}

/* Is every variable of form f unchanged by the loop (the loop index apart)? */
static bool invariant_terms(const Kc *c, const Affine *f)
{
  for (int t = 0; t < f->n; t++) {
    if (f->t[t].var != c->loop->u.loop.iv && ir_symset_has(&c->assigned, f->t[t].var))
      return false;
    if (f->t[t].scale && ir_symset_has(&c->assigned, f->t[t].scale))
      return false;
  }
  return true;
}

/* Check reference r of array a against the conditions of the file comment
 * (subscripts) and record its offset; a failure rules the array out. */
static void check_ref(Kc *c, KcArray *a, KcRef *r)
{
  const IrSym *iv = c->loop->u.loop.iv;
  int dim = -1;
  Affine dim_form;
  for (int d = 0; d < r->ref->u.elem.n; d++) {
    Affine f;
    long coef;
    if (!aff_build(r->ref->u.elem.sub[d], &f) || !aff_coef(&f, iv, &coef) ||
        !invariant_terms(c, &f) || (coef && (coef != 1 || dim >= 0))) {
      a->ok = false;
      return;
    }
    if (coef) {
      dim = d;
      dim_form = f;
    }
  }
  if (dim < 0) {        /* an element fixed in the loop (a(i,kts)): may be any of the others */
    a->ok = false;
    return;
  }
  r->off = dim_form.c;
  if (a->dim < 0) {
    a->dim = dim;
    a->dim_form = dim_form;
    return;
  }
  const KcRef *first = &a->v[0];
  bool same = dim == a->dim && aff_same_terms(&dim_form, &a->dim_form);
  for (int d = 0; same && d < r->ref->u.elem.n; d++)
    same = d == dim || ir_expr_equal(r->ref->u.elem.sub[d], first->ref->u.elem.sub[d]);
  a->ok &= same;
}

static void add_ref(Kc *c, IrExpr *ref, IrStmt *assign, bool sure)
{
  KcArray *a = array_entry(c, ref->u.elem.sym);
  KcRef r = { .ref = ref, .assign = assign, .sure = sure };
  IR_APPEND(a->v, a->n, a->cap, r);
  a->nwrites += assign != NULL;
  if (a->ok)
    check_ref(c, a, &a->v[a->n - 1]);
}

/* The references of e; `sure`: e is evaluated at every iteration.  The
 * right operand of && and || and the arms of ?: are not (the generated code
 * short-circuits them). */
static void collect_expr(Kc *c, IrExpr *e, bool sure)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_E_ELEM:
    add_ref(c, e, NULL, sure);
    for (int d = 0; d < e->u.elem.n; d++)
      collect_expr(c, e->u.elem.sub[d], sure);
    break;
  case IR_E_UNARY:
    collect_expr(c, e->u.unary.arg, sure);
    break;
  case IR_E_BINARY: {
    IrOp op = e->u.binary.op;
    collect_expr(c, e->u.binary.lhs, sure);
    collect_expr(c, e->u.binary.rhs, sure && op != IR_OP_AND && op != IR_OP_OR);
    break;
  }
  case IR_E_CALL:
    for (int i = 0; i < e->u.call.n; i++)
      collect_expr(c, e->u.call.args[i], sure);
    break;
  case IR_E_COND:
    collect_expr(c, e->u.cond.test, sure);
    collect_expr(c, e->u.cond.then, false);
    collect_expr(c, e->u.cond.els, false);
    break;
  case IR_E_CONVERT:
    collect_expr(c, e->u.operand, sure);
    break;
  default:
    break;
  }
}

static void collect_list(Kc *c, IrStmtList *l, bool sure);

/* The references of statement s; `sure`: s runs at every iteration. */
static void collect_stmt(Kc *c, IrStmt *s, bool sure)
{
  switch (s->kind) {
  case IR_S_ASSIGN: {
    IrExpr *lhs = s->u.assign.lhs;
    if (lhs->kind == IR_E_ELEM) {
      add_ref(c, lhs, s, sure);
      for (int d = 0; d < lhs->u.elem.n; d++)
        collect_expr(c, lhs->u.elem.sub[d], sure);
    }
    collect_expr(c, s->u.assign.rhs, sure);
    break;
  }
  case IR_S_IF:
    collect_expr(c, s->u.cond.test, sure);
    collect_list(c, &s->u.cond.then, false);
    collect_list(c, &s->u.cond.els, false);
    break;
  case IR_S_DO:
    collect_expr(c, s->u.loop.lo, sure);
    collect_expr(c, s->u.loop.hi, sure);
    collect_expr(c, s->u.loop.step, sure);
    collect_list(c, &s->u.loop.body, false);
    break;
  case IR_S_WHILE:
    collect_expr(c, s->u.loop.test, sure);
    collect_list(c, &s->u.loop.body, false);
    break;
  case IR_S_BLOCK:      /* an EXIT of the block may skip the rest of it */
    collect_list(c, &s->u.loop.body, false);
    break;
  default:              /* CYCLE and EXIT inside are ruled out before; no CALL in kernels */
    break;
  }
}

static void collect_list(Kc *c, IrStmtList *l, bool sure)
{
  for (int i = 0; i < l->n; i++)
    collect_stmt(c, l->v[i], sure);
}

/* ---- building the new statements -------------------------------------------------- */

/* The element of reference r at offset `off` of iteration `at` (an
 * expression of the loop's index or its lower bound). */
static IrExpr *element_at(const Kc *c, const KcRef *r, long off, const IrExpr *at)
{
  IrExpr *where = ir_add_const(ir_expr_copy(at), off - r->off);
  return ir_expr_subst(r->ref, c->loop->u.loop.iv, where);
}

/* A new scalar of the routine for a register: s2s_<array>_<index><offset>
 * (s2s_cp_km1, s2s_u_k, s2s_u_kp1), declared by the kernel. */
static IrSym *register_sym(Kc *c, const IrSym *a, long off)
{
  const char *iv = c->loop->u.loop.iv->name;
  const char *base = off ? ir_printf("s2s_%s_%s%s%ld", a->name, iv, off < 0 ? "m" : "p", labs(off))
                         : ir_printf("s2s_%s_%s", a->name, iv);
  IrSym *s = ir_new_local(c->routine, base, a->type, c->loop->loc);
  xf_kernel_local(c->kernel, s, "k-caching register");
  return s;
}

/* Turn reference node `ref` into a read of register r. */
static void read_register(IrExpr *ref, IrSym *r)
{
  ref->kind = IR_E_VAR;
  ref->u.var = r;
}

/* The statements that run before the loop and at the top and the end of its
 * body, gathered over the arrays cached. */
typedef struct KcEdits {
  IrStmtList fill;      /* before the loop, under "the loop runs" */
  IrStmtList top;       /* first in the body */
  IrStmtList end;       /* last in the body */
  /* for the report: the recurrences' reads, and a note per window */
  char stored[512], loaded[1024];
  size_t nstored, nloaded, stored_len, loaded_len;
} KcEdits;

static void note(char *buf, size_t size, size_t *len, size_t *n, const char *sep,
                 const char *text)
{
  if (*len < size)
    *len += (size_t)snprintf(buf + *len, size - *len, "%s%s", *n ? sep : "", text);
  ++*n;
}

/* The one reference of a at offset off that is evaluated at every
 * iteration, or NULL. */
static const KcRef *sure_read_at(const KcArray *a, long off)
{
  for (int i = 0; i < a->n; i++)
    if (!a->v[i].assign && a->v[i].sure && a->v[i].off == off)
      return &a->v[i];
  return NULL;
}

/* Recurrence: the one assignment at every iteration stores at offset w;
 * reads at w - step take the register of the previous iteration. */
static bool cache_recurrence(Kc *c, KcArray *a, long step, KcEdits *ed)
{
  const KcRef *w = NULL;
  for (int i = 0; i < a->n; i++)
    if (a->v[i].assign)
      w = &a->v[i];
  long prev = w->off - step;
  const KcRef *sure = sure_read_at(a, prev);
  if (!w->sure || w->assign->u.assign.lhs != w->ref || !sure)
    return false;
  const char *text = an_ref_text(sure->ref, c->prog->lang);
  IrExpr *first = element_at(c, w, prev, c->loop->u.loop.lo);
  IrSym *cur = register_sym(c, a->sym, w->off), *last = register_sym(c, a->sym, prev);
  for (int i = 0; i < a->n; i++)
    if (!a->v[i].assign && a->v[i].off == prev)
      read_register(a->v[i].ref, last);
  /* a(k) = e  ->  s2s_a_k = e; a(k) = s2s_a_k */
  IrStmt *st = w->assign;
  IrStmt *store = ir_assign(st->u.assign.lhs, ir_var(cur, st->loc), st->loc);
  st->u.assign.lhs = ir_var(cur, st->loc);
  IrStmtList *body = &c->loop->u.loop.body;
  for (int i = 0; i < body->n; i++)
    if (body->v[i] == st) {
      ir_list_push(body, NULL);
      memmove(&body->v[i + 2], &body->v[i + 1], sizeof *body->v * (size_t)(body->n - i - 2));
      body->v[i + 1] = store;
      break;
    }
  ir_list_push(&ed->fill, ir_assign(ir_var(last, c->loop->loc), first, c->loop->loc));
  ir_list_push(&ed->end, ir_assign(ir_var(last, c->loop->loc), ir_var(cur, c->loop->loc),
                                c->loop->loc));
  note(ed->stored, sizeof ed->stored, &ed->stored_len, &ed->nstored, ", ", text);
  return true;
}

/* Window: a read-only array read at offsets lo..hi of the loop index: the
 * element entering the window is loaded once, the others rotate. */
static bool cache_window(Kc *c, KcArray *a, long step, KcEdits *ed)
{
  long lo = 0, hi = 0;
  bool any = false;
  for (int i = 0; i < a->n; i++)
    if (a->v[i].sure) {
      lo = any && lo < a->v[i].off ? lo : a->v[i].off;
      hi = any && hi > a->v[i].off ? hi : a->v[i].off;
      any = true;
    }
  if (!any || hi == lo || hi - lo + 1 > KC_MAX_WINDOW)
    return false;
  const KcRef *tmpl = sure_read_at(a, lo);
  long lead = step > 0 ? hi : lo;
  char offsets[256] = "";
  size_t len = 0;
  IrSym *reg[KC_MAX_WINDOW];
  for (long o = lo; o <= hi; o++) {
    reg[o - lo] = register_sym(c, a->sym, o);
    const KcRef *at = sure_read_at(a, o);
    if (at && o != lead && len < sizeof offsets)
      len += (size_t)snprintf(offsets + len, sizeof offsets - len, "%s%s", len ? ", " : "",
                              an_ref_text(at->ref, c->prog->lang));
  }
  const char *lead_text = an_ref_text(sure_read_at(a, lead)->ref, c->prog->lang);
  Loc loc = c->loop->loc;
  for (long o = lo; o <= hi; o++)
    if (o != lead)
      ir_list_push(&ed->fill, ir_assign(ir_var(reg[o - lo], loc),
                                     element_at(c, tmpl, o, c->loop->u.loop.lo), loc));
  ir_list_push(&ed->top, ir_assign(ir_var(reg[lead - lo], loc),
                                element_at(c, tmpl, lead, ir_var(c->loop->u.loop.iv, loc)), loc));
  /* rotate towards the trailing end: for step 1, r(lo) = r(lo+1), ... */
  for (long n = 0; n < hi - lo; n++) {
    long to = step > 0 ? lo + n : hi - n;
    ir_list_push(&ed->end, ir_assign(ir_var(reg[to - lo], loc), ir_var(reg[to + step - lo], loc),
                                  loc));
  }
  for (int i = 0; i < a->n; i++)
    if (a->v[i].off >= lo && a->v[i].off <= hi)
      read_register(a->v[i].ref, reg[a->v[i].off - lo]);
  note(ed->loaded, sizeof ed->loaded, &ed->loaded_len, &ed->nloaded, "; ",
       ir_printf("%s reused from registers loaded by earlier iterations (one load of %s per "
                 "iteration)", offsets, lead_text));
  return true;
}

/* May array a be cached at all (the conditions that do not depend on the
 * shape chosen)? */
static bool cacheable(const Kc *c, const KcArray *a)
{
  if (!a->ok || a->sym->in_equivalence)
    return false;
  if (c->prog->lang == IR_C && !xf_c_no_alias(a->sym) && !a->sym->region_local)
    for (int i = 0; i < c->narrays; i++)
      if (c->arrays[i].sym != a->sym && c->arrays[i].nwrites)
        return false;
  return true;
}

/* Apply the edits: the fill before the loop under "it runs", the top and
 * end statements in its body.  Returns the statement to put before the
 * loop. */
static IrStmt *apply_edits(Kc *c, KcEdits *ed, long step)
{
  IrStmtList *body = &c->loop->u.loop.body;
  IrStmtList nb = { 0 };
  for (int i = 0; i < ed->top.n; i++)
    ir_list_push(&nb, ed->top.v[i]);
  for (int i = 0; i < body->n; i++)
    ir_list_push(&nb, body->v[i]);
  for (int i = 0; i < ed->end.n; i++)
    ir_list_push(&nb, ed->end.v[i]);
  *body = nb;
  if (!ed->fill.n)
    return NULL;
  Loc loc = c->loop->loc;
  IrStmt *guard = ir_stmt(IR_S_IF, loc);
  guard->u.cond.test = ir_binary(step > 0 ? IR_OP_LE : IR_OP_GE,
                                 ir_expr_copy(c->loop->u.loop.lo),
                                 ir_expr_copy(c->loop->u.loop.hi), loc);
  guard->u.cond.then = ed->fill;
  return guard;
}

/* Cache what loop allows (the file comment); returns the statement to put
 * before it, or NULL. */
static IrStmt *kcache_loop(Program *prog, IrRoutine *routine, KernelPlan *k, IrStmt *loop)
{
  long step = 1;
  if (loop->u.loop.step && !ir_eval_const(loop->u.loop.step, &step))
    return NULL;
  if ((step != 1 && step != -1) || ir_jump_leaving(&loop->u.loop.body, -1))
    return NULL;
  Kc c = { .prog = prog, .routine = routine, .kernel = k, .loop = loop };
  ir_symset_add(&c.assigned, loop->u.loop.iv);
  ir_assigned_scalars(&loop->u.loop.body, &c.assigned);
  collect_list(&c, &loop->u.loop.body, true);
  KcEdits ed = { 0 };
  for (int i = 0; i < c.narrays; i++) {
    KcArray *a = &c.arrays[i];
    if (!cacheable(&c, a))
      continue;
    if (a->nwrites == 1)
      cache_recurrence(&c, a, step, &ed);
    else if (!a->nwrites)
      cache_window(&c, a, step, &ed);
  }
  if (!ed.nstored && !ed.nloaded)
    return NULL;
  const char *stored = !ed.nstored ? "" : ir_printf("%s from the register%s the previous "
                                                   "iteration stored %s in", ed.stored,
                                                   ed.nstored > 1 ? "s" : "",
                                                   ed.nstored > 1 ? "them" : "it");
  report_at(REPORT_INFO, routine->name, loop->loc, "Loop '%s' keeps values in registers "
            "across iterations (k-caching): %s%s%s", ir_sym_user_name(loop->u.loop.iv), stored,
            ed.nstored && ed.nloaded ? "; " : "", ed.loaded);
  return apply_edits(&c, &ed, step);
}

/* Every DO loop of l, innermost first; a fill goes right before its loop. */
static void kcache_list(Program *prog, IrRoutine *routine, KernelPlan *k, IrStmtList *l)
{
  IrStmtList out = { 0 };
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    switch (s->kind) {
    case IR_S_IF:
      kcache_list(prog, routine, k, &s->u.cond.then);
      kcache_list(prog, routine, k, &s->u.cond.els);
      break;
    case IR_S_DO:
    case IR_S_WHILE:
    case IR_S_BLOCK:
      kcache_list(prog, routine, k, &s->u.loop.body);
      break;
    default:
      break;
    }
    IrStmt *fill = s->kind == IR_S_DO ? kcache_loop(prog, routine, k, s) : NULL;
    if (fill)
      ir_list_push(&out, fill);
    ir_list_push(&out, s);
  }
  *l = out;
}

bool xf_pass_kcache(Program *prog, IrRegion *g, int kernel)
{
  const char *env = getenv("S2S_KCACHE");
  KernelPlan *k = &((RegionPlan *)g->analysis)->kernels[kernel];
  if (!xf_config.kcache || (env && !strcmp(env, "0")) || !k->body)
    return true;
  kcache_list(prog, g->routine, k, k->body);
  return true;
}
