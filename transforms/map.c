/* map.c — the planning of each region: which kernels, which loops on the
 * grid, which arrays live in the threads.
 *
 * For every region, in order:
 *   1. calls are inlined (inline.c);
 *   2. the accesses are analysed (analysis/access.c): data clauses, boxes,
 *      private scalars, and which work arrays could be privatized;
 *   3. the region's statements are grouped into kernels (split_groups,
 *      distribute): a statement joins the current kernel unless that would
 *      lose loops that can run in parallel (column indices, column.c);
 *      privatization and grouping are settled together (plan_privatized);
 *   4. each group becomes a kernel: a column kernel (column.c: one thread
 *      per column, the other loops in order inside) or, when no loop index
 *      is a column index, the perfectly nested dependence-free outer loops
 *      of a single nest (map_nest), else a refusal naming the dependence.
 * The mapped loop along the stride-1 dimension of most references goes to
 * x (blockIdx.x*blockDim.x + threadIdx.x), the others to y and z.
 *
 * Legality first: a loop runs in parallel only when the analyses prove it,
 * or the user asserts `independent`.  Scalars written in the region are
 * private to each thread and must not be used by the host afterwards; a
 * scalar a thread reads before assigning it starts from the host's value
 * (firstprivate) only where the column conditions make that value the same
 * for every thread.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "affine.h"
#include "access.h"
#include "report.h"
#include "column.h"
#include "inline.h"
#include "present.h"
#include "storage.h"
#include "transforms.h"
#include "visit.h"

/* What the planning functions of one region share; the state itself is
 * the region's plan (plan.h). */
typedef struct MapCtx {
  Program *prog;
  IrRegion *region;
  RegionPlan *plan;
} MapCtx;

static MapCtx map_ctx(Program *p, IrRegion *g)
{
  MapCtx m = { p, g, g->analysis };
  return m;
}

/* ---- the analyses kept in the plan ---------------------------------------- */

/* Which statement of the region body each statement of the region lies in
 * (the body statement itself included). */
typedef struct BodyStmt {
  const IrStmt *s;
  int top;                   /* index in the region body */
  UT_hash_handle hh;
} BodyStmt;

typedef struct Owning {
  BodyStmt **owner;
  int top;                   /* the body statement being walked */
} Owning;

static IrVisitStep own_stmt(IrStmt *s, IrVisit *v)
{
  Owning *o = v->ctx;
  BodyStmt *b = ir_alloc(sizeof *b);
  b->s = s;
  b->top = o->top;
  HASH_ADD_PTR(*o->owner, s, b);
  return IR_VISIT_CONTINUE;
}

/* A CYCLE or EXIT outside every loop (in s, or in IFs of s): dep_collect
 * makes the statements after it conditional, so collecting a run of
 * statements that starts after it differs from a slice of the whole. */
static IrVisitStep stop_at_jump(IrStmt *s, IrVisit *v)
{
  (void)v;
  return s->kind == IR_S_DO ? IR_VISIT_SKIP_CHILDREN
       : s->kind == IR_S_CYCLE || s->kind == IR_S_EXIT ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

/* plan->stmt_first, plan->owner and slices_exact, from the access list
 * that an_region_accesses kept (accesses are in program order, so those of
 * one body statement are contiguous). */
static void index_body_accesses(IrRegion *g, RegionPlan *p)
{
  for (int i = 0; i < g->body.n; i++) {
    Owning o = { &p->owner, i };
    IrVisit v = { .pre = own_stmt, .ctx = &o };
    ir_visit_stmts(&(IrStmtList){ 1, 1, &g->body.v[i] }, &v);
  }
  p->stmt_first = ir_alloc(sizeof *p->stmt_first * (size_t)(g->body.n + 1));
  int next = 0;
  for (int a = 0; a < p->acc.nacc; a++) {
    const IrStmt *s = p->acc.acc[a].stmt;
    BodyStmt *b;
    HASH_FIND_PTR(p->owner, &s, b);
    if (!b)
      S2S_BUG("access at line %d outside the region body", diag_user_line(s->loc));
    while (next <= b->top)
      p->stmt_first[next++] = a;
  }
  while (next <= g->body.n)
    p->stmt_first[next++] = p->acc.nacc;
  IrVisit jumps = { .pre = stop_at_jump };
  p->slices_exact = ir_visit_stmts(&g->body, &jumps);
}

/* The accesses of stmts, as dep_collect gives them: a copy of a slice of
 * the region's list when stmts is a run of the region body's statements,
 * else collected (the statements of a distributed loop). */
static void accesses_of(const MapCtx *m, const IrStmtList *stmts, DepGraph *out)
{
  const RegionPlan *p = m->plan;
  const IrStmtList *body = &m->region->body;
  *out = (DepGraph){ .nvariant = p->nprivates, .variant = p->privates };
  BodyStmt *b = NULL;
  if (p->slices_exact && stmts->n)
    HASH_FIND_PTR(p->owner, &stmts->v[0], b);
  int first = b && body->v[b->top] == stmts->v[0] ? b->top : -1;
  bool run = first >= 0 && first + stmts->n <= body->n;
  for (int i = 1; run && i < stmts->n; i++)
    run = body->v[first + i] == stmts->v[i];
  if (!run) {
    dep_collect((IrStmtList *)stmts, out);
    return;
  }
  int lo = p->stmt_first[first], hi = p->stmt_first[first + stmts->n];
  out->nacc = hi - lo;
  out->acc = xmalloc(sizeof *out->acc * (size_t)(out->nacc ? out->nacc : 1));
  if (out->nacc)
    memcpy(out->acc, p->acc.acc + lo, sizeof *out->acc * (size_t)out->nacc);
}

/* Move g's arrays (xmalloc'd by dep.c) into the IR arena, where the plan
 * that keeps g lives: they die with it, and dep_free must not see g. */
static void keep_in_arena(DepGraph *g)
{
  Access *acc = ir_alloc(sizeof *acc * (size_t)(g->nacc ? g->nacc : 1));
  Dep *deps = ir_alloc(sizeof *deps * (size_t)(g->ndeps ? g->ndeps : 1));
  if (g->nacc)
    memcpy(acc, g->acc, sizeof *acc * (size_t)g->nacc);
  if (g->ndeps)
    memcpy(deps, g->deps, sizeof *deps * (size_t)g->ndeps);
  free(g->acc);
  free(g->deps);
  g->acc = acc;
  g->deps = deps;
}

/* The dependence graph of kernel k: its accesses, the pairs tested on
 * first need. */
static const DepGraph *kernel_deps(KernelPlan *k)
{
  if (!k->deps_tested) {
    dep_test(&k->acc);       /* reads acc[] (in the arena), allocates deps[] */
    Dep *deps = ir_alloc(sizeof *deps * (size_t)(k->acc.ndeps ? k->acc.ndeps : 1));
    if (k->acc.ndeps)
      memcpy(deps, k->acc.deps, sizeof *deps * (size_t)k->acc.ndeps);
    free(k->acc.deps);
    k->acc.deps = deps;
  }
  k->deps_tested = true;
  return &k->acc;
}

static const char *routine_of(const MapCtx *m)
{
  return m->region->routine->name;
}

static Loc user_loc(const MapCtx *m, int line)
{
  return (Loc){ m->prog->file, line, 0 };
}


/* ---- scalars: reductions ----------------------------------------------------- */

/* What plan_reductions finds about one scalar, statement by statement of
 * the region body (`top`: the index of the body statement being walked). */
typedef struct ReductionScan {
  const MapCtx *m;
  ReductionPlan *r;
  int top;
  int first_update_top, last_update_top;   /* -1: no update yet */
  int ninits, init_top;
  const IrStmt *other;       /* an assignment that is no update and no initial value */
  const IrStmt *refused;     /* an update with an operator not combined on the GPU */
  const IrStmt *mixed;       /* an update with another operator than the first */
  const IrStmt *stray;       /* an update outside every loop */
  IrExpr *early_read;        /* a read before the last update, or between init and updates */
  IrExpr *late_read;         /* the first read after the last update */
} ReductionScan;

static void push_update(ReductionScan *q, IrStmt *t, ReduceOp op, const IrVisit *vis)
{
  ReductionPlan *r = q->r;
  if (op == REDUCE_PRODUCT || op == REDUCE_LOGICAL) {
    if (!q->refused)
      q->refused = t;
    r->op = r->op ? r->op : op;
    return;
  }
  if (r->op && r->op != op && !q->mixed)
    q->mixed = t;
  r->op = r->op ? r->op : op;
  IR_PUSH(r->updates, r->nupdates, t);
  if (q->first_update_top < 0)
    q->first_update_top = q->top;
  q->last_update_top = q->top;
  if (!vis->nloops && !q->stray)
    q->stray = t;
}

static IrVisitStep reduction_assign_pre(IrStmt *t, IrVisit *vis)
{
  ReductionScan *q = vis->ctx;
  const IrSym *s = q->r->sym;
  ReduceOp op = xf_reduction_update(t, s);
  if (op != REDUCE_NONE) {
    push_update(q, t, op, vis);
    return IR_VISIT_SKIP_CHILDREN;
  }
  if (t->kind == IR_S_DO && t->u.loop.iv == s && !q->other)
    q->other = t;
  if (t->kind != IR_S_ASSIGN || t->u.assign.lhs->kind != IR_E_VAR || t->u.assign.lhs->u.var != s)
    return IR_VISIT_CONTINUE;
  bool top_level = !vis->nloops && !vis->under_if && !vis->under_sequential &&
                   q->m->region->body.v[q->top] == t;
  if (top_level && !ir_expr_mentions(t->u.assign.rhs, s) && q->first_update_top < 0) {
    q->ninits++;
    q->init_top = q->top;
    q->r->init = t;
  } else if (!q->other)
    q->other = t;
  return IR_VISIT_CONTINUE;
}

static void note_read(IrExpr *e, IrStmt *in, void *ctx)
{
  ReductionScan *q = ctx;
  (void)in;
  if (e->kind != IR_E_VAR || e->u.var != q->r->sym)
    return;
  bool early = q->top <= q->last_update_top;
  if (early && !q->early_read)
    q->early_read = e;
  else if (!early && !q->late_read)
    q->late_read = e;
}

static IrVisitStep reduction_read_pre(IrStmt *t, IrVisit *vis)
{
  ReductionScan *q = vis->ctx;
  for (int i = 0; i < q->r->nupdates; i++)
    if (q->r->updates[i] == t)
      return IR_VISIT_SKIP_CHILDREN;
  if (t->kind == IR_S_ASSIGN && t->u.assign.lhs->kind == IR_E_VAR)
    ir_walk_expr(t->u.assign.rhs, t, note_read, q);   /* the left side is no read */
  else
    ir_walk_stmt_exprs(t, note_read, q);
  return IR_VISIT_CONTINUE;
}

/* Can the launcher compute e, the initial value: constants and scalars the
 * region only reads? */
typedef struct HostValue { const RegionPlan *p; bool ok; } HostValue;

static void host_value_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  HostValue *h = ctx;
  (void)in;
  if (e->kind == IR_E_ELEM || e->kind == IR_E_SECTION || (e->kind == IR_E_CALL && e->u.call.fn == IR_FN_USER))
    h->ok = false;
  if (e->kind != IR_E_VAR || e->u.var->kind == IR_SYM_PARAM)
    return;
  bool input = false;
  for (int i = 0; i < h->p->ninputs; i++)
    input |= h->p->inputs[i] == e->u.var;
  h->ok &= input;
}

static bool host_value(const RegionPlan *p, IrExpr *e)
{
  HostValue h = { p, true };
  ir_walk_expr(e, NULL, host_value_visit, &h);
  return h.ok;
}

/* The first reason wins; `why` names the line with a %d. */
static void refuse_reduction(ReductionPlan *r, Loc at, const char *why)
{
  if (r->why_not)
    return;
  r->why_not = ir_printf(why, diag_user_line(at));
  r->why_at = at;
}

/* The verdict on scalar s (plan.h: ReductionPlan); false when no statement
 * updates it like a reduction. */
