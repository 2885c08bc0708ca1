/* map.c — choose the kernels of each region and map their loops to the grid.
 *
 * Each top-level loop nest of a region becomes one kernel.  The outermost
 * loops of the nest that are perfectly nested and carry no dependence (every
 * dependence has distance 0 along them, dep.h) are mapped to the CUDA grid,
 * at most three; the loops inside run sequentially in each thread.  The
 * mapped loop whose index runs along the stride-1 dimension of most
 * references goes to x (blockIdx.x*blockDim.x + threadIdx.x), so that
 * neighbouring threads touch neighbouring memory; the others go to y and z.
 *
 * Legality first: a loop is mapped only when the dependence tests prove it
 * parallel, or the user asserts `independent`.  Scalars written in the
 * region must be private to each thread: assigned before any read in the
 * thread's body, and not used by the host after the region.  Until the loop
 * restructuring passes exist, a region whose outermost loop cannot be
 * mapped is refused with the loop and the dependence named.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include "affine.h"
#include "plan.h"
#include "report.h"
#include "transforms.h"

typedef struct MapCtx {
  Program *prog;
  IrRegion *region;
  RegionPlan *plan;
} MapCtx;

static const char *routine_of(const MapCtx *m)
{
  return m->region->routine->name;
}

static Loc user_loc(const MapCtx *m, int line)
{
  return (Loc){ m->prog->file, line, 0 };
}

static void report(const MapCtx *m, ReportKind kind, Loc loc, const char *fmt, const char *a,
                   const char *b)
{
  report_add(kind, routine_of(m), (Loc){ loc.file, diag_user_line(loc), 0 }, fmt, a, b);
}

/* ---- scalars: privatizable? ----------------------------------------------- */

typedef struct DefSet {
  int n;
  IrSym *v[64];
} DefSet;

static bool defined(const DefSet *d, const IrSym *s)
{
  for (int i = 0; i < d->n; i++)
    if (d->v[i] == s)
      return true;
  return false;
}

static void define(DefSet *d, IrSym *s)
{
  if (!defined(d, s) && d->n < 64)
    d->v[d->n++] = s;
}

typedef struct Exposed {
  const RegionPlan *plan;
  const DefSet *defs;
  IrExpr *first;       /* first read of a private before its assignment */
} Exposed;

static bool is_private(const RegionPlan *p, const IrSym *s)
{
  for (int i = 0; i < p->nprivates; i++)
    if (p->privates[i] == s)
      return true;
  return false;
}

static void exposed_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  Exposed *x = ctx;
  (void)in;
  if (!x->first && e->kind == IR_E_VAR && is_private(x->plan, e->u.var) && !defined(x->defs, e->u.var))
    x->first = e;
}

static IrExpr *exposed_in(const RegionPlan *p, const DefSet *d, IrExpr *e)
{
  Exposed x = { p, d, NULL };
  ir_walk_expr(e, NULL, exposed_visit, &x);
  return x.first;
}

/* Walk l in order; return the first read of a private scalar that may
 * happen before the thread assigned it. */
static IrExpr *first_exposed(const RegionPlan *p, IrStmtList *l, DefSet *d)
{
  IrExpr *bad;
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    switch (s->kind) {
    case IR_S_ASSIGN:
      if ((bad = exposed_in(p, d, s->u.assign.rhs)))
        return bad;
      if (s->u.assign.lhs->kind == IR_E_VAR)
        define(d, s->u.assign.lhs->u.var);
      else if ((bad = exposed_in(p, d, s->u.assign.lhs)))
        return bad;
      break;
    case IR_S_DO: {
      if ((bad = exposed_in(p, d, s->u.loop.lo)) || (bad = exposed_in(p, d, s->u.loop.hi)))
        return bad;
      DefSet inner = *d;
      define(&inner, s->u.loop.iv);
      if ((bad = first_exposed(p, &s->u.loop.body, &inner)))
        return bad;
      define(d, s->u.loop.iv);
      break;
    }
    case IR_S_IF: {
      if ((bad = exposed_in(p, d, s->u.cond.test)))
        return bad;
      DefSet t = *d, e = *d;
      if ((bad = first_exposed(p, &s->u.cond.then, &t)) ||
          (bad = first_exposed(p, &s->u.cond.els, &e)))
        return bad;
      for (int k = 0; k < t.n; k++)
        if (defined(&e, t.v[k]))
          define(d, t.v[k]);
      break;
    }
    case IR_S_CYCLE:
    case IR_S_EXIT:
      break;
    }
  }
  return NULL;
}

