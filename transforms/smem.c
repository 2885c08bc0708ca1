/* smem.c — pass "smem": read-only arrays that a kernel reads around the
 * thread's own (i, j) staged per block in shared memory.
 *
 * A fused stencil (pass "recompute" makes COSMO's hdiff one kernel) reads
 * its input at many horizontal offsets: inp(i±1, k, j), inp(i±2, k, j),
 * inp(i, k, j±2)... 13 distinct elements per thread, each a load through
 * L1/L2 that the neighbouring threads issue again.  The kernel is bound by
 * issuing loads, not by DRAM.  The remedy of every hand-written CUDA
 * stencil (and of Open Earth Compiler, Dawn, GT4Py): the block loads the
 * tile its threads read, the block extent plus the halo of the offsets,
 * into shared memory once, meets a barrier, and the reads come from the
 * tile.  For hdiff with a 32x8 block that is 36 x 12 loads per 256 points
 * instead of 13 per point.
 *
 * An array is staged when (each condition is checked; the report names the
 * first that fails, for an array read at enough offsets to pay):
 *  - the kernel has loops on grid axes x and y (ix, iy), both of step 1, and
 *    combines no reduction (a kernel that reduces keeps its out-of-range
 *    threads in an IF to the end, a shape the tile's code does not take);
 *  - the array lives on the device (not privatized, not constant memory),
 *    the kernel never writes it, and in C it cannot overlap an array the
 *    kernel writes (restrict, -Msafeptr or local to the region), as
 *    kcache asks: the tile is read before any store of the kernel;
 *  - every read in the thread body is A(.., ix + cx, .., iy + cy, ..) with
 *    constant cx, cy, the same dimensions for ix and iy, and the other
 *    subscripts the same expression in every read, made of constants, the
 *    z loop's index and scalars the kernel never assigns: the same value
 *    for every thread of one z slice of the block, so one tile per slice
 *    holds every element the slice reads;
 *  - no read is inside a loop of the thread (the element would change from
 *    one iteration to the next), reads under IFs are fine;
 *  - at least SMEM_MIN_OFFSETS distinct (cx, cy) (an array read at fewer is
 *    not a candidate, and not reported), the halo at most SMEM_MAX_HALO
 *    points wide on each axis, and all tiles of the kernel within
 *    SMEM_MAX_BYTES for the translator's block shape.
 * The tile's load is emitted before the kernel's out-of-range return, so
 * every thread of the block takes its share and reaches the barrier, and
 * it loads only elements of the array's box (the device copy holds the
 * box): the kernel receives the box's bounds (PARAM_BOX_LOWER/UPPER).
 * Elements of the tile outside the box are never read: an in-range thread
 * reads only elements the original reads, which lie in the box.
 *
 * A kernel with a tile gets a 2-D default block, SMEM_BLOCK_X x
 * SMEM_BLOCK_Y (unless the user chose it); S2S_TUNE may change it at run
 * time, and the launcher sizes the dynamic shared memory from the shape
 * (S2S_TILE_BYTES).  Off by default: measured on an H100, the tiled hdiff
 * kernel (32x8 blocks, one level each) took 0.23 ms against 0.14 ms for the
 * untiled one, whose neighbours come from L1 (tests/bench/RESULTS.md); a
 * block that marches down k through its tiles is what would pay.  -Msmem or
 * S2S_SMEM=1 turns the pass on, S2S_SMEM=0 off whatever the options say.
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
  SMEM_MIN_OFFSETS = 5,       /* distinct offsets read per point for a tile to pay */
  SMEM_MAX_HALO = 8,          /* points of halo per axis (xhi - xlo, yhi - ylo) */
  SMEM_MAX_BYTES = 32 * 1024, /* all tiles of a kernel, for the translator's block shape */
  SMEM_BLOCK_X = 32,          /* the default block of a kernel with tiles */
  SMEM_BLOCK_Y = 8,
};

/* One reference to an array in the thread body. */
typedef struct SmRef {
  IrExpr *ref;
  bool write;
  bool in_loop;         /* inside a loop of the thread */
} SmRef;