static bool plan_reduction(const MapCtx *m, IrSym *s, ReductionPlan *r)
{
  *r = (ReductionPlan){ .sym = s, .kernel = -1 };
  ReductionScan q = { m, r, 0, -1, -1, 0, -1, NULL, NULL, NULL, NULL, NULL, NULL };
  IrStmtList *body = &m->region->body;
  for (q.top = 0; q.top < body->n; q.top++) {
    IrVisit v = { .pre = reduction_assign_pre, .ctx = &q };
    ir_visit_stmts(&(IrStmtList){ 1, 1, &body->v[q.top] }, &v);
  }
  if (!r->nupdates && !q.refused)
    return false;
  for (q.top = 0; q.top < body->n; q.top++) {
    IrVisit v = { .pre = reduction_read_pre, .ctx = &q };
    ir_visit_stmts(&(IrStmtList){ 1, 1, &body->v[q.top] }, &v);
  }
  IrType t = s->type;
  const IrStmt *first = r->nupdates ? r->updates[0] : q.refused;
  if (q.refused)
    refuse_reduction(r, q.refused->loc, r->op == REDUCE_PRODUCT
                     ? "only +, max and min are combined on the GPU, not products (line %d)"
                     : "logical reductions are not implemented (line %d)");
  if (q.mixed)
    refuse_reduction(r, q.mixed->loc, ir_printf("it is also updated with %s at line %%d, and one "
                     "reduction has one operator", xf_reduce_op_text(xf_reduction_update(q.mixed, s))));
  bool restarts = q.other && q.other->kind == IR_S_ASSIGN && !ir_expr_mentions(q.other->u.assign.rhs, s);
  if (restarts)
    refuse_reduction(r, q.other->loc, "it is set again at line %d inside the loops: a value that "
                     "restarts is no one reduction across columns (it is kept per thread when each "
                     "column sets it before its updates)");
  else if (q.other)
    refuse_reduction(r, q.other->loc, "it is also assigned at line %d, otherwise than by an update "
                     "(one initial value is allowed, at the top of the region before the loops)");
  if (q.ninits > 1)
    refuse_reduction(r, r->init->loc, "it is given an initial value twice (line %d)");
  if (r->init && !host_value(m->plan, r->init->u.assign.rhs))
    refuse_reduction(r, r->init->loc, "its initial value at line %d is computed from values of "
                     "the region (the launcher starts the reduction from it)");
  if (q.stray)
    refuse_reduction(r, q.stray->loc, "its update at line %d is outside every loop, so every thread "
                     "would make it");
  if (q.early_read)
    refuse_reduction(r, q.early_read->loc, "its partial value is read at line %d, before the reduction "
                     "is complete, and a GPU reduction only gives the final value (to keep a "
                     "running value per column, assign it at the start of each column)");
  if (t != IR_T_INT && t != IR_T_INT8 && t != IR_T_REAL4 && t != IR_T_REAL8)
    refuse_reduction(r, first->loc, ir_printf("reductions of type %s are not implemented (line %%d)", ir_type_name(t)));
  if (s->inlined_local || s->region_local)
    refuse_reduction(r, first->loc, "it is a variable of the "
                     "region or of an inlined routine, with no host variable for the result (line %d)");
  r->gpu = !r->why_not;
  r->read_after = q.late_read != NULL;
  r->first_read_line = q.late_read ? diag_user_line(q.late_read->loc) : 0;
  if (!r->gpu)
    r->init = NULL;
  return true;
}

/* The scalars of the region updated like reductions.  The initial value of
 * a GPU reduction leaves the region body: the launcher starts the device
 * accumulator from it. */
static void plan_reductions(MapCtx *m)
{
  RegionPlan *p = m->plan;
  for (int i = 0; i < p->nprivates; i++) {
    IrSym *s = p->privates[i];
    ReductionPlan r;
    if (s->rank || s->is_module || !plan_reduction(m, s, &r))
      continue;
    IR_PUSH(p->reductions, p->nreductions, r);
  }
  IrStmtList *body = &m->region->body;
  for (int i = 0; i < p->nreductions; i++) {
    const IrStmt *init = p->reductions[i].init;
    int at = 0;
    while (init && at < body->n && body->v[at] != init)
      at++;
    if (!init || at == body->n)
      continue;
    memmove(&body->v[at], &body->v[at + 1], sizeof *body->v * (size_t)(body->n - at - 1));
    body->n--;
  }
}

static bool is_gpu_reduction(const MapCtx *m, const IrSym *s)
{
  const ReductionPlan *r = xf_reduction_of(m->plan, s);
  return r && r->gpu;
}

/* ---- scalars: privatizable? ----------------------------------------------- */

static bool check_private_scalars(MapCtx *m)
{
  RegionPlan *p = m->plan;
  IrRegion *g = m->region;
  bool ok = true;
  for (int i = 0; i < p->nprivates; i++) {
    IrSym *s = p->privates[i];
    /* Fortran module variables: privatized or refused by the accesses pass
     * (access.c, plan_module_data) */
    if (s->region_local || (s->is_module && m->prog->lang == IR_FORTRAN) || is_gpu_reduction(m, s))
      continue;                 /* a GPU reduction's result goes back to the host */
    const char *what = s->is_dummy ? "a dummy argument" : s->is_module ? "a module variable" : NULL;
    int line = what ? 0 : an_host_use(g->routine, s->name, g->last_line + 1,
                                        g->routine->last_line, true);
    if (!what && !line)
      continue;
    char where[64] = "";
    if (line)
      snprintf(where, sizeof where, "used after the region at line %d", line);
    const ReductionPlan *r = xf_reduction_of(p, s);
    const char *red = r ? ir_printf("; it is updated like a %s reduction, but %s",
                                    xf_reduce_op_text(r->op), r->why_not) : "";
    diag_at(DIAG_ERROR, s->loc, (int)strlen(ir_sym_user_name(s)), "scalar '%s' is assigned inside the region "
            "at line %d but is %s: its value after the region would be lost (each GPU thread has "
            "its own copy)%s", ir_sym_user_name(s), g->first_line, what ? what : where, red);
    ok = false;
  }
  return ok;
}

/* ---- mapping --------------------------------------------------------------- */

static bool is_private_array(const MapCtx *m, const IrSym *a)
{
  for (int i = 0; i < m->plan->nprivate_arrays; i++)
    if (m->plan->private_arrays[i] == a)
      return true;
  return false;
}

/* Why loop `loop` cannot be mapped, or NULL.  Arrays each thread has its
 * own copy of do not count. */
static const Dep *blocking_dep(const MapCtx *m, const DepGraph *dg, const IrStmt *loop)
{
  for (int i = 0; i < dg->ndeps; i++)
    if (dep_crosses(dg, &dg->deps[i], loop) &&
        !is_private_array(m, dg->acc[dg->deps[i].src].ref->u.elem.sym))
      return &dg->deps[i];
  return NULL;
}

/* Count references whose fastest subscript moves with `iv` at unit stride.
 * With a plan, arrays it keeps in the threads do not count: their copies
 * are registers or per-thread slices, not what coalescing is about. */
static int stride1_refs(const DepGraph *dg, const IrSym *iv, const RegionPlan *plan)
{
  int n = 0;
  for (int i = 0; i < dg->nacc; i++) {
    Affine f;
    const IrExpr *ref = dg->acc[i].ref;
    bool in_threads = false;
    for (int a = 0; plan && a < plan->nprivate_arrays; a++)
      in_threads |= plan->private_arrays[a] == ref->u.elem.sym;
    if (!in_threads && ref->u.elem.n && aff_build(ref->u.elem.sub[0], &f)) {
      const AffTerm *t = aff_term(&f, iv);
      n += t && !t->scale && (t->coef == 1 || t->coef == -1);
    }
  }
  return n;
}

static void trip_text(const IrStmt *loop, int block, char *buf, size_t size)
{
  long step = 1;
  if (loop->u.loop.step)
    ir_eval_const(loop->u.loop.step, &step);
  char n[256];
  if (step > 0)
    an_extent_text(loop->u.loop.lo, loop->u.loop.hi, n, sizeof n);
  else
    an_extent_text(loop->u.loop.hi, loop->u.loop.lo, n, sizeof n);
  /* one name (a struct member `s->nx` is one too) needs no parentheses */
  char name[256];
  size_t len = 0;
  for (const char *c = n; *c && len + 1 < sizeof name; c++)
    if (!(c[0] == '-' && c[1] == '>') && !(c[0] == '>' && c > n && c[-1] == '-') && *c != '.')
      name[len++] = *c;
  name[len] = '\0';
  bool simple =
      strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == len;
  if (block > 1)
    snprintf(buf, size, simple ? "%s/%d" : "(%s)/%d", n, block);
  else
    snprintf(buf, size, "%s", n);
}

static void assign_axes(const RegionPlan *p, KernelPlan *k, const DepGraph *dg)
{
  int best = k->nmapped - 1, best_n = -1;
  for (int i = k->nmapped - 1; i >= 0; i--) {
    int n = stride1_refs(dg, k->mapped[i]->u.loop.iv, p);
    if (n > best_n) {
      best = i;
      best_n = n;
    }
  }
  int next = 1;
  for (int i = k->nmapped - 1; i >= 0; i--)
    k->axis[i] = i == best ? 0 : next++;
  for (int a = 0; a < 3; a++)
    k->block[a] = 1;
  for (int i = 0; i < k->nmapped; i++) {
    Directive *adv = k->mapped[i]->u.loop.advice;
    k->block[k->axis[i]] = adv && adv->vector ? adv->vector : (k->axis[i] == 0 ? 128 : 1);
    k->block_fixed |= adv && adv->vector;
  }
}

void xf_grid_text(const KernelPlan *k, char *text, size_t size)
{
  char grid[3][300] = { "1", "1", "1" };
  int naxes = 0;
  for (int i = 0; i < k->nmapped; i++) {
    int a = k->axis[i];
    /* pass "coarsen": a thread computes k->coarsen points along y */
    trip_text(k->mapped[i], k->block[a] * (a == 1 && k->coarsen > 1 ? k->coarsen : 1), grid[a],
              sizeof grid[a]);
    naxes = a + 1 > naxes ? a + 1 : naxes;
  }
  snprintf(text, size, "%s%s%s%s%s", grid[0], naxes > 1 ? " x " : "", naxes > 1 ? grid[1] : "",
           naxes > 2 ? " x " : "", naxes > 2 ? grid[2] : "");
}

/* "NAME grid [GRID] block [BLOCK]": the launch as the launcher makes it */
static char *kernel_launch_text(const KernelPlan *k)
{
  char text[1000];
  xf_grid_text(k, text, sizeof text);
  char block[64];
  snprintf(block, sizeof block, "%d%s", k->block[0], "");
  if (k->block[1] > 1 || k->block[2] > 1)
    snprintf(block, sizeof block, "%dx%dx%d", k->block[0], k->block[1], k->block[2]);
  return ir_printf("%s grid [%s] block [%s]", k->name, text, block);
}

void xf_report_kernel_grid(const KernelPlan *k)
{
  report_set_text(k->report_line, ir_printf("Accelerator kernel generated: %s",
                                            kernel_launch_text(k)));
}

static void report_kernel(MapCtx *m, KernelPlan *k)
{
  k->report_line = report_count();
  report_add(REPORT_INFO, routine_of(m), user_loc(m, m->region->first_line),
             "Accelerator kernel generated: %s", kernel_launch_text(k));
  static const char *const axis_names[] = { "blockIdx.x threadIdx.x", "blockIdx.y", "blockIdx.z" };
  /* the schedule in the user's own spelling: `!$acc do parallel,
   * vector(16)` as PGI printed it, `!$acc loop gang, vector(128)` as NVHPC does */
  DirOrigin origin = m->region->dir->origin;
  const char *sentinel = dir_sentinel(m->region->dir, m->prog->lang == IR_FORTRAN ? DIR_FORTRAN
                                                                                  : DIR_C);
  const char *construct = origin == DIR_FROM_OPENACC ? "loop gang" : "do parallel";
  for (int i = 0; i < k->nmapped; i++) {
    int a = k->axis[i];
    char vec[32] = "";
    if (k->block[a] > 1)
      snprintf(vec, sizeof vec, ", vector(%d)", k->block[a]);
    report_at(REPORT_INFO, routine_of(m), k->mapped[i]->loc,
               "%s %s%s %s %s", sentinel, construct, vec, m->prog->lang == IR_FORTRAN ? "!" : "//",
               axis_names[a]);
  }
}

static ColumnCtx column_ctx(const MapCtx *m);

/* What the user can do about dependence d of loop `loop`: assert
 * `independent` when that can be true; not when every iteration stores
 * the same elements of an array that cannot be kept per thread (no
 * assertion makes that legal, and advice must lead to a correct kernel). */
