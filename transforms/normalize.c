/* normalize.c — Fortran array syntax expanded into loops (pass "normalize").
 *
 * Real column physics writes whole arrays and sections (`numdt = 1`,
 * `dz(:) = dzl(i,:)`, `wa(1:km) = 0.5*(wa(1:km)+was(1:km))`), WHERE
 * constructs and reductions over sections (`maxval(t(i,kts:kte))`).  The
 * front end keeps them as IR_E_SECTION expressions, IR_S_WHERE statements
 * and reduction intrinsics (ir.h); this pass, right after parsing and
 * before inlining, rewrites every region body and every routine body the
 * front end lowered (the callees of inlining) so that the later passes see
 * only scalar statements in ordinary DO loops:
 *
 *   a(its:ite,k) = 0.             do i = its, ite
 *                                   a(i,k) = 0.
 *                                 end do
 *   x = maxval(t(i,kts:kte))      s2s_maxval = -huge(x)
 *                                 do s2s_i1 = kts, kte
 *                                   s2s_maxval = max(s2s_maxval, t(i,s2s_i1))
 *                                 end do
 *                                 x = s2s_maxval
 *   where (q(:) < 0.) q(:) = 0.   do s2s_i1 = ..: if (q(s2s_i1) < 0.) q(s2s_i1) = 0.
 *
 * One loop per range of the section that drives the statement (the left
 * side of an assignment, the mask of a WHERE, the argument of a
 * reduction), the fastest dimension innermost as Fortran stores it; the
 * other sections are indexed at the same position of theirs.  A loop takes
 * the index of the user's own loop over the same bounds (`numdt = 1`
 * becomes `do i = its, ite` beside the user's `do i = its, ite`), or over
 * the same dimension of the array, where that index holds nothing between
 * loops (pick_index), so that the column analysis sees the loops a person
 * would have written; otherwise its index is s2s_i1, s2s_i2..  Those and
 * the temporaries s2s_maxval.. are new symbols of the routine, marked as
 * having no host variable (IrSym.inlined_local): the `s2s_` prefix is the
 * one the generated code reserves, so they clash with no user name.
 *
 * Fortran evaluates the whole right side before it stores any element.  A
 * loop does that only if no element is read after the loop stored it: a
 * right side that reads the left side's array at other elements is
 * expanded only when the offset between them is a constant along the same
 * dimensions, with the loops run in the direction that reads each element
 * before it is stored (xf_read_order); anything else is refused, never
 * guessed.  Extents must be provably equal (xf_same_extent), not assumed.
 * Reductions are evaluated into temporaries before the statement that
 * uses them, which is where Fortran evaluates them too.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE      /* open_memstream */
#endif
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "affine.h"
#include "normalize.h"
#include "report.h"
#include "visit.h"

/* A loop of the body being expanded whose index a generated loop may take
 * (pick_index). */
typedef struct Candidate {
  IrSym *iv;
  IrExpr *lo, *hi;
} Candidate;

typedef struct Norm {
  Program *prog;
  IrRoutine *routine;
  IrStmtList *body;             /* the region or routine body being expanded */
  int ncand, cand_cap;
  Candidate *cand;              /* its loops whose index holds nothing between them */
  IrSym **open;                 /* indices of the loops around the statement */
  int nopen, open_cap;
  IrSym *index[IR_MAX_RANK];    /* s2s_i1.. of this routine, made on first use */
  bool ok;
} Norm;

/* The loops of one expanded statement: the ranges of its driving section
 * (fastest first) and their indices. */
typedef struct Shape {
  const IrExpr *driver;         /* an IR_E_SECTION */
  int rank;
  const IrTriplet *range[IR_MAX_RANK];
  IrSym *iv[IR_MAX_RANK];
  XfOrder order[IR_MAX_RANK];   /* what the reads ask of each loop (xf_read_order): ANY
                                   and ASCENDING run upwards, DESCENDING downwards */
} Shape;

