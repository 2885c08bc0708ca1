/* storage.c — the storage pass: where each array of a region lives, and the
 * parameter lists of its kernels and of its launcher.
 *
 * Runs after the mapping, on the RegionPlan it left.  An array the region
 * shares with the host lives in device memory (ARRAY_DEVICE).  A privatized
 * array keeps, per thread, the dimensions that are not indexed by a column
 * index: none left, it is a scalar (ARRAY_REGISTER); a few elements known
 * at translation time, an array in the thread (ARRAY_THREAD_LOCAL); else a
 * slice of device scratch memory (ARRAY_SCRATCH_SLICE), interleaved so that
 * neighbouring threads touch neighbouring words.
 *
 * A kernel is passed, in this order:
 *   each device array of the region and each scratch array its body uses,
 *   in the region's order: the address, the declared lower bound of every dimension and the
 *   extent of every dimension but the last (for the indexing macros);
 *   the region's input scalars its body (or the first index of a mapped
 *   loop) reads, by value;
 *   its firstprivate scalars' host values;
 *   the device accumulators of the GPU reductions it updates;
 *   the trip counts along x, y and z.
 * A region's launcher is passed its device arrays, its input scalars, its
 * GPU reductions' scalars (by reference: the result is written back) and
 * the firstprivate scalars of its kernels, each once, with the passing
 * convention of xf_launcher_param: that one function is the ABI both the
 * .cu definition and the host's declaration print.
 *
 * Module arrays the accesses pass put in constant memory (ARRAY_CONSTANT)
 * are no kernel parameter: the launcher is passed the host array and copies
 * it whole to the region's __constant__ copy; one whose subscripts turn out
 * to follow a loop on the grid keeps its data clause instead
 * (settle_constant_memory).  The pass also names the region's constants
 * (RegionPlan.consts) and reports where each module variable went.
 */
#include <stdio.h>
#include <string.h>
#include "access.h"
#include "storage.h"
#include "transforms.h"
#include "visit.h"

ArrayStorage xf_array_storage(const ArrayPlan *a)
{
  if (a->constant_memory)
    return ARRAY_CONSTANT;
  if (!a->privatized)
    return ARRAY_DEVICE;
  int kept = 0;
  for (int d = 0; d < a->sym->rank; d++)
    kept += !a->column_dim[d];
  if (!kept)
    return ARRAY_REGISTER;
  if (a->private_elems >= 0 && a->private_elems <= XF_THREAD_LOCAL_MAX_ELEMS)
    return ARRAY_THREAD_LOCAL;
  return ARRAY_SCRATCH_SLICE;
}

/* ---- launcher ABI -------------------------------------------------------- */

Param xf_launcher_param(IrLang lang, ParamRole role, IrSym *s)
{
  if (role != PARAM_ARRAY && role != PARAM_SCALAR && role != PARAM_REDUCTION)
    S2S_BUG("launcher parameter '%s' in role %d", s->name, (int)role);
  if (s->type == IR_T_VOID)
    S2S_BUG("launcher parameter '%s' has no type", s->name);
  Param a = { .role = role, .sym = s, .ctype = ir_type_c(s->type) };
  if (s->bound_of) {
    a.role = s->bound_is_upper ? PARAM_HOST_UBOUND : PARAM_HOST_LBOUND;
    a.dim = s->bound_dim;
    a.ctype = "int";    /* lbound/ubound of default kind: c_int */
  }
  /* a reduction's result is written back, through its address in C too */
  a.by_reference = a.role == PARAM_ARRAY || a.role == PARAM_REDUCTION || lang == IR_FORTRAN;
  a.read_only = a.by_reference && a.role != PARAM_ARRAY && a.role != PARAM_REDUCTION;
  return a;
}

void xf_launcher_add(ParamList *l, IrLang lang, ParamRole role, IrSym *s)
{
  for (int i = 0; i < l->n; i++)
    if (l->v[i].sym == s)
      return;
  IR_APPEND(l->v, l->n, l->cap, xf_launcher_param(lang, role, s));
}