static const char *refusal_advice(const MapCtx *m, const IrStmt *loop, const DepGraph *dg, const Dep *d)
{
  const IrSym *arr = dg->acc[d->src].ref->u.elem.sym;
  for (int i = 0; i < dg->nacc; i++) {
    const Access *a = &dg->acc[i];
    if (a->ref->u.elem.sym != arr)
      continue;
    DepGraph one = { .nacc = 1, .acc = (Access *)a };
    const Access *w = xf_shared_write(&one, loop->u.loop.iv, m->plan->private_arrays, m->plan->nprivate_arrays);
    if (w) {
      ColumnCtx cx = column_ctx(m);
      return ir_printf("; 'independent' would not help: %s",
                       xf_shared_write_text(&cx, loop->u.loop.iv, w));
    }
  }
  if (m->region->dir->origin != DIR_FROM_STENCIL)
    return ir_printf(". If the iterations are in fact independent, put '%s do independent' "
                     "before the loop: an '!$acc' independent is checked like any other clause, "
                     "not taken on trust", m->prog->lang == IR_FORTRAN ? "!$stencil"
                                                                        : "#pragma stencil");
  return ir_printf(". If the iterations are in fact independent, put '%s do independent' before "
                   "the loop", m->prog->lang == IR_FORTRAN ? "!$stencil" : "#pragma stencil");
}

static void refuse_loop(MapCtx *m, const IrStmt *loop, const DepGraph *dg, const Dep *d)
{
  char why[300];
  dep_describe(dg, d, why, sizeof why);
  /* a flat C array left flat: its subscripts say why the distance is unknown */
  const IrSym *arr = dg->acc[d->src].ref->u.elem.sym;
  const char *flat = arr->delinearize_why ? ir_printf(" ('%s' is indexed flat and was not "
                                                      "delinearized: %s)", ir_sym_user_name(arr),
                                                      arr->delinearize_why) : "";
  diag_at(DIAG_ERROR, loop->loc, 1, "loop '%s' cannot run in parallel: loop carried dependence of "
          "%s between lines %d and %d%s, and no other loop of the nest can be spread over the GPU "
          "instead%s",
          ir_sym_user_name(loop->u.loop.iv), why, diag_user_line(dg->acc[d->src].stmt->loc),
          diag_user_line(dg->acc[d->dst].stmt->loc), flat, refusal_advice(m, loop, dg, d));
}

/* The scalars of the private(list) clauses of `adv`, checked: unknown
 * names and arrays (array privatization is not implemented) are errors. */
static bool private_list(MapCtx *m, const Directive *adv, IrSymSet *defs)
{
  for (int c = 0; adv && c < adv->nclauses; c++) {
    const DirClause *cl = &adv->clauses[c];
    for (int it = 0; cl->kind == DIR_PRIVATE && it < cl->nitems; it++) {
      const DirItem *item = &cl->items[it];
      /* resolved by the front end; a `do` of an inlined routine names the caller's */
      IrSym *s = adv->scope == m->region->routine ? item->sym
                                                  : ir_lookup(m->region->routine, item->name);
      if (!s) {
        diag_at(DIAG_ERROR, item->loc, (int)strlen(item->name), "'%s' in private(...) is not a "
                "variable of routine '%s'", item->name, routine_of(m));
        return false;
      }
      if (s->rank)
        continue;   /* an array: the accesses pass keeps it per thread (an_user_private) */
      /* `!$acc` private lists are advice the analysis checks: not a waiver */
      if (defs && adv->origin == DIR_FROM_STENCIL)
        ir_symset_add(defs, s);
    }
  }
  return true;
}

/* private(list) on a mapped loop: the user's word that each iteration
 * assigns these scalars before using them (their value at the start of an
 * iteration is undefined, as in OpenACC), so they count as assigned. */
static void user_privates(MapCtx *m, const KernelPlan *k, IrSymSet *defs)
{
  for (int i = 0; i < k->nmapped; i++)
    private_list(m, k->mapped[i]->u.loop.advice, defs);
}

/* Does `loop` run spread over the grid (itself, or fused into a column)? */
static bool is_mapped_loop(const KernelPlan *k, const IrStmt *loop)
{
  for (int i = 0; i < k->nmapped; i++)
    if (k->mapped[i] == loop || k->mapped[i]->u.loop.iv == loop->u.loop.iv)
      return true;
  return false;
}

/* Why an asserted loop over v is not a column index of `group`, when the
 * reason is a store to the same elements in every iteration (the one thing
 * `independent` cannot vouch for), else "". */
static const char *independent_refused(const MapCtx *m, const KernelPlan *k, const IrSym *v)
{
  const Access *w = xf_shared_write(&k->acc, v, m->plan->private_arrays, m->plan->nprivate_arrays);
  ColumnCtx cx = column_ctx(m);
  return w ? ir_printf(": %s", xf_shared_write_text(&cx, v, w)) : "";
}

/* Advice that asked for parallelism on a loop of kernel k that stays
 * sequential: say so. */
typedef struct UnusedAdvice {
  MapCtx *m;
  const KernelPlan *k;
} UnusedAdvice;

static IrVisitStep advice_unused(IrStmt *s, IrVisit *v)
{
  UnusedAdvice *u = v->ctx;
  const Directive *adv = s->kind == IR_S_DO ? s->u.loop.advice : NULL;
  if (adv && adv->origin != DIR_FROM_STENCIL)
    return IR_VISIT_CONTINUE;   /* report_acc_loop speaks of the user's clauses */
  if (adv && (adv->parallel || adv->vector || adv->independent) && !is_mapped_loop(u->k, s)) {
    const char *why = adv->independent ? independent_refused(u->m, u->k, s->u.loop.iv) : "";
    report_at(REPORT_WARNING, routine_of(u->m), s->loc, "'%s' on loop '%s' is not followed: the "
              "loop runs sequentially in each thread%s", adv->parallel ? "parallel"
              : adv->vector ? "vector" : "independent", ir_sym_user_name(s->u.loop.iv), *why ? why :
              " (only the outermost perfectly nested parallel loops, at most three, are mapped "
              "to the grid)");
  }
  return IR_VISIT_CONTINUE;
}

/* What became of the loop clauses of an `!$acc do` / `!$acc loop`: the
 * report line of each (those fixed when read were reported then).  A
 * request for parallelism the analysis disproves is a warning naming the
 * dependence; the loop then runs in order in each thread. */
static const char *loop_not_mapped_because(UnusedAdvice *u, const IrStmt *s)
{
  const DepGraph *dg = kernel_deps((KernelPlan *)u->k);
  const Dep *d = blocking_dep(u->m, dg, s);
  if (d) {
    char why[300];
    dep_describe(dg, d, why, sizeof why);
    return ir_printf("loop carried dependence of %s between lines %d and %d", why,
                     diag_user_line(dg->acc[d->src].stmt->loc),
                     diag_user_line(dg->acc[d->dst].stmt->loc));
  }
  return "only the outermost perfectly nested parallel loops, at most three, are mapped to "
         "the grid, and not inside a loop marked 'kernel' or 'seq'";
}

static void report_acc_clause(UnusedAdvice *u, const IrStmt *s, const Directive *adv,
                              const DirAccClause *c)
{
  const char *iv = s->u.loop.iv->name, *r = routine_of(u->m);
  bool mapped = is_mapped_loop(u->k, s);
  int block = 0;      /* threads along the loop's index in a block, where mapped */
  for (int i = 0; i < u->k->nmapped; i++)
    if (u->k->mapped[i]->u.loop.iv == s->u.loop.iv)
      block = u->k->block[u->k->axis[i]];
  if (mapped && c->role == ACC_ROLE_VECTOR_LEN && block != adv->vector) {
    report_at(REPORT_WARNING, r, c->loc, "%s on '%s' superseded: loop '%s' runs across the grid "
              "fused with the other loops over '%s', %d threads along it per block (the vector "
              "length of the loop over '%s' that leads the fusion)", c->text, adv->spelled, iv, iv,
              block, iv);
    return;
  }
  switch (c->role) {
  case ACC_ROLE_PARALLEL:
  case ACC_ROLE_VECTOR_LEN:
  case ACC_ROLE_INDEPENDENT:
    if (mapped)
      report_at(REPORT_INFO, r, c->loc, "%s on '%s' honoured: loop '%s' runs across the grid%s",
                c->text, adv->spelled, iv, c->role == ACC_ROLE_INDEPENDENT ? " (the analysis "
                "proves its iterations independent)" : c->role == ACC_ROLE_VECTOR_LEN
                ? ir_printf(", %d threads along it per block", adv->vector) : "");
    else
      report_at(REPORT_WARNING, r, c->loc, "%s on '%s' is not followed: loop '%s' runs "
                "sequentially in each thread: %s", c->text, adv->spelled, iv,
                loop_not_mapped_because(u, s));
    return;
  case ACC_ROLE_SEQ:
  case ACC_ROLE_KERNEL:
    report_at(REPORT_INFO, r, c->loc, "%s on '%s' honoured: loop '%s' %s", c->text, adv->spelled,
              iv, c->role == ACC_ROLE_SEQ ? "runs sequentially in each thread"
                                          : "is the last loop mapped; its body runs in one thread");
    return;
  case ACC_ROLE_PRIVATE: {
    const DirClause *cl = &adv->clauses[c->clause];
    for (int i = 0; i < cl->nitems; i++) {
      const IrSym *sym = cl->items[i].sym;
      const ArrayPlan *a = NULL;
      for (int k = 0; sym && sym->rank && k < u->m->plan->narrays; k++)
        if (u->m->plan->arrays[k].sym == sym)
          a = &u->m->plan->arrays[k];
      if (sym && !sym->rank)
        report_at(REPORT_INFO, r, cl->items[i].loc, "private(%s) on '%s' honoured: each thread "
                  "has its own '%s' (the analysis proves every iteration assigns it before "
                  "using it)", ir_sym_user_name(sym), adv->spelled, ir_sym_user_name(sym));
      else if (a && a->privatized)
        report_at(REPORT_INFO, r, cl->items[i].loc, "private(%s) on '%s' honoured: one copy per "
                  "thread (every element a column reads, it wrote before)", ir_sym_user_name(sym),
                  adv->spelled);
      /* else: private_advice_pre warns with the reason */
    }
    return;
  }
  default:
    return;
  }
}

static IrVisitStep acc_advice_pre(IrStmt *s, IrVisit *v)
{
  UnusedAdvice *u = v->ctx;
  const Directive *adv = s->kind == IR_S_DO ? s->u.loop.advice : NULL;
  for (int a = 0; adv && adv->origin != DIR_FROM_STENCIL && a < adv->nacc; a++)
    if (adv->acc[a].fate == ACC_DECIDED_LATER)
      report_acc_clause(u, s, adv, &adv->acc[a]);
  return IR_VISIT_CONTINUE;
}

static void check_unused_advice(MapCtx *m, const KernelPlan *k)
{
  UnusedAdvice u = { m, k };
  IrVisit v = { .pre = advice_unused, .ctx = &u };
  ir_visit_stmts((IrStmtList *)&k->stmts, &v);
  IrVisit acc = { .pre = acc_advice_pre, .ctx = &u };
  ir_visit_stmts((IrStmtList *)&k->stmts, &acc);
}

/* What became of the data clauses of an `!$acc` region: honoured (the
 * 'Generating' line follows them), or superseded where the array is kept
 * per thread instead (a `local` array also named private). */
static void report_acc_region(MapCtx *m)
{
  const Directive *d = m->region->dir;
  for (int c = 0; d->origin != DIR_FROM_STENCIL && c < d->nacc; c++) {
    const DirAccClause *ac = &d->acc[c];
    if (ac->role != ACC_ROLE_DATA)
      continue;
    const DirClause *cl = &d->clauses[ac->clause];
    bool all_moved = true;
    for (int i = 0; i < cl->nitems; i++) {
      const ArrayPlan *a = NULL;
      for (int k = 0; cl->items[i].sym && k < m->plan->narrays; k++)
        if (m->plan->arrays[k].sym == cl->items[i].sym)
          a = &m->plan->arrays[k];
      if (a && a->privatized) {
        all_moved = false;
        report_at(REPORT_INFO, routine_of(m), cl->items[i].loc, "%s on '%s' superseded for "
                  "'%s' by private(%s): one copy per thread, nothing allocated or moved",
                  ac->text, d->spelled, cl->items[i].name, cl->items[i].name);
      }
    }
    for (int i = 0; i < cl->nitems; i++) {
      for (int k = 0; cl->items[i].sym && k < m->plan->narrays; k++)
        if (m->plan->arrays[k].sym == cl->items[i].sym && m->plan->arrays[k].clause_superseded) {
          all_moved = false;
          report_at(REPORT_WARNING, routine_of(m), cl->items[i].loc, "%s on '%s' superseded for "
                    "'%s': %s", ac->text, d->spelled, cl->items[i].name,
                    m->plan->arrays[k].clause_superseded);
        }
    }
    if (all_moved)
      report_at(REPORT_INFO, routine_of(m), ac->loc, "%s on '%s' honoured", ac->text, d->spelled);
  }
}

