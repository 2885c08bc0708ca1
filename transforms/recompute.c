/* recompute.c — pass "recompute": the intermediate fields of a stencil
 * program computed where they are read instead of stored.
 *
 * COSMO's horizontal diffusion, the fast-waves solver and most dynamical
 * cores are chains of nests inside one level loop: a Laplacian, fluxes that
 * read it at i+1 and j+1, an update that reads the fluxes at i-1 and j-1.
 * Run as written, each nest is a kernel that stores its field and the next
 * reads it back: hdiff moves 11 field-sized transfers where 3 (the input,
 * the coefficient, the output) must move.  The compilers of stencil
 * languages (Open Earth Compiler, Dawn, GT4Py) inline such a producer into
 * its consumers: every point of the last nest computes the fluxes it needs,
 * each from the Laplacians it needs, from the input.  More arithmetic (the
 * Laplacian at a point is computed for every flux that reads it), far fewer
 * bytes, one kernel.  This pass does that, for a producer nest P of a
 * statement list S (the region body, or a loop's body: hdiff's k loop):
 *
 *   do j = js-1, je+1             the producer: a perfect nest whose body
 *     do i = is-1, ie+1           stores one local array T at the point of
 *       lap(i,k,j) = ...          its loop indices, first unconditionally,
 *                                 from arrays the region never writes
 *   do j = js, je                 a consumer, later in S
 *     do i = is-1, ie
 *       flx(i,k,j) = lap(i+1,k,j) - lap(i,k,j)
 *
 * becomes, in the consumer (one copy of P's body per point read, P's loop
 * indices replaced by the subscripts read, T(point) by a new scalar):
 *
 *       s2s_lap_1 = ... (at i+1) ;  s2s_lap_2 = ... (at i)
 *       flx(i,k,j) = s2s_lap_1 - s2s_lap_2
 *
 * and P goes.  A consumer that is itself a producer (flx) carries the copies
 * along when it is inlined in turn.  Legal, and done, only when:
 *  - T is a local array of the routine that the host never uses (no copy
 *    in or out to lose), written by P alone and read only by statements
 *    after P in S;
 *  - P's body is assignments and IFs (no loops, no jumps), stores T only at
 *    the point (every loop index of P in one subscript), first
 *    unconditionally, reads T only at that point, and assigns only scalars
 *    of its own (assigned before read, used nowhere else);
 *  - what P reads does not change between P and its consumers: arrays the
 *    region never writes (other than producers inlined before), scalars S
 *    never assigns;
 *  - every point a consumer reads is one P computes: along each loop index
 *    of P, the subscript read is a consumer loop's index plus a constant (or
 *    a fixed value) whose range lies inside P's loop bounds (the difference
 *    of the bounds is a constant of the right sign).  A read outside would
 *    see a value P never stored (in the original, a stale one).
 * Candidates are the work arrays the group pass left in device memory (a
 * column's work array that it keeps per thread is better served so): the
 * pass runs after "group", and when it inlined a producer the region is
 * planned again ("accesses" and "group" on the new body; the report lines
 * of the first planning are dropped).  Only producers some consumer reads
 * at a neighbouring point are inlined (a read at the point itself is the
 * privatization's business).
 * The cost model counts per point of a consumer the extra arithmetic of the
 * copies (copies beyond the first, times P's operations) against the bytes
 * T would move (stored once, read back once): it inlines when the extra
 * operations stay under RECOMPUTE_FLOPS_PER_BYTE per byte saved, a bound
 * well below the GPU's own balance (an H100 does about 20 single-precision
 * operations in the time it moves a byte), so that the kernel stays bound by
 * memory.  The report says what was inlined and at what cost, or why not.
 * -Mnorecompute (or S2S_RECOMPUTE=0 in the environment) turns the pass off.
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
#include "column.h"
#include "plan.h"
#include "report.h"
#include "transforms.h"
#include "visit.h"

/* Extra operations per point allowed for each byte a stored field would
 * have moved (see the file comment). */