static bool refuse(Norm *nx, Loc at, int width, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static bool refuse(Norm *nx, Loc at, int width, const char *fmt, ...)
{
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (nx->ok)
    diag_at(DIAG_ERROR, at, width, "%s", msg);
  nx->ok = false;
  return false;
}

/* ---- expressions ---------------------------------------------------------------- */


/* a - b as a constant, when both are affine in the same terms. */
static bool const_diff(const IrExpr *a, const IrExpr *b, long *out)
{
  Affine x, y, d;
  if (!a || !b)
    return false;
  if (ir_expr_equal(a, b)) {
    *out = 0;
    return true;
  }
  if (!aff_build(a, &x) || !aff_build(b, &y))
    return false;
  aff_sub(&x, &y, &d);
  if (d.n)
    return false;
  *out = d.c;
  return true;
}

static bool same_value(const IrExpr *a, const IrExpr *b)
{
  long c;
  return const_diff(a, b, &c) && c == 0;
}

static long stride_of(const IrTriplet *t)
{
  long st = 1;
  if (t->stride && !ir_eval_const(t->stride, &st))
    return 0;
  return st;
}

/* Number of elements of a triplet with constant bounds and stride. */
static bool const_extent(const IrTriplet *t, long *out)
{
  long lo, hi, st = stride_of(t);
  if (!st || !ir_eval_const(t->lo, &lo) || !t->hi || !ir_eval_const(t->hi, &hi))
    return false;
  long n = (hi - lo + st) / st;
  *out = n > 0 ? n : 0;
  return true;
}

bool xf_same_extent(const IrTriplet *a, const IrTriplet *b)
{
  long na, nb, sa = stride_of(a), sb = stride_of(b);
  if (!sa || !sb || !a->hi || !b->hi)
    return false;
  if (const_extent(a, &na) && const_extent(b, &nb))
    return na == nb;
  if (sa != sb)
    return false;
  Affine ahi, alo, bhi, blo, da, db, d;
  if (aff_build(a->hi, &ahi) && aff_build(a->lo, &alo) && aff_build(b->hi, &bhi) &&
      aff_build(b->lo, &blo)) {
    aff_sub(&ahi, &alo, &da);
    aff_sub(&bhi, &blo, &db);
    aff_sub(&da, &db, &d);
    return d.n == 0 && d.c == 0;
  }
  return ir_expr_equal(a->lo, b->lo) && ir_expr_equal(a->hi, b->hi);
}

/* The triplet of the `j`-th range of section e (fastest first), or NULL;
 * *dim its dimension of the array. */
static const IrTriplet *range_of(const IrExpr *e, int j, int *dim)
{
  for (int d = 0; d < e->u.section.n; d++)
    if (e->u.section.dim[d].is_range && j-- == 0) {
      if (dim)
        *dim = d;
      return &e->u.section.dim[d];
    }
  return NULL;
}

/* ---- the overlap of a read with the left side ------------------------------------- */

/* Subscript d of a reference (section or element): its triplet, or NULL
 * for a scalar subscript (then *scalar). */
static const IrTriplet *subscript(const IrExpr *ref, int d, const IrExpr **scalar)
{
  if (ref->kind == IR_E_ELEM) {
    *scalar = ref->u.elem.sub[d];
    return NULL;
  }
  const IrTriplet *t = &ref->u.section.dim[d];
  *scalar = t->is_range ? NULL : t->lo;
  return t->is_range ? t : NULL;
}

/* Which range of its section dimension d is (its loop), or -1. */
static int loop_of(const IrExpr *ref, int d)
{
  if (ref->kind != IR_E_SECTION || !ref->u.section.dim[d].is_range)
    return -1;
  int j = 0;
  for (int k = 0; k < d; k++)
    j += ref->u.section.dim[k].is_range;
  return j;
}

/* Lowest and highest subscript a triplet selects, as expressions, when its
 * stride is a known constant. */
static bool triplet_span(const IrTriplet *t, const IrExpr **low, const IrExpr **high)
{
  long st = stride_of(t);
  if (!st || !t->hi)
    return false;
  *low = st > 0 ? t->lo : t->hi;
  *high = st > 0 ? t->hi : t->lo;
  return true;
}

/* Are scalar subscript s and triplet t provably apart? */
static bool scalar_outside(const IrExpr *s, const IrTriplet *t)
{
  const IrExpr *low, *high;
  long c, st = stride_of(t);
  if (!triplet_span(t, &low, &high))
    return false;
  if ((const_diff(s, low, &c) && c < 0) || (const_diff(s, high, &c) && c > 0))
    return true;
  return const_diff(s, t->lo, &c) && c % st != 0;
}

/* Do subscripts d of w and r provably select different elements? */
static bool apart_in(const IrExpr *w, const IrExpr *r, int d)
{
  const IrExpr *ws, *rs;
  const IrTriplet *wt = subscript(w, d, &ws), *rt = subscript(r, d, &rs);
  long c;
  if (!wt && !rt)
    return const_diff(rs, ws, &c) && c != 0;
  if (!wt || !rt)
    return wt ? scalar_outside(rs, wt) : scalar_outside(ws, rt);
  const IrExpr *wl, *wh, *rl, *rh;
  return triplet_span(wt, &wl, &wh) && triplet_span(rt, &rl, &rh) &&
         ((const_diff(rl, wh, &c) && c > 0) || (const_diff(wl, rh, &c) && c > 0));
}

/* The read r at iteration t of the loops reads the element the assignment
 * stores at iteration t + dist (per loop, in iterations); false when that
 * is not a constant shift along the same dimensions. *never: the two
 * never meet (an offset that is not a multiple of the stride). */
static bool shift_of(const IrExpr *w, const IrExpr *r, long dist[IR_MAX_RANK], bool *never)
{
  *never = false;
  for (int d = 0; d < w->u.section.n; d++) {
    const IrExpr *ws, *rs;
    const IrTriplet *wt = subscript(w, d, &ws), *rt = subscript(r, d, &rs);
    long c, st;
    if (!wt && !rt) {
      if (!same_value(ws, rs))
        return false;
      continue;
    }
    if (!wt || !rt || loop_of(w, d) != loop_of(r, d) || (st = stride_of(wt)) == 0 ||
        st != stride_of(rt) || !const_diff(rt->lo, wt->lo, &c))
      return false;
    if (c % st)
      *never = true;
    dist[loop_of(w, d)] = c / st;
  }
  return true;
}

XfOrder xf_read_order(const IrExpr *lhs, const IrExpr *ref, int *loop)
{
  int n = lhs->u.section.n;
  for (int d = 0; d < n; d++)
    if (apart_in(lhs, ref, d))
      return XF_ORDER_ANY;
  long dist[IR_MAX_RANK] = { 0 };
  bool never;
  if (!shift_of(lhs, ref, dist, &never))
    return XF_ORDER_UNKNOWN;
  if (never)
    return XF_ORDER_ANY;
  /* the outermost loop the two iterations differ in decides which runs
   * first: it must reach the read before the store */
  for (int j = ir_expr_rank(lhs) - 1; j >= 0; j--)
    if (dist[j]) {
      *loop = j;
      return dist[j] > 0 ? XF_ORDER_ASCENDING : XF_ORDER_DESCENDING;
    }
  return XF_ORDER_ANY;
}

/* ---- symbols ------------------------------------------------------------------------ */

/* A new integer or other scalar of the routine with no host variable,
 * named `base` or base_2, base_3.. where that is taken. */
static IrSym *new_scalar(Norm *nx, const char *base, IrType type, Loc loc)
{
  return ir_new_local(nx->routine, base, type, loc);
}

/* The index of loop j (0: the fastest dimension) of expanded statements
 * that find no index of the user's: one per routine, shared by all of them
 * (their loops never nest). */
static IrSym *loop_index(Norm *nx, int j, Loc loc)
{
  if (!nx->index[j])
    nx->index[j] = new_scalar(nx, ir_printf("s2s_i%d", j + 1), IR_T_INT, loc);
  return nx->index[j];
}

/* ---- indices of the user's ------------------------------------------------------------ */

/* A generated loop over its..ite reads best, and is analysed as the same
 * column loop, when it runs over `i` like the user's `do i = its, ite`.
 * It may take an index of the body's loops that holds nothing between
 * them: every mention of it in the body is inside a loop over it (so no
 * statement reads a value it left, and the host never sees the loop
 * indices of a region), and it is not the index of a loop around the
 * statement. */

typedef struct IndexUse { const IrSym *iv; bool other_use; } IndexUse;

static void index_use_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  IndexUse *u = ctx;
  (void)in;
  u->other_use |= e->kind == IR_E_VAR && e->u.var == u->iv;
}

static IrVisitStep index_use_pre(IrStmt *s, IrVisit *v)
{
  IndexUse *u = v->ctx;
  bool own = s->kind == IR_S_DO && s->u.loop.iv == u->iv;
  if (own) {
    ir_walk_expr(s->u.loop.lo, s, index_use_visit, u);
    ir_walk_expr(s->u.loop.hi, s, index_use_visit, u);
  } else {
    ir_walk_stmt_exprs(s, index_use_visit, u);
  }
  if (u->other_use)
    return IR_VISIT_STOP;
  return own ? IR_VISIT_SKIP_CHILDREN : IR_VISIT_CONTINUE;
}

static bool holds_nothing(IrStmtList *body, const IrSym *iv)
{
  IndexUse u = { iv, false };
  IrVisit v = { .pre = index_use_pre, .ctx = &u };
  ir_visit_stmts(body, &v);
  return !u.other_use;
}

typedef struct CandidateScan { Norm *nx; IrSymSet seen, reusable; } CandidateScan;