static bool map_nest(MapCtx *m, IrStmt *nest, KernelPlan *k)
{
  RegionPlan *p = m->plan;
  const DepGraph *dg = kernel_deps(k);
  k->nest = nest;
  IrStmt *loop = nest;
  bool ok = true;
  while (loop && k->nmapped < 3) {
    Directive *adv = loop->u.loop.advice;
    if (!private_list(m, adv, NULL)) {
      ok = false;
      break;
    }
    if (adv && adv->seq)
      break;
    const Dep *d = adv && adv->independent ? NULL : blocking_dep(m, dg, loop);
    const Access *shared = adv && adv->independent
                         ? xf_shared_write(dg, loop->u.loop.iv, m->plan->private_arrays, m->plan->nprivate_arrays)
                         : NULL;
    if (shared) {
      /* the assertion covers the references that carry the index, not a
       * store to the same elements in every iteration */
      ColumnCtx cx = column_ctx(m);
      const char *why = xf_shared_write_text(&cx, loop->u.loop.iv, shared);
      if (k->nmapped == 0) {
        diag_at(DIAG_ERROR, loop->loc, 1, "'independent' on loop '%s' cannot be followed: %s",
                ir_sym_user_name(loop->u.loop.iv), why);
        ok = false;
      } else
        report_at(REPORT_NOTE, routine_of(m), loop->loc, "'independent' on loop '%s' is not "
                  "followed: %s; the loop runs sequentially in each thread", ir_sym_user_name(loop->u.loop.iv),
                  why);
      break;
    }
    if (d) {
      if (k->nmapped == 0 || (adv && adv->parallel)) {
        refuse_loop(m, loop, dg, d);
        ok = false;
      } else {
        char why[300];
        dep_describe(dg, d, why, sizeof why);
        report_at(REPORT_NOTE, routine_of(m), loop->loc, "Loop carried dependence of %s keeps loop '%s' "
               "sequential in each thread", why, ir_sym_user_name(loop->u.loop.iv));
      }
      break;
    }
    if (adv && adv->independent)
      report_at(REPORT_INFO, routine_of(m), loop->loc, "Loop '%s' is parallel as asserted by "
                "'independent'", ir_sym_user_name(loop->u.loop.iv));
    else
      report_at(REPORT_INFO, routine_of(m), loop->loc, "Loop is parallelizable");
    k->mapped[k->nmapped++] = loop;
    k->body = &loop->u.loop.body;
    if (adv && adv->kernel)
      break;
    IrStmtList *b = &loop->u.loop.body;
    loop = b->n == 1 && b->v[0]->kind == IR_S_DO ? b->v[0] : NULL;
  }
  if (ok && k->nmapped == 0) {
    diag_at(DIAG_ERROR, nest->loc, 1, "loop '%s' is marked seq, so the region has no parallel "
            "loop to map to the GPU", ir_sym_user_name(nest->u.loop.iv));
    ok = false;
  }
  IrSymSet defs = { 0 };
  for (int i = 0; i < k->nmapped; i++)
    ir_symset_add(&defs, k->mapped[i]->u.loop.iv);
  if (ok) {
    user_privates(m, k, &defs);
    IrExpr *bad = xf_first_exposed(k->body, p->privates, p->nprivates, defs.syms, defs.n);
    const ReductionPlan *r = bad ? xf_reduction_of(p, bad->u.var) : NULL;
    if (r && r->why_not)
      diag_at(DIAG_ERROR, bad->loc, (int)strlen(ir_sym_user_name(bad->u.var)), "scalar '%s' is updated like "
              "a %s reduction over loop '%s', but %s; so the loop cannot run in parallel",
              ir_sym_user_name(bad->u.var), xf_reduce_op_text(r->op), ir_sym_user_name(k->mapped[0]->u.loop.iv), r->why_not);
    else if (r)
      diag_at(DIAG_ERROR, bad->loc, (int)strlen(ir_sym_user_name(bad->u.var)), "the %s reduction into '%s' "
              "is combined across the threads of a kernel with one thread per column, and no loop "
              "index of these statements can be a column index (see the notes)",
              xf_reduce_op_text(r->op), ir_sym_user_name(bad->u.var));
    else if (bad)
      diag_at(DIAG_ERROR, bad->loc, (int)strlen(ir_sym_user_name(bad->u.var)), "scalar '%s' may be read "
              "before it is assigned in the same iteration: a loop carried dependence that "
              "prevents running loop '%s' in parallel (reductions and recurrences over parallel "
              "loops are not supported yet)", ir_sym_user_name(bad->u.var), ir_sym_user_name(k->mapped[0]->u.loop.iv));
    ok = bad == NULL;
  }
  if (ok) {
    assign_axes(m->plan, k, dg);
    int threads = k->block[0] * k->block[1] * k->block[2];
    check_unused_advice(m, k);
    if (threads > 1024) {
      diag_at(DIAG_ERROR, nest->loc, 1, "the vector lengths ask for %d threads per block; "
              "CUDA allows at most 1024", threads);
      ok = false;
    } else
      report_kernel(m, k);
  }
  return ok;
}

/* C array parameters are pointers that may overlap, and so are the
 * pointer members of structs (`s->u`), and then no dependence test about
 * distinct arrays holds.  Unless one of each pair is restrict, -Msafeptr
 * says none overlap, both are array members of one struct (which never
 * overlap), or the user asserts independence, refuse. */
static bool may_overlap_others(const IrSym *s)
{
  return (s->is_dummy || s->member_base) && !xf_c_no_alias(s);
}

/* How to declare s restrict, for the message. */
static const char *restrict_advice(const IrSym *s)
{
  if (s->member_array && strpbrk(s->member_base, "-."))  /* `s->grid->w` */
    return ir_printf("copy '%s' into a restrict pointer before the region", s->member_base);
  if (s->member_array)
    return ir_printf("declare '%s' as a restrict pointer", s->member_base);
  if (s->member_base) {
    const char *m = s->source_name + strlen(s->member_base);   /* past `s->` or `s.` */
    m += *m == '.' ? 1 : 2;
    bool multi = s->rank > 1 && !s->delinearized;   /* a pointer to arrays as declared */
    return ir_printf("declare the member restrict (as in '%s %s%s;' in the struct)",
                     ir_type_c(s->type), multi ? "(*restrict " : "*restrict ",
                     ir_printf("%s%s", m, multi ? ")[...]" : ""));
  }
  return ir_printf("declare them restrict (as in '%s *restrict %s')", ir_type_c(s->type), ir_sym_user_name(s));
}

static bool check_c_aliasing(MapCtx *m)
{
  RegionPlan *p = m->plan;
  IrStmt *first = m->region->body.n ? m->region->body.v[0] : NULL;
  Directive *adv = first && first->kind == IR_S_DO ? first->u.loop.advice : NULL;
  if (m->prog->lang != IR_C || (adv && adv->independent))
    return true;
  for (int i = 0; i < p->narrays; i++) {
    const IrSym *a = p->arrays[i].sym;
    if (!p->arrays[i].written || !may_overlap_others(a))
      continue;
    for (int k = 0; k < p->narrays; k++) {
      const IrSym *b = p->arrays[k].sym;
      if (k == i || !(b->is_dummy || b->member_base) || xf_c_no_alias(b) || b->type != a->type)
        continue;
      if (a->member_array && b->member_array && strcmp(a->member_base, b->member_base) == 0)
        continue;
      /* not `independent`: it would also waive the dependence tests of
       * the loop, and the advice must lead to a correct kernel */
      const char *an = ir_sym_user_name(a), *bn = ir_sym_user_name(b);
      diag_at(DIAG_ERROR, a->loc, (int)strlen(an), "the region writes '%s' and uses '%s', %s "
              "that may overlap; if they never do, %s or translate with -Msafeptr (no %s "
              "overlaps another): the loops are then still checked for dependences", an, bn,
              a->member_base || b->member_base ? "arrays reached through pointers"
                                               : "pointer parameters",
              restrict_advice(a), a->member_base || b->member_base ? "pointer parameter or member"
                                                                   : "parameter");
      return false;
    }
  }
  return true;
}

/* ---- kernels of a region ------------------------------------------------------ */

/* A run of consecutive statements that becomes one kernel, with the loop
 * indices that can be spread over the grid for it. */
typedef struct Group {
  IrStmtList stmts;
  int nc;
  IrSym *c[3];
  bool loops;            /* has at least one loop */
  const char *split_note;/* why a kernel starts here (the feedback line), or NULL */
  Loc split_at;
  ColumnRun *run;        /* in split_groups: the column facts of stmts, else NULL */
} Group;

static void column_accesses_of(const void *m, const IrStmtList *stmts, DepGraph *out)
{
  accesses_of(m, stmts, out);
}

/* column.c's view of the region: its scalars and private arrays, and its
 * access list for the statements column.c asks about. */
static ColumnCtx column_ctx(const MapCtx *m)
{
  ColumnCtx cx = { m->prog->file, m->prog->lang, routine_of(m), m->plan->privates, m->plan->nprivates,
                   m->plan->private_arrays, m->plan->nprivate_arrays, m->plan, column_accesses_of, m };
  return cx;
}

