/* contract.c — pass "contract": a work array kept per thread that one loop
 * of the thread uses a level at a time becomes a scalar (array contraction).
 *
 * Column physics stores per-level rates in work arrays: WSM5's praut(i,k),
 * psmlt(i,k), ... set to zero, computed and used in its microphysics k
 * loops.  Privatized, each lives in an interleaved slice of device memory
 * per thread, and every access is a trip through the memory system.  Once
 * fusion has made those loops one loop (column.c: scalar temporaries, loops
 * over other indices), every access of such an array happens in the
 * iteration of its own level:
 *
 *   do k = kts, kte
 *     praut(i,k) = 0.                    s2s_praut = 0.
 *     if (...) praut(i,k) = ...    ->    if (...) s2s_praut = ...
 *     ... praut(i,k) ...                 ... s2s_praut ...
 *
 * and the array is a scalar: a register, no memory at all.  Legal when
 *  - every reference of the array in the kernel lies in the body of one DO
 *    loop L (found through loops that hold all of them, such as WSM5's
 *    time-step loop), none in L's bounds;
 *  - in every reference, the dimensions kept per thread are L's index
 *    itself in one dimension and integer constants in the others (each
 *    constant, qrs(i,k,1) and qrs(i,k,2), is a scalar of its own);
 *  - each iteration of L stores the element before it reads it (the
 *    scalar is not read before it is assigned in L's body), so no value
 *    passes from one level to another or from one run of L to the next.
 * The array was privatized (no host variable, nothing after the region
 * reads it), so nothing outside the kernel needs its elements.
 * -Mnocontract (or S2S_CONTRACT=0 in the environment) turns the pass off.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>

#include "column.h"
#include "plan.h"
#include "report.h"
#include "transforms.h"
#include "visit.h"

enum { CONTRACT_MAX_SLICES = 16 };   /* scalars per array (constant subscripts) */

/* The symbols each statement of a list mentions, computed once per list
 * and shared by the arrays tried (a region of thousands of work arrays
 * would otherwise walk its body once per array). */
typedef struct ListSyms {
  const IrStmtList *list;
  IrSymSet **of_stmt;
  UT_hash_handle hh;
} ListSyms;

static IrSymSet **list_syms(ListSyms **cache, IrStmtList *l)
{
  ListSyms *e;
  HASH_FIND_PTR(*cache, &l, e);
  if (e)
    return e->of_stmt;
  e = ir_alloc(sizeof *e);
  e->list = l;
  e->of_stmt = ir_alloc(sizeof *e->of_stmt * (size_t)(l->n + 1));
  for (int i = 0; i < l->n; i++) {
    IrStmtList one = { 1, 1, &l->v[i] };
    e->of_stmt[i] = ir_list_symbols(&one);
  }
  HASH_ADD_PTR(*cache, list, e);
  return e->of_stmt;
}

/* Does a reference of a inside s have subscript `iv` itself in one of the
 * dimensions kept per thread? */
static bool indexed_by(IrStmt *s, const ArrayPlan *a, const IrSym *iv)
{
  IrElemRefs r = { a->sym, 0, 0, NULL };
  IrStmtList one = { 1, 1, &s };
  ir_walk_exprs(&one, ir_collect_elem, &r);
  for (int i = 0; i < r.n; i++)
    for (int d = 0; d < r.v[i]->u.elem.n; d++) {
      const IrExpr *sub = ir_strip_converts(r.v[i]->u.elem.sub[d]);
      if (!a->column_dim[d] && sub->kind == IR_E_VAR && sub->u.var == iv)
        return true;
    }
  return false;
}

/* The loop L of the file comment: in list l, the one statement that names
 * a is a DO loop, over the index a is subscripted with, or holding such a
 * loop the same way.  NULL when there is none. */
static IrStmt *only_loop(ListSyms **cache, IrStmtList *l, const ArrayPlan *a)
{
  IrStmt *one = NULL;
  IrSymSet **syms = list_syms(cache, l);
  for (int i = 0; i < l->n; i++)
    if (ir_symset_has(syms[i], a->sym)) {
      if (one)
        return NULL;
      one = l->v[i];
    }
  if (!one || one->kind != IR_S_DO)
    return NULL;
  if (ir_expr_mentions(one->u.loop.lo, a->sym) || ir_expr_mentions(one->u.loop.hi, a->sym))
    return NULL;
  return indexed_by(one, a, one->u.loop.iv) ? one : only_loop(cache, &one->u.loop.body, a);
}

/* The constants of a reference's other per-thread dimensions, as its slice
 * key; false when a subscript is neither L's index (in exactly one
 * dimension) nor a constant, or a column subscript differs from `first`'s. */