enum { RECOMPUTE_FLOPS_PER_BYTE = 4 };
enum { RECOMPUTE_MAX_DEPTH = IR_MAX_RANK };

/* A producer nest P of list S (file comment). */
typedef struct Producer {
  IrStmt *nest;                      /* S->v[at] */
  int at;
  int depth;
  IrStmt *loops[RECOMPUTE_MAX_DEPTH];/* outermost first */
  IrStmtList *body;                  /* the innermost loop's body */
  IrSym *temp;                       /* T */
  IrExpr *point;                     /* the T(...) stored */
  int dim_loop[IR_MAX_RANK];         /* the loop of P whose index subscripts dimension d, or
                                        -1: a subscript without P's indices */
  IrSymSet locals;                   /* scalars the body assigns */
  int flops;
} Producer;

typedef struct Rc {
  Program *prog;
  IrRegion *region;
  IrRoutine *routine;
  int counter;                       /* for the new scalars' names */
  IrSymSet candidates;               /* the work arrays planning left in device memory */
  bool changed;
} Rc;

/* ---- small queries ---------------------------------------------------------------- */

typedef struct RefCount {
  const IrSym *sym;
  int n;
} RefCount;

static void count_ref(IrExpr *e, IrStmt *in, void *ctx)
{
  RefCount *rc = ctx;
  (void)in;
  rc->n += (e->kind == IR_E_VAR && e->u.var == rc->sym) ||
           (e->kind == IR_E_ELEM && e->u.elem.sym == rc->sym);
}

/* How many expression nodes of l name s (reads and stores, subscripts too). */
static int count_refs(IrStmtList *l, const IrSym *s)
{
  RefCount rc = { s, 0 };
  ir_walk_exprs(l, count_ref, &rc);
  return rc.n;
}

static int stmt_refs(IrStmt *s, const IrSym *x)
{
  IrStmtList one = { 1, 1, &s };
  return count_refs(&one, x);
}

/* Is s named in a clause of region g's directive? */
static bool in_clause(const IrRegion *g, const IrSym *s)
{
  for (int c = 0; g->dir && c < g->dir->nclauses; c++)
    for (int i = 0; i < g->dir->clauses[c].nitems; i++)
      if (g->dir->clauses[c].items[i].sym == s || !strcmp(g->dir->clauses[c].items[i].name, s->name))
        return true;
  return false;
}

/* Arithmetic operations of an expression (an intrinsic call counts 4). */
static int expr_flops(const IrExpr *e)
{
  if (!e)
    return 0;
  switch (e->kind) {
  case IR_E_ELEM: return 0;              /* a load; index arithmetic is not counted */
  case IR_E_UNARY: return 1 + expr_flops(e->u.unary.arg);
  case IR_E_BINARY: return 1 + expr_flops(e->u.binary.lhs) + expr_flops(e->u.binary.rhs);
  case IR_E_CALL: {
    int n = 4;
    for (int i = 0; i < e->u.call.n; i++)
      n += expr_flops(e->u.call.args[i]);
    return n;
  }
  case IR_E_COND: return 1 + expr_flops(e->u.cond.test) + expr_flops(e->u.cond.then) +
                         expr_flops(e->u.cond.els);
  case IR_E_CONVERT: return expr_flops(e->u.operand);
  default: return 0;
  }
}

static int list_flops(const IrStmtList *l)
{
  int n = 0;
  for (int i = 0; i < l->n; i++) {
    const IrStmt *s = l->v[i];
    if (s->kind == IR_S_ASSIGN)
      n += expr_flops(s->u.assign.rhs);
    else if (s->kind == IR_S_IF)
      n += 1 + expr_flops(s->u.cond.test) + list_flops(&s->u.cond.then) +
           list_flops(&s->u.cond.els);
  }
  return n;
}

