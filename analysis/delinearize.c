/* delinearize.c — flat C arrays indexed as multi-dimensional ones (see
 * delinearize.h for the method and why).
 *
 * Subscripts are read as polynomials over integer scalars (Poly): a sum
 * of monomials, each a constant times a product of scalars.  Loop indices
 * appear in them at most linearly; every other scalar must be invariant in
 * the region.  Division by an extent is the usual multivariate division
 * (graded order), kept as the identity P = q*E + r whatever the order, so
 * a rewritten subscript always names the element the flat one named; only
 * the range checks decide whether the per-dimension view is sound.
 */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include "delinearize.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "report.h"
#include "visit.h"

/* Bounds on what is read: far beyond index macros of real codes; a
 * subscript beyond them is just not delinearized. */
#define DL_MAX_FACTORS 6     /* scalars in one monomial */
#define DL_MAX_TERMS 16      /* monomials in one polynomial */
#define DL_MAX_CANDIDATES 4  /* distinct candidate extents of one array */
#define DL_MAX_DIMS 4        /* extents tried in one order: up to 5-D arrays */

/* ---- polynomials ---------------------------------------------------------- */

typedef struct Mono {
  long coef;
  int nf;
  IrSym *f[DL_MAX_FACTORS];  /* sorted (sym_cmp); a scalar may repeat */
} Mono;

typedef struct Poly {
  int n;
  Mono t[DL_MAX_TERMS];      /* no zero coefficient, no two with the same factors */
} Poly;

static int sym_cmp(const IrSym *a, const IrSym *b)
{
  int c = strcmp(a->name, b->name);
  return c ? c : a == b ? 0 : a < b ? -1 : 1;
}

static bool same_factors(const Mono *a, const Mono *b)
{
  if (a->nf != b->nf)
    return false;
  for (int i = 0; i < a->nf; i++)
    if (a->f[i] != b->f[i])
      return false;
  return true;
}

/* The graded order: higher degree first, then by factors.  The leading
 * monomial of a polynomial is its first in this order. */
static int mono_cmp(const Mono *a, const Mono *b)
{
  if (a->nf != b->nf)
    return b->nf - a->nf;
  for (int i = 0; i < a->nf; i++) {
    int c = sym_cmp(a->f[i], b->f[i]);
    if (c)
      return c;
  }
  return 0;
}

static bool poly_add_mono(Poly *p, const Mono *m)
{
  if (m->coef == 0)
    return true;
  for (int i = 0; i < p->n; i++)
    if (same_factors(&p->t[i], m)) {
      if (__builtin_add_overflow(p->t[i].coef, m->coef, &p->t[i].coef))
        return false;
      if (p->t[i].coef == 0)
        p->t[i] = p->t[--p->n];
      return true;
    }
  if (p->n == DL_MAX_TERMS)
    return false;
  p->t[p->n++] = *m;
  return true;
}

/* p += factor * q */
static bool poly_add(Poly *p, const Poly *q, long factor)
{
  for (int i = 0; i < q->n; i++) {
    Mono m = q->t[i];
    if (__builtin_mul_overflow(m.coef, factor, &m.coef) || !poly_add_mono(p, &m))
      return false;
  }
  return true;
}

static bool mono_mul(const Mono *a, const Mono *b, Mono *out)
{
  if (a->nf + b->nf > DL_MAX_FACTORS || __builtin_mul_overflow(a->coef, b->coef, &out->coef))
    return false;
  int i = 0, j = 0;
  out->nf = 0;
  while (i < a->nf || j < b->nf)
    out->f[out->nf++] = j == b->nf || (i < a->nf && sym_cmp(a->f[i], b->f[j]) <= 0) ? a->f[i++]
                                                                                 : b->f[j++];
  return true;
}

static bool poly_mul(const Poly *a, const Poly *b, Poly *out)
{
  Poly r = { 0 };
  for (int i = 0; i < a->n; i++)
    for (int j = 0; j < b->n; j++) {
      Mono m;
      if (!mono_mul(&a->t[i], &b->t[j], &m) || !poly_add_mono(&r, &m))
        return false;
    }
  *out = r;
  return true;
}

static Poly poly_const(long c)
{
  Poly p = { 0 };
  Mono m = { .coef = c };
  poly_add_mono(&p, &m);
  return p;
}

static bool poly_is_const(const Poly *p, long *c)
{
  if (p->n > 1 || (p->n == 1 && p->t[0].nf))
    return false;
  *c = p->n ? p->t[0].coef : 0;
  return true;
}

static bool poly_equal(const Poly *a, const Poly *b)
{
  Poly d = *a;
  return poly_add(&d, b, -1) && d.n == 0;
}

/* An integer expression as a polynomial: literals and named constants,
 * integer scalars, + - * and integer conversions.  False for anything
 * else (division, array elements, calls). */