/* Is `name` used in the routine's host text after line `after`?  A use
 * that is an assignment (`name =`) or a DO variable (`do name =`) redefines
 * it and ends the search.  Comments are skipped. */
static int used_after(const Program *p, const IrRoutine *r, int after, const char *name)
{
  const SourceFile *src = diag_source(p->file);
  size_t len = strlen(name);
  for (int line = after + 1; line <= r->last_line && line <= src->nlines; line++) {
    const char *s = src->line_start[line - 1];
    const char *end = line < src->nlines ? src->line_start[line] : src->text + src->len;
    for (const char *q = s; q + len <= end; q++) {
      if (*q == '\n' || (p->lang == IR_FORTRAN && *q == '!') ||
          (p->lang == IR_C && q[0] == '/' && q[1] == '/'))
        break;
      if (strncasecmp(q, name, len) || (q > s && (isalnum((unsigned char)q[-1]) || q[-1] == '_')) ||
          isalnum((unsigned char)q[len]) || q[len] == '_')
        continue;
      const char *after_name = q + len;
      while (*after_name == ' ' || *after_name == '\t')
        after_name++;
      if (*after_name == '=' && after_name[1] != '=')
        return 0;
      return line;
    }
  }
  return 0;
}

static bool check_private_scalars(MapCtx *m)
{
  RegionPlan *p = m->plan;
  IrRegion *g = m->region;
  bool ok = true;
  for (int i = 0; i < p->nprivates; i++) {
    IrSym *s = p->privates[i];
    if (s->region_local)
      continue;
    const char *what = s->is_dummy ? "a dummy argument" : s->is_module ? "a module variable" : NULL;
    int line = what ? 0 : used_after(m->prog, g->routine, g->last_line, s->name);
    if (!what && !line)
      continue;
    char where[64] = "";
    if (line)
      snprintf(where, sizeof where, "used after the region at line %d", line);
    diag_at(DIAG_ERROR, s->loc, (int)strlen(s->name), "scalar '%s' is assigned inside the region "
            "at line %d but is %s: its value after the region would be lost (each GPU thread has "
            "its own copy)", s->name, g->first_line, what ? what : where);
    ok = false;
  }
  return ok;
}

/* ---- mapping --------------------------------------------------------------- */

/* Why loop `loop` cannot be mapped, or NULL. */
static const Dep *blocking_dep(const DepGraph *dg, const IrStmt *loop)
{
  for (int i = 0; i < dg->ndeps; i++)
    if (dep_crosses(dg, &dg->deps[i], loop))
      return &dg->deps[i];
  return NULL;
}

