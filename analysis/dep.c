/* dep.c — dependence testing between the array references of a nest.
 *
 * For every pair of references to one array, at least one a write, each
 * dimension's subscripts are compared as affine forms (affine.h):
 *   ZIV         no loop index on either side: different constants mean the
 *               references never meet;
 *   strong SIV  the same single loop index with the same coefficient a on
 *               both sides: they meet only at distance (c1 - c2) / a, and
 *               never if that is not an integer;
 *   Banerjee    otherwise (weak-zero and weak-crossing SIV, MIV), when every
 *               loop index has constant bounds: the difference of the two
 *               subscripts has a range, and a needed value outside it
 *               means they never meet;
 *   GCD         and with constant coefficients: they can meet only if the
 *               gcd of all coefficients divides c2 - c1.
 * Invariant (non-loop) terms must be identical on both sides to cancel;
 * when they differ the dimension says nothing.  Distances from several
 * dimensions for the same loop must agree, or the references never meet.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "affine.h"
#include "dep.h"
#include "visit.h"

DepStats dep_stats;

typedef struct Collect {
  DepGraph *g;
  int cap;
  int nloops;
  IrStmt *loops[DEP_MAX_DEPTH];
  int cond_depth;
  const IrStmt *guard;      /* innermost reason for cond_depth > 0 */
} Collect;

static void add_access(Collect *c, IrExpr *ref, IrStmt *s, bool write)
{
  DepGraph *g = c->g;
  if (g->nacc == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 32;
    g->acc = xrealloc(g->acc, sizeof *g->acc * (size_t)c->cap);
  }
  Access *a = &g->acc[g->nacc++];
  a->ref = ref;
  a->stmt = s;
  a->write = write;
  a->conditional = c->cond_depth > 0;
  a->guard = a->conditional ? c->guard : NULL;
  a->cond_depth = c->cond_depth;
  a->nloops = c->nloops;
  memcpy(a->loops, c->loops, sizeof a->loops);
}

static void collect_expr(Collect *c, IrExpr *e, IrStmt *s);

static void collect_list(Collect *c, IrExpr **v, int n, IrStmt *s)
{
  for (int i = 0; i < n; i++)
    collect_expr(c, v[i], s);
}

/* Reads, in evaluation order (subscripts before the element itself). */
static void collect_expr(Collect *c, IrExpr *e, IrStmt *s)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_E_ELEM:
    collect_list(c, e->u.elem.sub, e->u.elem.n, s);
    add_access(c, e, s, false);
    break;
  case IR_E_UNARY: collect_expr(c, e->u.unary.arg, s); break;
  case IR_E_BINARY:
    collect_expr(c, e->u.binary.lhs, s);
    collect_expr(c, e->u.binary.rhs, s);
    break;
  case IR_E_CALL: collect_list(c, e->u.call.args, e->u.call.n, s); break;
  case IR_E_COND:
    collect_expr(c, e->u.cond.test, s);
    collect_expr(c, e->u.cond.then, s);
    collect_expr(c, e->u.cond.els, s);
    break;
  case IR_E_CONVERT: collect_expr(c, e->u.operand, s); break;
  default: break;
  }
}

/* Make what follows (until `restore`) conditional because of `why`. */
static void guard_with(Collect *c, const IrStmt *why)
{
  c->cond_depth++;
  c->guard = why;
}

/* Not on the visitor: a CYCLE or EXIT makes the rest of its own statement
 * list conditional, state that lives per list, not per statement. */