static IrVisitStep stop_at_loop(IrStmt *s, IrVisit *v)
{
  (void)v;
  return s->kind == IR_S_DO ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

static bool has_loops(const IrStmtList *l)
{
  IrVisit v = { .pre = stop_at_loop };
  return !ir_visit_stmts((IrStmtList *)l, &v);
}

static void group_eval(const MapCtx *m, Group *g)
{
  ColumnCtx cx = column_ctx(m);
  g->loops = has_loops(&g->stmts);
  g->nc = g->loops ? column_indices(&cx, &g->stmts, g->c) : 0;
}

/* An array element assigned outside every loop: no column owns it. */
static IrVisitStep stop_at_element_store(IrStmt *s, IrVisit *v)
{
  (void)v;
  if (s->kind == IR_S_DO)
    return IR_VISIT_SKIP_CHILDREN;
  return s->kind == IR_S_ASSIGN && s->u.assign.lhs->kind == IR_E_ELEM ? IR_VISIT_STOP
                                                                      : IR_VISIT_CONTINUE;
}

static bool writes_array(IrStmt *s)
{
  IrVisit v = { .pre = stop_at_element_store };
  return !ir_visit_stmts(&(IrStmtList){ 1, 1, &s }, &v);
}

static Group group_of(const MapCtx *m, IrStmtList *base, IrStmt *extra)
{
  Group g = { { 0, 0, NULL }, 0, { NULL }, false, NULL, { 0, 0, 0 }, NULL };
  for (int i = 0; base && i < base->n; i++)
    ir_list_push(&g.stmts, base->v[i]);
  if (extra)
    ir_list_push(&g.stmts, extra);
  group_eval(m, &g);
  return g;
}

/* Which scalars a kernel boundary in statement list l would lose.  Each
 * kernel's threads have their own scalars, so a boundary before statement
 * b loses scalar x when a statement before b assigns x and a statement from
 * b on reads it before a statement between surely assigns it again (a
 * scalar that no statement before b assigns is the host's value at region
 * entry in every kernel: firstprivate).  Computed once per list, per
 * statement and scalar (the scalars: the region's private scalars but the
 * GPU reductions, which flow through the device, and the index of a loop
 * being distributed over l, which each part's copy of the loop assigns):
 *   need[j][x]      x is read, from statement j on, before it is surely assigned
 *   assigned[j][x]  some statement before j assigns x
 * so that a boundary anywhere costs a lookup. */
typedef struct ScalarFlow {
  int nvars, nstmts;
  IrSym **vars;
  unsigned char *need, *assigned;   /* [(nstmts + 1) * nvars] */
} ScalarFlow;

/* Does statement s surely assign x (a top-level assignment or a DO over it)? */
static bool surely_assigns(const IrStmt *s, const IrSym *x)
{
  return (s->kind == IR_S_ASSIGN && s->u.assign.lhs->kind == IR_E_VAR &&
          s->u.assign.lhs->u.var == x) || (s->kind == IR_S_DO && s->u.loop.iv == x);
}

static ScalarFlow scalar_flow(const MapCtx *m, IrStmtList *l, const IrSym *dist_iv)
{
  ScalarFlow f = { 0, l->n, NULL, NULL, NULL };
  f.vars = ir_alloc(sizeof *f.vars * (size_t)(m->plan->nprivates + 1));
  for (int i = 0; i < m->plan->nprivates; i++)
    if (!is_gpu_reduction(m, m->plan->privates[i]) && m->plan->privates[i] != dist_iv)
      f.vars[f.nvars++] = m->plan->privates[i];
  size_t size = (size_t)(l->n + 1) * (size_t)(f.nvars ? f.nvars : 1);
  f.need = ir_alloc(size);
  f.assigned = ir_alloc(size);
  for (int j = l->n - 1; j >= 0; j--) {
    IrStmtList one = { 1, 1, &l->v[j] };
    IrSymSet *mentioned = ir_list_symbols(&one);
    for (int x = 0; x < f.nvars; x++) {
      IrSym *v = f.vars[x];
      bool read_first = ir_symset_has(mentioned, v) && xf_first_exposed(&one, &v, 1, NULL, 0);
      f.need[(size_t)j * f.nvars + x] =
          read_first || (!surely_assigns(l->v[j], v) && f.need[(size_t)(j + 1) * f.nvars + x]);
    }
  }
  for (int j = 0; j < l->n; j++) {
    IrStmtList one = { 1, 1, &l->v[j] };
    IrSymSet a = { 0 };
    ir_assigned_scalars(&one, &a);
    for (int x = 0; x < f.nvars; x++)
      f.assigned[(size_t)(j + 1) * f.nvars + x] =
          f.assigned[(size_t)j * f.nvars + x] || ir_symset_has(&a, f.vars[x]);
  }
  return f;
}

/* The scalar a kernel boundary before statement b would lose, or NULL. */
static IrSym *scalar_lost_at(const ScalarFlow *f, int b)
{
  for (int x = 0; x < f->nvars; x++)
    if (f->assigned[(size_t)b * f->nvars + x] && f->need[(size_t)b * f->nvars + x])
      return f->vars[x];
  return NULL;
}

static bool scalar_only_list(const IrStmtList *l);

/* A statement that only gives scalars values (an assignment, or an IF of
 * such): at the end of a kernel it may as well start the next one, where
 * what it computes is read (it reads what the kernel before left in memory,
 * as in program order). */
static bool scalar_only(const IrStmt *s)
{
  if (s->kind == IR_S_IF)
    return scalar_only_list(&s->u.cond.then) && scalar_only_list(&s->u.cond.els);
  return s->kind == IR_S_ASSIGN && s->u.assign.lhs->kind == IR_E_VAR;
}

static bool scalar_only_list(const IrStmtList *l)
{
  for (int i = 0; i < l->n; i++)
    if (!scalar_only(l->v[i]))
      return false;
  return true;
}

/* Does s read the result of a GPU reduction that the group updates?  The
 * result exists once every thread has added its part: the kernel must end
 * before s. */
static bool reads_reduction_result(const MapCtx *m, const Group *cur, IrStmt *s)
{
  IrStmtList one = { 1, 1, &s };
  for (int i = 0; i < m->plan->nreductions; i++) {
    const ReductionPlan *r = &m->plan->reductions[i];
    if (!r->gpu || !r->read_after || !ir_list_mentions(&one, r->sym))
      continue;
    for (int u = 0; u < r->nupdates; u++)
      if (ir_list_contains(&cur->stmts, r->updates[u]))
        return true;
  }
  return false;
}

/* Stride-1 choice and axes for the column indices of a group. */
static int pick_x(const MapCtx *m, const Group *g)
{
  DepGraph dg = { 0 };
  if (!g->run)
    accesses_of(m, &g->stmts, &dg);
  int best = g->nc - 1, best_n = -1;
  for (int i = g->nc - 1; i >= 0; i--) {
    int n = g->run ? column_run_stride1(g->run, g->c[i]) : stride1_refs(&dg, g->c[i], NULL);
    if (n > best_n) {
      best = i;
      best_n = n;
    }
  }
  dep_free(&dg);
  return best;
}

/* Does merged keep the index that part runs along its stride-1 dimension
 * (the one that gives coalesced accesses)? */
static bool keeps_stride1(const MapCtx *m, const Group *merged, const Group *part)
{
  if (!part->nc)
    return true;
  IrSym *x = part->c[pick_x(m, part)];
  for (int i = 0; i < merged->nc; i++)
    if (merged->c[i] == x)
      return true;
  return false;
}

/* Does merging cur and alone lose a column index to a dependence between
 * its iterations (b(i,j-1) after the nest that writes b)?  A kernel
 * boundary is the barrier such a dependence needs.  An index lost only to
 * the shape of the code (the `k = kte` statement between two k nests: a
 * statement outside the loops over k) is not worth a kernel of its own:
 * that loop runs in order inside the thread. */
static bool loses_to_dependence(const MapCtx *m, const Group *cur, const Group *alone,
                                const Group *merged)
{
  bool by_dependence = false;
  ColumnCtx cx = column_ctx(m);
  DepGraph dg;
  accesses_of(m, &merged->stmts, &dg);
  for (int i = 0; i < cur->nc + alone->nc && !by_dependence; i++) {
    IrSym *v = i < cur->nc ? cur->c[i] : alone->c[i - cur->nc];
    bool kept = false;
    for (int k = 0; k < merged->nc; k++)
      kept |= merged->c[k] == v;
    const char *why;
    Loc where;
    if (!kept)
      column_index_why(&cx, (IrStmtList *)&merged->stmts, &dg, v, &why, &where, &by_dependence);
  }
  dep_free(&dg);
  return by_dependence;
}

/* Why a kernel ends before statement s: an index the parts have alone and
 * lose together, and the reason column_index gives for it. */
static void note_split(const MapCtx *m, const Group *cur, Group *alone, const Group *merged,
                       const IrStmt *s)
{
  IrSym *lost = NULL;
  for (int i = 0; i < cur->nc + alone->nc && !lost; i++) {
    IrSym *v = i < cur->nc ? cur->c[i] : alone->c[i - cur->nc];
    bool kept = false;
    for (int k = 0; k < merged->nc; k++)
      kept |= merged->c[k] == v;
    if (!kept)
      lost = v;
  }
  const char *why = "";
  Loc where = s->loc;
  if (lost) {
    ColumnCtx cx = column_ctx(m);
    DepGraph dg;
    accesses_of(m, &merged->stmts, &dg);
    column_index(&cx, (IrStmtList *)&merged->stmts, &dg, lost, &why, &where);
    dep_free(&dg);
  }
  alone->split_at = s->loc;
  alone->split_note = ir_printf("Kernel split before line %d: in one kernel, loop '%s' could not "
                                "run in parallel: %s (line %d)", diag_user_line(s->loc),
                                lost ? ir_sym_user_name(lost) : "?", why, diag_user_line(where));
}

/* Why a kernel ends before statement s, which reads a reduction's result. */
static void note_result_split(const MapCtx *m, Group *alone, const IrStmt *s)
{
  const char *names = "";
  IrStmtList one = { 1, 1, (IrStmt **)&s };
  for (int i = 0; i < m->plan->nreductions; i++) {
    const ReductionPlan *r = &m->plan->reductions[i];
    if (r->gpu && r->read_after && ir_list_mentions(&one, r->sym))
      names = ir_printf("%s%s'%s'", names, *names ? ", " : "", ir_sym_user_name(r->sym));
  }
  alone->split_at = s->loc;
  alone->split_note = ir_printf("Kernel split before line %d: it reads the result of the "
                                "reduction into %s, complete when the kernel before it ends",
                                diag_user_line(s->loc), names);
}

static bool group_mentions(const MapCtx *m, const Group *g, const IrSym *a)
{
  if (g->run)
    return column_run_mentions(g->run, a);
  DepGraph dg;
  accesses_of(m, &g->stmts, &dg);
  bool found = false;
  for (int i = 0; i < dg.nacc && !found; i++)
    found = dg.acc[i].ref->u.elem.sym == a;
  dep_free(&dg);
  return found;
}

/* Does s use an array privatized per thread that the group also uses?
 * Then they must stay in one kernel: the copies die with the threads. */
static bool private_array_shared(const MapCtx *m, const Group *cur, IrStmt *s)
{
  IrStmtList one = { 1, 1, &s };
  Group alone = { one, 0, { NULL }, false, NULL, { 0, 0, 0 }, NULL };
  for (int i = 0; i < m->plan->nprivate_arrays; i++)
    if (group_mentions(m, &alone, m->plan->private_arrays[i]) &&
        group_mentions(m, cur, m->plan->private_arrays[i]))
      return true;
  return false;
}

/* The group of s alone, with its run of column facts. */
static Group group_alone(ColumnScope *scope, IrStmt *s)
{
  Group g = { { 0, 0, NULL }, 0, { NULL }, false, NULL, { 0, 0, 0 }, column_run_new(scope) };
  ir_list_push(&g.stmts, s);
  column_run_push(g.run, s);
  g.loops = has_loops(&g.stmts);
  g.nc = g.loops ? column_run_indices(g.run, NULL, g.c) : 0;
  return g;
}

/* The group cur + s (group_of(cur, s)), from cur's run without adding s
 * to it (so it has no run of its own).  The statement list shares cur's
 * storage: pushing s writes only past cur's end. */
static Group group_plus(const Group *cur, IrStmt *s, const Group *alone)
{
  Group g = { cur->stmts, 0, { NULL }, cur->loops || alone->loops, cur->split_note, cur->split_at,
              NULL };
  ir_list_push(&g.stmts, s);
  g.nc = g.loops ? column_run_indices(cur->run, s, g.c) : 0;
  return g;
}

static void push_group(Group **v, int *n, int *cap, Group g)
{
  g.run = NULL;          /* the runs end with split_groups */
  IR_APPEND(*v, *n, *cap, g);
}

/* Split l into groups greedily: a statement joins the current group unless
 * that would leave fewer loop indices to spread over the grid than either
 * part has alone, and either fewer than two or not the stride-1 one: a grid
 * of columns (i, j) with i along threadIdx.x is what the restructuring aims
 * for, and a kernel boundary costs a launch and a trip through memory, so k
 * loops are not split off just to run in parallel.
 * Statements without loops join (unless they assign array elements).
 * The column indices of each candidate group come from the current
 * group's run (column_run_indices), in time proportional to the statement
 * tried, not to the group.  `dist_iv`: the index of the loop whose body l
 * is when distribute() asks, else NULL (see ScalarFlow). */
/* The group of statements l->v[from..to), with a run of its own. */
static Group group_range(const MapCtx *m, ColumnScope *scope, IrStmtList *l, int from, int to)
{
  IrStmtList part = { to - from, to - from, l->v + from };
  Group g = group_of(m, &part, NULL);
  g.run = column_run_new(scope);
  for (int i = from; i < to; i++)
    column_run_push(g.run, l->v[i]);
  return g;
}

static int split_groups(const MapCtx *m, IrStmtList *l, const IrSym *dist_iv, Group **out)
{
  Group *groups = NULL;
  int n = 0, cap = 0;
  ColumnCtx cx = column_ctx(m);
  ColumnScope *scope = column_scope_new(&cx);
  ScalarFlow flow = scalar_flow(m, l, dist_iv);
  Group cur = { { 0, 0, NULL }, 0, { NULL }, false, NULL, { 0, 0, 0 }, column_run_new(scope) };
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    Group alone = group_alone(scope, s);
    Group merged = group_plus(&cur, s, &alone);
    bool lone = !alone.loops && writes_array(s);
    bool result = cur.stmts.n && reads_reduction_result(m, &cur, s);
    bool join = !result && (!cur.stmts.n || (!alone.loops && !lone) || (!cur.loops && !writes_array(cur.stmts.v[0])) ||
                private_array_shared(m, &cur, s) ||
                merged.nc >= (alone.nc > cur.nc ? alone.nc : cur.nc) ||
                (merged.nc >= 2 && keeps_stride1(m, &merged, &cur) && keeps_stride1(m, &merged, &alone)) ||
                (merged.nc >= 1 && keeps_stride1(m, &merged, &cur) && keeps_stride1(m, &merged, &alone) &&
                 !loses_to_dependence(m, &cur, &alone, &merged)));
    /* A boundary before s must not lose a scalar: the scalar-only
     * statements that end cur (`x = 3.0` between two nests) start the next
     * kernel instead when that is enough; otherwise s stays in cur. */
    int start = i - cur.stmts.n, at = i;
    if (!join && cur.stmts.n) {
      while (at > start + 1 && scalar_only(l->v[at - 1]))
        at--;
      if (scalar_lost_at(&flow, at))
        at = i;
      IrSym *lost = scalar_lost_at(&flow, at);
      if (lost && result) {
        if (!m->plan->lost_scalar_at) {   /* planning may split the list more than once */
          diag_at(DIAG_ERROR, s->loc, 1, "this statement reads the result of a reduction, so "
                  "it starts a new kernel, but scalar '%s' assigned before it in the region "
                  "would not reach that kernel (each kernel's threads have their own "
                  "scalars); assign '%s' after the reduction's loops", ir_sym_user_name(lost), ir_sym_user_name(lost));
          m->plan->lost_scalar_at = s;
        }
      } else if (lost) {
        join = true;
      }
    }
    if (join) {
      ColumnRun *run = cur.run;
      column_run_push(run, s);
      cur = merged;
      cur.run = run;
      continue;
    }
    if (result)
      note_result_split(m, &alone, s);
    else
      note_split(m, &cur, &alone, &merged, s);
    if (at < i) {            /* cur's trailing scalar statements go with s */
      Group before = cur, after = alone;   /* their split notes stay */
      cur = group_range(m, scope, l, start, at);
      alone = group_range(m, scope, l, at, i + 1);
      cur.split_note = before.split_note;
      cur.split_at = before.split_at;
      alone.split_note = after.split_note;
      alone.split_at = after.split_at;
    }
    push_group(&groups, &n, &cap, cur);
    cur = alone;
  }
  if (cur.stmts.n)
    push_group(&groups, &n, &cap, cur);
  column_scope_free(scope);
  *out = groups;
  return n;
}