static IrVisitStep candidate_pre(IrStmt *s, IrVisit *v)
{
  CandidateScan *c = v->ctx;
  Norm *nx = c->nx;
  if (s->kind != IR_S_DO || s->u.loop.iv->kind != IR_SYM_VAR || s->u.loop.iv->rank ||
      !ir_type_is_integer(s->u.loop.iv->type))
    return IR_VISIT_CONTINUE;
  long st = 1;
  if (s->u.loop.step && (!ir_eval_const(s->u.loop.step, &st) || (st != 1 && st != -1)))
    return IR_VISIT_CONTINUE;
  if (ir_symset_add(&c->seen, s->u.loop.iv) && holds_nothing(nx->body, s->u.loop.iv))
    ir_symset_add(&c->reusable, s->u.loop.iv);
  if (!ir_symset_has(&c->reusable, s->u.loop.iv))
    return IR_VISIT_CONTINUE;
  Candidate k = { s->u.loop.iv, st > 0 ? s->u.loop.lo : s->u.loop.hi,
                  st > 0 ? s->u.loop.hi : s->u.loop.lo };
  IR_APPEND(nx->cand, nx->ncand, nx->cand_cap, k);
  return IR_VISIT_CONTINUE;
}

static void find_candidates(Norm *nx, IrStmtList *body)
{
  CandidateScan c = { .nx = nx };
  IrVisit v = { .pre = candidate_pre, .ctx = &c };
  nx->body = body;
  nx->ncand = 0;
  ir_visit_stmts(body, &v);
}

static bool index_free(const Norm *nx, const Shape *sh, int j, const IrSym *iv)
{
  for (int i = 0; i < nx->nopen; i++)
    if (nx->open[i] == iv)
      return false;
  for (int i = 0; i < j; i++)
    if (sh->iv[i] == iv)
      return false;
  return true;
}

/* Does the body subscript dimension `dim` of array a with index iv
 * somewhere (`a(i,k)` for k along dimension 2)? */
typedef struct SubscriptUse { const IrSym *a, *iv; int dim; bool found; } SubscriptUse;

static void subscript_use_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  SubscriptUse *u = ctx;
  (void)in;
  if (e->kind == IR_E_ELEM && e->u.elem.sym == u->a && u->dim < e->u.elem.n) {
    const IrExpr *x = e->u.elem.sub[u->dim];
    u->found |= x->kind == IR_E_VAR && x->u.var == u->iv;
  }
}

static bool subscripts_with(Norm *nx, const IrSym *a, int dim, const IrSym *iv)
{
  SubscriptUse u = { a, iv, dim, false };
  ir_walk_exprs(nx->body, subscript_use_visit, &u);
  return u.found;
}

/* The index of the shape's loop j: the index of a user's loop over the
 * same bounds; else one the body subscripts the same dimension of the
 * driving array with (`k` for out(i,2:km,j) where the body has out(i,k,j));
 * else s2s_i<j+1>. */
static IrSym *pick_index(Norm *nx, const Shape *sh, int j, Loc loc)
{
  const IrTriplet *t = sh->range[j];
  long st = stride_of(t);
  if (st != 1 && st != -1)     /* over a user's index it would read as a strided column loop */
    return loop_index(nx, j, loc);
  const IrExpr *lo = st > 0 ? t->lo : t->hi, *hi = st > 0 ? t->hi : t->lo;
  for (int i = 0; i < nx->ncand; i++) {
    const Candidate *c = &nx->cand[i];
    if (index_free(nx, sh, j, c->iv) && same_value(c->lo, lo) && same_value(c->hi, hi))
      return c->iv;
  }
  int dim = 0;
  range_of(sh->driver, j, &dim);
  for (int i = 0; i < nx->ncand; i++) {
    IrSym *iv = nx->cand[i].iv;
    if (index_free(nx, sh, j, iv) && subscripts_with(nx, sh->driver->u.section.sym, dim, iv))
      return iv;
  }
  return loop_index(nx, j, loc);
}

/* ---- sections of an expression ------------------------------------------------------ */

typedef struct Sections {
  int n, cap;
  IrExpr **v;
} Sections;

/* The sections of e whose elements e's value is made of: not those in
 * subscripts (scalar there, checked by the front end). */
static void collect_sections(IrExpr *e, Sections *out)
{
  switch (e->kind) {
  case IR_E_SECTION:
    IR_APPEND(out->v, out->n, out->cap, e);
    break;
  case IR_E_UNARY: collect_sections(e->u.unary.arg, out); break;
  case IR_E_BINARY:
    collect_sections(e->u.binary.lhs, out);
    collect_sections(e->u.binary.rhs, out);
    break;
  case IR_E_CONVERT: collect_sections(e->u.operand, out); break;
  case IR_E_COND:
    collect_sections(e->u.cond.test, out);
    collect_sections(e->u.cond.then, out);
    collect_sections(e->u.cond.els, out);
    break;
  case IR_E_CALL:
    if (!ir_is_reduction(e) && e->u.call.fn != IR_FN_USER && e->u.call.fn != IR_FN_PRESENT)
      for (int i = 0; i < e->u.call.n; i++)
        collect_sections(e->u.call.args[i], out);
    break;
  default:
    break;
  }
}

/* A bound as the user would write it: "n-1" for an affine one. */
static void print_bound(const IrExpr *e, FILE *f)
{
  Affine a;
  char buf[256];
  if (aff_build(e, &a)) {
    aff_print(&a, buf, sizeof buf);
    fputs(buf, f);
  } else {
    ir_dump_expr(e, f);
  }
}

/* A section for messages, `a(2:n-1,k)` (arena text). */
static const char *section_text(const IrExpr *e)
{
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  if (e->kind != IR_E_SECTION) {
    ir_dump_expr(e, f);
  } else {
    fprintf(f, "%s(", e->u.section.sym->name);
    for (int d = 0; d < e->u.section.n; d++) {
      const IrTriplet *t = &e->u.section.dim[d];
      fputs(d ? "," : "", f);
      print_bound(t->lo, f);
      if (t->is_range) {
        fputc(':', f);
        if (t->hi)
          print_bound(t->hi, f);
        if (t->stride) {
          fputc(':', f);
          print_bound(t->stride, f);
        }
      }
    }
    fputc(')', f);
  }
  fclose(f);
  char *s = ir_strdup(buf);
  free(buf);
  return s;
}

static int width_of(const IrExpr *e)
{
  return (int)strlen(e->u.section.sym->name);
}

/* Every range of e's sections has a declared upper bound and a constant
 * stride, and conforms to the shape's driver (same rank, extents provably
 * equal); `what` names e for the messages. */