typedef struct SmArray {
  IrSym *sym;
  int n, cap;
  SmRef *v;
} SmArray;

typedef struct Sm {
  Program *prog;
  RegionPlan *plan;
  KernelPlan *k;
  IrSym *ix, *iy;       /* the loop indices on grid axes x and y */
  IrSymSet assigned;    /* scalars the thread body assigns */
  int narrays, cap;
  SmArray *arrays;
} Sm;

/* ---- collecting the references ---------------------------------------------- */

static void add_ref(Sm *s, IrExpr *ref, bool write, bool in_loop)
{
  SmArray *a = NULL;
  for (int i = 0; i < s->narrays && !a; i++)
    if (s->arrays[i].sym == ref->u.elem.sym)
      a = &s->arrays[i];
  if (!a) {
    SmArray fresh = { .sym = ref->u.elem.sym };
    IR_APPEND(s->arrays, s->narrays, s->cap, fresh);
    a = &s->arrays[s->narrays - 1];
  }
  SmRef r = { .ref = ref, .write = write, .in_loop = in_loop };
  IR_APPEND(a->v, a->n, a->cap, r);
}

static void collect_expr(Sm *s, IrExpr *e, bool in_loop)
{
  if (!e)
    return;
  switch (e->kind) {
  case IR_E_ELEM:
    add_ref(s, e, false, in_loop);
    for (int d = 0; d < e->u.elem.n; d++)
      collect_expr(s, e->u.elem.sub[d], in_loop);
    break;
  case IR_E_UNARY: collect_expr(s, e->u.unary.arg, in_loop); break;
  case IR_E_BINARY:
    collect_expr(s, e->u.binary.lhs, in_loop);
    collect_expr(s, e->u.binary.rhs, in_loop);
    break;
  case IR_E_CALL:
    for (int i = 0; i < e->u.call.n; i++)
      collect_expr(s, e->u.call.args[i], in_loop);
    break;
  case IR_E_COND:
    collect_expr(s, e->u.cond.test, in_loop);
    collect_expr(s, e->u.cond.then, in_loop);
    collect_expr(s, e->u.cond.els, in_loop);
    break;
  case IR_E_CONVERT: collect_expr(s, e->u.operand, in_loop); break;
  default: break;
  }
}

static void collect_list(Sm *s, IrStmtList *l, bool in_loop);

static void collect_stmt(Sm *s, IrStmt *st, bool in_loop)
{
  switch (st->kind) {
  case IR_S_ASSIGN: {
    IrExpr *lhs = st->u.assign.lhs;
    if (lhs->kind == IR_E_ELEM) {
      add_ref(s, lhs, true, in_loop);
      for (int d = 0; d < lhs->u.elem.n; d++)
        collect_expr(s, lhs->u.elem.sub[d], in_loop);
    }
    collect_expr(s, st->u.assign.rhs, in_loop);
    break;
  }
  case IR_S_IF:
    collect_expr(s, st->u.cond.test, in_loop);
    collect_list(s, &st->u.cond.then, in_loop);
    collect_list(s, &st->u.cond.els, in_loop);
    break;
  case IR_S_DO:
    /* the bounds are evaluated once, but at the loop: in_loop for the
     * body only would let a bound vary with nothing; keep it simple and
     * count the bounds as in the loop too */
    collect_expr(s, st->u.loop.lo, true);
    collect_expr(s, st->u.loop.hi, true);
    collect_expr(s, st->u.loop.step, true);
    collect_list(s, &st->u.loop.body, true);
    break;
  case IR_S_WHILE:
    collect_expr(s, st->u.loop.test, true);
    collect_list(s, &st->u.loop.body, true);
    break;
  case IR_S_BLOCK:      /* runs once */
    collect_list(s, &st->u.loop.body, in_loop);
    break;
  default:
    break;
  }
}

static void collect_list(Sm *s, IrStmtList *l, bool in_loop)
{
  for (int i = 0; i < l->n; i++)
    collect_stmt(s, l->v[i], in_loop);
}

/* ---- the form of a read ------------------------------------------------------- */