/* ---- recognizing a producer ---------------------------------------------------------- */

/* Only assignments and IFs, nested ones too. */
static bool straight_line(const IrStmtList *l)
{
  for (int i = 0; i < l->n; i++) {
    const IrStmt *s = l->v[i];
    if (s->kind == IR_S_IF) {
      if (!straight_line(&s->u.cond.then) || !straight_line(&s->u.cond.els))
        return false;
    } else if (s->kind != IR_S_ASSIGN) {
      return false;
    }
  }
  return true;
}

typedef struct BodyCheck {
  Producer *p;
  bool ok;
} BodyCheck;

/* Every array element the body stores is T at the point; reads of T are at
 * the point too. */
static void check_elem(IrExpr *e, IrStmt *in, void *ctx)
{
  BodyCheck *bc = ctx;
  (void)in;
  if (e->kind != IR_E_ELEM || !bc->ok)
    return;
  if (e->u.elem.sym == bc->p->temp && !ir_expr_equal(e, bc->p->point))
    bc->ok = false;            /* it reads T at another point than the one it stores */
}

static void check_stores(BodyCheck *bc, IrStmtList *l)
{
  for (int i = 0; i < l->n && bc->ok; i++) {
    IrStmt *s = l->v[i];
    if (s->kind == IR_S_IF) {
      check_stores(bc, &s->u.cond.then);
      check_stores(bc, &s->u.cond.els);
    } else if (s->u.assign.lhs->kind == IR_E_ELEM) {
      if (!ir_expr_equal(s->u.assign.lhs, bc->p->point))
        bc->ok = false;          /* it stores another array or another point too */
    } else {
      ir_symset_add(&bc->p->locals, s->u.assign.lhs->u.var);
    }
  }
}

/* Which loop of P indexes dimension d of the point (-1: none), or -2 when
 * the subscript mixes P's indices with anything else. */
static int point_dim_loop(const Producer *p, const IrExpr *sub)
{
  for (int l = 0; l < p->depth; l++) {
    const IrSym *iv = p->loops[l]->u.loop.iv;
    if (sub->kind == IR_E_VAR && sub->u.var == iv)
      return l;
    if (ir_expr_mentions(sub, iv))
      return -2;
  }
  return -1;
}

/* Is S->v[at] a producer nest (the conditions on P itself)?  Fills *p. */
static bool producer_shape(Rc *rc, IrStmtList *S, int at, Producer *p)
{
  memset(p, 0, sizeof *p);
  IrStmt *s = S->v[at];
  p->nest = s;
  p->at = at;
  while (s->kind == IR_S_DO && p->depth < RECOMPUTE_MAX_DEPTH) {
    long step = 1;
    if (s->u.loop.step && (!ir_eval_const(s->u.loop.step, &step) || step != 1))
      return false;
    p->loops[p->depth++] = s;
    if (s->u.loop.body.n != 1 || s->u.loop.body.v[0]->kind != IR_S_DO)
      break;
    s = s->u.loop.body.v[0];
  }
  if (!p->depth || s->kind != IR_S_DO)
    return false;
  p->body = &s->u.loop.body;
  /* the first store of an array, after scalars of its own (copies of
   * producers inlined before), at the top level of the body */
  int f = 0;
  while (f < p->body->n && p->body->v[f]->kind == IR_S_ASSIGN &&
         p->body->v[f]->u.assign.lhs->kind == IR_E_VAR)
    f++;
  IrStmt *first = f < p->body->n ? p->body->v[f] : NULL;
  if (!first || first->kind != IR_S_ASSIGN || first->u.assign.lhs->kind != IR_E_ELEM ||
      !straight_line(p->body))
    return false;
  p->point = first->u.assign.lhs;
  p->temp = p->point->u.elem.sym;
  if (!ir_symset_has(&rc->candidates, p->temp) || p->temp->rank != p->point->u.elem.n ||
      p->temp->is_dummy || p->temp->is_module ||
      an_host_uses_array(rc->prog, rc->region, p->temp) || in_clause(rc->region, p->temp))
    return false;     /* not a work array of the region's own: nothing to say */
  for (int i = 0; i < f; i++)
    if (stmt_refs(p->body->v[i], p->temp))
      return false;
  if (stmt_refs(first, p->temp) != 1)      /* the first store reads T's old value */
    return false;
  bool used[RECOMPUTE_MAX_DEPTH] = { false };
  for (int d = 0; d < p->point->u.elem.n; d++) {
    int l = point_dim_loop(p, p->point->u.elem.sub[d]);
    if (l == -2 || (l >= 0 && used[l]))
      return false;
    if (l >= 0)
      used[l] = true;
    p->dim_loop[d] = l;
  }
  for (int l = 0; l < p->depth; l++)
    if (!used[l])
      return false;        /* one element stored by several iterations */
  BodyCheck bc = { p, true };
  check_stores(&bc, p->body);
  if (bc.ok)
    ir_walk_exprs(p->body, check_elem, &bc);
  if (!bc.ok)
    return false;
  p->flops = list_flops(p->body);
  return true;
}