static void collect_stmts(Collect *c, IrStmtList *l)
{
  /* restored at the end: a CYCLE or EXIT affects only the rest of this list */
  int cond_depth = c->cond_depth;
  const IrStmt *guard = c->guard;
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    switch (s->kind) {
    case IR_S_ASSIGN:
      collect_expr(c, s->u.assign.rhs, s);
      if (s->u.assign.lhs->kind == IR_E_ELEM) {
        collect_list(c, s->u.assign.lhs->u.elem.sub, s->u.assign.lhs->u.elem.n, s);
        add_access(c, s->u.assign.lhs, s, true);
      }
      break;
    case IR_S_DO: {
      collect_expr(c, s->u.loop.lo, s);
      collect_expr(c, s->u.loop.hi, s);
      if (c->nloops == DEP_MAX_DEPTH)
        S2S_BUG("loop nest deeper than %d", DEP_MAX_DEPTH);
      /* an EXIT anywhere in the body can end the loop before the
       * iterations that would run the statements before it; so can a
       * CYCLE of an outer loop (visit.h: jumps and their targets) */
      int depth = c->cond_depth;
      const IrStmt *outer_guard = c->guard;
      const IrStmt *ex = ir_jump_leaving(&s->u.loop.body, IR_S_EXIT);
      if (ex || (ex = ir_stmt_jump_leaving(s, IR_S_CYCLE)))
        guard_with(c, ex);
      c->loops[c->nloops++] = s;
      collect_stmts(c, &s->u.loop.body);
      c->nloops--;
      c->cond_depth = depth;
      c->guard = outer_guard;
      /* a jump out of it can skip the rest of the list */
      if ((ex = ir_stmt_jump_leaving(s, -1)))
        guard_with(c, ex);
      break;
    }
    case IR_S_WHILE:
    case IR_S_BLOCK: {
      /* a loop without an index: the analysis does not follow its
       * iterations (the accesses are listed once, as reads and writes as
       * usual).  With a test before each iteration (DO WHILE) it may run
       * none, so all its body does counts as conditional; without one (a
       * backward GOTO's loop, `do ... end do`) the first iteration surely
       * runs its body up to the first jump, which guards what follows it,
       * and each later iteration runs it in the same order again */
      collect_expr(c, s->u.loop.test, s);
      int depth = c->cond_depth;
      const IrStmt *outer_guard = c->guard;
      if (s->kind == IR_S_WHILE && s->u.loop.test)
        guard_with(c, s);
      collect_stmts(c, &s->u.loop.body);
      c->cond_depth = depth;
      c->guard = outer_guard;
      const IrStmt *j = ir_stmt_jump_leaving(s, -1);
      if (j)
        guard_with(c, j);
      break;
    }
    case IR_S_IF: {
      collect_expr(c, s->u.cond.test, s);
      const IrStmt *outer_guard = c->guard;
      guard_with(c, s);
      collect_stmts(c, &s->u.cond.then);
      collect_stmts(c, &s->u.cond.els);
      c->cond_depth--;
      c->guard = outer_guard;
      /* a CYCLE or EXIT in a branch can skip the rest of the loop body */
      const IrStmt *j = ir_stmt_jump_leaving(s, -1);
      if (j)
        guard_with(c, j);
      break;
    }
    case IR_S_CALL:
      S2S_BUG("call of '%s' was not inlined before dependence analysis", s->u.call.name);
    case IR_S_WHERE: S2S_BUG("WHERE left after pass normalize");
    case IR_S_CYCLE:
    case IR_S_EXIT:
      /* later statements of the loop body become conditional */
      guard_with(c, s);
      break;
    }
  }
  c->cond_depth = cond_depth;
  c->guard = guard;
}

static IrVisitStep too_deep_pre(IrStmt *s, IrVisit *v)
{
  if (s->kind != IR_S_DO || v->nloops < DEP_MAX_DEPTH)
    return IR_VISIT_CONTINUE;
  *(IrStmt **)v->ctx = s;
  return IR_VISIT_STOP;
}

bool dep_check_depth(IrStmtList *body)
{
  IrStmt *bad = NULL;
  IrVisit v = { .pre = too_deep_pre, .ctx = &bad };
  ir_visit_stmts(body, &v);
  if (bad)
    diag_at(DIAG_ERROR, bad->loc, 1, "loop nest deeper than %d levels in a region is not "
            "supported", DEP_MAX_DEPTH);
  return !bad;
}

/* ---- pair tests ------------------------------------------------------------- */