/* Is e exactly `iv + c` (c a constant, possibly 0)?  Sets *c. */
static bool offset_of(const IrExpr *e, const IrSym *iv, long *c)
{
  Affine f;
  if (!aff_build(e, &f) || f.n != 1 || f.t[0].var != iv || f.t[0].scale || f.t[0].coef != 1)
    return false;
  *c = f.c;
  return true;
}

/* Is e the same for every thread of a z slice of the block: constants, the
 * z loop's index, scalars the thread body never assigns; no array element
 * and no function of the program? */
static bool uniform_expr(const Sm *s, const IrExpr *e)
{
  if (!e)
    return true;
  switch (e->kind) {
  case IR_E_INT: case IR_E_REAL: case IR_E_LOGICAL: return true;
  case IR_E_VAR:
    return e->u.var != s->ix && e->u.var != s->iy && !ir_symset_has(&s->assigned, e->u.var) &&
           !e->u.var->rank;
  case IR_E_UNARY: return uniform_expr(s, e->u.unary.arg);
  case IR_E_BINARY: return uniform_expr(s, e->u.binary.lhs) && uniform_expr(s, e->u.binary.rhs);
  case IR_E_CALL:
    if (e->u.call.fn == IR_FN_USER)
      return false;
    for (int i = 0; i < e->u.call.n; i++)
      if (!uniform_expr(s, e->u.call.args[i]))
        return false;
    return true;
  case IR_E_COND:
    return uniform_expr(s, e->u.cond.test) && uniform_expr(s, e->u.cond.then) &&
           uniform_expr(s, e->u.cond.els);
  case IR_E_CONVERT: return uniform_expr(s, e->u.operand);
  default: return false;
  }
}

/* The dimensions of ref subscripted `ix + cx` and `iy + cy`, with the
 * offsets; false when there is not exactly one of each and the other
 * subscripts do not mention ix and iy. */
static bool tile_form(const Sm *s, const IrExpr *ref, int *dx, int *dy, long *cx, long *cy)
{
  *dx = *dy = -1;
  for (int d = 0; d < ref->u.elem.n; d++) {
    const IrExpr *sub = ref->u.elem.sub[d];
    long c;
    if (*dx < 0 && offset_of(sub, s->ix, &c)) {
      *dx = d;
      *cx = c;
    } else if (*dy < 0 && offset_of(sub, s->iy, &c)) {
      *dy = d;
      *cy = c;
    } else if (ir_expr_mentions(sub, s->ix) || ir_expr_mentions(sub, s->iy)) {
      return false;
    }
  }
  return *dx >= 0 && *dy >= 0;
}

/* ---- deciding ---------------------------------------------------------------- */

static const ArrayPlan *array_plan(const RegionPlan *p, const IrSym *sym)
{
  for (int i = 0; i < p->narrays; i++)
    if (p->arrays[i].sym == sym)
      return &p->arrays[i];
  return NULL;
}

/* Distinct (cx, cy) among the reads of a that have the tile's form (other
 * subscripts not compared): what decides whether a is a candidate. */
static int distinct_offsets(const Sm *s, const SmArray *a)
{
  int n = 0;
  long (*seen)[2] = ir_alloc(sizeof *seen * (size_t)(a->n ? a->n : 1));
  for (int i = 0; i < a->n; i++) {
    int dx, dy;
    long cx, cy;
    if (a->v[i].write || !tile_form(s, a->v[i].ref, &dx, &dy, &cx, &cy))
      continue;
    bool dup = false;
    for (int j = 0; j < n && !dup; j++)
      dup = seen[j][0] == cx && seen[j][1] == cy;
    if (!dup) {
      seen[n][0] = cx;
      seen[n][1] = cy;
      n++;
    }
  }
  return n;
}

/* Does the kernel write an array other than a (C: one that a might overlap)? */
static bool writes_other(const Sm *s, const SmArray *a)
{
  for (int i = 0; i < s->narrays; i++)
    if (s->arrays[i].sym != a->sym)
      for (int j = 0; j < s->arrays[i].n; j++)
        if (s->arrays[i].v[j].write)
          return true;
  return false;
}