static IrStmt *wrap_loop(const IrStmt *loop, IrStmtList *body)
{
  IrStmt *w = ir_stmt(IR_S_DO, loop->loc);
  w->u.loop = loop->u.loop;
  w->u.loop.body = *body;
  return w;
}

/* A group that is one loop over a column index v whose body splits into
 * parts with more parallelism: distribute the loop over the parts (legal:
 * no dependence links two iterations of v, and no scalar flows between
 * the parts).  Returns the number of groups written to *out (1: no change). */
static int distribute(const MapCtx *m, Group *g, Group **out)
{
  *out = g;
  if (g->stmts.n != 1 || g->stmts.v[0]->kind != IR_S_DO)
    return 1;
  IrStmt *loop = g->stmts.v[0];
  bool is_column = false;
  for (int i = 0; i < g->nc; i++)
    is_column |= g->c[i] == loop->u.loop.iv;
  if (!is_column || loop->u.loop.body.n < 2)
    return 1;
  Group *parts;
  int n = split_groups(m, &loop->u.loop.body, loop->u.loop.iv, &parts);
  if (n < 2)
    return 1;
  Group *wrapped = NULL;
  int nw = 0, cap = 0;
  bool gains_stride1 = false;
  for (int i = 0; i < n; i++) {
    Group w = group_of(m, NULL, wrap_loop(loop, &parts[i].stmts));
    w.split_note = parts[i].split_note;
    w.split_at = parts[i].split_at;
    gains_stride1 |= !keeps_stride1(m, g, &w);
    push_group(&wrapped, &nw, &cap, w);
  }
  /* As in split_groups, loops are not split off just to run in parallel
   * when the undistributed loop is already the one most references move
   * along at unit stride (a column loop around k sweeps that fuse in the
   * thread): distributing would only re-read the first part's results
   * from memory.  A loop around nests whose stride-1 index it is not
   * (k around (j,i) stencil nests) is distributed. */
  if (!gains_stride1)
    return 1;
  *out = wrapped;
  return nw;
}

/* Say why the loops left sequential in each thread of kernel k could not
 * be spread: each loop index once, at its first loop (program order). */
typedef struct SequentialLoops {
  const MapCtx *m;
  KernelPlan *k;
  ColumnCtx cx;
  IrSymSet seen;             /* loop indices explained, or column indices */
} SequentialLoops;

static IrVisitStep explain_sequential(IrStmt *s, IrVisit *v)
{
  SequentialLoops *q = v->ctx;
  if (s->kind != IR_S_DO || !ir_symset_add(&q->seen, s->u.loop.iv))
    return IR_VISIT_CONTINUE;
  const MapCtx *m = q->m;
  KernelPlan *k = q->k;
  IrSym *iv = s->u.loop.iv;
  const char *why = "";
  Loc where = s->loc;
  column_index(&q->cx, &k->stmts, &k->acc, iv, &why, &where);
  DepGraph in;           /* the dependences loop s can carry: only its own accesses */
  dep_within(&k->acc, s, &in);
  const Dep *d = blocking_dep(m, &in, s);
  Loc at = { m->prog->file, diag_user_line(s->loc), 0 };
  if (d) {
    char text[300];
    dep_describe(&in, d, text, sizeof text);
    why = ir_printf("loop carried dependence of %s at line %d", text,
                    diag_user_line(in.acc[d->dst].stmt->loc));
    report_add(REPORT_NOTE, routine_of(m), at, "Loop carried dependence of %s keeps loop '%s' "
               "sequential in each thread", text, ir_sym_user_name(iv));
  } else {
    why = ir_printf("%s (line %d)", why, diag_user_line(where));
    report_add(REPORT_NOTE, routine_of(m), at, "Loop '%s' runs sequentially in each thread: %s",
               ir_sym_user_name(iv), why);
  }
  if (s->u.loop.advice && s->u.loop.advice->parallel)
    diag_at(DIAG_ERROR, s->loc, 1, "loop '%s' is marked parallel but cannot run in parallel: %s",
            ir_sym_user_name(iv), why);
  dep_free(&in);
  return IR_VISIT_CONTINUE;
}

static void report_sequential(const MapCtx *m, KernelPlan *k)
{
  SequentialLoops q = { m, k, column_ctx(m), { 0 } };
  for (int i = 0; i < k->ncolumns; i++)
    ir_symset_add(&q.seen, k->columns[i]);
  IrVisit v = { .pre = explain_sequential, .ctx = &q };
  ir_visit_stmts(&k->stmts, &v);
}

/* The column index along which most references of kernel k move at unit
 * stride in their fastest dimension (coalesced): threadIdx.x's. */
static int kernel_pick_x(const RegionPlan *p, const KernelPlan *k)
{
  int best = k->ncolumns - 1, best_n = -1;
  for (int i = k->ncolumns - 1; i >= 0; i--) {
    int n = stride1_refs(&k->acc, k->columns[i], p);
    if (n > best_n) {
      best = i;
      best_n = n;
    }
  }
  return best;
}

static ArrayPlan *array_of(RegionPlan *p, const IrSym *s)
{
  for (int i = 0; i < p->narrays; i++)
    if (p->arrays[i].sym == s)
      return &p->arrays[i];
  S2S_BUG("array '%s' has no plan", s->name);
}

/* The kernels of the region: top-level groups, each maybe distributed. */
static int plan_groups(MapCtx *m, Group **out)
{
  Group *top, *groups = NULL;
  int ntop = split_groups(m, &m->region->body, NULL, &top), n = 0, cap = 0;
  for (int i = 0; i < ntop; i++) {
    Group *parts;
    int np = distribute(m, &top[i], &parts);
    for (int k = 0; k < np; k++)
      push_group(&groups, &n, &cap, parts[k]);
  }
  *out = groups;
  return n;
}
/* The shape of private array a in group g: each dimension either holds the
 * same column index, unshifted, in every reference (it is dropped: the
 * thread's own), or mentions no column index.  False otherwise.
 * `accesses`: the group's accesses of a (or all of its accesses). */
static bool private_shape(const Group *g, const DepGraph *accesses, ArrayPlan *a)
{
  DepGraph dg = *accesses;
  bool ok = true;
  for (int d = 0; d < a->sym->rank && ok; d++) {
    IrSym *col = NULL;
    bool other = false;
    for (int i = 0; i < dg.nacc; i++) {
      if (dg.acc[i].ref->u.elem.sym != a->sym)
        continue;
      IrExpr *sub = dg.acc[i].ref->u.elem.sub[d];
      Affine f;
      IrSym *v = aff_build(sub, &f) && f.n == 1 && f.c == 0 && f.t[0].coef == 1 && !f.t[0].scale
               ? f.t[0].var : NULL;
      bool is_col = false;
      for (int k = 0; k < g->nc; k++)
        is_col |= v == g->c[k];
      if (is_col && (!col || col == v))
        col = v;
      else
        other = true;
      for (int k = 0; k < g->nc && !is_col; k++)
        if (ir_expr_mentions(sub, g->c[k]))
          ok = false;  /* a shifted or mixed column index: another column's element */
    }
    if (col && other)
      ok = false;
    a->column_dim[d] = col != NULL;
  }
  if (!ok)
    return false;
  long elems = 1;
  for (int d = 0; d < a->sym->rank; d++) {
    long lo, hi;
    if (a->column_dim[d])
      continue;
    if (!ir_eval_const(a->sym->lo[d], &lo) || !ir_eval_const(a->sym->hi[d], &hi) || elems < 0) {
      elems = -1;
      continue;
    }
    elems *= hi - lo + 1;
  }
  a->private_elems = elems > 256 ? -1 : elems;  /* big ones go to device memory */
  return true;
}

/* Where each array of the region lives: how many groups mention it, the
 * last of them, and each group's accesses, collected once (asking
 * group_mentions for every array and group costs arrays x groups x
 * accesses). */
typedef struct ArrayHome {
  const IrSym *sym;
  int homes, home;
  UT_hash_handle hh;
} ArrayHome;

typedef struct GroupAccesses {
  DepGraph *g;             /* per group */
  DepArray **by_array;     /* per group: dep_arrays(g) */
  ArrayHome *homes;
} GroupAccesses;

static GroupAccesses *group_accesses(const MapCtx *m, Group *groups, int n)
{
  GroupAccesses *ga = ir_alloc(sizeof *ga);
  ga->g = ir_alloc(sizeof *ga->g * (size_t)(n + 1));
  ga->by_array = ir_alloc(sizeof *ga->by_array * (size_t)(n + 1));
  for (int i = 0; i < n; i++) {
    accesses_of(m, &groups[i].stmts, &ga->g[i]);
    ga->by_array[i] = dep_arrays(&ga->g[i]);
    DepArray *a, *tmp;
    HASH_ITER(hh, ga->by_array[i], a, tmp) {
      ArrayHome *h;
      HASH_FIND_PTR(ga->homes, &a->sym, h);
      if (!h) {
        h = ir_alloc(sizeof *h);
        h->sym = a->sym;
        HASH_ADD_PTR(ga->homes, sym, h);
      }
      h->homes++;
      h->home = i;
    }
  }
  return ga;
}

static void group_accesses_free(GroupAccesses *ga, int n)
{
  for (int i = 0; i < n; i++) {
    dep_arrays_free(ga->by_array[i]);
    dep_free(&ga->g[i]);
  }
}

/* Privatization and grouping depend on each other: private arrays do not
 * tie columns together (more column indices), and a private array must
 * live in one kernel with a shape that drops only column dimensions.  Start
 * from the arrays `from` and drop those that break a condition until
 * nothing changes.  The accesses of the final groups are returned in *ga
 * (the kernels keep them). */
static int privatize_fixed_point(MapCtx *m, IrSym *const *from, int nfrom, Group **groups,
                                 GroupAccesses **ga_out)
{
  RegionPlan *p = m->plan;
  p->private_arrays = NULL;
  p->nprivate_arrays = 0;
  for (int i = 0; i < nfrom; i++)
    IR_PUSH(p->private_arrays, p->nprivate_arrays, from[i]);
  for (;;) {
    int n = plan_groups(m, groups), keep = 0;
    GroupAccesses *ga = group_accesses(m, *groups, n);
    for (int i = 0; i < p->nprivate_arrays; i++) {
      ArrayPlan *a = array_of(p, p->private_arrays[i]);
      ArrayHome *h;
      HASH_FIND_PTR(ga->homes, &a->sym, h);
      int home = h ? h->home : -1, homes = h ? h->homes : 0;
      DepGraph mine = { 0 };
      if (homes == 1)
        dep_array_graph(&ga->g[home], ga->by_array[home], a->sym, &mine);
      if (homes == 1 && (*groups)[home].nc && private_shape(&(*groups)[home], &mine, a))
        p->private_arrays[keep++] = a->sym;
      else if (homes > 1)
        a->not_private_why = ir_printf("it is used by %d kernels, and a copy per thread lives "
                                       "in one", homes);
      else if (homes == 1 && !(*groups)[home].nc)
        a->not_private_why = "the kernel that uses it has no loop with one thread per column";
      else
        a->not_private_why = "a subscript uses a column index shifted or together with other "
                             "values, so a thread would need another column's element";
      dep_free(&mine);
    }
    if (keep == p->nprivate_arrays) {
      *ga_out = ga;
      return n;
    }
    group_accesses_free(ga, n);
    p->nprivate_arrays = keep;
  }
}