static bool slice_of(const ArrayPlan *a, const IrExpr *ref, const IrExpr *first, const IrSym *iv,
                     long *key)
{
  int nkey = 0, nindex = 0;
  for (int d = 0; d < ref->u.elem.n; d++) {
    const IrExpr *sub = ir_strip_converts(ref->u.elem.sub[d]);
    long c;
    if (a->column_dim[d]) {
      if (!ir_expr_equal(ref->u.elem.sub[d], first->u.elem.sub[d]))
        return false;
    } else if (sub->kind == IR_E_VAR && sub->u.var == iv) {
      nindex++;
    } else if (ir_eval_const(sub, &c)) {
      key[nkey++] = c;
    } else {
      return false;
    }
  }
  return nindex == 1;
}

typedef struct Slice {
  long key[IR_MAX_RANK];
  IrSym *scalar;
} Slice;

/* Contract array a in kernel k if the file comment's conditions hold. */
static bool contract_array(ListSyms **cache, IrRegion *g, KernelPlan *k, const ArrayPlan *a)
{
  IrStmt *L = only_loop(cache, &k->thread, a);
  if (!L)
    return false;
  IrElemRefs r = { a->sym, 0, 0, NULL };
  ir_walk_exprs(&L->u.loop.body, ir_collect_elem, &r);
  Slice slices[CONTRACT_MAX_SLICES];
  int nslices = 0, nkey = 0;
  int *slice_of_ref = ir_alloc(sizeof *slice_of_ref * (size_t)(r.n + 1));
  for (int d = 0; d < a->sym->rank; d++)
    nkey += !a->column_dim[d];
  nkey--;                             /* L's index is not part of the key */
  for (int i = 0; i < r.n; i++) {
    long key[IR_MAX_RANK] = { 0 };
    if (!slice_of(a, r.v[i], r.v[0], L->u.loop.iv, key))
      return false;
    int s = 0;
    while (s < nslices && memcmp(slices[s].key, key, sizeof key))
      s++;
    if (s == nslices) {
      if (nslices == CONTRACT_MAX_SLICES)
        return false;
      memcpy(slices[s].key, key, sizeof key);
      const char *name = nslices || nkey > 0 ? ir_printf("s2s_%s_%d", a->sym->name, s + 1)
                                             : ir_printf("s2s_%s", a->sym->name);
      slices[s].scalar = ir_new_local(g->routine, name, a->sym->type, L->loc);
      nslices++;
    }
    slice_of_ref[i] = s;
  }
  /* the references become the scalars; undone when some iteration would read
   * a scalar before storing it */
  IrExpr *saved = ir_alloc(sizeof *saved * (size_t)(r.n + 1));
  for (int i = 0; i < r.n; i++) {
    saved[i] = *r.v[i];
    r.v[i]->kind = IR_E_VAR;
    r.v[i]->u.var = slices[slice_of_ref[i]].scalar;
  }
  IrSym **vars = ir_alloc(sizeof *vars * (size_t)nslices);
  for (int s = 0; s < nslices; s++)
    vars[s] = slices[s].scalar;
  if (xf_first_exposed(&L->u.loop.body, vars, nslices, NULL, 0)) {
    for (int i = 0; i < r.n; i++)
      *r.v[i] = saved[i];
    return false;
  }
  for (int s = 0; s < nslices; s++) {
    xf_kernel_local(k, slices[s].scalar, ir_printf("array '%s' contracted", ir_sym_user_name(a->sym)));
  }
  report_at(REPORT_INFO, g->routine->name, L->loc, "Array '%s' contracted to %s in loop '%s' "
            "(not a slice per thread after all): every access is to the level the loop is at, "
            "stored before it is read; no memory per thread", ir_sym_user_name(a->sym), nslices == 1 ? "a scalar" : ir_printf("%d scalars", nslices),
            ir_sym_user_name(L->u.loop.iv));
  return true;
}

bool xf_pass_contract(Program *prog, IrRegion *g, int kernel)
{
  (void)prog;
  const char *env = getenv("S2S_CONTRACT");
  RegionPlan *p = g->analysis;
  KernelPlan *k = &p->kernels[kernel];
  if (!xf_config.contract || (env && !strcmp(env, "0")) || !k->has_loops || !k->ncolumns)
    return true;
  ListSyms *cache = NULL;
  IrSymSet *thread_syms = ir_list_symbols(&k->thread);
  for (int i = 0; i < p->narrays; i++) {
    ArrayPlan *a = &p->arrays[i];
    if (a->privatized && a->sym->rank > 0 && ir_symset_has(thread_syms, a->sym))
      contract_array(&cache, g, k, a);
  }
  HASH_CLEAR(hh, cache);
  return true;
}