static void plan_launcher(IrLang lang, RegionPlan *p)
{
  for (int i = 0; i < p->narrays; i++)
    if (p->arrays[i].storage == ARRAY_DEVICE || p->arrays[i].storage == ARRAY_CONSTANT)
      xf_launcher_add(&p->launcher, lang, PARAM_ARRAY, p->arrays[i].sym);
  for (int i = 0; i < p->ninputs; i++)
    xf_launcher_add(&p->launcher, lang, PARAM_SCALAR, p->inputs[i]);
  /* before the firstprivates: a kernel that reads a reduction's result has
   * it as a firstprivate, and the launcher passes one parameter per scalar */
  for (int i = 0; i < p->nreductions; i++)
    if (p->reductions[i].gpu && p->reductions[i].kernel >= 0)
      xf_launcher_add(&p->launcher, lang, PARAM_REDUCTION, p->reductions[i].sym);
  for (int k = 0; k < p->nkernels; k++)
    for (int i = 0; i < p->kernels[k].nfirstprivate; i++)
      xf_launcher_add(&p->launcher, lang, PARAM_SCALAR, p->kernels[k].firstprivate[i]);
}

/* ---- kernel parameters ---------------------------------------------------- */

static void add_param(KernelPlan *k, Param a)
{
  IR_APPEND(k->params.v, k->params.n, k->params.cap, a);
}

/* The address of array a and the bounds its indexing macro reads.  Fortran
 * arrays may not alias one another (the standard forbids a dummy argument
 * written through another); C arrays might, so only scratch and the user's
 * `restrict` parameters (all parameters under -Msafeptr) are restrict.  An array the kernel only reads is
 * const: with __restrict__, its loads may take the read-only data path. */
static void add_array_params(IrLang lang, KernelPlan *k, const ArrayPlan *a)
{
  bool scratch = a->storage == ARRAY_SCRATCH_SLICE;
  add_param(k, (Param){ .role = scratch ? PARAM_SCRATCH_BASE : PARAM_ARRAY, .sym = a->sym,
                        .ctype = ir_type_c(a->sym->type), .by_reference = true,
                        .read_only = !scratch && !ir_assignment_of(k->body, a->sym),
                        .no_alias = scratch || lang == IR_FORTRAN || xf_c_no_alias(a->sym) });
  for (int d = 0; d < a->sym->rank; d++)
    add_param(k, (Param){ .role = PARAM_LOWER_BOUND, .sym = a->sym, .dim = d, .ctype = "long" });
  for (int d = 0; d + 1 < a->sym->rank; d++)
    add_param(k, (Param){ .role = PARAM_EXTENT, .sym = a->sym, .dim = d, .ctype = "long" });
  /* a tile (pass "smem") loads only elements of the box: the device copy
   * need hold no other */
  for (int t = 0; t < k->ntiles; t++)
    if (k->tiles[t].sym == a->sym)
      for (int d = 0; d < a->sym->rank; d++) {
        add_param(k, (Param){ .role = PARAM_BOX_LOWER, .sym = a->sym, .dim = d, .ctype = "long" });
        add_param(k, (Param){ .role = PARAM_BOX_UPPER, .sym = a->sym, .dim = d, .ctype = "long" });
      }
}

/* Does kernel k read scalar s: in its body, or in the first index of a
 * mapped loop?  (The launcher computes the trip counts.) */
static bool kernel_reads(const KernelPlan *k, IrSymSet *body_syms, const IrSym *s)
{
  for (int i = 0; i < k->nmapped; i++)
    if (ir_expr_mentions(k->mapped[i]->u.loop.lo, s))
      return true;
  return ir_symset_has(body_syms, s);
}

static void plan_kernel(IrLang lang, RegionPlan *p, KernelPlan *k)
{
  /* the body's symbols once, rather than a walk per array and scalar */
  IrSymSet *body_syms = ir_list_symbols(k->body);
  for (int i = 0; i < p->narrays; i++) {
    ArrayPlan *a = &p->arrays[i];
    if (a->storage != ARRAY_DEVICE && a->storage != ARRAY_CONSTANT &&
        ir_symset_has(body_syms, a->sym))
      IR_PUSH(k->private_arrays, k->nprivate_arrays, a);
  }
  for (int i = 0; i < p->narrays; i++) {
    const ArrayPlan *a = &p->arrays[i];
    if (a->storage == ARRAY_DEVICE ||
        (a->storage == ARRAY_SCRATCH_SLICE && ir_symset_has(body_syms, a->sym)))
      add_array_params(lang, k, a);
  }
  for (int i = 0; i < p->ninputs; i++)
    if (kernel_reads(k, body_syms, p->inputs[i]))
      add_param(k, (Param){ .role = PARAM_SCALAR, .sym = p->inputs[i],
                            .ctype = ir_type_c(p->inputs[i]->type) });
  for (int i = 0; i < k->nfirstprivate; i++)
    add_param(k, (Param){ .role = PARAM_FIRSTPRIVATE, .sym = k->firstprivate[i],
                          .ctype = ir_type_c(k->firstprivate[i]->type) });
  for (int i = 0; i < k->nreductions; i++)
    add_param(k, (Param){ .role = PARAM_REDUCTION, .sym = k->reductions[i]->sym,
                          .ctype = ir_type_c(k->reductions[i]->sym->type), .by_reference = true,
                          .no_alias = true });
  for (int axis = 0; axis < 3; axis++)
    add_param(k, (Param){ .role = PARAM_TRIP, .dim = axis, .ctype = "long" });
}