/* The fewest loops any kernel with loops spreads over the grid. */
static int least_parallel(const Group *groups, int n)
{
  int least = 3;
  for (int i = 0; i < n; i++)
    if (groups[i].loops && groups[i].nc < least)
      least = groups[i].nc;
  return least;
}

/* Which arrays live in the threads.  Privatizing every work array that
 * allows it is right for column physics (w(k) per column, the k loops in
 * the thread), but a stencil program's intermediate fields (lap(i,j,k)
 * written by one nest and read at i+1 and j-1 by the next) privatized
 * per column of the loop around the nests (k) tie the nests into one
 * kernel parallel over k alone, each thread sweeping a whole level with
 * strided accesses.  So when privatizing leaves some kernel fewer loops on
 * the grid, the plan that keeps the work arrays shared on the device (no
 * copy: they are created there) is tried too, and wins when its least
 * parallel kernel spreads more loops.  Local arrays of inlined routines
 * have no host variable and stay candidates in both plans. */
static int plan_privatized(MapCtx *m, Group **groups, GroupAccesses **ga_out)
{
  RegionPlan *p = m->plan;
  IrSym **all = NULL, **inlined = NULL;
  int nall = 0, ninlined = 0;
  for (int i = 0; i < p->narrays; i++)
    if (p->arrays[i].privatizable) {
      IR_PUSH(all, nall, p->arrays[i].sym);
      if (p->arrays[i].sym->inlined_local)
        IR_PUSH(inlined, ninlined, p->arrays[i].sym);
    }
  int n = privatize_fixed_point(m, all, nall, groups, ga_out);
  if (p->nprivate_arrays == ninlined || least_parallel(*groups, n) >= 3)
    return n;
  IrSym **kept = p->private_arrays;
  int nkept = p->nprivate_arrays, least = least_parallel(*groups, n);
  Group *shared;
  GroupAccesses *shared_ga;
  int ns = privatize_fixed_point(m, inlined, ninlined, &shared, &shared_ga);
  if (least_parallel(shared, ns) > least) {
    for (int i = 0; i < nkept; i++) {
      ArrayPlan *a = array_of(p, kept[i]);
      if (!a->sym->inlined_local)
        a->not_private_why = ir_printf("with a copy per thread the nests using it would share "
                                       "one kernel with %d loop%s on the grid; kept on the "
                                       "device, every kernel has %d", least,
                                       least == 1 ? "" : "s", least_parallel(shared, ns));
    }
    group_accesses_free(*ga_out, n);
    *groups = shared;
    *ga_out = shared_ga;
    return ns;
  }
  group_accesses_free(shared_ga, ns);
  group_accesses_free(*ga_out, n);      /* the first plan again: its accesses anew */
  return privatize_fixed_point(m, all, nall, groups, ga_out);
}

/* private(w) of an array that is not kept per thread after all (a dummy,
 * used by the host, or a shape that needs other columns' elements): the
 * array stays shared, which is correct; say so. */
typedef struct PrivateAdvice { MapCtx *m; IrSymSet warned; } PrivateAdvice;

static IrVisitStep private_advice_pre(IrStmt *t, IrVisit *v)
{
  PrivateAdvice *pa = v->ctx;
  const Directive *adv = t->kind == IR_S_DO ? t->u.loop.advice : NULL;
  for (int c = 0; adv && c < adv->nclauses; c++)
    for (int i = 0; adv->clauses[c].kind == DIR_PRIVATE && i < adv->clauses[c].nitems; i++) {
      IrSym *s = adv->clauses[c].items[i].sym;
      ArrayPlan *a = NULL;
      for (int k = 0; s && s->rank && k < pa->m->plan->narrays; k++)
        if (pa->m->plan->arrays[k].sym == s)
          a = &pa->m->plan->arrays[k];
      if (!a || a->privatized || !ir_symset_add(&pa->warned, s))
        continue;
      const char *why = !a->written ? ir_printf("'%s' is only read in the region, so there is "
                                                "nothing to keep per thread", ir_sym_user_name(s))
                      : a->not_private_why ? a->not_private_why
                      : "a thread would need another column's elements";
      report_at(REPORT_WARNING, routine_of(pa->m), adv->clauses[c].items[i].loc,
                "private(%s) is not followed: '%s' stays in device memory, shared by the "
                "threads: %s", ir_sym_user_name(s), ir_sym_user_name(s), why);
    }
  return IR_VISIT_CONTINUE;
}

static void warn_unfollowed_private(MapCtx *m)
{
  PrivateAdvice pa = { m, { 0 } };
  IrVisit v = { .pre = private_advice_pre, .ctx = &pa };
  ir_visit_stmts(&m->region->body, &v);
}

/* ---- the passes ------------------------------------------------------------ */

/* Pass "accesses": what the region does with each array and scalar (the
 * data clauses, the private scalars; access.c), its access list kept in
 * the plan, and the checks on scalars and pointers that need them. */
bool xf_pass_accesses(Program *prog, IrRegion *g)
{
  if (g->variant) {        /* the lines that follow are about this variant */
    Loc at = { prog->file, g->first_line, 0 };
    if (g->variant->index == 1)
      report_add(REPORT_INFO, g->routine->name, at, "%s; the host tests presence and launches "
                 "the matching one", xf_variants_summary(g->variant));
    report_add(REPORT_INFO, g->routine->name, at, "Variant %s: %s", g->name,
               xf_variant_text(g->variant));
  }
  RegionPlan *p = ir_alloc(sizeof *p);
  g->analysis = p;
  bool ok = an_region_accesses(prog, g, p);
  keep_in_arena(&p->acc);
  if (!ok)
    return false;
  MapCtx m = map_ctx(prog, g);
  plan_reductions(&m);         /* may drop initial values from the body: before the index */
  index_body_accesses(g, p);
  return check_private_scalars(&m) && check_c_aliasing(&m);
}

/* Pass "group": the kernels of the region (runs of its statements, the
 * loops over column indices distributed where that keeps more parallel
 * loops) and the arrays privatized per thread, settled together. */
bool xf_pass_group(Program *prog, IrRegion *g)
{
  MapCtx m = map_ctx(prog, g);
  RegionPlan *p = m.plan;
  Group *groups;
  GroupAccesses *ga;
  int n = plan_privatized(&m, &groups, &ga);
  if (p->lost_scalar_at) {
    group_accesses_free(ga, n);
    return false;
  }
  for (int i = 0; i < p->nprivate_arrays; i++)
    array_of(p, p->private_arrays[i])->privatized = true;
  warn_unfollowed_private(&m);
  p->nkernels = n;
  p->kernels = ir_alloc(sizeof *p->kernels * (size_t)n);
  for (int i = 0; i < n; i++) {
    KernelPlan *k = &p->kernels[i];
    k->name = n == 1 ? g->name : ir_printf("%s_k%d", g->name, i + 1);
    k->stmts = groups[i].stmts;
    k->ncolumns = groups[i].nc;
    memcpy(k->columns, groups[i].c, sizeof k->columns);
    k->has_loops = groups[i].loops;
    k->split_note = groups[i].split_note;
    k->split_at = groups[i].split_at;
    k->acc = ga->g[i];                  /* kept: the kernel's accesses */
    k->acc.nvariant = p->nprivates;
    k->acc.variant = p->privates;
    keep_in_arena(&k->acc);
    dep_arrays_free(ga->by_array[i]);
  }
  /* an inlined routine's local array, and a C array declared inside the
   * region, have no host variable: they must live in the threads (a C
   * region-local array kept shared was passed to the launcher by a name the
   * host code does not declare) */
  for (int i = 0; i < p->narrays; i++) {
    const IrSym *s = p->arrays[i].sym;
    if ((s->inlined_local || s->region_local) && !p->arrays[i].privatized) {
      const char *why = p->arrays[i].not_private_why;
      if (!why)
        why = "it is read before it is written, or read from another column";
      if (s->inlined_local)
        diag_at(DIAG_ERROR, s->loc, (int)strlen(ir_sym_user_name(s)), "local array '%s' of an inlined "
                "routine cannot be kept per thread (%s), and it has no host copy to move",
                ir_sym_user_name(s), why);
      else
        diag_at(DIAG_ERROR, s->loc, (int)strlen(ir_sym_user_name(s)), "array '%s' declared inside the "
                "region cannot be kept per thread (%s), and it has no host copy to move; "
                "declare it before the region", ir_sym_user_name(s), why);
      return false;
    }
  }
  an_report_arrays(prog, g, p);
  report_acc_region(&m);
  for (int i = 1; i < n; i++)
    if (p->kernels[i].split_note)
      report_at(REPORT_INFO, routine_of(&m), p->kernels[i].split_at, "%s", p->kernels[i].split_note);
  if (n > 1)
    report_add(REPORT_INFO, routine_of(&m), user_loc(&m, g->first_line), "Region split into %d "
               "kernels, run in order", n);
  return true;
}

/* Pass "columnize" (kernels with column indices): the thread body, the
 * kernel's statements with every loop over a column index replaced by its
 * body (column.c). */
bool xf_pass_columnize(Program *prog, IrRegion *g, int kernel)
{
  (void)prog;
  KernelPlan *k = &((RegionPlan *)g->analysis)->kernels[kernel];
  if (!k->has_loops || !k->ncolumns)
    return true;
  ColumnRange r[3];
  for (int i = 0; i < k->ncolumns; i++) {
    r[i].iv = k->columns[i];
    k->column_loop[i] = column_range(&k->stmts, &r[i]);
    k->column_lo[i] = r[i].lo;
    k->column_hi[i] = r[i].hi;
  }
  columnize(r, k->ncolumns, &k->stmts, &k->thread);
  return true;
}

/* Pass "fuse": adjacent sequential loops of the thread body fused where no
 * dependence runs backwards (column.c). */
bool xf_pass_fuse(Program *prog, IrRegion *g, int kernel)
{
  MapCtx m = map_ctx(prog, g);
  KernelPlan *k = &m.plan->kernels[kernel];
  if (!k->has_loops || !k->ncolumns)
    return true;
  ColumnCtx cx = column_ctx(&m);
  column_fuse(&cx, &k->thread);
  return true;
}

/* The GPU reductions whose updates kernel k holds (column.c has checked
 * that each lies inside the loops over every column index, and that the
 * kernel does not read the result): k->reductions, the scalars added to
 * defs (each thread's partial starts from the operator's identity). */
static void plan_kernel_reductions(MapCtx *m, KernelPlan *k, IrSymSet *defs)
{
  RegionPlan *p = m->plan;
  for (int i = 0; i < p->nreductions; i++) {
    ReductionPlan *r = &p->reductions[i];
    bool here = false;
    for (int u = 0; r->gpu && u < r->nupdates && !here; u++)
      here = ir_list_contains(&k->stmts, r->updates[u]);
    if (!here)
      continue;
    IR_PUSH(k->reductions, k->nreductions, r);
    ir_symset_add(defs, r->sym);
    r->kernel = (int)(k - p->kernels);
  }
}

/* One report line per reduction kernel k combines. */
static void report_kernel_reductions(const MapCtx *m, const KernelPlan *k)
{
  for (int i = 0; i < k->nreductions; i++) {
    const ReductionPlan *r = k->reductions[i];
    const IrStmt *first = NULL;
    for (int u = 0; u < r->nupdates && !first; u++)
      if (ir_list_contains(&k->stmts, r->updates[u]))
        first = r->updates[u];
    const char *loops = "";
    for (int c = 0; c < k->ncolumns; c++)
      loops = ir_printf("%s%s'%s'", loops, c ? ", " : "", ir_sym_user_name(k->columns[c]));
    const char *from = r->init ? ir_printf("the value assigned at line %d", diag_user_line(r->init->loc))
                               : ir_printf("the host's value of '%s'", ir_sym_user_name(r->sym));
    report_at(REPORT_INFO, routine_of(m), first->loc, "Generating reduction(%s:%s) over loop%s %s: "
              "each thread's partial result combined on the GPU, starting from %s; the result "
              "copied back to the host%s", xf_reduce_op_text(r->op), ir_sym_user_name(r->sym),
              k->ncolumns > 1 ? "s" : "", loops, from,
              r->read_after ? ir_printf(" and passed to the kernels that read it (line %d)",
                                        r->first_read_line) : "");
  }
}