static bool poly_from_expr(const IrExpr *e, Poly *out)
{
  long v;
  if (!ir_type_is_integer(e->type))
    return false;
  if (ir_eval_const(e, &v)) {
    *out = poly_const(v);
    return true;
  }
  Poly a, b;
  switch (e->kind) {
  case IR_E_VAR: {
    Mono m = { .coef = 1, .nf = 1, .f = { e->u.var } };
    *out = (Poly){ 0 };
    return poly_add_mono(out, &m);
  }
  case IR_E_CONVERT:
    return poly_from_expr(e->u.operand, out);
  case IR_E_UNARY:
    if (e->u.unary.op != IR_OP_NEG || !poly_from_expr(e->u.unary.arg, &a))
      return false;
    *out = (Poly){ 0 };
    return poly_add(out, &a, -1);
  case IR_E_BINARY:
    if (!poly_from_expr(e->u.binary.lhs, &a) || !poly_from_expr(e->u.binary.rhs, &b))
      return false;
    switch (e->u.binary.op) {
    case IR_OP_ADD: *out = a; return poly_add(out, &b, 1);
    case IR_OP_SUB: *out = a; return poly_add(out, &b, -1);
    case IR_OP_MUL: return poly_mul(&a, &b, out);
    default: return false;
    }
  default:
    return false;
  }
}

static int leading(const Poly *p)
{
  int best = 0;
  for (int i = 1; i < p->n; i++)
    if (mono_cmp(&p->t[i], &p->t[best]) < 0)
      best = i;
  return best;
}

/* t / d when the monomial d divides t (its factors a sub-multiset of t's,
 * its coefficient a divisor). */
static bool mono_div(const Mono *t, const Mono *d, Mono *out)
{
  if (d->coef == 0 || t->coef % d->coef != 0)
    return false;
  out->coef = t->coef / d->coef;
  out->nf = 0;
  int j = 0;
  for (int i = 0; i < t->nf; i++) {
    if (j < d->nf && t->f[i] == d->f[j])
      j++;
    else if (j < d->nf && sym_cmp(t->f[i], d->f[j]) > 0)
      return false;
    else
      out->f[out->nf++] = t->f[i];
  }
  return j == d->nf;
}

/* p = q*e + r, no monomial of r divisible by e's leading one. */
static bool poly_divide(const Poly *p, const Poly *e, Poly *q, Poly *r)
{
  if (e->n == 0)
    return false;
  const Mono *lead = &e->t[leading(e)];
  Poly rest = *p;
  *q = (Poly){ 0 };
  *r = (Poly){ 0 };
  for (int steps = 0; rest.n; steps++) {
    if (steps > 4 * DL_MAX_TERMS)
      return false;
    Mono t = rest.t[leading(&rest)], m;
    if (mono_div(&t, lead, &m)) {
      Poly mp = { 0 }, me;
      if (!poly_add_mono(&mp, &m) || !poly_add_mono(q, &m) || !poly_mul(&mp, e, &me) ||
          !poly_add(&rest, &me, -1))
        return false;
    } else {
      Poly tp = { 0 };
      if (!poly_add_mono(&tp, &t) || !poly_add_mono(r, &t) || !poly_add(&rest, &tp, -1))
        return false;
    }
  }
  return true;
}

static int mono_qsort_cmp(const void *a, const void *b)
{
  return mono_cmp(a, b);
}

static void poly_sorted(const Poly *p, Poly *out)
{
  *out = *p;
  qsort(out->t, (size_t)out->n, sizeof out->t[0], mono_qsort_cmp);
}

/* C text: "nk*nj*ni", "i+1", "2*j-ni". */
static void poly_print(const Poly *p, char *buf, size_t size)
{
  Poly s;
  poly_sorted(p, &s);
  size_t n = 0;
  buf[0] = '\0';
  if (s.n == 0)
    snprintf(buf, size, "0");
  for (int i = 0; i < s.n && n < size; i++) {
    const Mono *m = &s.t[i];
    long c = m->coef;
    const char *sign = c < 0 ? "-" : i ? "+" : "";
    long mag = c < 0 ? -c : c;
    if (!m->nf) {
      n += (size_t)snprintf(buf + n, size - n, "%s%ld", sign, mag);
      continue;
    }
    n += (size_t)snprintf(buf + n, size - n, "%s", sign);
    if (mag != 1 && n < size)
      n += (size_t)snprintf(buf + n, size - n, "%ld*", mag);
    for (int f = m->nf - 1; f >= 0 && n < size; f--)  /* slowest extent first: nk*nj*ni */
      n += (size_t)snprintf(buf + n, size - n, "%s%s", ir_sym_user_name(m->f[f]), f ? "*" : "");
  }
}