static bool conforms(Norm *nx, const Shape *sh, IrExpr *e, bool may_be_scalar, const char *what)
{
  Sections secs = { 0 };
  collect_sections(e, &secs);
  int rank = ir_expr_rank(e);
  if (rank == 0 && may_be_scalar)
    return true;
  if (rank != sh->rank)
    return refuse(nx, e->loc, 1, "%s has rank %d, but %s has rank %d: the shapes do not conform",
                  what, rank, section_text(sh->driver), sh->rank);
  for (int i = 0; i < secs.n; i++) {
    IrExpr *s = secs.v[i];
    if (ir_expr_rank(s) != sh->rank)
      return refuse(nx, s->loc, width_of(s), "'%s' has rank %d, but %s has rank %d: the shapes "
                    "do not conform", section_text(s), ir_expr_rank(s), section_text(sh->driver),
                    sh->rank);
    for (int j = 0; j < sh->rank; j++) {
      int d;
      const IrTriplet *t = range_of(s, j, &d);
      if (!t->hi)
        return refuse(nx, s->loc, width_of(s), "the section of '%s' has no upper bound in "
                      "dimension %d (assumed size); give it explicitly", s->u.section.sym->name,
                      d + 1);
      if (!stride_of(t))
        return refuse(nx, s->loc, width_of(s), "the stride of '%s' in dimension %d is not a "
                      "constant; array syntax inside a region needs constant strides",
                      s->u.section.sym->name, d + 1);
      if (!xf_same_extent(t, sh->range[j]))
        return refuse(nx, s->loc, width_of(s), "the extents of %s and %s are not provably equal "
                      "in their %s range; give both sections the same bounds, or write the loop "
                      "explicitly", section_text(s), section_text(sh->driver),
                      j == 0 ? "first" : j == 1 ? "second" : ir_printf("%dth", j + 1));
    }
  }
  return true;
}

/* The shape driven by section `driver` (its ranges, upwards). */
static bool shape_of(Norm *nx, IrExpr *driver, Shape *sh, Loc loc)
{
  *sh = (Shape){ .driver = driver, .rank = ir_expr_rank(driver) };
  for (int j = 0; j < sh->rank; j++) {
    sh->range[j] = range_of(driver, j, NULL);
    sh->iv[j] = pick_index(nx, sh, j, loc);
    sh->order[j] = XF_ORDER_ANY;
  }
  return conforms(nx, sh, driver, false, "the section");
}

/* ---- element expressions ------------------------------------------------------------- */

static IrExpr *int_add(IrExpr *e, long c, Loc loc)
{
  if (c == 0)
    return e;
  return ir_binary(c > 0 ? IR_OP_ADD : IR_OP_SUB, e, ir_int(c > 0 ? c : -c, loc), loc);
}

/* The subscript of triplet t at the position the driver's triplet dt has
 * at index iv. */
static IrExpr *position_in(const IrTriplet *t, const IrTriplet *dt, IrSym *iv, Loc loc)
{
  IrExpr *at = ir_var(iv, loc);
  long st = stride_of(t), dst = stride_of(dt), c;
  if (t == dt)
    return at;
  if (st == dst && const_diff(t->lo, dt->lo, &c))
    return int_add(at, c, loc);
  IrExpr *steps = ir_binary(IR_OP_SUB, at, ir_expr_copy(dt->lo), loc);      /* iv - lo' */
  if (st != dst && dst != 1)
    steps = ir_binary(IR_OP_DIV, steps, ir_int(dst, loc), loc);
  if (st != dst && st != 1)
    steps = ir_binary(IR_OP_MUL, steps, ir_int(st, loc), loc);
  return ir_binary(IR_OP_ADD, ir_expr_copy(t->lo), steps, loc);
}

/* e at the shape's current element: each section becomes its element at
 * the loop indices; scalars are copied. */
static IrExpr *element_of(const Shape *sh, const IrExpr *e)
{
  if (e->kind != IR_E_SECTION) {
    IrExpr *c = ir_expr_copy(e);
    switch (e->kind) {
    case IR_E_UNARY: c->u.unary.arg = element_of(sh, e->u.unary.arg); break;
    case IR_E_BINARY:
      c->u.binary.lhs = element_of(sh, e->u.binary.lhs);
      c->u.binary.rhs = element_of(sh, e->u.binary.rhs);
      break;
    case IR_E_CONVERT: c->u.operand = element_of(sh, e->u.operand); break;
    case IR_E_COND:
      c->u.cond.test = element_of(sh, e->u.cond.test);
      c->u.cond.then = element_of(sh, e->u.cond.then);
      c->u.cond.els = element_of(sh, e->u.cond.els);
      break;
    case IR_E_CALL:
      if (!ir_is_reduction(e) && e->u.call.fn != IR_FN_USER && e->u.call.fn != IR_FN_PRESENT)
        for (int i = 0; i < e->u.call.n; i++)
          c->u.call.args[i] = element_of(sh, e->u.call.args[i]);
      break;
    default:
      break;
    }
    return c;
  }
  IrExpr *el = ir_expr_new(IR_E_ELEM, e->type, e->loc);
  el->u.elem.sym = e->u.section.sym;
  el->u.elem.n = e->u.section.n;
  int j = 0;
  for (int d = 0; d < e->u.section.n; d++) {
    const IrTriplet *t = &e->u.section.dim[d];
    el->u.elem.sub[d] = !t->is_range ? ir_expr_copy(t->lo)
                      : position_in(t, sh->range[j], sh->iv[j], e->loc);
    j += t->is_range;
  }
  return el;
}

/* The loops of the shape around `body`, the last range outermost. */
static IrStmt *loop_nest(const Shape *sh, IrStmtList body, Loc loc)
{
  IrStmt *inner = NULL;
  for (int j = 0; j < sh->rank; j++) {
    const IrTriplet *t = sh->range[j];
    IrStmt *loop = ir_stmt(IR_S_DO, loc);
    long st = stride_of(t);
    bool down = sh->order[j] == XF_ORDER_DESCENDING;   /* unit strides only (expand_assignment) */
    loop->u.loop.iv = sh->iv[j];
    loop->u.loop.lo = ir_convert(ir_expr_copy(down ? t->hi : t->lo), IR_T_INT);
    loop->u.loop.hi = ir_convert(ir_expr_copy(down ? t->lo : t->hi), IR_T_INT);
    if (st != 1 || down)
      loop->u.loop.step = ir_int(down ? -st : st, loc);
    loop->u.loop.end_loc = loc;
    if (inner)
      ir_list_push(&loop->u.loop.body, inner);
    else
      loop->u.loop.body = body;
    inner = loop;
  }
  return inner;
}

static IrStmt *if_then(IrExpr *test, IrStmt *then, Loc loc)
{
  IrStmt *s = ir_stmt(IR_S_IF, loc);
  s->u.cond.test = test;
  ir_list_push(&s->u.cond.then, then);
  return s;
}

/* ---- reductions ------------------------------------------------------------------------- */