static long gcd(long a, long b)
{
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b) {
    long t = a % b;
    a = b;
    b = t;
  }
  return a;
}

static int common_loops(const Access *a, const Access *b)
{
  int n = 0;
  while (n < a->nloops && n < b->nloops && a->loops[n] == b->loops[n])
    n++;
  return n;
}

static int loop_index(const Access *a, int ncommon, const IrSym *var)
{
  for (int l = 0; l < ncommon; l++)
    if (a->loops[l]->u.loop.iv == var)
      return l;
  return -1;
}

static bool is_loop_var(const Access *a, const IrSym *var)
{
  for (int l = 0; l < a->nloops; l++)
    if (a->loops[l]->u.loop.iv == var)
      return true;
  return false;
}

static bool is_variant(const DepGraph *g, const Access *a, const IrSym *var)
{
  if (!var || is_loop_var(a, var))
    return false;
  for (int k = 0; k < g->nvariant; k++)
    if (var == g->variant[k])
      return true;
  return false;
}

/* Is the subscript affine in the indices of the loops around access a and
 * in region invariants? */
static bool subscript_affine(const DepGraph *g, const Access *a, const IrExpr *e, Affine *f)
{
  if (!aff_build(e, f))
    return false;
  for (int i = 0; i < f->n; i++)
    if (is_variant(g, a, f->t[i].var) || is_variant(g, a, f->t[i].scale))
      return false;
  return true;
}

/* Split f into its loop-index part and its invariant part. */
static void split(const Access *acc, const Affine *f, Affine *loops, Affine *inv)
{
  memset(loops, 0, sizeof *loops);
  memset(inv, 0, sizeof *inv);
  for (int i = 0; i < f->n; i++) {
    bool lv = is_loop_var(acc, f->t[i].var) || (f->t[i].scale && is_loop_var(acc, f->t[i].scale));
    Affine *dst = lv ? loops : inv;
    dst->t[dst->n++] = f->t[i];
  }
}

/* The constant range [lo, hi] of the index of loop `iv` around access a. */
static bool index_range(const Access *a, const IrSym *iv, long *lo, long *hi)
{
  for (int l = a->nloops - 1; l >= 0; l--) {
    const IrStmt *loop = a->loops[l];
    if (loop->u.loop.iv != iv)
      continue;
    long first, last, step = 1;
    if (!ir_eval_const(loop->u.loop.lo, &first) || !ir_eval_const(loop->u.loop.hi, &last) ||
        (loop->u.loop.step && !ir_eval_const(loop->u.loop.step, &step)))
      return false;
    *lo = step > 0 ? first : last;
    *hi = step > 0 ? last : first;
    return *lo <= *hi;
  }
  return false;
}

/* Add the range of coef * x, x in [lo, hi], to [*min, *max]. */
static void add_range(long coef, long lo, long hi, long *min, long *max)
{
  *min += coef > 0 ? coef * lo : coef * hi;
  *max += coef > 0 ? coef * hi : coef * lo;
}

/* Banerjee's bounds test (any direction): f(x) = g(y) needs
 * sum fl(x) - sum gl(y) = rhs; when every index has constant bounds, the
 * left side ranges over [min, max], and rhs outside it means the two
 * references never meet.  This settles the weak SIV cases (weak-zero,
 * weak-crossing) and MIV subscripts with constant loop bounds. */
static bool banerjee_independent(const Access *a, const Affine *fl, const Access *b,
                                 const Affine *gl, long rhs)
{
  long min = 0, max = 0, lo, hi;
  for (int i = 0; i < fl->n; i++) {
    if (fl->t[i].scale || !index_range(a, fl->t[i].var, &lo, &hi))
      return false;
    add_range(fl->t[i].coef, lo, hi, &min, &max);
  }
  for (int i = 0; i < gl->n; i++) {
    if (gl->t[i].scale || !index_range(b, gl->t[i].var, &lo, &hi))
      return false;
    add_range(-gl->t[i].coef, lo, hi, &min, &max);
  }
  return rhs < min || rhs > max;
}