/* ---- named constants -------------------------------------------------------- */

typedef struct ConstCtx {
  RegionPlan *plan;
  IrSymSet names_taken;      /* every other symbol of the region, by pointer */
} ConstCtx;

static void add_const(ConstCtx *c, IrSym *s);

static void const_uses(IrExpr *e, IrStmt *in, void *ctx)
{
  (void)in;
  if (e->kind == IR_E_VAR && e->u.var->kind == IR_SYM_PARAM)
    add_const(ctx, e->u.var);
}

/* s after the constants its value uses: the order the declarations need. */
static void add_const(ConstCtx *c, IrSym *s)
{
  RegionPlan *p = c->plan;
  for (int i = 0; i < p->nconsts; i++)
    if (p->consts[i].sym == s)
      return;
  if (!s->init || s->type == IR_T_VOID || s->rank)
    return;                  /* nothing to declare: the emitter folds what it cannot name */
  ir_walk_expr(s->init, NULL, const_uses, c);
  NamedConst k = { s, s->name };
  IR_PUSH(p->consts, p->nconsts, k);
}

static bool name_taken(const ConstCtx *c, const IrSym *self, const char *name)
{
  for (int i = 0; i < c->names_taken.n; i++)
    if (c->names_taken.syms[i] != self && !strcmp(c->names_taken.syms[i]->name, name))
      return true;
  for (int i = 0; i < c->plan->nconsts; i++)
    if (c->plan->consts[i].sym != self && !strcmp(c->plan->consts[i].name, name))
      return true;
  return false;
}

/* The region's named constants, in declaration order, each under its own
 * name unless another symbol of the region has it: an inlined routine's
 * PARAMETER `n` beside the caller's dummy `n`, or two routines' constants
 * of one name.  Those get s2s_<name>_<k>, which no Fortran or C user name
 * of the generated code takes. */
static void plan_consts(RegionPlan *p)
{
  ConstCtx c = { .plan = p };
  for (int i = 0; i < p->nparams; i++)
    add_const(&c, p->params[i]);
  for (int i = 0; i < p->narrays; i++)
    ir_symset_add(&c.names_taken, p->arrays[i].sym);
  for (int i = 0; i < p->ninputs; i++)
    ir_symset_add(&c.names_taken, p->inputs[i]);
  for (int i = 0; i < p->nprivates; i++)
    ir_symset_add(&c.names_taken, p->privates[i]);
  for (int i = 0; i < p->nconsts; i++) {
    NamedConst *k = &p->consts[i];
    for (int n = 2; name_taken(&c, k->sym, k->name); n++)
      k->name = ir_printf("s2s_%s_%d", k->sym->name, n);
  }
}

/* ---- constant memory ---------------------------------------------------------- */

/* Does a subscript of array a in kernel k follow one of the loops the
 * kernel spreads over the grid?  Then the threads of a warp read different
 * elements, which constant memory serves one at a time. */
static bool follows_grid(const KernelPlan *k, const IrSym *a)
{
  for (int i = 0; i < k->acc.nacc; i++) {
    const IrExpr *ref = k->acc.acc[i].ref;
    if (ref->u.elem.sym != a)
      continue;
    for (int d = 0; d < ref->u.elem.n; d++)
      for (int m = 0; m < k->nmapped; m++)
        if (ir_expr_mentions(ref->u.elem.sub[d], k->mapped[m]->u.loop.iv))
          return true;
  }
  return false;
}

/* The accesses pass put in constant memory the small read-only module
 * arrays whose subscripts are region invariants or indices of loops with
 * constant bounds; one such loop may be on the grid after all: that array
 * keeps its (inferred copyin) data clause. */