/* huge(x) of type t, negated with `negative` (and less one for integers:
 * gfortran's maxval of nothing is -huge-1). */
static IrExpr *huge_of(IrType t, bool negative, Loc loc)
{
  IrExpr *h;
  if (ir_type_is_real(t)) {
    h = ir_expr_new(IR_E_REAL, t, loc);
    h->u.real = t == IR_T_REAL8 ? "1.7976931348623157e+308" : "3.40282347e+38";
  } else {
    h = ir_int(t == IR_T_INT8 ? 9223372036854775807L : 2147483647L, loc);
    h->type = t;
  }
  if (!negative)
    return h;
  IrExpr *neg = ir_expr_new(IR_E_UNARY, t, loc);
  neg->u.unary.op = IR_OP_NEG;
  neg->u.unary.arg = h;
  if (ir_type_is_real(t))
    return neg;
  IrExpr *one = ir_int(1, loc);
  one->type = t;
  return ir_binary(IR_OP_SUB, neg, one, loc);
}

static IrExpr *typed_int(long v, IrType t, Loc loc)
{
  if (ir_type_is_real(t)) {
    IrExpr *r = ir_expr_new(IR_E_REAL, t, loc);
    r->u.real = v ? "1.0" : "0.0";
    return r;
  }
  IrExpr *e = ir_int(v, loc);
  e->type = t;
  return e;
}

static IrExpr *logical(bool v, Loc loc)
{
  IrExpr *e = ir_expr_new(IR_E_LOGICAL, IR_T_LOGICAL, loc);
  e->u.ival = v;
  return e;
}

static IrExpr *call2(IrIntrinsic fn, IrExpr *a, IrExpr *b, Loc loc)
{
  IrExpr *e = ir_expr_new(IR_E_CALL, a->type, loc);
  e->u.call.fn = fn;
  e->u.call.n = 2;
  e->u.call.args = ir_alloc(sizeof *e->u.call.args * 2);
  e->u.call.args[0] = a;
  e->u.call.args[1] = b;
  return e;
}

/* The 1-based position of the shape's current element in its (rank-1)
 * section: (iv - lo)/stride + 1. */
static IrExpr *position(const Shape *sh, Loc loc)
{
  const IrTriplet *t = sh->range[0];
  long lo, st = stride_of(t);
  IrExpr *at = ir_var(sh->iv[0], loc);
  if (st == 1 && ir_eval_const(t->lo, &lo))
    return int_add(at, 1 - lo, loc);
  IrExpr *off = ir_binary(IR_OP_SUB, at, ir_convert(ir_expr_copy(t->lo), IR_T_INT), loc);
  if (st != 1)
    off = ir_binary(IR_OP_DIV, off, ir_int(st, loc), loc);
  return int_add(off, 1, loc);
}

static const char *temp_name(IrIntrinsic fn)
{
  return ir_printf("s2s_%s", ir_intrinsic_name(fn));
}

/* The statements that compute reduction r into a new temporary, appended
 * to out; the temporary is returned. */
static IrSym *expand_reduction(Norm *nx, IrExpr *r, IrStmtList *out)
{
  IrExpr *x = r->u.call.args[0], *mask = r->u.call.n > 1 ? r->u.call.args[1] : NULL;
  IrIntrinsic fn = r->u.call.fn;
  Loc loc = r->loc;
  Sections secs = { 0 };
  collect_sections(x, &secs);
  Shape sh;
  if (!secs.n) {
    refuse(nx, loc, 1, "the argument of '%s' is not an array", ir_intrinsic_name(fn));
    return NULL;
  }
  if (!shape_of(nx, secs.v[0], &sh, loc) ||
      !conforms(nx, &sh, x, false, ir_printf("the argument of '%s'", ir_intrinsic_name(fn))) ||
      (mask && !conforms(nx, &sh, mask, true, ir_printf("the mask of '%s'", ir_intrinsic_name(fn)))))
    return NULL;
  IrSym *t = new_scalar(nx, temp_name(fn), r->type, loc), *best = NULL;
  IrExpr *el = element_of(&sh, x), *init;
  IrStmt *step;
  switch (fn) {
  case IR_FN_MAXVAL:
  case IR_FN_MINVAL:
    init = huge_of(t->type, fn == IR_FN_MAXVAL, loc);
    step = ir_assign(ir_var(t, loc), call2(fn == IR_FN_MAXVAL ? IR_FN_MAX : IR_FN_MIN,
                                        ir_var(t, loc), el, loc), loc);
    break;
  case IR_FN_SUM:
  case IR_FN_PRODUCT:
    init = typed_int(fn == IR_FN_PRODUCT, t->type, loc);
    step = ir_assign(ir_var(t, loc), ir_binary(fn == IR_FN_SUM ? IR_OP_ADD : IR_OP_MUL,
                                            ir_var(t, loc), el, loc), loc);
    break;
  case IR_FN_ANY:
  case IR_FN_ALL:
    init = logical(fn == IR_FN_ALL, loc);
    step = ir_assign(ir_var(t, loc), ir_binary(fn == IR_FN_ANY ? IR_OP_OR : IR_OP_AND,
                                            ir_var(t, loc), el, loc), loc);
    break;
  case IR_FN_COUNT:
    init = typed_int(0, IR_T_INT, loc);
    step = if_then(el, ir_assign(ir_var(t, loc), int_add(ir_var(t, loc), 1, loc), loc), loc);
    break;
  default: {          /* maxloc, minloc: the first extreme element wins */
    best = new_scalar(nx, ir_printf("%s_value", temp_name(fn)), x->type, loc);
    init = typed_int(0, IR_T_INT, loc);
    IrExpr *better = ir_binary(fn == IR_FN_MAXLOC ? IR_OP_GT : IR_OP_LT, el, ir_var(best, loc), loc);
    IrExpr *first = ir_binary(IR_OP_EQ, ir_var(t, loc), ir_int(0, loc), loc);
    step = if_then(ir_binary(IR_OP_OR, first, better, loc),
                   ir_assign(ir_var(best, loc), element_of(&sh, x), loc), loc);
    ir_list_push(&step->u.cond.then, ir_assign(ir_var(t, loc), position(&sh, loc), loc));
    ir_list_push(out, ir_assign(ir_var(best, loc), huge_of(x->type, fn == IR_FN_MAXLOC, loc), loc));
    break;
  }
  }
  ir_list_push(out, ir_assign(ir_var(t, loc), init, loc));
  if (mask)
    step = if_then(element_of(&sh, mask), step, loc);
  IrStmtList body = { 0 };
  ir_list_push(&body, step);
  ir_list_push(out, loop_nest(&sh, body, loc));
  return t;
}

/* Replace the reductions in *ep (innermost first) by temporaries computed
 * by statements appended to out. */