typedef enum DimResult { DIM_INDEPENDENT, DIM_NO_INFO, DIM_DISTANCE } DimResult;

/* Test one dimension; on DIM_DISTANCE, *level and *dist give the constraint. */
static DimResult test_dim(const DepGraph *dg, const Access *a, const Access *b, int ncommon,
                          const IrExpr *fa, const IrExpr *fb, int *level, long *dist)
{
  Affine f, g, fl, fi, gl, gi;
  if (!subscript_affine(dg, a, fa, &f) || !subscript_affine(dg, b, fb, &g))
    return DIM_NO_INFO;
  split(a, &f, &fl, &fi);
  split(b, &g, &gl, &gi);
  if (!aff_same_terms(&fi, &gi))
    return DIM_NO_INFO;
  if (fl.n == 0 && gl.n == 0)  /* ZIV */
    return f.c == g.c ? DIM_NO_INFO : DIM_INDEPENDENT;
  if (fl.n == 1 && gl.n == 1 && fl.t[0].var == gl.t[0].var && fl.t[0].coef == gl.t[0].coef &&
      !fl.t[0].scale && !gl.t[0].scale) {
    int l = loop_index(a, ncommon, fl.t[0].var);
    long coef = fl.t[0].coef;
    if ((f.c - g.c) % coef)
      return DIM_INDEPENDENT;
    if (l < 0)
      return DIM_NO_INFO;    /* an index of a loop around only one of them */
    /* distance in iterations: index distance over the step */
    long step = 1, d = (f.c - g.c) / coef;
    const IrStmt *loop = a->loops[l];
    if (loop->u.loop.step && !ir_eval_const(loop->u.loop.step, &step))
      return DIM_NO_INFO;
    if (d % step)
      return DIM_INDEPENDENT;
    *level = l;
    *dist = d / step;
    return DIM_DISTANCE;
  }
  if (banerjee_independent(a, &fl, b, &gl, g.c - f.c))
    return DIM_INDEPENDENT;
  long d = 0;
  for (int i = 0; i < fl.n; i++) {
    if (fl.t[i].scale)
      return DIM_NO_INFO;
    d = gcd(d, fl.t[i].coef);
  }
  for (int i = 0; i < gl.n; i++) {
    if (gl.t[i].scale)
      return DIM_NO_INFO;
    d = gcd(d, gl.t[i].coef);
  }
  return (d && (g.c - f.c) % d) ? DIM_INDEPENDENT : DIM_NO_INFO;
}

bool dep_pair(const DepGraph *g, int ia, int ib, Dep *out)
{
  dep_stats.pairs++;
  const Access *a = &g->acc[ia], *b = &g->acc[ib];
  Dep d = { .src = ia, .dst = ib, .affine = true };
  d.ncommon = common_loops(a, b);
  d.kind = a->write ? (b->write ? DEP_OUTPUT : DEP_FLOW) : DEP_ANTI;
  for (int k = 0; k < a->ref->u.elem.n; k++) {
    int level;
    long dist;
    DimResult r = test_dim(g, a, b, d.ncommon, a->ref->u.elem.sub[k], b->ref->u.elem.sub[k],
                           &level, &dist);
    if (r == DIM_INDEPENDENT)
      return false;
    Affine probe;
    if (!subscript_affine(g, a, a->ref->u.elem.sub[k], &probe) ||
        !subscript_affine(g, b, b->ref->u.elem.sub[k], &probe))
      d.affine = false;
    if (r != DIM_DISTANCE)
      continue;
    if (d.known[level] && d.dist[level] != dist)
      return false;  /* two dimensions demand different distances: never the same element */
    d.known[level] = true;
    d.dist[level] = dist;
  }
  /* Orient the dependence forward in time: if its first non-zero distance
   * is negative, dst runs first, so swap the ends (flow <-> anti). */
  for (int l = 0; l < d.ncommon; l++) {
    if (d.known[l] && d.dist[l] == 0)
      continue;
    if (d.known[l] && d.dist[l] < 0) {
      d.src = ib;
      d.dst = ia;
      for (int k = 0; k < d.ncommon; k++)
        d.dist[k] = -d.dist[k];
      d.kind = d.kind == DEP_FLOW ? DEP_ANTI : d.kind == DEP_ANTI ? DEP_FLOW : DEP_OUTPUT;
    }
    break;
  }
  /* A reference paired with itself at distance 0 everywhere is one access. */
  if (ia == ib) {
    bool all_zero = true;
    for (int l = 0; l < d.ncommon; l++)
      all_zero &= d.known[l] && d.dist[l] == 0;
    if (all_zero)
      return false;
  }
  *out = d;
  return true;
}