/* ---- the conditions on P's surroundings -------------------------------------------------- */

typedef struct InputCheck {
  Rc *rc;
  const Producer *p;
  IrStmtList *S;
  const char *why;
} InputCheck;

/* What the body reads must be the same at every consumer: arrays the region
 * never writes, scalars that S never assigns (P's indices and own scalars
 * apart). */
static void check_input(IrExpr *e, IrStmt *in, void *ctx)
{
  InputCheck *ic = ctx;
  (void)in;
  if (ic->why)
    return;
  if (e->kind == IR_E_ELEM && e->u.elem.sym != ic->p->temp &&
      ir_assignment_of(&ic->rc->region->body, e->u.elem.sym))
    ic->why = ir_printf("its nest reads '%s', which the region writes", ir_sym_user_name(e->u.elem.sym));
  if (e->kind == IR_E_VAR && !ir_symset_has(&ic->p->locals, e->u.var)) {
    for (int l = 0; l < ic->p->depth; l++)
      if (ic->p->loops[l]->u.loop.iv == e->u.var)
        return;
    if (ir_assignment_of(ic->S, e->u.var))
      ic->why = ir_printf("its nest reads the scalar '%s', which changes between the nests",
                          ir_sym_user_name(e->u.var));
  }
}

/* P's own scalars: assigned before read in the body, used nowhere else in
 * the region. */
static const char *locals_why(Rc *rc, const Producer *p)
{
  for (int i = 0; i < p->locals.n; i++) {
    IrSym *v = p->locals.syms[i];
    if (xf_first_exposed(p->body, &v, 1, NULL, 0))
      return ir_printf("its nest reads the scalar '%s' before assigning it", ir_sym_user_name(v));
    if (count_refs(&rc->region->body, v) != stmt_refs(p->nest, v))
      return ir_printf("the scalar '%s' of its nest is used elsewhere too", ir_sym_user_name(v));
  }
  return NULL;
}

/* T: written by P alone, and named nowhere in the region but in P and in
 * the statements of S after it. */
static const char *temp_why(Rc *rc, const Producer *p, IrStmtList *S)
{
  int after = 0;
  for (int i = p->at + 1; i < S->n; i++) {
    IrStmtList one = { 1, 1, &S->v[i] };
    if (ir_assignment_of(&one, p->temp))
      return "other statements store it too";
    after += stmt_refs(S->v[i], p->temp);
  }
  if (count_refs(&rc->region->body, p->temp) != stmt_refs(p->nest, p->temp) + after)
    return "statements before its nest, or outside the loop around it, use it";
  return NULL;
}

/* ---- coverage: every point read is one P computes ------------------------------------------ */