/* The polynomial as an IR expression of type t. */
static IrExpr *poly_expr(const Poly *p, IrType t, Loc loc)
{
  Poly s;
  poly_sorted(p, &s);
  IrExpr *e = NULL;
  for (int i = 0; i < s.n; i++) {
    const Mono *m = &s.t[i];
    long mag = m->coef < 0 ? -m->coef : m->coef;
    IrExpr *term = NULL;
    for (int f = m->nf - 1; f >= 0; f--) {
      IrExpr *v = ir_convert(ir_var(m->f[f], loc), t);
      term = term ? ir_binary(IR_OP_MUL, term, v, loc) : v;
    }
    IrExpr *k = ir_convert(ir_int(mag, loc), t);
    if (!term)
      term = k;
    else if (mag != 1)
      term = ir_binary(IR_OP_MUL, k, term, loc);
    if (!e)
      e = m->coef < 0 ? ir_binary(IR_OP_SUB, ir_convert(ir_int(0, loc), t), term, loc) : term;
    else
      e = ir_binary(m->coef < 0 ? IR_OP_SUB : IR_OP_ADD, e, term, loc);
  }
  return e ? e : ir_convert(ir_int(0, loc), t);
}

/* ---- references ------------------------------------------------------------ */

typedef struct Ref {
  IrExpr *e;                 /* the IR_E_ELEM, rewritten in place */
  IrStmt **loops;            /* the DO loops around it in its region, outermost first */
  int nloops;
  const IrSymSet *assigned;  /* scalars its region assigns (loop indices included) */
  IrExpr *sub;               /* its subscript, index scalars replaced by their definitions
                                (IndexDef) */
  Poly p;                    /* sub as a polynomial */
  bool poly_ok;
} Ref;

/* The references of one array in the regions of its routine. */
typedef struct Refs {
  IrSym *sym;
  int n, cap;
  Ref *v;
  UT_hash_handle hh;         /* in Collect.by_sym */
} Refs;

/* One walk over a routine's regions collects the references of every
 * flat array (rank 1, unknown size) at once: the pass stays linear in the
 * size of the routine however many arrays and regions it has. */
typedef struct Collect {
  const IrSym *only;         /* NULL: every flat array; else just this one */
  Refs *by_sym;              /* uthash by sym pointer, in the arena */
  Refs **order;              /* in order of first reference */
  int norder, order_cap;
  const IrSymSet *assigned;  /* of the region being walked */
  struct IndexDef *defs;     /* of the region being walked */
} Collect;

/* ---- index scalars ------------------------------------------------------------
 *
 * `int idx = (k*nj + j)*ni + i;  a[idx] = b[idx] + ...`: a scalar the region
 * assigns once, from loop indices around the assignment and invariants,
 * read by a reference later in the same statement list.  The reference
 * runs in the same iteration of every loop around the assignment, after
 * it, and nothing else assigns the scalar, so its value there is the
 * definition's: the subscript is read with the definition in its place. */
typedef struct IndexDef {
  IrSym *var;
  IrStmt *def;               /* its one assignment; NULL: not usable (assigned again, a loop
                                index, or from something else than indices and invariants) */
  IrStmtList *list;          /* the list holding def, and def's position in it */
  int pos;
  UT_hash_handle hh;
} IndexDef;

enum { DEF_MAX_LOOPS = 64 };

static void note_def(IndexDef **defs, IrSym *v, IrStmt *s, IrStmtList *l, int pos, bool usable)
{
  IndexDef *d;
  HASH_FIND_PTR(*defs, &v, d);
  if (d) {
    d->def = NULL;           /* assigned twice */
    return;
  }
  d = ir_alloc(sizeof *d);
  *d = (IndexDef){ .var = v, .def = usable ? s : NULL, .list = l, .pos = pos };
  HASH_ADD_PTR(*defs, var, d);
}

typedef struct DefCheck {
  IrStmt **loops;
  int nloops;
  const IrSymSet *assigned;
  bool ok;
} DefCheck;

static void check_def_operand(IrExpr *e, IrStmt *in, void *ctx)
{
  DefCheck *c = ctx;
  (void)in;
  if (e->kind == IR_E_VAR) {
    bool index = false;
    for (int i = 0; i < c->nloops && !index; i++)
      index = c->loops[i]->u.loop.iv == e->u.var;
    c->ok &= index || !ir_symset_has(c->assigned, e->u.var);
  } else if (e->kind != IR_E_INT && e->kind != IR_E_UNARY && e->kind != IR_E_BINARY &&
             e->kind != IR_E_CONVERT) {
    c->ok = false;
  }
}

