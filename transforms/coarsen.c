/* coarsen.c — pass "coarsen": each thread computes several consecutive
 * iterations of the loop on grid axis y (thread coarsening).
 *
 * A fused stencil (pass "recompute" makes COSMO's hdiff one kernel, one
 * thread per (i, j, k)) reads its input at many horizontal offsets: hdiff
 * loads 13 distinct elements of inp per point, inp(i, k, j-2..j+2) among
 * them, and is bound by issuing those loads (L1/L2 hits), not by DRAM.
 * The points j and j+1 read 8 of their 13 elements in common.  When one
 * thread computes both, one after the other, nvcc issues each shared load
 * once: it reuses a value loaded through a `const T *__restrict__` pointer
 * when nothing stored in between may alias it, provided the two loads'
 * addresses are the same expression.  For hdiff, 2 points per thread load
 * 18 elements of inp (9 per point), 4 points 28 (7 per point).
 *
 * The kernel becomes (translator/emit/emit_cuda.c, emit_points)
 *     s2s_y = (blockIdx.y * blockDim.y + threadIdx.y) * C
 *     if (out of range at s2s_y) return
 *     <the indices i, j, k of point 1>
 *     { <the thread's scalars declared afresh> <the body> }
 *     if (s2s_y + 1 >= trip_y) return
 *     { <the scalars afresh> <the body, j read as j + step> }
 *     ... up to point C
 * with the subscripts of point p written `j + c + p*step` folded into one
 * constant, the same text as an earlier point's read of that element.  (A
 * loop over the points, even unrolled, with j recomputed from s2s_y + p,
 * shared almost nothing: nvcc 13 did not equate the index expressions; and
 * an IF around each later point instead of the return leaves a point's
 * loads undominated by the previous point's, which nvcc then reloads.)
 * The launcher's grid covers ceil(trip_y / C) threads along y, for
 * whatever block shape S2S_TUNE picks (the tuner sees those thread counts).
 *
 * Legality.  The loop on grid axis y is parallel (pass "map" mapped it), so
 * its iterations may run in any order, several in one thread included.
 * Each point declares the thread's scalars, privatized arrays and
 * registers afresh and assigns the firstprivates again (its scratch slice
 * is its own): it starts as a thread of its own would.  What the emitted
 * code cannot express is refused (each condition is checked, and the
 * report names the first that fails, for a kernel the cost rule would
 * coarsen or under -Mcoarsen=N):
 *  - a GPU reduction in the kernel (its threads stay to the end to combine
 *    partial results, a shape the points' returns do not take);
 *  - shared-memory tiles (pass smem: a tile holds one point per thread);
 *  - a jump that leaves the thread body (a CYCLE of a loop on the grid
 *    ends the thread, which would skip its later points);
 *  - a loop on axis y whose step is not a constant.
 *
 * Cost rule.  The loads per point are counted before and after: the
 * distinct elements of read-only device arrays the body reads at every
 * point (not under an IF, outside the thread's loops), in a form whose
 * element is known across points (the subscript along y is `j + c + terms
 * that do not change`, the others do not change from one point to the
 * next: constants, the other grid indices, scalars the region never
 * writes), and in C of arrays that cannot overlap one the kernel writes
 * (restrict, -Msafeptr, local to the region, or the kernel writes no
 * array); every other read counts once per point, shared with nothing.
 * A kernel is a candidate when it is bound by issuing loads rather than by
 * DRAM: it loads at least COARSEN_LOADS_PER_ELEMENT elements per point for
 * each array it moves (reads or writes; one element of each per point is
 * its compulsory traffic).  Measured on the H100: the 7-point laplace (7
 * loads, 2 arrays: 3.5) runs at 91% of the copy kernel's bandwidth, the
 * fused hdiff (14 loads, 3 arrays: 4.7) at 64%.  A candidate is coarsened
 * by the largest factor of 8, 4 and 2 that cuts the loads per point by at
 * least a quarter (hdiff: 14 become 7 with 8 points, 8 with 4 points,
 * 10 with 2; the 7-point laplace, 7 become 5.5 and 6: not coarsened) and
 * for which the loop on y, when its trip count is a constant, runs at least
 * COARSEN_MIN_TRIPS times the factor (fewer would leave lanes idle: at most
 * (C-1)/trips of the points are missing in the last threads).  Measured on
 * the H100 with nvcc 13, 4 points per thread take hdiff's kernel from 32-34
 * to 40 registers, 2 points to 39-40, 8 points 32, no spills.  A kernel with reads
 * inside loops of the thread is not a candidate (nvcc does not share loads
 * across two loops).  Kernels that are no candidates are not mentioned.
 *
 * -Mcoarsen=N (or S2S_COARSEN=N in the translator's environment) coarsens
 * by N every kernel where it is legal, whatever it saves; -Mnocoarsen or
 * S2S_COARSEN=0 turns the pass off.
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

enum {
  /* the cost rule tries 8 points per thread, then 4, then 2: measured on an
   * H100 (device runs 10-11, hdiff 512x512x80), 8 points 0.119 ms (75% of
   * copy), 4 points 0.120-0.122 ms, 2 points 0.139-0.140 ms, 1 point 0.138-0.143 */
  COARSEN_AUTO_MAX = 8,
  COARSEN_MAX = 16,        /* -Mcoarsen=N at most */
  COARSEN_MIN_TRIPS = 4,   /* a constant trip count below C * this: not coarsened */
  COARSEN_LOADS_PER_ELEMENT = 4, /* loads per point per array moved, for the cost rule */
};