/* Constant a - b >= 0?  (Both affine, differing only by a constant.) */
static bool at_least(const IrExpr *a, const IrExpr *b, long plus)
{
  Affine fa, fb, diff;
  if (!aff_build(a, &fa) || !aff_build(b, &fb))
    return false;
  aff_sub(&fa, &fb, &diff);
  return diff.n == 0 && diff.c + plus >= 0;
}

/* Is subscript `sub` of a read, inside the loops `around` (outermost first),
 * within [lo, hi] for every iteration?  sub is `w + c` for the index w of
 * one of the loops (step 1), or a value that none of them changes. */
static bool sub_within(const IrExpr *sub, IrStmt *const *around, int naround, const IrExpr *lo,
                       const IrExpr *hi)
{
  Affine f;
  if (!aff_build(sub, &f))
    return false;
  for (int l = naround - 1; l >= 0; l--) {
    const IrStmt *w = around[l];
    long coef;
    if (!aff_coef(&f, w->u.loop.iv, &coef))
      return false;
    if (!coef)
      continue;
    long step = 1;
    if (coef != 1 || (w->u.loop.step && (!ir_eval_const(w->u.loop.step, &step) || step != 1)))
      return false;
    IrExpr *first = ir_expr_subst(sub, w->u.loop.iv, w->u.loop.lo);
    IrExpr *last = ir_expr_subst(sub, w->u.loop.iv, w->u.loop.hi);
    for (int o = 0; o < l; o++)       /* another loop index left in it: not handled */
      if (ir_expr_mentions(first, around[o]->u.loop.iv))
        return false;
    return at_least(first, lo, 0) && at_least(hi, last, 0);
  }
  return at_least(sub, lo, 0) && at_least(hi, sub, 0);
}

/* ---- inlining into a consumer ---------------------------------------------------------------- */

typedef struct Copy {
  Rc *rc;
  const Producer *p;
  const IrExpr *read;                 /* T(e_1..e_n) being computed */
  IrSym *result;                      /* its scalar */
  IrSym **local_to;                   /* renamed locals, parallel to p->locals */
} Copy;

/* A new scalar of the routine like `like`: s2s_BASE_N, BASE without the
 * s2s_ prefix and _N suffix of a name this pass made before. */
static IrSym *new_scalar(Rc *rc, const IrSym *like, const char *base)
{
  if (!strncmp(base, "s2s_", 4)) {
    base += 4;
    const char *u = strrchr(base, '_');
    if (u && u[1] && strspn(u + 1, "0123456789") == strlen(u + 1))
      base = ir_strndup(base, (size_t)(u - base));
  }
  return ir_new_local(rc->routine, ir_printf("s2s_%s_%d", base, ++rc->counter), like->type,
                      like->loc);
}

/* P's body at the point read: its indices the subscripts read, T at the
 * point the result scalar, its scalars renamed. */
static IrExpr *copy_node(const IrExpr *e, void *ctx)
{
  Copy *c = ctx;
  if (e->kind == IR_E_ELEM && e->u.elem.sym == c->p->temp)
    return ir_var(c->result, e->loc);
  if (e->kind == IR_E_ELEM) {       /* subscripts mapped, then `(i - 1) + 1` folded */
    IrExpr *n = ir_alloc(sizeof *n);
    *n = *e;
    for (int d = 0; d < e->u.elem.n; d++)
      n->u.elem.sub[d] = ir_fold_offsets(ir_expr_map(e->u.elem.sub[d], copy_node, c));
    return n;
  }
  if (e->kind != IR_E_VAR)
    return NULL;
  for (int i = 0; i < c->p->locals.n; i++)
    if (c->p->locals.syms[i] == e->u.var)
      return ir_var(c->local_to[i], e->loc);
  for (int d = 0; d < c->read->u.elem.n; d++)
    if (c->p->dim_loop[d] >= 0 && c->p->loops[c->p->dim_loop[d]]->u.loop.iv == e->u.var)
      return ir_expr_copy(c->read->u.elem.sub[d]);
  return NULL;
}