/* The index scalars of list l (and the lists in it), with `loops` around it. */
static void find_defs(IrStmtList *l, IrStmt **loops, int nloops, const IrSymSet *assigned,
                      IndexDef **defs)
{
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    if (s->kind == IR_S_ASSIGN && s->u.assign.lhs->kind == IR_E_VAR) {
      DefCheck c = { loops, nloops, assigned, ir_type_is_integer(s->u.assign.lhs->type) };
      ir_walk_expr(s->u.assign.rhs, s, check_def_operand, &c);
      note_def(defs, s->u.assign.lhs->u.var, s, l, i, c.ok);
    } else if (s->kind == IR_S_DO && nloops < DEF_MAX_LOOPS) {
      note_def(defs, s->u.loop.iv, s, l, i, false);
      loops[nloops] = s;
      find_defs(&s->u.loop.body, loops, nloops + 1, assigned, defs);
    } else if (s->kind == IR_S_IF) {
      find_defs(&s->u.cond.then, loops, nloops, assigned, defs);
      find_defs(&s->u.cond.els, loops, nloops, assigned, defs);
    } else {                 /* whatever else assigns scalars: none of them is usable */
      IrStmtList one = { 1, 1, &l->v[i] };
      IrSymSet set = { 0 };
      ir_assigned_scalars(&one, &set);
      for (int k = 0; k < set.n; k++)
        note_def(defs, set.syms[k], s, l, i, false);
    }
  }
}

typedef struct DefUse {
  IndexDef *defs;
  IrStmt *in;
  IrExpr *sub;
} DefUse;

static void substitute_def(IrExpr *e, IrStmt *in, void *ctx)
{
  DefUse *u = ctx;
  (void)in;
  if (e->kind != IR_E_VAR)
    return;
  IndexDef *d;
  HASH_FIND_PTR(u->defs, &e->u.var, d);
  if (!d || !d->def || u->in == d->def)
    return;
  IrStmtList later = { d->list->n - d->pos - 1, 0, d->list->v + d->pos + 1 };
  if (ir_list_contains(&later, u->in))
    u->sub = ir_expr_subst(u->sub, d->var, d->def->u.assign.rhs);
}

/* Subscript `sub` of a reference in statement `in`, with the index scalars
 * it reads replaced by their definitions where that is their value. */
static IrExpr *with_index_defs(IndexDef *defs, IrExpr *sub, IrStmt *in)
{
  if (!defs)
    return sub;
  DefUse u = { defs, in, sub };
  ir_walk_expr(sub, in, substitute_def, &u);
  return u.sub;
}

static bool is_flat(const IrSym *s)
{
  return s->rank == 1 && !s->hi[0] && !s->region_local;
}

static void collect_ref(IrExpr *e, IrStmt *in, void *ctx)
{
  IrVisit *v = ctx;
  Collect *c = v->ctx;
  if (e->kind != IR_E_ELEM || !is_flat(e->u.elem.sym) || (c->only && e->u.elem.sym != c->only))
    return;
  IrSym *sym = e->u.elem.sym;
  Refs *refs;
  HASH_FIND_PTR(c->by_sym, &sym, refs);
  if (!refs) {
    refs = ir_alloc(sizeof *refs);
    refs->sym = sym;
    HASH_ADD_PTR(c->by_sym, sym, refs);
    IR_APPEND(c->order, c->norder, c->order_cap, refs);
  }
  Ref r = { .e = e, .nloops = v->nloops, .assigned = c->assigned };
  r.loops = ir_alloc(sizeof *r.loops * (size_t)(v->nloops + 1));
  memcpy(r.loops, v->loops, sizeof *r.loops * (size_t)v->nloops);
  r.sub = e->u.elem.n == 1 ? with_index_defs(c->defs, e->u.elem.sub[0], in) : NULL;
  r.poly_ok = r.sub && poly_from_expr(r.sub, &r.p);
  IR_APPEND(refs->v, refs->n, refs->cap, r);
}

static IrVisitStep collect_pre(IrStmt *s, IrVisit *v)
{
  ir_walk_stmt_exprs(s, collect_ref, v);
  return IR_VISIT_CONTINUE;
}

static void collect(IrRoutine *r, Collect *c)
{
  for (int g = 0; g < r->nregions; g++) {
    IrSymSet *assigned = ir_alloc(sizeof *assigned);
    ir_assigned_scalars(&r->regions[g]->body, assigned);
    c->assigned = assigned;
    IrStmt *loops[DEF_MAX_LOOPS];
    c->defs = NULL;
    find_defs(&r->regions[g]->body, loops, 0, assigned, &c->defs);
    IrVisit v = { .pre = collect_pre, .ctx = c };
    ir_visit_stmts(&r->regions[g]->body, &v);
  }
}

static const IrStmt *loop_of(const Ref *r, const IrSym *iv)
{
  for (int i = r->nloops - 1; i >= 0; i--)
    if (r->loops[i]->u.loop.iv == iv)
      return r->loops[i];
  return NULL;
}

static bool is_index(const Ref *r, const IrSym *s)
{
  return loop_of(r, s) != NULL;
}

/* Does the monomial name a loop index around r?  *iv: which (the first). */
static int index_factors(const Ref *r, const Mono *m, IrSym **iv)
{
  int n = 0;
  for (int f = 0; f < m->nf; f++)
    if (is_index(r, m->f[f])) {
      if (iv && !n)
        *iv = m->f[f];
      n++;
    }
  return n;
}