/* Count references whose fastest subscript moves with `iv` at unit stride. */
static int stride1_refs(const DepGraph *dg, const IrSym *iv)
{
  int n = 0;
  for (int i = 0; i < dg->nacc; i++) {
    Affine f;
    const IrExpr *ref = dg->acc[i].ref;
    if (ref->u.elem.n && aff_build(ref->u.elem.sub[0], &f)) {
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
  bool simple = strspn(n, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == strlen(n);
  if (block > 1)
    snprintf(buf, size, simple ? "%s/%d" : "(%s)/%d", n, block);
  else
    snprintf(buf, size, "%s", n);
}

static void assign_axes(KernelPlan *k, const DepGraph *dg)
{
  int best = k->nmapped - 1, best_n = -1;
  for (int i = k->nmapped - 1; i >= 0; i--) {
    int n = stride1_refs(dg, k->mapped[i]->u.loop.iv);
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
  }
}

static void report_kernel(MapCtx *m, KernelPlan *k)
{
  char grid[3][300] = { "1", "1", "1" }, text[1000];
  int naxes = 0;
  for (int i = 0; i < k->nmapped; i++) {
    int a = k->axis[i];
    trip_text(k->mapped[i], k->block[a], grid[a], sizeof grid[a]);
    naxes = a + 1 > naxes ? a + 1 : naxes;
  }
  snprintf(text, sizeof text, "%s%s%s%s%s", grid[0], naxes > 1 ? " x " : "", naxes > 1 ? grid[1] : "",
           naxes > 2 ? " x " : "", naxes > 2 ? grid[2] : "");
  char block[64];
  snprintf(block, sizeof block, "%d%s", k->block[0], "");
  if (k->block[1] > 1 || k->block[2] > 1)
    snprintf(block, sizeof block, "%dx%dx%d", k->block[0], k->block[1], k->block[2]);
  report_add(REPORT_INFO, routine_of(m), user_loc(m, m->region->first_line),
             "Accelerator kernel generated: %s grid [%s] block [%s]", k->name, text, block);
  static const char *const axis_names[] = { "blockIdx.x threadIdx.x", "blockIdx.y", "blockIdx.z" };
  const char *sentinel = m->prog->lang == IR_FORTRAN ? "!$stencil" : "#pragma stencil";
  for (int i = 0; i < k->nmapped; i++) {
    int a = k->axis[i];
    char vec[32] = "";
    if (k->block[a] > 1)
      snprintf(vec, sizeof vec, ", vector(%d)", k->block[a]);
    report_add(REPORT_INFO, routine_of(m), (Loc){ m->prog->file, diag_user_line(k->mapped[i]->loc), 0 },
               "%s do parallel%s %s %s", sentinel, vec, m->prog->lang == IR_FORTRAN ? "!" : "//",
               axis_names[a]);
  }
}

static void refuse_loop(MapCtx *m, const IrStmt *loop, const DepGraph *dg, const Dep *d)
{
  char why[300];
  dep_describe(dg, d, why, sizeof why);
  const char *sentinel = m->prog->lang == IR_FORTRAN ? "!$stencil" : "#pragma stencil";
  diag_at(DIAG_ERROR, loop->loc, 1, "loop '%s' cannot run in parallel: loop carried dependence of "
          "%s between lines %d and %d; restructuring such loops is not implemented yet. If the "
          "iterations are in fact independent, put '%s do independent' before the loop",
          loop->u.loop.iv->name, why, diag_user_line(dg->acc[d->src].stmt->loc),
          diag_user_line(dg->acc[d->dst].stmt->loc), sentinel);
}

/* The scalars of the private(list) clauses of `adv`, checked: unknown
 * names and arrays (array privatization is not implemented) are errors. */
static bool private_list(MapCtx *m, const Directive *adv, DefSet *defs)
{
  for (int c = 0; adv && c < adv->nclauses; c++) {
    const DirClause *cl = &adv->clauses[c];
    for (int it = 0; cl->kind == DIR_PRIVATE && it < cl->nitems; it++) {
      const DirItem *item = &cl->items[it];
      IrSym *s = ir_lookup(m->region->routine, item->name);
      if (!s) {
        diag_at(DIAG_ERROR, item->loc, (int)strlen(item->name), "'%s' in private(...) is not a "
                "variable of routine '%s'", item->name, routine_of(m));
        return false;
      }
      if (s->rank) {
        diag_at(DIAG_ERROR, item->loc, (int)strlen(s->name), "private(%s): privatization of "
                "arrays is not implemented yet", s->name);
        return false;
      }
      if (defs)
        define(defs, s);
    }
  }
  return true;
}

/* private(list) on a mapped loop: the user's word that each iteration
 * assigns these scalars before using them (their value at the start of an
 * iteration is undefined, as in OpenACC), so they count as assigned. */
static void user_privates(MapCtx *m, const KernelPlan *k, DefSet *defs)
{
  for (int i = 0; i < k->nmapped; i++)
    private_list(m, k->mapped[i]->u.loop.advice, defs);
}

static bool is_mapped_loop(const KernelPlan *k, const IrStmt *loop)
{
  for (int i = 0; i < k->nmapped; i++)
    if (k->mapped[i] == loop)
      return true;
  return false;
}

/* Advice that asked for parallelism on a loop that stays sequential: say so. */
static void check_unused_advice(MapCtx *m, const KernelPlan *k, const IrStmtList *l)
{
  for (int i = 0; i < l->n; i++) {
    const IrStmt *s = l->v[i];
    if (s->kind == IR_S_IF) {
      check_unused_advice(m, k, &s->u.cond.then);
      check_unused_advice(m, k, &s->u.cond.els);
    }
    if (s->kind != IR_S_DO)
      continue;
    const Directive *adv = s->u.loop.advice;
    if (adv && (adv->parallel || adv->vector || adv->independent) && !is_mapped_loop(k, s))
      report(m, REPORT_WARNING, s->loc, "'%s' on loop '%s' is not followed: the loop runs "
             "sequentially in each thread (only the outermost perfectly nested parallel loops, "
             "at most three, are mapped to the grid)", adv->parallel ? "parallel"
             : adv->vector ? "vector" : "independent", s->u.loop.iv->name);
    check_unused_advice(m, k, &s->u.loop.body);
  }
}

static bool map_nest(MapCtx *m, IrStmt *nest, int index, int count)
{
  RegionPlan *p = m->plan;
  DepGraph dg = { .nvariant = p->nprivates, .variant = p->privates };
  IrStmtList one = { 1, 1, (IrStmt *[]){ nest } };
  dep_build(&one, &dg);
  KernelPlan *k = &p->kernels[index];
  k->nest = nest;
  k->name = count == 1 ? m->region->name : ir_printf("%s_k%d", m->region->name, index + 1);
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
    const Dep *d = adv && adv->independent ? NULL : blocking_dep(&dg, loop);
    if (d) {
      if (k->nmapped == 0 || (adv && adv->parallel)) {
        refuse_loop(m, loop, &dg, d);
        ok = false;
      } else {
        char why[300];
        dep_describe(&dg, d, why, sizeof why);
        report(m, REPORT_NOTE, loop->loc, "Loop carried dependence of %s keeps loop '%s' "
               "sequential in each thread", why, loop->u.loop.iv->name);
      }
      break;
    }
    if (adv && adv->independent)
      report(m, REPORT_INFO, loop->loc, "Loop '%s' is parallel as asserted by 'independent'%s",
             loop->u.loop.iv->name, "");
    else
      report(m, REPORT_INFO, loop->loc, "Loop is parallelizable%s%s", "", "");
    k->mapped[k->nmapped++] = loop;
    k->body = &loop->u.loop.body;
    if (adv && adv->kernel)
      break;
    IrStmtList *b = &loop->u.loop.body;
    loop = b->n == 1 && b->v[0]->kind == IR_S_DO ? b->v[0] : NULL;
  }
  if (ok && k->nmapped == 0) {
    diag_at(DIAG_ERROR, nest->loc, 1, "loop '%s' is marked seq, so the region has no parallel "
            "loop to map to the GPU", nest->u.loop.iv->name);
    ok = false;
  }
  DefSet defs = { 0 };
  for (int i = 0; i < k->nmapped; i++)
    define(&defs, k->mapped[i]->u.loop.iv);
  if (ok) {
    user_privates(m, k, &defs);
    IrExpr *bad = first_exposed(p, k->body, &defs);
    if (bad) {
      diag_at(DIAG_ERROR, bad->loc, (int)strlen(bad->u.var->name), "scalar '%s' may be read "
              "before it is assigned in the same iteration: a loop carried dependence that "
              "prevents running loop '%s' in parallel (reductions and recurrences over parallel "
              "loops are not supported yet)", bad->u.var->name, k->mapped[0]->u.loop.iv->name);
      ok = false;
    }
  }
  if (ok) {
    assign_axes(k, &dg);
    int threads = k->block[0] * k->block[1] * k->block[2];
    check_unused_advice(m, k, &one);
    if (threads > 1024) {
      diag_at(DIAG_ERROR, nest->loc, 1, "the vector lengths ask for %d threads per block; "
              "CUDA allows at most 1024", threads);
      ok = false;
    } else
      report_kernel(m, k);
  }
  dep_free(&dg);
  return ok;
}

/* C array parameters are pointers that may overlap, and then no
 * dependence test about distinct arrays holds.  Unless one of each pair is
 * restrict (or the user asserts independence), refuse. */
static bool check_c_aliasing(MapCtx *m)
{
  RegionPlan *p = m->plan;
  IrStmt *first = m->region->body.n ? m->region->body.v[0] : NULL;
  Directive *adv = first && first->kind == IR_S_DO ? first->u.loop.advice : NULL;
  if (m->prog->lang != IR_C || (adv && adv->independent))
    return true;
  for (int i = 0; i < p->narrays; i++) {
    const ArrayPlan *a = &p->arrays[i];
    if (!a->written || !a->sym->is_dummy || a->sym->is_restrict)
      continue;
    for (int k = 0; k < p->narrays; k++) {
      const IrSym *b = p->arrays[k].sym;
      if (k == i || !b->is_dummy || b->is_restrict || b->type != a->sym->type)
        continue;
      diag_at(DIAG_ERROR, a->sym->loc, (int)strlen(a->sym->name), "the region writes '%s' and "
              "uses '%s', pointer parameters that may overlap; declare them restrict (as in "
              "'%s *restrict %s') or put '#pragma stencil do independent' before the loop",
              a->sym->name, b->name, ir_type_c(a->sym->type), a->sym->name);
      return false;
    }
  }
  return true;
}

static bool plan_region(MapCtx *m)
{
  IrRegion *g = m->region;
  RegionPlan *p = ir_alloc(sizeof *p);
  g->analysis = p;
  m->plan = p;
  if (!an_region_accesses(g, m->prog->lang, p))
    return false;
  for (int i = 0; i < g->body.n; i++)
    if (g->body.v[i]->kind != IR_S_DO) {
      diag_at(DIAG_ERROR, g->body.v[i]->loc, 1, "this statement is outside the region's loops; "
              "until loop restructuring lands, a region must consist of loop nests only");
      return false;
    }
  p->nkernels = g->body.n;
  p->kernels = ir_alloc(sizeof *p->kernels * (size_t)p->nkernels);
  bool ok = check_private_scalars(m) && check_c_aliasing(m);
  for (int i = 0; ok && i < g->body.n; i++)
    ok = map_nest(m, g->body.v[i], i, g->body.n);
  return ok;
}

bool xf_plan_program(Program *p)
{
  bool ok = true;
  for (int r = 0; r < p->nroutines; r++)
    for (int i = 0; i < p->routines[r]->nregions; i++) {
      MapCtx m = { p, p->routines[r]->regions[i], NULL };
      ok &= plan_region(&m);
    }
  return ok;
}

/* ---- --dump-ir=plan ------------------------------------------------------- */

static void dump_syms(FILE *f, const char *what, IrSym **v, int n)
{
  fprintf(f, "    %s:", what);
  for (int i = 0; i < n; i++)
    fprintf(f, " %s", v[i]->name);
  fputc('\n', f);
}

static void dump_region_plan(const Program *p, const IrRegion *g, FILE *f)
{
  static const char *const axis[] = { "x", "y", "z" };
  const RegionPlan *plan = g->analysis;
  fprintf(f, "  plan of region %s\n", g->name);
  for (int i = 0; i < plan->narrays; i++) {
    char box[512];
    an_box_text(plan->arrays[i].sym, plan->arrays[i].box_lo, plan->arrays[i].box_hi, p->lang, box,
                sizeof box);
    fprintf(f, "    array %s(%s)%s%s%s\n", dir_clause_name(plan->arrays[i].clause), box,
            plan->arrays[i].user_clause ? " user" : " inferred", plan->arrays[i].read ? " read" : "",
            plan->arrays[i].written ? " written" : "");
  }
  dump_syms(f, "inputs", plan->inputs, plan->ninputs);
  dump_syms(f, "privates", plan->privates, plan->nprivates);
  for (int k = 0; k < plan->nkernels; k++) {
    const KernelPlan *kp = &plan->kernels[k];
    fprintf(f, "    kernel %s block [%d,%d,%d]:", kp->name, kp->block[0], kp->block[1], kp->block[2]);
    for (int i = 0; i < kp->nmapped; i++)
      fprintf(f, " %s->%s", kp->mapped[i]->u.loop.iv->name, axis[kp->axis[i]]);
    fputc('\n', f);
    DepGraph dg = { .nvariant = plan->nprivates, .variant = plan->privates };
    IrStmt *nest = kp->nest;
    IrStmtList one = { 1, 1, &nest };
    dep_build(&one, &dg);
    dep_dump(&dg, f);
    dep_free(&dg);
  }
}

void xf_dump_plan(const Program *p, void *file)
{
  ir_dump_program(p, file);
  for (int r = 0; r < p->nroutines; r++)
    for (int i = 0; i < p->routines[r]->nregions; i++)
      if (p->routines[r]->regions[i]->analysis)
        dump_region_plan(p, p->routines[r]->regions[i], file);
}