static void copy_list(Copy *c, const IrStmtList *from, IrStmtList *to)
{
  for (int i = 0; i < from->n; i++) {
    const IrStmt *s = from->v[i];
    IrStmt *n = ir_stmt(s->kind, s->loc);
    if (s->kind == IR_S_ASSIGN) {
      n->u.assign.lhs = ir_expr_map(s->u.assign.lhs, copy_node, c);
      n->u.assign.rhs = ir_expr_map(s->u.assign.rhs, copy_node, c);
    } else {
      n->u.cond.test = ir_expr_map(s->u.cond.test, copy_node, c);
      copy_list(c, &s->u.cond.then, &n->u.cond.then);
      copy_list(c, &s->u.cond.els, &n->u.cond.els);
    }
    ir_list_push(to, n);
  }
}

/* The reads of T in one statement's own expressions (not its bodies),
 * distinct by subscripts. */
typedef struct Reads {
  const IrSym *temp;
  int n;
  IrExpr *v[64];
  bool overflow;
} Reads;

static void collect_read(IrExpr *e, IrStmt *in, void *ctx)
{
  Reads *r = ctx;
  (void)in;
  if (e->kind != IR_E_ELEM || e->u.elem.sym != r->temp)
    return;
  for (int i = 0; i < r->n; i++)
    if (ir_expr_equal(r->v[i], e))
      return;
  if (r->n == 64)
    r->overflow = true;
  else
    r->v[r->n++] = e;
}

typedef struct Site {
  IrStmt *stmt;                       /* the statement whose own expressions read T */
  IrStmtList *list;                   /* the list it is in */
  IrStmt *around[16];                 /* the loops of S's statement around it */
  int naround;
  Reads reads;
} Site;

typedef struct Sites {
  int n, cap;
  Site *v;
  bool bad;                           /* a read P cannot serve (WHILE test, deep nest) */
} Sites;

static void find_sites(const Producer *p, IrStmtList *l, IrStmt **around, int naround, Sites *out)
{
  for (int i = 0; i < l->n && !out->bad; i++) {
    IrStmt *s = l->v[i];
    Site site = { .stmt = s, .list = l, .naround = naround, .reads = { .temp = p->temp } };
    memcpy(site.around, around, sizeof *around * (size_t)naround);
    ir_walk_stmt_exprs(s, collect_read, &site.reads);
    if (site.reads.overflow || (site.reads.n && s->kind == IR_S_WHILE)) {
      out->bad = true;
      return;
    }
    if (site.reads.n)
      IR_APPEND(out->v, out->n, out->cap, site);
    switch (s->kind) {
    case IR_S_DO:
      if (naround == 16) {
        out->bad = true;
        return;
      }
      around[naround] = s;
      find_sites(p, &s->u.loop.body, around, naround + 1, out);
      break;
    case IR_S_IF:
      find_sites(p, &s->u.cond.then, around, naround, out);
      find_sites(p, &s->u.cond.els, around, naround, out);
      break;
    case IR_S_WHILE:
    case IR_S_BLOCK:
      find_sites(p, &s->u.loop.body, around, naround, out);
      break;
    default:
      break;
    }
  }
}

/* Does P compute every point each site reads? */
static bool covered(const Producer *p, const Sites *sites, const IrExpr **bad_read)
{
  for (int i = 0; i < sites->n; i++) {
    const Site *st = &sites->v[i];
    for (int r = 0; r < st->reads.n; r++) {
      const IrExpr *read = st->reads.v[r];
      for (int d = 0; d < read->u.elem.n; d++) {
        int l = p->dim_loop[d];
        bool ok = l >= 0 ? sub_within(read->u.elem.sub[d], st->around, st->naround,
                                      p->loops[l]->u.loop.lo, p->loops[l]->u.loop.hi)
                         : ir_expr_equal(read->u.elem.sub[d], p->point->u.elem.sub[d]);
        if (!ok) {
          *bad_read = read;
          return false;
        }
      }
    }
  }
  return true;
}