/* Is the subscript of r linearized: a scalar the region assigns (a loop
 * index, say) times another scalar, or two indices of which one is scaled
 * by a constant (`j*64 + i`)? */
static bool linearized(const Ref *r)
{
  int nindices = 0, scaled = 0;
  IrSym *seen[DL_MAX_TERMS];
  for (int i = 0; i < r->p.n; i++) {
    const Mono *m = &r->p.t[i];
    IrSym *iv = NULL;
    for (int f = 0; f < m->nf && m->nf > 1; f++)
      if (ir_symset_has(r->assigned, m->f[f]))
        return true;         /* a value of the region times something: a stride */
    if (!index_factors(r, m, &iv))
      continue;
    if (m->nf > 1)
      return true;
    if (m->coef < -1 || m->coef > 1)
      scaled++;
    bool known = false;
    for (int k = 0; k < nindices; k++)
      known = known || seen[k] == iv;
    if (!known)
      seen[nindices++] = iv;
  }
  return scaled && nindices > 1;
}

/* ---- candidate extents --------------------------------------------------------- */

typedef struct Candidates {
  int nsym, nconst;
  Poly sym[DL_MAX_CANDIDATES], cons[DL_MAX_CANDIDATES];
  bool too_many;
  int sites;                 /* most candidate factors met in one subscript */
} Candidates;

static bool varies(const Ref *r, const Poly *p)
{
  for (int i = 0; i < p->n; i++)
    for (int f = 0; f < p->t[i].nf; f++)
      if (ir_symset_has(r->assigned, p->t[i].f[f]))
        return true;
  return false;
}

static void add_candidate(Candidates *c, const Poly *p)
{
  long k;
  bool is_const = poly_is_const(p, &k);
  if (is_const && (k < 2))
    return;                  /* a sign or a unit factor: no extent */
  Poly *list = is_const ? c->cons : c->sym;
  int *n = is_const ? &c->nconst : &c->nsym;
  for (int i = 0; i < *n; i++)
    if (poly_equal(&list[i], p))
      return;
  if (*n == DL_MAX_CANDIDATES)
    c->too_many = true;
  else
    list[(*n)++] = *p;
}

/* The invariant operand e of a product, as extents: its own factors when
 * it is a product itself (`nj*ni`), else the whole (`ni+2`). */
static void add_factors(Candidates *c, const IrExpr *e, int *sites)
{
  e = ir_strip_converts(e);
  if (e->kind == IR_E_BINARY && e->u.binary.op == IR_OP_MUL) {
    add_factors(c, e->u.binary.lhs, sites);
    add_factors(c, e->u.binary.rhs, sites);
    return;
  }
  Poly p;
  if (poly_from_expr(e, &p)) {
    add_candidate(c, &p);
    (*sites)++;
  }
}

static void find_candidates(Candidates *c, const Ref *r, const IrExpr *e, int *sites)
{
  e = ir_strip_converts(e);
  if (e->kind == IR_E_UNARY) {
    find_candidates(c, r, e->u.unary.arg, sites);
    return;
  }
  if (e->kind != IR_E_BINARY)
    return;
  const IrExpr *l = e->u.binary.lhs, *rt = e->u.binary.rhs;
  Poly pl, pr;
  if (e->u.binary.op == IR_OP_MUL && poly_from_expr(l, &pl) && poly_from_expr(rt, &pr)) {
    if (!varies(r, &pl) && varies(r, &pr))
      add_factors(c, l, sites);
    else if (varies(r, &pl) && !varies(r, &pr))
      add_factors(c, rt, sites);
  }
  find_candidates(c, r, l, sites);
  find_candidates(c, r, rt, sites);
}

/* ---- ranges --------------------------------------------------------------------- */

/* The least (or greatest) value p takes over the loops around r, as a
 * polynomial in invariants: the indices replaced one at a time, innermost
 * first (inner bounds may name outer indices), by the bound that moves p
 * that way.  False (with *why) when an index has no constant coefficient
 * or a bound is not a polynomial. */