static const char *ref_text(const Sm *s, const IrExpr *ref)
{
  return an_ref_text(ref, s->prog->lang);
}

/* Check array a against the file comment's conditions: NULL and *t filled
 * in when it may be staged, else the reason. */
static const char *decide(Sm *s, const SmArray *a, SmemTile *t)
{
  const IrSym *sym = a->sym;
  for (int i = 0; i < a->n; i++)
    if (a->v[i].write)
      return "the kernel writes it";
  if (sym->in_equivalence)
    return "it is in an EQUIVALENCE";
  if (s->prog->lang == IR_C && !xf_c_no_alias(sym) && !sym->region_local && writes_other(s, a))
    return "it may overlap an array the kernel writes (declare it restrict, or give -Msafeptr)";
  *t = (SmemTile){ .sym = a->sym, .ix = s->ix, .iy = s->iy, .dx = -1, .dy = -1 };
  t->reads = ir_alloc(sizeof *t->reads * (size_t)a->n);
  t->cx = ir_alloc(sizeof *t->cx * (size_t)a->n);
  t->cy = ir_alloc(sizeof *t->cy * (size_t)a->n);
  for (int i = 0; i < a->n; i++) {
    IrExpr *ref = a->v[i].ref;
    int dx, dy;
    long cx, cy;
    if (!tile_form(s, ref, &dx, &dy, &cx, &cy))
      return ir_printf("the read %s is not at constant offsets from (%s, %s)", ref_text(s, ref),
                       ir_sym_user_name(s->ix), ir_sym_user_name(s->iy));
    if (a->v[i].in_loop)
      return ir_printf("the read %s is inside a loop of the thread", ref_text(s, ref));
    if (!t->first) {
      t->first = ref;
      t->dx = dx;
      t->dy = dy;
      t->xlo = t->xhi = cx;
      t->ylo = t->yhi = cy;
    }
    bool same = dx == t->dx && dy == t->dy;
    for (int d = 0; same && d < ref->u.elem.n; d++)
      same = d == dx || d == dy || ir_expr_equal(ref->u.elem.sub[d], t->first->u.elem.sub[d]);
    if (!same)
      return ir_printf("the reads %s and %s differ in a subscript other than %s and %s (a tile "
                       "holds one level)", ref_text(s, t->first), ref_text(s, ref), ir_sym_user_name(s->ix),
                       ir_sym_user_name(s->iy));
    for (int d = 0; d < ref->u.elem.n; d++)
      if (d != dx && d != dy && !uniform_expr(s, ref->u.elem.sub[d]))
        return ir_printf("a subscript of %s other than %s and %s is not the same for every "
                         "thread of a block", ref_text(s, ref), ir_sym_user_name(s->ix), ir_sym_user_name(s->iy));
    t->xlo = cx < t->xlo ? cx : t->xlo;
    t->xhi = cx > t->xhi ? cx : t->xhi;
    t->ylo = cy < t->ylo ? cy : t->ylo;
    t->yhi = cy > t->yhi ? cy : t->yhi;
    t->reads[t->nreads] = ref;
    t->cx[t->nreads] = cx;
    t->cy[t->nreads] = cy;
    t->nreads++;
  }
  if (t->xhi - t->xlo > SMEM_MAX_HALO || t->yhi - t->ylo > SMEM_MAX_HALO)
    return ir_printf("its reads span %ld x %ld points around (%s, %s); a tile's halo is at most "
                     "%d wide", t->xhi - t->xlo + 1, t->yhi - t->ylo + 1, ir_sym_user_name(s->ix),
                     ir_sym_user_name(s->iy), SMEM_MAX_HALO);
  return NULL;
}

long xf_tile_bytes(const SmemTile *t, int bx, int by, int bz)
{
  long elem = t->sym->type == IR_T_REAL8 || t->sym->type == IR_T_INT8 ? 8 : 4;
  long b = (bx + t->xhi - t->xlo) * (by + t->yhi - t->ylo) * (long)bz * elem;
  return (b + 15) & ~15L;
}