/* One read of an array in the thread body. */
typedef struct CsRead {
  IrExpr *ref;
  bool sure;               /* evaluated at every point, outside the thread's loops */
  bool in_loop;            /* inside a loop of the thread */
} CsRead;

/* The reads of one element shape: same array, same subscripts but the
 * constant of the one along y (dy; -1: no subscript follows y, every point
 * reads the same element), at offsets off[]. */
typedef struct CsClass {
  IrSym *sym;
  const IrExpr *first;
  int dy;
  Affine yform;
  int n, cap;
  long *off;
} CsClass;

typedef struct Cs {
  Program *prog;
  RegionPlan *plan;
  KernelPlan *k;
  IrSym *iy;
  long step;
  int nreads, reads_cap;
  CsRead *reads;
  IrSymSet written;        /* arrays the kernel writes */
  bool in_loop_reads;      /* a device array is read inside a loop of the thread */
} Cs;

/* ---- collecting the reads ------------------------------------------------------ */

static void collect_expr(Cs *c, IrExpr *e, bool sure, bool in_loop)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_E_ELEM: {
    CsRead r = { .ref = e, .sure = sure && !in_loop, .in_loop = in_loop };
    IR_APPEND(c->reads, c->nreads, c->reads_cap, r);
    for (int d = 0; d < e->u.elem.n; d++)
      collect_expr(c, e->u.elem.sub[d], sure, in_loop);
    break;
  }
  case IR_E_UNARY: collect_expr(c, e->u.unary.arg, sure, in_loop); break;
  case IR_E_BINARY: {
    IrOp op = e->u.binary.op;
    collect_expr(c, e->u.binary.lhs, sure, in_loop);
    collect_expr(c, e->u.binary.rhs, sure && op != IR_OP_AND && op != IR_OP_OR, in_loop);
    break;
  }
  case IR_E_CALL:
    for (int i = 0; i < e->u.call.n; i++)
      collect_expr(c, e->u.call.args[i], sure, in_loop);
    break;
  case IR_E_COND:
    collect_expr(c, e->u.cond.test, sure, in_loop);
    collect_expr(c, e->u.cond.then, false, in_loop);
    collect_expr(c, e->u.cond.els, false, in_loop);
    break;
  case IR_E_CONVERT: collect_expr(c, e->u.operand, sure, in_loop); break;
  default: break;
  }
}

static void collect_list(Cs *c, IrStmtList *l, bool sure, bool in_loop);

static void collect_stmt(Cs *c, IrStmt *s, bool sure, bool in_loop)
{
  switch (s->kind) {
  case IR_S_ASSIGN: {
    IrExpr *lhs = s->u.assign.lhs;
    if (lhs->kind == IR_E_ELEM) {
      ir_symset_add(&c->written, lhs->u.elem.sym);
      for (int d = 0; d < lhs->u.elem.n; d++)
        collect_expr(c, lhs->u.elem.sub[d], sure, in_loop);
    }
    collect_expr(c, s->u.assign.rhs, sure, in_loop);
    break;
  }
  case IR_S_IF:
    collect_expr(c, s->u.cond.test, sure, in_loop);
    collect_list(c, &s->u.cond.then, false, in_loop);
    collect_list(c, &s->u.cond.els, false, in_loop);
    break;
  case IR_S_DO:
    collect_expr(c, s->u.loop.lo, sure, in_loop);
    collect_expr(c, s->u.loop.hi, sure, in_loop);
    collect_expr(c, s->u.loop.step, sure, in_loop);
    collect_list(c, &s->u.loop.body, false, true);
    break;
  case IR_S_WHILE:
    collect_expr(c, s->u.loop.test, false, true);
    collect_list(c, &s->u.loop.body, false, true);
    break;
  case IR_S_BLOCK:      /* an EXIT of the block may skip the rest of it */
    collect_list(c, &s->u.loop.body, false, in_loop);
    break;
  case IR_S_CALL:       /* a __device__ subroutine: what it writes is not seen here */
    for (int i = 0; i < s->u.call.nargs; i++)
      collect_expr(c, s->u.call.args[i], false, in_loop);
    break;
  default:
    break;
  }
}