static bool extreme(const Ref *r, const Poly *p, bool greatest, Poly *out, const char **why)
{
  Poly cur = *p;
  for (int guard = 0; guard <= r->nloops; guard++) {
    const IrStmt *loop = NULL;
    for (int i = r->nloops - 1; i >= 0 && !loop; i--)
      for (int t = 0; t < cur.n && !loop; t++)
        for (int f = 0; f < cur.t[t].nf; f++)
          if (cur.t[t].f[f] == r->loops[i]->u.loop.iv)
            loop = r->loops[i];
    if (!loop) {
      *out = cur;
      return true;
    }
    IrSym *iv = loop->u.loop.iv;
    Poly coef = { 0 }, rest = { 0 };
    for (int t = 0; t < cur.n; t++) {
      const Mono *m = &cur.t[t];
      int k = -1, count = 0;
      for (int f = 0; f < m->nf; f++)
        if (m->f[f] == iv)
          k = f, count++;
      if (!count) {
        poly_add_mono(&rest, m);
        continue;
      }
      Mono q = *m;
      memmove(q.f + k, q.f + k + 1, sizeof q.f[0] * (size_t)(q.nf - k - 1));
      q.nf--;
      if (count > 1 || !poly_add_mono(&coef, &q))
        return *why = ir_printf("'%s' appears in a product with itself",
                                ir_sym_user_name(iv)), false;
    }
    long c, step = 1;
    if (!poly_is_const(&coef, &c))
      return *why = ir_printf("the coefficient of '%s' is not a constant",
                              ir_sym_user_name(iv)), false;
    if (loop->u.loop.step && !ir_eval_const(loop->u.loop.step, &step))
      return *why = ir_printf("loop '%s' has a step that is not a constant",
                              ir_sym_user_name(iv)), false;
    const IrExpr *upper = step > 0 ? loop->u.loop.hi : loop->u.loop.lo;
    const IrExpr *lower = step > 0 ? loop->u.loop.lo : loop->u.loop.hi;
    Poly b;
    if (!poly_from_expr((c > 0) == greatest ? upper : lower, &b))
      return *why = ir_printf("a bound of loop '%s' is not a sum of products of scalars",
                              ir_sym_user_name(iv)), false;
    if (!poly_add(&rest, &b, c))
      return *why = "the subscript is too long", false;
    cur = rest;
  }
  return *why = "the loops around it cannot be bounded", false;
}

/* Is p provably >= 0: a constant that is. */
static bool nonneg(const Poly *p)
{
  long c;
  return poly_is_const(p, &c) && c >= 0;
}

/* ---- one order of extents -------------------------------------------------------- */

typedef struct Split {
  Poly sub[DL_MAX_DIMS + 1];  /* fastest first; sub[m]: the slowest, unbounded */
} Split;

static const char *ref_text(const Ref *r)
{
  return an_ref_text(r->e, IR_C);
}

/* Split r's subscript by extents e[0..m) and check each remainder's range.
 * NULL when sound; else why not. */
static const char *split_ref(const Ref *r, const Poly *e, int m, Split *out)
{
  Poly q = r->p;
  for (int d = 0; d < m; d++) {
    Poly nq;
    if (!poly_divide(&q, &e[d], &nq, &out->sub[d]))
      return "the subscript is too long to divide";
    q = nq;
  }
  out->sub[m] = q;
  for (int d = 0; d < m; d++) {
    Poly lo, hi;
    const char *why = NULL;
    char et[128], st[128], bt[128];
    poly_print(&e[d], et, sizeof et);
    poly_print(&out->sub[d], st, sizeof st);
    if (!extreme(r, &out->sub[d], false, &lo, &why) || !extreme(r, &out->sub[d], true, &hi, &why))
      return ir_printf("in %s at line %d, the index %s along the extent %s cannot be bounded: %s",
                       ref_text(r), diag_user_line(r->e->loc), st, et, why);
    if (!nonneg(&lo)) {
      poly_print(&lo, bt, sizeof bt);
      return ir_printf("in %s at line %d, the index %s along the extent %s may be below 0 "
                       "(its least value is %s)", ref_text(r), diag_user_line(r->e->loc), st,
                       et, bt);
    }
    Poly room = e[d];
    Poly one = poly_const(1);
    if (!poly_add(&room, &hi, -1) || !poly_add(&room, &one, -1) || !nonneg(&room)) {
      poly_print(&hi, bt, sizeof bt);
      return ir_printf("in %s at line %d, the index %s along the extent %s may reach %s, "
                       "beyond %s-1", ref_text(r), diag_user_line(r->e->loc), st, et, bt, et);
    }
  }
  return NULL;
}

typedef struct Attempt {
  int passed;                /* references that split soundly */
  const char *why;           /* the first that did not */
} Attempt;

/* Try extents e[0..m) on every reference; true when all split soundly and
 * the slowest extent is needed (some slowest index is not 0). */
static bool try_order(const Refs *refs, const Poly *e, int m, Split *splits, Attempt *at)
{
  at->passed = 0;
  at->why = NULL;
  bool slowest_used = false;
  for (int i = 0; i < refs->n; i++) {
    const char *why = split_ref(&refs->v[i], e, m, &splits[i]);
    if (why) {
      at->why = why;
      return false;
    }
    long c;
    slowest_used = slowest_used || !poly_is_const(&splits[i].sub[m], &c) || c != 0;
    at->passed++;
  }
  return slowest_used;
}

/* ---- the decision ------------------------------------------------------------------ */

static IrType subscript_type(const Poly *e, int m, IrType t)
{
  for (int d = 0; d < m; d++)
    for (int i = 0; i < e[d].n; i++)
      for (int f = 0; f < e[d].t[i].nf; f++)
        if (e[d].t[i].f[f]->type == IR_T_INT8)
          t = IR_T_INT8;
  return t;
}