/* Test the pair (ia, ib); append a Dep unless they are independent. */
static void test_pair(DepGraph *g, int ia, int ib, int *cap)
{
  Dep d;
  if (!dep_pair(g, ia, ib, &d))
    return;
  if (g->ndeps == *cap) {
    *cap = *cap ? 2 * *cap : 32;
    g->deps = xrealloc(g->deps, sizeof *g->deps * (size_t)*cap);
  }
  g->deps[g->ndeps++] = d;
}

void dep_collect(IrStmtList *body, DepGraph *g)
{
  dep_stats.collected++;
  Collect c = { .g = g };
  g->nacc = g->ndeps = 0;
  g->acc = NULL;
  g->deps = NULL;
  collect_stmts(&c, body);
}

void dep_collect_in(IrStmtList *body, IrStmt *loop, DepGraph *g)
{
  dep_stats.collected++;
  Collect c = { .g = g, .nloops = 1 };
  c.loops[0] = loop;
  g->nacc = g->ndeps = 0;
  g->acc = NULL;
  g->deps = NULL;
  collect_stmts(&c, body);
}

DepArray *dep_arrays(const DepGraph *g)
{
  DepArray *table = NULL;
  for (int i = 0; i < g->nacc; i++) {
    const IrSym *sym = g->acc[i].ref->u.elem.sym;
    DepArray *a = dep_array(table, sym);
    if (!a) {
      a = xcalloc(1, sizeof *a);
      a->sym = sym;
      HASH_ADD_PTR(table, sym, a);
    }
    if (a->n == a->cap) {
      a->cap = a->cap ? 2 * a->cap : 8;
      a->idx = xrealloc(a->idx, sizeof *a->idx * (size_t)a->cap);
    }
    a->idx[a->n++] = i;
    a->written |= g->acc[i].write;
  }
  return table;
}

DepArray *dep_array(DepArray *table, const IrSym *sym)
{
  DepArray *a;
  HASH_FIND_PTR(table, &sym, a);
  return a;
}

void dep_array_graph(const DepGraph *all, DepArray *by_array, const IrSym *sym, DepGraph *g)
{
  DepArray *a = dep_array(by_array, sym);
  g->nvariant = all->nvariant;
  g->variant = all->variant;
  g->nacc = g->ndeps = 0;
  g->deps = NULL;
  g->acc = xmalloc(sizeof *g->acc * (size_t)(a ? a->n : 1));
  for (int p = 0; a && p < a->n; p++)
    g->acc[g->nacc++] = all->acc[a->idx[p]];
}

void dep_arrays_free(DepArray *table)
{
  DepArray *a, *tmp;
  HASH_ITER(hh, table, a, tmp) {
    HASH_DEL(table, a);
    free(a->idx);
    free(a);
  }
}

/* Pairs are tested, and deps[] filled, in the order (i, j), i <= j, over
 * acc[]; only accesses of one array are paired, so the work is the sum
 * over arrays of their accesses squared, not the square of all of them. */
void dep_build(IrStmtList *body, DepGraph *g)
{
  dep_collect(body, g);
  dep_test(g);
}