static void settle_constant_memory(RegionPlan *p)
{
  for (int i = 0; i < p->narrays; i++) {
    ArrayPlan *a = &p->arrays[i];
    for (int k = 0; a->constant_memory && k < p->nkernels; k++)
      if (follows_grid(&p->kernels[k], a->sym)) {
        a->constant_memory = false;
        a->constant_demoted = true;
      }
    for (int m = 0; a->constant_demoted && m < p->nmodule_vars; m++)
      if (p->module_vars[m].sym == a->sym)
        p->module_vars[m].place = MODULE_DATA_CLAUSE;
  }
}

void xf_plan_storage(const Program *prog, IrRegion *g)
{
  RegionPlan *p = g->analysis;
  if (!p || p->storage_planned)
    return;
  settle_constant_memory(p);
  for (int i = 0; i < p->narrays; i++)
    p->arrays[i].storage = xf_array_storage(&p->arrays[i]);
  for (int k = 0; k < p->nkernels; k++)
    plan_kernel(prog->lang, p, &p->kernels[k]);
  plan_launcher(prog->lang, p);
  plan_consts(p);
  p->storage_planned = true;
  an_report_module_data(prog, g, p);
}

/* ---- dump ------------------------------------------------------------------ */

static const char *storage_text(ArrayStorage s)
{
  switch (s) {
  case ARRAY_DEVICE: return "device";
  case ARRAY_REGISTER: return "register";
  case ARRAY_THREAD_LOCAL: return "thread-local";
  case ARRAY_SCRATCH_SLICE: return "scratch slice";
  case ARRAY_CONSTANT: return "constant memory";
  }
  S2S_BUG("bad ArrayStorage %d", (int)s);
}

static const char *role_text(ParamRole r)
{
  switch (r) {
  case PARAM_ARRAY: return "array";
  case PARAM_SCRATCH_BASE: return "scratch";
  case PARAM_LOWER_BOUND: return "lo";
  case PARAM_EXTENT: return "extent";
  case PARAM_SCALAR: return "scalar";
  case PARAM_FIRSTPRIVATE: return "firstprivate";
  case PARAM_TRIP: return "trip";
  case PARAM_REDUCTION: return "reduction";
  case PARAM_HOST_LBOUND: return "lbound";
  case PARAM_HOST_UBOUND: return "ubound";
  case PARAM_BOX_LOWER: return "box lo";
  case PARAM_BOX_UPPER: return "box hi";
  }
  S2S_BUG("bad ParamRole %d", (int)r);
}

/* "scalar n: const int *", "lo t 1: long" */
static void dump_params(FILE *f, const char *what, const ParamList *l)
{
  fprintf(f, "    %s:\n", what);
  for (int i = 0; i < l->n; i++) {
    const Param *a = &l->v[i];
    fprintf(f, "      %s", role_text(a->role));
    if (a->sym)
      fprintf(f, " %s", a->sym->name);
    if (a->role == PARAM_LOWER_BOUND || a->role == PARAM_EXTENT || a->role == PARAM_TRIP ||
        a->role == PARAM_HOST_LBOUND || a->role == PARAM_HOST_UBOUND ||
        a->role == PARAM_BOX_LOWER || a->role == PARAM_BOX_UPPER)
      fprintf(f, " %d", a->dim);
    fprintf(f, ": %s%s%s%s\n", a->read_only ? "const " : "", a->ctype, a->by_reference ? " *" : "",
            a->no_alias ? " restrict" : "");
  }
}

void xf_dump_storage(const IrRegion *g, void *file)
{
  FILE *f = file;
  const RegionPlan *p = g->analysis;
  if (!p || !p->storage_planned)
    return;
  fprintf(f, "  storage of region %s\n", g->name);
  for (int i = 0; i < p->narrays; i++)
    fprintf(f, "    array %s: %s\n", p->arrays[i].sym->name, storage_text(p->arrays[i].storage));
  for (int i = 0; i < p->nconsts; i++)
    fprintf(f, "    constant %s: %s\n", p->consts[i].name, ir_type_c(p->consts[i].sym->type));
  for (int k = 0; k < p->nkernels; k++)
    dump_params(f, ir_printf("kernel %s", p->kernels[k].name), &p->kernels[k].params);
  dump_params(f, ir_printf("launcher %s", g->launcher), &p->launcher);
}