static void rewrite(const IrRoutine *r, IrSym *sym, Refs *refs, const Poly *e, int m,
                    Split *splits)
{
  Loc at = refs->v[0].e->loc;
  const char *before = ref_text(&refs->v[0]);
  for (int i = 0; i < refs->n; i++) {
    IrExpr *x = refs->v[i].e;
    IrType t = subscript_type(e, m, x->u.elem.sub[0]->type);
    for (int d = 0; d <= m; d++)
      x->u.elem.sub[d] = poly_expr(&splits[i].sub[d], t, x->loc);
    x->u.elem.n = m + 1;
  }
  IrType bt = subscript_type(e, m, IR_T_INT);
  for (int d = 0; d <= m; d++) {
    sym->lo[d] = ir_convert(ir_int(0, sym->loc), bt);
    sym->hi[d] = NULL;
    if (d < m) {
      Poly hi = e[d], one = poly_const(1);
      poly_add(&hi, &one, -1);
      sym->hi[d] = poly_expr(&hi, bt, sym->loc);
    }
  }
  sym->rank = m + 1;
  sym->is_pointer = false;
  sym->delinearized = true;
  char shape[256];
  dl_shape_text(sym, shape, sizeof shape);
  report_at(REPORT_INFO, r->name, at, "Delinearized '%s': %s is %s of a %s array",
            ir_sym_user_name(sym), before, ref_text(&refs->v[0]), shape);
}

/* Enumerate the orders of extents of length m drawn from cands (with
 * repetition: a cube indexed (k*n+j)*n+i has one candidate, n, twice),
 * in a fixed order; the first sound one wins. */
static bool search(const Refs *refs, const Poly *cands, int ncands, int m, Poly *e,
                   Split *splits, Attempt *best)
{
  long total = 1;
  for (int d = 0; d < m; d++)
    total *= ncands;
  for (long code = 0; code < total; code++) {
    long x = code;
    for (int d = 0; d < m; d++, x /= ncands)
      e[d] = cands[x % ncands];
    Attempt at;
    if (try_order(refs, e, m, splits, &at))
      return true;
    if (at.why && (!best->why || at.passed > best->passed))
      *best = at;
  }
  return false;
}

/* The decision for the references of one array. */
static bool decide(IrRoutine *r, Refs *refs, const char **why)
{
  IrSym *sym = refs->sym;
  *why = NULL;
  bool any = false;
  for (int i = 0; i < refs->n; i++)
    any = any || (refs->v[i].poly_ok && linearized(&refs->v[i]));
  if (!any)
    return false;
  for (int i = 0; i < refs->n; i++) {
    const Ref *x = &refs->v[i];
    if (!x->poly_ok)
      return *why = ir_printf("its subscript in %s at line %d is not a sum of products of "
                              "scalars", ref_text(x), diag_user_line(x->e->loc)), false;
    for (int t = 0; t < x->p.n; t++) {
      const Mono *mo = &x->p.t[t];
      for (int f = 0; f < mo->nf; f++)
        if (ir_symset_has(x->assigned, mo->f[f]) && !is_index(x, mo->f[f]))
          return *why = ir_printf("its subscript in %s at line %d reads '%s', which the region "
                                  "assigns and which is not a loop index around it",
                                  ref_text(x), diag_user_line(x->e->loc),
                                  ir_sym_user_name(mo->f[f])), false;
      if (index_factors(x, mo, NULL) > 1)
        return *why = ir_printf("its subscript in %s at line %d multiplies loop indices",
                                ref_text(x), diag_user_line(x->e->loc)), false;
    }
  }
  Candidates c = { 0 };
  for (int i = 0; i < refs->n; i++) {
    int sites = 0;
    find_candidates(&c, &refs->v[i], refs->v[i].sub, &sites);
    if (sites > c.sites)
      c.sites = sites;
  }
  const Poly *cands = c.nsym ? c.sym : c.cons;
  int ncands = c.nsym ? c.nsym : c.nconst;
  if (c.too_many)
    return *why = ir_printf("its subscripts have more than %d candidate extents",
                            DL_MAX_CANDIDATES), false;
  if (!ncands)
    return *why = "no extent multiplies a loop index in its subscripts", false;
  int maxdims = c.sites < DL_MAX_DIMS ? c.sites : DL_MAX_DIMS;
  if (maxdims > IR_MAX_RANK - 1)
    maxdims = IR_MAX_RANK - 1;
  Split *splits = ir_alloc(sizeof *splits * (size_t)refs->n);
  Poly e[DL_MAX_DIMS];
  Attempt best = { 0 };
  for (int m = maxdims; m >= 1; m--)
    if (search(refs, cands, ncands, m, e, splits, &best)) {
      rewrite(r, sym, refs, e, m, splits);
      return true;
    }
  *why = best.why ? best.why : "its subscripts do not split into nested ranges";
  return false;
}