/* Does some site read T at a neighbour of its own point (a subscript along
 * one of P's loops that is not a plain index: lap(i+1,k,j))? */
static bool stencil_reads(const Producer *p, const Sites *sites)
{
  for (int i = 0; i < sites->n; i++)
    for (int r = 0; r < sites->v[i].reads.n; r++) {
      const IrExpr *read = sites->v[i].reads.v[r];
      for (int d = 0; d < read->u.elem.n; d++)
        if (p->dim_loop[d] >= 0 && ir_strip_converts(read->u.elem.sub[d])->kind != IR_E_VAR)
          return true;
    }
  return false;
}

/* Insert before site's statement one copy of P's body per point it reads,
 * and make the reads those scalars. */
static void inline_site(Rc *rc, const Producer *p, Site *st)
{
  IrStmtList pre = { 0 };
  IrSym *results[64];
  for (int r = 0; r < st->reads.n; r++) {
    Copy c = { rc, p, st->reads.v[r], new_scalar(rc, p->temp, p->temp->name), NULL };
    c.local_to = ir_alloc(sizeof *c.local_to * (size_t)(p->locals.n + 1));
    for (int i = 0; i < p->locals.n; i++)
      c.local_to[i] = new_scalar(rc, p->locals.syms[i], p->locals.syms[i]->name);
    copy_list(&c, p->body, &pre);
    results[r] = c.result;
  }
  /* the reads themselves: every T node of the statement's own expressions,
   * collected first and then turned into reads of the scalars */
  IrElemRefs all = { p->temp, 0, 0, NULL };
  ir_walk_stmt_exprs(st->stmt, ir_collect_elem, &all);
  for (int i = 0; i < all.n; i++)
    for (int r = 0; r < st->reads.n; r++)
      if (all.v[i] != st->reads.v[r] && ir_expr_equal(all.v[i], st->reads.v[r])) {
        all.v[i]->kind = IR_E_VAR;
        all.v[i]->u.var = results[r];
        break;
      }
  for (int r = 0; r < st->reads.n; r++) {
    st->reads.v[r]->kind = IR_E_VAR;
    st->reads.v[r]->u.var = results[r];
  }
  IrStmtList out = { 0 };
  for (int i = 0; i < st->list->n; i++) {
    if (st->list->v[i] == st->stmt)
      for (int k = 0; k < pre.n; k++)
        ir_list_push(&out, pre.v[k]);
    ir_list_push(&out, st->list->v[i]);
  }
  *st->list = out;
}

/* ---- the pass -------------------------------------------------------------------------------- */