static void hoist_reductions(Norm *nx, IrExpr **ep, IrStmtList *out)
{
  IrExpr *e = *ep;
  if (!e || !nx->ok)
    return;
  switch (e->kind) {
  case IR_E_ELEM:
    for (int i = 0; i < e->u.elem.n; i++)
      hoist_reductions(nx, &e->u.elem.sub[i], out);
    break;
  case IR_E_SECTION:
    for (int i = 0; i < e->u.section.n; i++) {
      hoist_reductions(nx, &e->u.section.dim[i].lo, out);
      hoist_reductions(nx, &e->u.section.dim[i].hi, out);
      hoist_reductions(nx, &e->u.section.dim[i].stride, out);
    }
    break;
  case IR_E_UNARY: hoist_reductions(nx, &e->u.unary.arg, out); break;
  case IR_E_BINARY:
    hoist_reductions(nx, &e->u.binary.lhs, out);
    hoist_reductions(nx, &e->u.binary.rhs, out);
    break;
  case IR_E_CONVERT: hoist_reductions(nx, &e->u.operand, out); break;
  case IR_E_COND:
    hoist_reductions(nx, &e->u.cond.test, out);
    hoist_reductions(nx, &e->u.cond.then, out);
    hoist_reductions(nx, &e->u.cond.els, out);
    break;
  case IR_E_CALL:
    for (int i = 0; i < e->u.call.n; i++)
      hoist_reductions(nx, &e->u.call.args[i], out);
    if (ir_is_reduction(e) && nx->ok) {
      IrSym *t = expand_reduction(nx, e, out);
      if (t)
        *ep = ir_var(t, e->loc);
    }
    break;
  default:
    break;
  }
}

/* ---- what stays refused ------------------------------------------------------------------ */

/* An array-valued argument of a function of the program, or of present():
 * the inliner binds actuals to dummies and has no array temporaries. */
static void check_function_args(IrExpr *e, IrStmt *in, void *ctx)
{
  Norm *nx = ctx;
  (void)in;
  if (e->kind != IR_E_CALL || (e->u.call.fn != IR_FN_USER && e->u.call.fn != IR_FN_PRESENT))
    return;
  for (int i = 0; i < e->u.call.n; i++)
    if (ir_expr_rank(e->u.call.args[i]) > 0)
      refuse(nx, e->u.call.args[i]->loc, 1, "array-valued argument of function '%s' inside a "
             "region is not supported (array-valued actuals and results of functions are not "
             "expanded); pass a whole array, an element, or call it in an explicit loop",
             e->u.call.name ? e->u.call.name : "present");
}

/* A scalar context (an IF test, a DO bound, a scalar assignment, a CALL
 * actual) given an array value. */
static bool scalar_expected(Norm *nx, IrExpr *e, const char *what)
{
  if (!e || ir_expr_rank(e) == 0)
    return true;
  Sections secs = { 0 };
  collect_sections(e, &secs);
  IrExpr *at = secs.n ? secs.v[0] : e;
  return refuse(nx, at->loc, at->kind == IR_E_SECTION ? width_of(at) : 1, "%s is an array "
                "(%s) where a scalar is needed; %s", what, section_text(at),
                !strcmp(what, "the condition of IF") ? "use WHERE for an array condition"
                : "index it with a scalar or reduce it (sum, maxval, ...)");
}

/* ---- statements ---------------------------------------------------------------------------- */

static void normalize_list(Norm *nx, IrStmtList *l);

/* Every read of the left side's array on the right side, and in the left
 * side's own subscripts: the loop order that keeps each read before the
 * store, or a refusal. */
typedef struct Reads {
  Norm *nx;
  Shape *sh;
  const IrExpr *lhs;
  bool ok;
  IrExpr *conflict;
} Reads;

static void order_read(IrExpr *e, IrStmt *in, void *ctx)
{
  Reads *r = ctx;
  (void)in;
  if (!r->ok || e == r->lhs)
    return;
  const IrSym *a = r->lhs->u.section.sym;
  if (!((e->kind == IR_E_SECTION && e->u.section.sym == a) || (e->kind == IR_E_ELEM && e->u.elem.sym == a)))
    return;
  int j = -1;
  XfOrder o = xf_read_order(r->lhs, e, &j);
  if (o == XF_ORDER_ANY)
    return;
  if (o == XF_ORDER_UNKNOWN) {
    r->ok = false;
    r->conflict = e;
    return;
  }
  /* another read may want the loop the other way; downwards is only
   * written for unit strides (hi:lo:-1 selects the same elements) */
  long st = stride_of(r->sh->range[j]);
  if ((r->sh->order[j] != XF_ORDER_ANY && r->sh->order[j] != o) ||
      (o == XF_ORDER_DESCENDING && st != 1 && st != -1)) {
    r->ok = false;
    r->conflict = e;
    return;
  }
  r->sh->order[j] = o;
}

/* a(its:ite,k) = expr: a loop nest storing each element. */
static void expand_assignment(Norm *nx, IrStmt *s, IrStmtList *out)
{
  IrExpr *lhs = s->u.assign.lhs, *rhs = s->u.assign.rhs;
  Shape sh;
  if (!shape_of(nx, lhs, &sh, s->loc) || !conforms(nx, &sh, rhs, true, "the right side"))
    return;
  /* the subscripts of the left side are evaluated at every element */
  for (int d = 0; d < lhs->u.section.n; d++) {
    const IrTriplet *t = &lhs->u.section.dim[d];
    if (ir_expr_mentions(t->lo, lhs->u.section.sym) || ir_expr_mentions(t->hi, lhs->u.section.sym)) {
      refuse(nx, lhs->loc, width_of(lhs), "the subscripts of %s read '%s' itself; compute them "
             "into a variable first", section_text(lhs), lhs->u.section.sym->name);
      return;
    }
  }
  Reads reads = { nx, &sh, lhs, true, NULL };
  ir_walk_expr(rhs, s, order_read, &reads);
  if (!reads.ok) {
    IrExpr *c = reads.conflict;
    refuse(nx, c->loc, c->kind == IR_E_SECTION ? width_of(c) : (int)strlen(c->u.elem.sym->name),
           "the right side reads %s, which overlaps %s on the left in a way no loop order keeps "
           "right (Fortran evaluates the whole right side before storing); copy the right side "
           "into a temporary array first, or write the loop explicitly", section_text(c),
           section_text(lhs));
    return;
  }
  for (int j = 0; j < sh.rank; j++)
    if (sh.order[j] == XF_ORDER_DESCENDING)
      report_at(REPORT_INFO, nx->routine->name, s->loc, "Array assignment to %s expanded into a "
                "loop that runs downwards along its %s range: the right side reads elements an "
                "upward loop would store first", section_text(lhs),
                j == 0 ? "first" : j == 1 ? "second" : ir_printf("%dth", j + 1));
  IrStmtList body = { 0 };
  ir_list_push(&body, ir_assign(element_of(&sh, lhs), element_of(&sh, rhs), s->loc));
  ir_list_push(out, loop_nest(&sh, body, s->loc));
}