static void collect_list(Cs *c, IrStmtList *l, bool sure, bool in_loop)
{
  for (int i = 0; i < l->n; i++)
    collect_stmt(c, l->v[i], sure, in_loop);
}

/* ---- the form of a read ------------------------------------------------------------ */

static bool is_input(const Cs *c, const IrSym *s)
{
  for (int i = 0; i < c->plan->ninputs; i++)
    if (c->plan->inputs[i] == s)
      return true;
  return false;
}

static bool is_other_grid_index(const Cs *c, const IrSym *s)
{
  for (int i = 0; i < c->k->nmapped; i++)
    if (c->k->mapped[i]->u.loop.iv == s)
      return s != c->iy;
  return false;
}

/* Is e the same at every point of the thread: constants, the indices of
 * the other loops on the grid, scalars the region never writes? */
static bool same_at_every_point(const Cs *c, const IrExpr *e)
{
  switch (e->kind) {
  case IR_E_INT: case IR_E_REAL: case IR_E_LOGICAL: return true;
  case IR_E_VAR:
    return !e->u.var->rank && (e->u.var->kind == IR_SYM_PARAM || is_input(c, e->u.var) ||
                               is_other_grid_index(c, e->u.var));
  case IR_E_UNARY: return same_at_every_point(c, e->u.unary.arg);
  case IR_E_BINARY:
    return same_at_every_point(c, e->u.binary.lhs) && same_at_every_point(c, e->u.binary.rhs);
  case IR_E_CONVERT: return same_at_every_point(c, e->u.operand);
  default: return false;
  }
}

/* Is every term of f but iy's the same at every point? */
static bool same_terms_at_every_point(const Cs *c, const Affine *f)
{
  for (int t = 0; t < f->n; t++) {
    const AffTerm *term = &f->t[t];
    if (term->var == c->iy)
      continue;
    if (!is_input(c, term->var) && !is_other_grid_index(c, term->var))
      return false;
    if (term->scale && !is_input(c, term->scale))
      return false;
  }
  return true;
}

/* Read r as an element shape and offset: false when the element it reads
 * at another point is not known (then it counts once per point). */
static bool read_form(const Cs *c, const IrExpr *ref, int *dy, Affine *yform)
{
  *dy = -1;
  for (int d = 0; d < ref->u.elem.n; d++) {
    const IrExpr *sub = ref->u.elem.sub[d];
    if (!ir_expr_mentions(sub, c->iy)) {
      if (!same_at_every_point(c, sub))
        return false;
      continue;
    }
    Affine f;
    long coef;
    if (*dy >= 0 || !aff_build(sub, &f) || !aff_coef(&f, c->iy, &coef) || coef != 1 ||
        !same_terms_at_every_point(c, &f))
      return false;
    *dy = d;
    *yform = f;
  }
  return true;
}

/* May nvcc keep a value of array a loaded at one point for the next,
 * across the stores in between? */
static bool loads_reusable(const Cs *c, const IrSym *a)
{
  if (a->in_equivalence)
    return false;
  if (c->prog->lang != IR_C || xf_c_no_alias(a) || a->region_local)
    return true;
  return c->written.n == 0;
}

/* The arrays whose reads are loads from device memory. */
static bool device_array(const Cs *c, const IrSym *a)
{
  if (!a->rank)
    return false;
  for (int i = 0; i < c->plan->narrays; i++)
    if (c->plan->arrays[i].sym == a)
      return !c->plan->arrays[i].privatized && !c->plan->arrays[i].constant_memory;
  return false;
}

/* ---- counting ---------------------------------------------------------------------- */

/* Loads per point of each array, for factor 1 and factor `points`. */
typedef struct CsCount {
  IrSym *sym;
  long one;                /* distinct loads of one point */
  long many;               /* distinct loads of `points` points together */
} CsCount;

static bool offset_in(const long *v, int n, long x)
{
  for (int i = 0; i < n; i++)
    if (v[i] == x)
      return true;
  return false;
}