void dep_test(DepGraph *g)
{
  dep_stats.graphs++;
  g->ndeps = 0;
  g->deps = NULL;
  DepArray *arrays = dep_arrays(g), *a, *tmp;
  int *pos = xmalloc(sizeof *pos * (size_t)(g->nacc ? g->nacc : 1));
  HASH_ITER(hh, arrays, a, tmp)
    for (int p = 0; p < a->n; p++)
      pos[a->idx[p]] = p;       /* access i's place among its array's */
  int cap = 0;
  for (int i = 0; i < g->nacc; i++) {
    a = dep_array(arrays, g->acc[i].ref->u.elem.sym);
    for (int p = pos[i]; p < a->n; p++) {
      int j = a->idx[p];
      if (!g->acc[i].write && !g->acc[j].write)
        continue;
      if (i == j && !g->acc[i].write)
        continue;
      test_pair(g, i, j, &cap);
    }
  }
  dep_arrays_free(arrays);
  free(pos);
}

void dep_within(const DepGraph *all, const IrStmt *loop, DepGraph *g)
{
  g->nvariant = all->nvariant;
  g->variant = all->variant;
  g->nacc = 0;
  g->acc = xmalloc(sizeof *g->acc * (size_t)(all->nacc ? all->nacc : 1));
  for (int i = 0; i < all->nacc; i++)
    for (int l = 0; l < all->acc[i].nloops; l++)
      if (all->acc[i].loops[l] == loop) {
        g->acc[g->nacc++] = all->acc[i];
        break;
      }
  dep_test(g);
}

void dep_free(DepGraph *g)
{
  free(g->acc);
  free(g->deps);
  g->acc = NULL;
  g->deps = NULL;
  g->nacc = g->ndeps = 0;
}

int dep_loop_level(const DepGraph *g, const Dep *d, const IrStmt *loop)
{
  for (int l = 0; l < d->ncommon; l++)
    if (g->acc[d->src].loops[l] == loop)
      return l;
  return -1;
}

bool dep_crosses(const DepGraph *g, const Dep *d, const IrStmt *loop)
{
  int l = dep_loop_level(g, d, loop);
  return l >= 0 && !(d->known[l] && d->dist[l] == 0);
}

const char *dep_kind_name(DepKind k)
{
  return k == DEP_FLOW ? "flow" : k == DEP_ANTI ? "anti" : "output";
}

void dep_describe(const DepGraph *g, const Dep *d, char *buf, size_t size)
{
  const Access *a = &g->acc[d->src];
  size_t len = (size_t)snprintf(buf, size, "'%s' (%s dependence, distance (",
                                ir_sym_user_name(a->ref->u.elem.sym), dep_kind_name(d->kind));
  for (int l = 0; l < d->ncommon && len < size; l++) {
    if (d->known[l])
      len += (size_t)snprintf(buf + len, size - len, "%s%ld", l ? "," : "", d->dist[l]);
    else
      len += (size_t)snprintf(buf + len, size - len, "%s*", l ? "," : "");
  }
  for (int l = 0; l < d->ncommon && len < size; l++)
    len += (size_t)snprintf(buf + len, size - len, "%s%s", l ? "," : ") along ",
                            ir_sym_user_name(a->loops[l]->u.loop.iv));
  if (len < size && d->ncommon == 0)
    len += (size_t)snprintf(buf + len, size - len, ")");
  if (len < size)
    snprintf(buf + len, size - len, "%s)", d->affine ? "" : "; subscripts not affine");
}

void dep_dump(const DepGraph *g, void *file)
{
  FILE *f = file;
  char buf[256];
  fprintf(f, "  dependences: %d accesses, %d dependences\n", g->nacc, g->ndeps);
  for (int i = 0; i < g->ndeps; i++) {
    const Dep *d = &g->deps[i];
    dep_describe(g, d, buf, sizeof buf);
    fprintf(f, "    line %d -> line %d: %s\n", diag_user_line(g->acc[d->src].stmt->loc),
            diag_user_line(g->acc[d->dst].stmt->loc), buf);
  }
}