bool dl_delinearize_array(IrRoutine *r, IrSym *sym, const char **why)
{
  Collect c = { .only = sym };
  collect(r, &c);
  *why = NULL;
  return c.norder && decide(r, c.order[0], why);
}

/* ---- the pass ------------------------------------------------------------------------ */

bool xf_delinearize_program(Program *p)
{
  if (p->lang != IR_C)
    return true;
  for (int i = 0; i < p->nroutines; i++) {
    IrRoutine *r = p->routines[i];
    Collect c = { 0 };
    collect(r, &c);
    for (int k = 0; k < c.norder; k++) {
      IrSym *s = c.order[k]->sym;
      const char *why;
      if (decide(r, c.order[k], &why) || !why)
        continue;
      s->delinearize_why = why;
      report_at(REPORT_NOTE, r->name, r->regions[0]->dir->loc, "'%s' not delinearized: %s",
                ir_sym_user_name(s), why);
    }
  }
  return true;
}

bool dl_flat_box_text(const IrSym *a, IrExpr *const *lo, IrExpr *const *hi, char *buf,
                      size_t size)
{
  if (!a->delinearized)
    return false;
  int m = a->rank - 1;
  Poly stride = poly_const(1), first, last;
  for (int d = 0; d <= m; d++)
    if (!lo[d] || !hi[d])
      return false;
  for (int d = 0; d < m; d++) {
    Poly l, h, ext, one = poly_const(1);
    if (!poly_from_expr(lo[d], &l) || !poly_from_expr(hi[d], &h) ||
        !poly_from_expr(a->hi[d], &ext))
      return false;
    long zero;
    if (!poly_is_const(&l, &zero) || zero != 0 || !poly_equal(&h, &ext))
      return false;          /* a face or a halo: only the box per dimension says it */
    if (!poly_add(&ext, &one, 1) || !poly_mul(&stride, &ext, &stride))
      return false;
  }
  if (!poly_from_expr(lo[m], &first) || !poly_from_expr(hi[m], &last))
    return false;
  Poly count = last, one = poly_const(1), start, len;
  if (!poly_add(&count, &first, -1) || !poly_add(&count, &one, 1) ||
      !poly_mul(&first, &stride, &start) || !poly_mul(&count, &stride, &len))
    return false;
  char st[200], ln[200];
  poly_print(&start, st, sizeof st);
  poly_print(&len, ln, sizeof ln);
  snprintf(buf, size, "%s[%s:%s]", ir_sym_user_name(a), st, ln);
  return true;
}

/* The product of the extents of every dimension but the slowest: the
 * elements in one step of the slowest index. */
static bool plane_size(const IrSym *a, Poly *out)
{
  *out = poly_const(1);
  for (int d = 0; d + 1 < a->rank; d++) {
    Poly ext, one = poly_const(1);
    if (!poly_from_expr(a->hi[d], &ext) || !poly_add(&ext, &one, 1) || !poly_mul(out, &ext, out))
      return false;
  }
  return true;
}

bool dl_flat_item_box(const IrSym *a, const IrExpr *start, const IrExpr *len, IrExpr **lo,
                      IrExpr **hi, const char **why)
{
  int m = a->rank - 1;
  Poly plane, s, l, sq, sr, lq, lr;
  char pt[128];
  if (!plane_size(a, &plane))
    return *why = "its extents are not sums of products of scalars", false;
  poly_print(&plane, pt, sizeof pt);
  if (!poly_from_expr(start, &s) || !poly_from_expr(len, &l) || !poly_divide(&s, &plane, &sq, &sr) ||
      !poly_divide(&l, &plane, &lq, &lr) || sr.n || lr.n)
    return *why = ir_printf("the clause's start and length must be multiples of %s (whole "
                            "steps of its slowest index)", pt), false;
  Loc at = a->loc;
  IrType t = start->type;
  for (int d = 0; d < m; d++) {
    lo[d] = a->lo[d];
    hi[d] = a->hi[d];
  }
  Poly last = sq, one = poly_const(1);
  if (!poly_add(&last, &lq, 1) || !poly_add(&last, &one, -1))
    return *why = "the clause's range is too long", false;
  lo[m] = poly_expr(&sq, t, at);
  hi[m] = poly_expr(&last, t, at);
  return true;
}

void dl_shape_text(const IrSym *a, char *buf, size_t size)
{
  size_t n = (size_t)snprintf(buf, size, "[]");
  for (int d = a->rank - 2; d >= 0 && n < size; d--) {
    Poly ext, one = poly_const(1);
    char et[96];
    if (poly_from_expr(a->hi[d], &ext) && poly_add(&ext, &one, 1))
      poly_print(&ext, et, sizeof et);
    else
      snprintf(et, sizeof et, "?");
    n += (size_t)snprintf(buf + n, size - n, "[%s]", et);
  }
}