static CsCount *count_entry(CsCount **v, int *n, int *cap, IrSym *sym)
{
  for (int i = 0; i < *n; i++)
    if ((*v)[i].sym == sym)
      return &(*v)[i];
  CsCount fresh = { .sym = sym };
  IR_APPEND(*v, *n, *cap, fresh);
  return &(*v)[*n - 1];
}

/* Count the loads of every read-only device array for `points` points. */
static int count_loads(Cs *c, int points, CsCount **out)
{
  int nclasses = 0, classes_cap = 0, nunshared = 0, unshared_cap = 0, ncounts = 0, counts_cap = 0;
  CsClass *classes = NULL;
  const IrExpr **unshared = NULL;
  CsCount *counts = NULL;
  for (int i = 0; i < c->nreads; i++) {
    const CsRead *r = &c->reads[i];
    IrSym *a = r->ref->u.elem.sym;
    if (!device_array(c, a) || ir_symset_has(&c->written, a))
      continue;
    int dy;
    Affine yform;
    CsCount *count = count_entry(&counts, &ncounts, &counts_cap, a);
    if (!r->sure || !loads_reusable(c, a) || !read_form(c, r->ref, &dy, &yform)) {
      bool dup = false;
      for (int u = 0; u < nunshared && !dup; u++)
        dup = ir_expr_equal(unshared[u], r->ref);
      if (!dup) {
        IR_APPEND(unshared, nunshared, unshared_cap, r->ref);
        count->one++;
        count->many += points;
      }
      continue;
    }
    CsClass *cl = NULL;
    for (int j = 0; j < nclasses && !cl; j++) {
      CsClass *x = &classes[j];
      bool same = x->sym == a && x->dy == dy && (dy < 0 || aff_same_terms(&x->yform, &yform));
      for (int d = 0; same && d < r->ref->u.elem.n; d++)
        same = d == dy || ir_expr_equal(r->ref->u.elem.sub[d], x->first->u.elem.sub[d]);
      if (same)
        cl = x;
    }
    if (!cl) {
      CsClass fresh = { .sym = a, .first = r->ref, .dy = dy, .yform = yform };
      IR_APPEND(classes, nclasses, classes_cap, fresh);
      cl = &classes[nclasses - 1];
    }
    long off = dy < 0 ? 0 : yform.c;
    if (!offset_in(cl->off, cl->n, off))
      IR_APPEND(cl->off, cl->n, cl->cap, off);
  }
  for (int j = 0; j < nclasses; j++) {
    CsClass *cl = &classes[j];
    CsCount *count = count_entry(&counts, &ncounts, &counts_cap, cl->sym);
    count->one += cl->n;
    if (cl->dy < 0) {       /* the same element at every point */
      count->many += cl->n;
      continue;
    }
    int nall = 0, all_cap = 0;
    long *all = NULL;
    for (int p = 0; p < points; p++)
      for (int o = 0; o < cl->n; o++) {
        long x = cl->off[o] + p * c->step;
        if (!offset_in(all, nall, x))
          IR_APPEND(all, nall, all_cap, x);
      }
    count->many += nall;
  }
  *out = counts;
  return ncounts;
}

/* The device arrays the kernel reads or writes: each point moves about one
 * element of each to or from DRAM (its compulsory traffic). */
static long moved_arrays(const Cs *c)
{
  IrSymSet seen = { 0 };
  for (int i = 0; i < c->nreads; i++)
    if (device_array(c, c->reads[i].ref->u.elem.sym))
      ir_symset_add(&seen, c->reads[i].ref->u.elem.sym);
  for (int i = 0; i < c->plan->narrays; i++)
    if (ir_symset_has(&c->written, c->plan->arrays[i].sym) &&
        device_array(c, c->plan->arrays[i].sym))
      ir_symset_add(&seen, c->plan->arrays[i].sym);
  return seen.n;
}

/* ---- deciding ---------------------------------------------------------------------- */

/* The factor asked for: 0 the cost rule, 1 off, N > 1 forced. */
static int asked_factor(void)
{
  const char *env = getenv("S2S_COARSEN");
  if (env && *env) {
    char *end;
    long n = strtol(env, &end, 10);
    if (!*end && n >= 0 && n <= COARSEN_MAX)
      return n == 0 ? 1 : (int)n;
  }
  return xf_config.coarsen;
}