/* ---- WHERE ---------------------------------------------------------------------------------- */

/* The statements of a WHERE construct, and what the fused expansion needs
 * to know about them. */
typedef struct WhereParts {
  Sections masks;       /* of every level, outermost first */
  int nassign, cap;
  IrStmt **assigns;
} WhereParts;

static bool where_parts(Norm *nx, IrStmt *w, WhereParts *p)
{
  IR_APPEND(p->masks.v, p->masks.n, p->masks.cap, w->u.cond.test);
  IrStmtList *parts[2] = { &w->u.cond.then, &w->u.cond.els };
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < parts[k]->n; i++) {
      IrStmt *s = parts[k]->v[i];
      if (s->kind == IR_S_WHERE) {
        if (!where_parts(nx, s, p))
          return false;
      } else if (s->kind == IR_S_ASSIGN && s->u.assign.lhs->kind == IR_E_SECTION) {
        IR_APPEND(p->assigns, p->nassign, p->cap, s);
      } else {
        return refuse(nx, s->loc, 1, "only array assignments and WHERE constructs may appear "
                      "inside WHERE");
      }
    }
  return true;
}

/* Is every reference of an array the construct assigns the same section,
 * element for element, as where it is assigned?  Then storing element by
 * element, all statements at one element before the next, equals Fortran's
 * statement by statement over the whole mask. */
typedef struct SameElements {
  Norm *nx;
  WhereParts *p;
  IrExpr *bad;
} SameElements;

static const IrExpr *assigned_section(const WhereParts *p, const IrSym *a)
{
  for (int i = 0; i < p->nassign; i++)
    if (p->assigns[i]->u.assign.lhs->u.section.sym == a)
      return p->assigns[i]->u.assign.lhs;
  return NULL;
}

static bool same_section(const IrExpr *a, const IrExpr *b)
{
  for (int d = 0; d < a->u.section.n; d++) {
    const IrTriplet *x = &a->u.section.dim[d], *y = &b->u.section.dim[d];
    if (x->is_range != y->is_range || !same_value(x->lo, y->lo) ||
        (x->is_range && stride_of(x) != stride_of(y)))
      return false;
  }
  return true;
}

static void check_same_elements(IrExpr *e, IrStmt *in, void *ctx)
{
  SameElements *c = ctx;
  (void)in;
  const IrSym *a = e->kind == IR_E_SECTION ? e->u.section.sym : e->kind == IR_E_ELEM ? e->u.elem.sym : NULL;
  const IrExpr *w = a ? assigned_section(c->p, a) : NULL;
  if (w && !c->bad && (e->kind != IR_E_SECTION || !same_section(e, w)))
    c->bad = e;
}

static IrStmt *where_element(const Shape *sh, IrStmt *w);

static void where_body(const Shape *sh, IrStmtList *from, IrStmtList *to)
{
  for (int i = 0; i < from->n; i++) {
    IrStmt *s = from->v[i];
    ir_list_push(to, s->kind == IR_S_WHERE ? where_element(sh, s)
                     : ir_assign(element_of(sh, s->u.assign.lhs), element_of(sh, s->u.assign.rhs),
                              s->loc));
  }
}

/* WHERE at one element: IF (mask) THEN .. ELSE .. */
static IrStmt *where_element(const Shape *sh, IrStmt *w)
{
  IrStmt *s = ir_stmt(IR_S_IF, w->loc);
  s->u.cond.test = element_of(sh, w->u.cond.test);
  where_body(sh, &w->u.cond.then, &s->u.cond.then);
  where_body(sh, &w->u.cond.els, &s->u.cond.els);
  return s;
}

typedef struct ReadsAssigned { const WhereParts *p; const IrSym *found; } ReadsAssigned;

static void reads_assigned(IrExpr *e, IrStmt *in, void *ctx)
{
  ReadsAssigned *r = ctx;
  (void)in;
  const IrSym *a = e->kind == IR_E_SECTION ? e->u.section.sym : e->kind == IR_E_ELEM ? e->u.elem.sym
                 : e->kind == IR_E_VAR ? e->u.var : NULL;
  if (a && !r->found && assigned_section(r->p, a))
    r->found = a;
}

/* A reduction inside the construct (not in its first mask) is evaluated
 * where it stands, after the statements before it: it may go before the
 * construct only when it reads nothing the construct assigns. */
static void check_reductions(IrExpr *e, IrStmt *in, void *ctx)
{
  SameElements *c = ctx;
  if (!ir_is_reduction(e) || !c->nx->ok)
    return;
  ReadsAssigned r = { c->p, NULL };
  ir_walk_expr(e, in, reads_assigned, &r);
  if (r.found)
    refuse(c->nx, e->loc, 1, "'%s' inside WHERE reads '%s', which the WHERE assigns; compute it "
           "into a variable before the WHERE", ir_intrinsic_name(e->u.call.fn), r.found->name);
}

static void hoist_where(Norm *nx, IrStmt *w, bool first, IrStmtList *out)
{
  if (!first)
    hoist_reductions(nx, &w->u.cond.test, out);
  IrStmtList *parts[2] = { &w->u.cond.then, &w->u.cond.els };
  for (int k = 0; k < 2; k++)
    for (int i = 0; i < parts[k]->n; i++) {
      IrStmt *s = parts[k]->v[i];
      if (s->kind == IR_S_WHERE) {
        hoist_where(nx, s, false, out);
      } else {
        hoist_reductions(nx, &s->u.assign.lhs, out);
        hoist_reductions(nx, &s->u.assign.rhs, out);
      }
    }
}

/* WHERE (mask) .. ELSEWHERE (mask) .. ELSEWHERE .. END WHERE: one loop
 * nest over the mask's shape, an IF chain at each element. */