/* Try P = S->v[at]; true when it was inlined (and removed from S). */
static bool try_producer(Rc *rc, IrStmtList *S, int at)
{
  Producer p;
  if (!producer_shape(rc, S, at, &p))
    return false;
  Sites sites = { 0 };
  IrStmt *around[16];
  for (int i = at + 1; i < S->n; i++) {
    IrStmtList one = { 1, 1, &S->v[i] };
    find_sites(&p, &one, around, 0, &sites);
  }
  /* A work array read only at the point of the nest reading it is the
   * privatization's business (kept per thread: column physics); this pass
   * is for fields read at neighbouring points. */
  if (!stencil_reads(&p, &sites))
    return false;
  const char *why = sites.bad ? "a loop test, a nest deeper than 16 loops or more than 64 distinct points read it" : NULL;
  InputCheck ic = { rc, &p, S, NULL };
  ir_walk_exprs(p.body, check_input, &ic);
  for (int l = 0; l < p.depth && !ic.why; l++) {
    ir_walk_expr(p.loops[l]->u.loop.lo, NULL, check_input, &ic);
    ir_walk_expr(p.loops[l]->u.loop.hi, NULL, check_input, &ic);
  }
  if (!why)
    why = ic.why ? ic.why : locals_why(rc, &p);
  if (!why)
    why = temp_why(rc, &p, S);
  const IrExpr *bad_read = NULL;
  if (!why && !covered(&p, &sites, &bad_read))
    why = ir_printf("%s is read at points its nest (line %d) does not store",
                    an_ref_text(bad_read, rc->prog->lang), diag_user_line(p.nest->loc));
  int per_site = 0;
  for (int i = 0; i < sites.n; i++)
    per_site = sites.v[i].reads.n > per_site ? sites.v[i].reads.n : per_site;
  int elem = p.temp->type == IR_T_REAL8 || p.temp->type == IR_T_INT8 ? 8 : 4;
  long extra = (long)(per_site - 1) * p.flops, saved = 2L * elem;
  if (!why && extra > RECOMPUTE_FLOPS_PER_BYTE * saved)
    why = ir_printf("recomputing it costs %ld operations per point where storing it moves %ld "
                    "bytes (the cost model allows %d per byte)", extra, saved,
                    RECOMPUTE_FLOPS_PER_BYTE);
  if (why) {
    report_at(REPORT_NOTE, rc->routine->name, p.nest->loc, "Array '%s' stored, not recomputed "
              "where it is read: %s", ir_sym_user_name(p.temp), why);
    return false;
  }
  for (int i = 0; i < sites.n; i++)
    inline_site(rc, &p, &sites.v[i]);
  for (int i = at; i + 1 < S->n; i++)
    S->v[i] = S->v[i + 1];
  S->n--;
  rc->changed = true;
  report_at(REPORT_INFO, rc->routine->name, p.nest->loc, "Array '%s' recomputed where it is "
            "read (stencil inlining): the nest at line %d runs inside the statements that read "
            "it, up to %d evaluation%s per point (%d operations each) instead of storing %d "
            "bytes per point and reading them back", ir_sym_user_name(p.temp), diag_user_line(p.nest->loc),
            per_site, per_site == 1 ? "" : "s", p.flops, elem);
  return true;
}

/* S and the lists nested in it (loop bodies; not the producers' own). */
static void recompute_list(Rc *rc, IrStmtList *S)
{
  for (int at = 0; at < S->n;) {
    if (S->v[at]->kind == IR_S_DO && try_producer(rc, S, at))
      continue;                       /* S->v[at] is the next statement now */
    at++;
  }
  for (int i = 0; i < S->n; i++)
    if (S->v[i]->kind == IR_S_DO)
      recompute_list(rc, &S->v[i]->u.loop.body);
}

bool xf_pass_recompute(Program *prog, IrRegion *g)
{
  const char *env = getenv("S2S_RECOMPUTE");
  RegionPlan *plan = g->analysis;
  if (!xf_config.recompute || (env && !strcmp(env, "0")) || prog->lang != IR_FORTRAN)
    return true;
  /* planning again must see the body planning saw: a GPU reduction's
   * initial value has left it (plan_reductions) */
  for (int i = 0; i < plan->nreductions; i++)
    if (plan->reductions[i].init)
      return true;
  Rc rc = { prog, g, g->routine, 0, { 0 }, false };
  for (int i = 0; i < plan->narrays; i++)
    if (plan->arrays[i].written && !plan->arrays[i].privatized)
      ir_symset_add(&rc.candidates, plan->arrays[i].sym);
  if (!rc.candidates.n)
    return true;
  int mark = report_count();
  recompute_list(&rc, &g->body);
  if (!rc.changed)
    return true;
  /* what planning said is about a body that is no more: its lines go, this
   * pass's stay, and the region is planned again */
  report_drop(g->report_start, mark);
  return xf_pass_accesses(prog, g) && xf_pass_group(prog, g);
}