/* Why kernel k cannot be coarsened, or NULL. */
static const char *illegal(const Cs *c, const IrStmt *yl)
{
  if (c->k->nreductions)
    return "the kernel combines a reduction";
  if (c->k->ntiles)
    return "its reads come from shared-memory tiles (-Msmem)";
  if (yl->u.loop.step && !ir_eval_const(yl->u.loop.step, &(long){ 0 }))
    return ir_printf("loop '%s' steps by a value known only at run time", ir_sym_user_name(c->iy));
  const IrStmt *j = ir_jump_leaving(c->k->body, -1);
  if (j)
    return ir_printf("%s at line %d ends the thread's work, which would skip its later points",
                     ir_jump_text(j), diag_user_line(j->loc));
  return NULL;
}

/* A constant trip count of loop l, or -1. */
static long constant_trips(const IrStmt *l, long step)
{
  long lo, hi;
  if (!ir_eval_const(l->u.loop.lo, &lo) || !ir_eval_const(l->u.loop.hi, &hi))
    return -1;
  long n = (hi - lo + step) / step;
  return n > 0 ? n : 0;
}

static const char *g_text(double x)
{
  return ir_printf("%g", x);
}

bool xf_pass_coarsen(Program *prog, IrRegion *g, int kernel)
{
  RegionPlan *p = g->analysis;
  KernelPlan *k = &p->kernels[kernel];
  int asked = asked_factor();
  if (asked == 1 || !k->body || !k->nest)
    return true;
  const IrStmt *yl = NULL;
  for (int i = 0; i < k->nmapped; i++)
    if (k->axis[i] == 1)
      yl = k->mapped[i];
  if (!yl)
    return true;          /* no loop on axis y */
  Cs c = { .prog = prog, .plan = p, .k = k, .iy = yl->u.loop.iv, .step = 1 };
  if (yl->u.loop.step && !ir_eval_const(yl->u.loop.step, &c.step))
    c.step = 1;           /* refused below */
  collect_list(&c, k->body, true, false);
  for (int i = 0; i < c.nreads; i++)
    if (c.reads[i].in_loop && device_array(&c, c.reads[i].ref->u.elem.sym))
      c.in_loop_reads = true;
  const char *routine = g->routine->name, *iy = ir_sym_user_name(c.iy);
  int points = asked;
  CsCount *counts = NULL;
  int ncounts = 0;
  if (!asked) {           /* the cost rule: the largest factor that pays */
    long trips = constant_trips(yl, c.step);
    int too_few = 0;
    for (int f = COARSEN_AUTO_MAX; f >= 2 && !points; f /= 2) {
      ncounts = count_loads(&c, f, &counts);
      long one = 0, many = 0;
      for (int i = 0; i < ncounts; i++) {
        one += counts[i].one;
        many += counts[i].many;
      }
      if (c.in_loop_reads || one < COARSEN_LOADS_PER_ELEMENT * moved_arrays(&c) ||
          many >= one * f || 4 * many > 3 * one * f)
        continue;         /* not issue-bound, or saves less than a quarter: nothing said */
      if (trips >= 0 && trips < (long)f * COARSEN_MIN_TRIPS)
        too_few = f;      /* the smallest factor that failed only on it */
      else
        points = f;
    }
    if (!points && too_few)
      report_at(REPORT_NOTE, routine, k->nest->loc, "Kernel %s not coarsened: loop '%s' runs %ld "
                "times, too few for %d points per thread", k->name, iy, trips, too_few);
    if (!points)
      return true;
  } else {
    ncounts = count_loads(&c, points, &counts);
  }
  const char *why = illegal(&c, yl);
  if (why) {
    report_at(REPORT_NOTE, routine, k->nest->loc, "Kernel %s not coarsened: %s", k->name, why);
    return true;
  }
  k->coarsen = points;
  char shared[1024] = "";
  size_t len = 0;
  for (int i = 0; i < ncounts && len < sizeof shared; i++)
    if (counts[i].many < counts[i].one * points)
      len += (size_t)snprintf(shared + len, sizeof shared - len, "%s%ld load%s of '%s' per point "
                              "become %s", len ? ", " : "", counts[i].one,
                              counts[i].one == 1 ? "" : "s", ir_sym_user_name(counts[i].sym),
                              g_text((double)counts[i].many / points));
  char grid[1000];
  xf_grid_text(k, grid, sizeof grid);
  xf_report_kernel_grid(k);
  report_at(REPORT_INFO, routine, k->nest->loc, "Kernel %s computes %d points of '%s' per thread "
            "(thread coarsening%s): %s; grid [%s]", k->name, points, iy,
            asked ? ir_printf(", -Mcoarsen=%d", points) : "",
            len ? shared : "no load is shared", grid);
  return true;
}