static void expand_where(Norm *nx, IrStmt *w, IrStmtList *out)
{
  WhereParts p = { 0 };
  if (!where_parts(nx, w, &p))
    return;
  SameElements c = { nx, &p, NULL };
  for (int i = 1; i < p.masks.n; i++)
    ir_walk_expr(p.masks.v[i], w, check_reductions, &c);
  for (int i = 0; i < p.nassign; i++) {
    ir_walk_expr(p.assigns[i]->u.assign.lhs, w, check_reductions, &c);
    ir_walk_expr(p.assigns[i]->u.assign.rhs, w, check_reductions, &c);
  }
  hoist_reductions(nx, &w->u.cond.test, out);
  hoist_where(nx, w, true, out);
  if (!nx->ok)
    return;
  Sections secs = { 0 };
  collect_sections(w->u.cond.test, &secs);
  if (!secs.n) {
    refuse(nx, w->u.cond.test->loc, 1, "the mask of WHERE is a scalar; WHERE needs an array mask "
           "(use IF for a scalar condition)");
    return;
  }
  Shape sh;
  if (!shape_of(nx, secs.v[0], &sh, w->loc))
    return;
  for (int i = 0; i < p.masks.n; i++)
    if (!conforms(nx, &sh, p.masks.v[i], false, "the mask"))
      return;
  for (int i = 0; i < p.nassign; i++)
    if (!conforms(nx, &sh, p.assigns[i]->u.assign.lhs, false, "the left side") ||
        !conforms(nx, &sh, p.assigns[i]->u.assign.rhs, true, "the right side"))
      return;
  for (int i = 0; i < p.masks.n && !c.bad; i++)
    ir_walk_expr(p.masks.v[i], w, check_same_elements, &c);
  for (int i = 0; i < p.nassign && !c.bad; i++) {
    ir_walk_expr(p.assigns[i]->u.assign.lhs, w, check_same_elements, &c);
    ir_walk_expr(p.assigns[i]->u.assign.rhs, w, check_same_elements, &c);
  }
  if (c.bad) {
    const IrSym *a = c.bad->kind == IR_E_SECTION ? c.bad->u.section.sym : c.bad->u.elem.sym;
    refuse(nx, c.bad->loc, (int)strlen(a->name), "the WHERE construct assigns %s but reads %s, "
           "other elements of it; write the loop explicitly", section_text(assigned_section(&p, a)),
           section_text(c.bad));
    return;
  }
  IrStmtList body = { 0 };
  ir_list_push(&body, where_element(&sh, w));
  ir_list_push(out, loop_nest(&sh, body, w->loc));
}

/* Is there array syntax anywhere in s or the statements inside it? */
typedef struct Found { IrExpr *e; } Found;

static void find_array_syntax(IrExpr *e, IrStmt *in, void *ctx)
{
  Found *f = ctx;
  (void)in;
  if (!f->e && (e->kind == IR_E_SECTION || ir_is_reduction(e)))
    f->e = e;
}

static IrVisitStep array_syntax_pre(IrStmt *s, IrVisit *v)
{
  Found *f = v->ctx;
  ir_walk_stmt_exprs(s, find_array_syntax, f);
  if (s->kind == IR_S_WHERE && !f->e)
    f->e = s->u.cond.test;
  return f->e ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

/* Statement s into out, expanded. */
static void normalize_stmt(Norm *nx, IrStmt *s, IrStmtList *out)
{
  switch (s->kind) {
  case IR_S_ASSIGN:
    hoist_reductions(nx, &s->u.assign.lhs, out);
    hoist_reductions(nx, &s->u.assign.rhs, out);
    ir_walk_stmt_exprs(s, check_function_args, nx);
    if (!nx->ok)
      return;
    if (s->u.assign.lhs->kind == IR_E_SECTION) {
      expand_assignment(nx, s, out);
      return;
    }
    if (!scalar_expected(nx, s->u.assign.rhs, "the right side of a scalar assignment"))
      return;
    break;
  case IR_S_DO:
    hoist_reductions(nx, &s->u.loop.lo, out);
    hoist_reductions(nx, &s->u.loop.hi, out);
    ir_walk_stmt_exprs(s, check_function_args, nx);
    if (!scalar_expected(nx, s->u.loop.lo, "a bound of DO") ||
        !scalar_expected(nx, s->u.loop.hi, "a bound of DO"))
      return;
    IR_APPEND(nx->open, nx->nopen, nx->open_cap, s->u.loop.iv);
    normalize_list(nx, &s->u.loop.body);
    nx->nopen--;
    break;
  case IR_S_IF:
    hoist_reductions(nx, &s->u.cond.test, out);
    ir_walk_stmt_exprs(s, check_function_args, nx);
    if (!scalar_expected(nx, s->u.cond.test, "the condition of IF"))
      return;
    normalize_list(nx, &s->u.cond.then);
    normalize_list(nx, &s->u.cond.els);
    break;
  case IR_S_WHERE:
    ir_walk_stmt_exprs(s, check_function_args, nx);
    if (nx->ok)
      expand_where(nx, s, out);
    return;
  case IR_S_BLOCK:
    normalize_list(nx, &s->u.loop.body);
    break;
  case IR_S_WHILE:
    if (s->u.loop.test) {
      /* evaluated before every iteration: a reduction hoisted before the
       * loop would be computed once */
      Found f = { NULL };
      ir_walk_expr(s->u.loop.test, s, find_array_syntax, &f);
      if (f.e) {
        refuse(nx, f.e->loc, 1, "array syntax in the condition of DO WHILE is not supported "
               "inside a region; compute it into a scalar before the loop and at the end of "
               "its body");
        return;
      }
    }
    normalize_list(nx, &s->u.loop.body);
    break;
  case IR_S_CALL:
    for (int i = 0; i < s->u.call.nargs; i++) {
      hoist_reductions(nx, &s->u.call.args[i], out);
      if (!scalar_expected(nx, s->u.call.args[i], "an actual argument"))
        return;
    }
    ir_walk_stmt_exprs(s, check_function_args, nx);
    break;
  default: {
    /* statements this pass does not expand: none may hold array syntax */
    Found f = { NULL };
    IrStmtList one = { 0 };
    ir_list_push(&one, s);
    IrVisit v = { .pre = array_syntax_pre, .ctx = &f };
    ir_visit_stmts(&one, &v);
    if (f.e)
      refuse(nx, f.e->loc, 1, "array syntax in this statement is not supported inside a region; "
             "write the loop explicitly");
    break;
  }
  }
  ir_list_push(out, s);
}

/* Rebuild l with every statement expanded. */
static void normalize_list(Norm *nx, IrStmtList *l)
{
  IrStmtList out = { 0 };
  for (int i = 0; i < l->n && nx->ok; i++)
    normalize_stmt(nx, l->v[i], &out);
  if (nx->ok)
    *l = out;
}

/* The lowered body of r (a callee of inlining) and its regions; one error
 * per body at most, the others are still expanded. */
static bool normalize_routine(Program *p, IrRoutine *r)
{
  Norm nx = { .prog = p, .routine = r, .ok = true };
  bool ok = true;
  if (r->body_lowered) {
    find_candidates(&nx, &r->body);
    normalize_list(&nx, &r->body);
    ok &= nx.ok;
  }
  for (int g = 0; g < r->nregions; g++) {
    nx.ok = true;
    find_candidates(&nx, &r->regions[g]->body);
    normalize_list(&nx, &r->regions[g]->body);
    ok &= nx.ok;
  }
  return ok;
}

bool xf_normalize_program(Program *p)
{
  bool ok = true;
  for (int i = 0; i < p->nroutines; i++)
    ok &= normalize_routine(p, p->routines[i]);
  return ok;
}