bool xf_pass_smem(Program *prog, IrRegion *g, int kernel)
{
  const char *env = getenv("S2S_SMEM");
  RegionPlan *p = g->analysis;
  KernelPlan *k = &p->kernels[kernel];
  bool on = env && *env ? strcmp(env, "0") != 0 : xf_config.smem;
  if (!on || !k->body || !k->nest)
    return true;
  Sm s = { .prog = prog, .plan = p, .k = k };
  const IrStmt *xl = NULL, *yl = NULL;
  for (int i = 0; i < k->nmapped; i++) {
    if (k->axis[i] == 0)
      xl = k->mapped[i];
    else if (k->axis[i] == 1)
      yl = k->mapped[i];
  }
  if (!xl || !yl)
    return true;        /* a tile needs two axes: no candidate */
  s.ix = xl->u.loop.iv;
  s.iy = yl->u.loop.iv;
  ir_assigned_scalars(k->body, &s.assigned);
  collect_list(&s, k->body, false);
  const char *kernel_why = NULL;
  long step;
  if (k->nreductions)
    kernel_why = "the kernel combines a reduction";
  else if (xl->u.loop.step && (!ir_eval_const(xl->u.loop.step, &step) || step != 1))
    kernel_why = ir_printf("loop '%s' steps by other than 1", ir_sym_user_name(s.ix));
  else if (yl->u.loop.step && (!ir_eval_const(yl->u.loop.step, &step) || step != 1))
    kernel_why = ir_printf("loop '%s' steps by other than 1", ir_sym_user_name(s.iy));
  const char *routine = g->routine->name;
  long bytes = 0;
  int bx = k->block_fixed ? k->block[0] : SMEM_BLOCK_X;
  int by = k->block_fixed ? k->block[1] : SMEM_BLOCK_Y;
  int bz = k->block_fixed ? k->block[2] : 1;
  for (int i = 0; i < s.narrays; i++) {
    SmArray *a = &s.arrays[i];
    const ArrayPlan *ap = array_plan(p, a->sym);
    if (!ap || ap->privatized || ap->constant_memory || !a->sym->rank)
      continue;
    int noffsets = distinct_offsets(&s, a);
    if (noffsets < SMEM_MIN_OFFSETS)
      continue;
    SmemTile t;
    const char *why = kernel_why ? kernel_why : decide(&s, a, &t);
    if (!why && bytes + xf_tile_bytes(&t, bx, by, bz) > SMEM_MAX_BYTES)
      why = ir_printf("the kernel's tiles would need more than %d KiB of shared memory per block",
                      SMEM_MAX_BYTES / 1024);
    if (why) {
      report_at(REPORT_NOTE, routine, k->nest->loc, "Array '%s' not staged in shared memory: %s",
                ir_sym_user_name(a->sym), why);
      continue;
    }
    t.noffsets = noffsets;
    bytes += xf_tile_bytes(&t, bx, by, bz);
    IR_PUSH(k->tiles, k->ntiles, t);
    report_at(REPORT_INFO, routine, k->nest->loc, "Array '%s' staged in shared memory: tile "
              "(bx%+ld) x (by%+ld) per block%s, %d reads per point from the tile (%d in the "
              "code)", ir_sym_user_name(a->sym), t.xhi - t.xlo, t.yhi - t.ylo, k->nmapped > 2 ? " and level" : "",
              noffsets, t.nreads);
  }
  if (k->ntiles && !k->block_fixed) {
    /* the line of pass "map" gave the 1-D default: say what replaces it */
    const char *was = ir_printf("%dx%dx%d", k->block[0], k->block[1], k->block[2]);
    if (k->block[1] == 1 && k->block[2] == 1)
      was = ir_printf("%d", k->block[0]);
    k->block[0] = SMEM_BLOCK_X;
    k->block[1] = SMEM_BLOCK_Y;
    k->block[2] = 1;
    report_at(REPORT_INFO, routine, k->nest->loc, "Kernel %s runs in blocks of %dx%d (not %s) for "
              "its shared-memory tiles", k->name, SMEM_BLOCK_X, SMEM_BLOCK_Y, was);
  }
  return true;
}