/* Map a column kernel: synthetic loops over the column ranges, mapped to
 * the grid, around the thread body. */
static bool map_columns(MapCtx *m, KernelPlan *k)
{
  ColumnCtx cx = column_ctx(m);
  int x = kernel_pick_x(m->plan, k);
  /* loops: outermost first; x innermost, then in the order found */
  int order[3], no = 0;
  for (int i = 0; i < k->ncolumns; i++)
    if (i != x)
      order[no++] = i;
  order[no++] = x;
  IrStmt *outer = NULL, *inner = NULL;
  for (int i = 0; i < no; i++) {
    int c = order[i];
    IrStmt *l = ir_stmt(IR_S_DO, k->column_loop[c]->loc);
    l->u.loop.iv = k->columns[c];
    l->u.loop.lo = k->column_lo[c];
    l->u.loop.hi = k->column_hi[c];
    l->u.loop.advice = k->column_loop[c]->u.loop.advice;
    if (inner)
      ir_list_push(&inner->u.loop.body, l);
    else
      outer = l;
    inner = l;
    k->mapped[k->nmapped++] = l;
  }
  inner->u.loop.body = k->thread;
  k->nest = outer;
  k->body = &inner->u.loop.body;
  /* A scalar the thread reads before assigning it: the column conditions
   * ensure the value is not another column's (scalars assigned in the loops
   * over column indices are assigned before use there), so it is the host's
   * value at region entry, the same for every thread: firstprivate. */
  IrSymSet defs = { 0 };
  for (int i = 0; i < k->nmapped; i++)
    ir_symset_add(&defs, k->mapped[i]->u.loop.iv);
  user_privates(m, k, &defs);
  /* the GPU reductions this kernel updates: each thread starts its partial
   * result from the operator's identity */
  plan_kernel_reductions(m, k, &defs);
  IrExpr *bad;
  while ((bad = xf_first_exposed(k->body, m->plan->privates, m->plan->nprivates, defs.syms, defs.n))) {
    IrSym *s = bad->u.var;
    const ReductionPlan *r = xf_reduction_of(m->plan, s);
    if (r && r->gpu) {       /* a kernel after the one that reduced it: its result */
      ir_symset_add(&defs, s);
      IR_PUSH(k->firstprivate, k->nfirstprivate, s);
      report_at(REPORT_INFO, routine_of(m), bad->loc, "Scalar '%s' is the result of the %s "
                "reduction at line %d, passed to this kernel by value", ir_sym_user_name(s),
                xf_reduce_op_text(r->op), diag_user_line(r->updates[0]->loc));
      continue;
    }
    if (s->region_local || s->inlined_local) {
      diag_at(DIAG_ERROR, bad->loc, (int)strlen(ir_sym_user_name(s)), "'%s' may be read before it is assigned",
              ir_sym_user_name(s));
      return false;
    }
    ir_symset_add(&defs, s);
    IR_PUSH(k->firstprivate, k->nfirstprivate, s);
    report_at(REPORT_INFO, routine_of(m), bad->loc, "Scalar '%s' is firstprivate: each thread "
              "starts from the host's value at region entry", ir_sym_user_name(s));
  }
  column_report(&cx, &k->stmts, k->columns, k->ncolumns);
  for (int i = 0; i < k->ncolumns; i++)
    report_at(REPORT_INFO, routine_of(m), k->column_loop[i]->loc, "Loop is parallelizable");
  report_sequential(m, k);
  assign_axes(m->plan, k, &k->acc);
  int threads = k->block[0] * k->block[1] * k->block[2];
  if (threads > 1024) {
    diag_at(DIAG_ERROR, outer->loc, 1, "the vector lengths ask for %d threads per block; CUDA "
            "allows at most 1024", threads);
    return false;
  }
  check_unused_advice(m, k);
  report_kernel(m, k);
  report_kernel_reductions(m, k);
  return diag_error_count() == 0;
}

/* Pass "map": the loops of each kernel on the grid (x along the stride-1
 * dimension), the block shape and the firstprivate scalars; or the
 * refusal, naming the dependence. */
bool xf_pass_map(Program *prog, IrRegion *g, int kernel)
{
  MapCtx m = map_ctx(prog, g);
  KernelPlan *k = &m.plan->kernels[kernel];
  if (!k->has_loops) {
    const IrStmt *s = k->stmts.v[0];
    if (s->kind == IR_S_WHILE)
      diag_at(DIAG_ERROR, s->loc, 1, "a DO WHILE (or a loop without an index) outside every "
              "counted DO loop of the region cannot be spread over GPU threads; write it as "
              "DO i = lo, hi, or put it inside such a loop, or move it out of the region");
    else if (s->kind == IR_S_ASSIGN && s->u.assign.lhs->kind == IR_E_VAR)
      diag_at(DIAG_ERROR, s->loc, 1, "this statement assigns the scalar '%s' outside every loop "
              "of the region, which no GPU thread owns; move it before the region (a "
              "single-thread kernel for it is not implemented yet)",
              ir_sym_user_name(s->u.assign.lhs->u.var));
    else if (s->kind == IR_S_ASSIGN)
      diag_at(DIAG_ERROR, s->loc, 1, "this statement assigns an array element "
              "outside every loop of the region, which no GPU thread owns; move it out of the "
              "region (a single-thread kernel for it is not implemented yet)");
    else
      diag_at(DIAG_ERROR, s->loc, 1, "this statement is outside every DO loop of the region, "
              "and no GPU thread owns it; move it out of the region, or into a loop (a "
              "single-thread kernel for it is not implemented yet)");
    return false;
  }
  if (k->ncolumns)
    return map_columns(&m, k);
  if (k->stmts.n == 1 && k->stmts.v[0]->kind == IR_S_DO)
    return map_nest(&m, k->stmts.v[0], k);
  diag_at(DIAG_ERROR, k->stmts.v[0]->loc, 1, "no loop of these statements can run in "
          "parallel without changing the results; see the notes for each loop");
  report_sequential(&m, k);
  return false;
}

void xf_kernel_local(KernelPlan *k, IrSym *s, const char *note)
{
  int cap = k->locals_cap;
  k->locals = ir_reserve(k->locals, sizeof *k->locals, k->nlocals, &cap);
  k->local_notes = ir_reserve(k->local_notes, sizeof *k->local_notes, k->nlocals,
                              &k->locals_cap);
  k->locals[k->nlocals] = s;
  k->local_notes[k->nlocals++] = note;
}

void xf_recompute_accesses(Program *p, IrRegion *g)
{
  (void)p;
  RegionPlan *plan = g->analysis;
  HASH_CLEAR(hh, plan->owner);
  plan->acc = (DepGraph){ .nvariant = plan->nprivates, .variant = plan->privates };
  dep_collect(&g->body, &plan->acc);
  keep_in_arena(&plan->acc);
  index_body_accesses(g, plan);
}

int xf_kernel_count(const IrRegion *g)
{
  const RegionPlan *p = g->analysis;
  return p ? p->nkernels : 0;
}

/* ---- --dump-ir=NAME after a region or kernel pass ---------------------------- */

static void dump_syms(FILE *f, const char *what, IrSym *const *v, int n)
{
  fprintf(f, "    %s:", what);
  for (int i = 0; i < n; i++)
    fprintf(f, " %s", v[i]->name);
  fputc('\n', f);
}

static void dump_array(const Program *p, const ArrayPlan *a, FILE *f)
{
  fprintf(f, "    array %s%s%s", a->sym->name, a->read ? " read" : "", a->written ? " written" : "");
  if (a->privatized) {     /* no data clause: it lives in the threads */
    fputs(" privatized(", f);
    for (int d = 0; d < a->sym->rank; d++)
      fprintf(f, "%s%s", d ? "," : "", a->column_dim[d] ? "column" : ":");
    if (a->private_elems >= 0)
      fprintf(f, ") elements=%ld\n", a->private_elems);
    else
      fputs(") elements=run-time\n", f);
    return;
  }
  char box[512];
  an_box_text(a->sym, a->box_lo, a->box_hi, p->lang, box, sizeof box);
  fprintf(f, " %s(%s) %s%s%s\n", dir_clause_name(a->clause), box, a->user_clause ? "user" : "inferred",
          a->privatizable ? " privatizable" : "",
          a->not_private_why ? ir_printf(" (not per thread: %s)", a->not_private_why) : "");
}

static void dump_kernel(const KernelPlan *k, FILE *f)
{
  static const char *const axis[] = { "x", "y", "z" };
  fprintf(f, "    kernel %s: %d statement%s from line %d, %d accesses", k->name, k->stmts.n,
          k->stmts.n == 1 ? "" : "s", k->stmts.n ? diag_user_line(k->stmts.v[0]->loc) : 0,
          k->acc.nacc);
  if (k->ncolumns) {
    fputs(", columns", f);
    for (int i = 0; i < k->ncolumns; i++)
      fprintf(f, " %s", k->columns[i]->name);
  }
  fputc('\n', f);
  if (k->thread.n) {
    fputs("      thread body:\n", f);
    ir_dump_stmts(&k->thread, 4, f);
  }
  if (k->nmapped) {
    fprintf(f, "      mapped, block [%d,%d,%d]:", k->block[0], k->block[1], k->block[2]);
    for (int i = 0; i < k->nmapped; i++)
      fprintf(f, " %s->%s", k->mapped[i]->u.loop.iv->name, axis[k->axis[i]]);
    fputc('\n', f);
    fprintf(f, "      firstprivate:");
    for (int i = 0; i < k->nfirstprivate; i++)
      fprintf(f, " %s", k->firstprivate[i]->name);
    fputc('\n', f);
    if (k->nreductions) {
      fprintf(f, "      reductions:");
      for (int i = 0; i < k->nreductions; i++)
        fprintf(f, " %s:%s", xf_reduce_op_text(k->reductions[i]->op), k->reductions[i]->sym->name);
      fputc('\n', f);
    }
    if (k->coarsen > 1)   /* pass "coarsen" */
      fprintf(f, "      coarsened: %d points along y per thread\n", k->coarsen);
    for (int t = 0; t < k->ntiles; t++) {   /* pass "smem" */
      const SmemTile *tile = &k->tiles[t];
      fprintf(f, "      shared-memory tile %s: dimension %d offsets %ld..%ld, dimension %d "
              "offsets %ld..%ld, %d reads at %d offsets\n", tile->sym->name, tile->dx + 1,
              tile->xlo, tile->xhi, tile->dy + 1, tile->ylo, tile->yhi, tile->nreads,
              tile->noffsets);
    }
  }
  if (k->deps_tested) {
    fputs("      dependences:\n", f);
    dep_dump(&k->acc, f);
  }
}

void xf_dump_region(const Program *p, const IrRegion *g, int kernel, FILE *f)
{
  const RegionPlan *plan = g->analysis;
  if (kernel >= 0) {
    fprintf(f, "  region %s, kernel %d of %d\n", g->name, kernel + 1, plan->nkernels);
    dump_kernel(&plan->kernels[kernel], f);
    return;
  }
  fprintf(f, "  region %s (routine %s, lines %d-%d)\n", g->name, g->routine->name, g->first_line,
          g->last_line);
  ir_dump_stmts(&g->body, 2, f);
  if (!plan)
    return;
  fprintf(f, "    accesses: %d\n", plan->acc.nacc);
  for (int i = 0; i < plan->narrays; i++)
    dump_array(p, &plan->arrays[i], f);
  dump_syms(f, "inputs", plan->inputs, plan->ninputs);
  dump_syms(f, "privates", plan->privates, plan->nprivates);
  dump_syms(f, "params", plan->params, plan->nparams);
  for (int i = 0; i < plan->nreductions; i++) {
    const ReductionPlan *r = &plan->reductions[i];
    if (r->gpu)
      fprintf(f, "    reduction %s:%s, %d update%s, from %s%s\n", xf_reduce_op_text(r->op),
              r->sym->name, r->nupdates, r->nupdates == 1 ? "" : "s",
              r->init ? ir_printf("line %d", diag_user_line(r->init->loc)) : "the host",
              r->read_after ? ir_printf(", read from line %d", r->first_read_line) : "");
  }
  for (int k = 0; k < plan->nkernels; k++)
    dump_kernel(&plan->kernels[k], f);
  xf_dump_storage(g, f);
}
