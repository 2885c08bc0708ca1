/* access.c — what a region does with each array and scalar.
 *
 * For every array: whether it is read and written, the box (sub-array) its
 * references can touch, computed from the affine subscripts and the loop
 * bounds as host-evaluable expressions (`its-1:ite+1`), and the data clause:
 * the user's, or inferred (read only: copyin; written only, and every
 * element of the box surely written: copyout; otherwise copy, which is
 * always safe).
 * For every scalar: read-only inputs, privates (written in the region),
 * named constants.  The feedback report gets one "Generating" line per
 * array, as users of directive compilers expect.
 */
#include <stdio.h>
#include <string.h>
#include "affine.h"
#include "access.h"
#include "delinearize.h"
#include "column.h"     /* xf_first_exposed: reads that may come before an assignment */
#include "visit.h"
#include "report.h"

/* ---- symbol sets -------------------------------------------------------- */

static bool has_sym(IrSym **v, int n, const IrSym *s)
{
  for (int i = 0; i < n; i++)
    if (v[i] == s)
      return true;
  return false;
}

static void add_sym(IrSym ***v, int *n, IrSym *s)
{
  if (!has_sym(*v, *n, s))
    IR_PUSH(*v, *n, s);
}

static ArrayPlan *array_plan(RegionPlan *p, IrSym *s)
{
  for (int i = 0; i < p->narrays; i++)
    if (p->arrays[i].sym == s)
      return &p->arrays[i];
  p->arrays = ir_reserve(p->arrays, sizeof *p->arrays, p->narrays, &p->arrays_cap);
  memset(&p->arrays[p->narrays], 0, sizeof p->arrays[0]);
  ArrayPlan *a = &p->arrays[p->narrays++];
  a->sym = s;
  a->clause = DIR_COPY;
  return a;
}

/* ---- expression text ----------------------------------------------------- */

static int prec(const IrExpr *e)
{
  if (e->kind == IR_E_BINARY)
    switch (e->u.binary.op) {
    case IR_OP_ADD: case IR_OP_SUB: return 1;
    case IR_OP_MUL: case IR_OP_DIV: case IR_OP_MOD_C: return 2;
    default: return 0;
    }
  if (e->kind == IR_E_UNARY)
    return 3;
  return 4;
}

static size_t text(const IrExpr *e, IrLang lang, char *buf, size_t size);

static size_t text_operand(const IrExpr *e, int min_prec, IrLang lang, char *buf, size_t size)
{
  if (prec(e) >= min_prec)
    return text(e, lang, buf, size);
  size_t n = (size_t)snprintf(buf, size, "(");
  n += n < size ? text(e, lang, buf + n, size - n) : 0;
  n += n < size ? (size_t)snprintf(buf + n, size - n, ")") : 0;
  return n;
}

static size_t text(const IrExpr *e, IrLang lang, char *buf, size_t size)
{
  size_t n = 0;
  switch (e->kind) {
  case IR_E_INT: return (size_t)snprintf(buf, size, "%ld", e->u.ival);
  case IR_E_VAR: return (size_t)snprintf(buf, size, "%s", ir_sym_user_name(e->u.var));
  case IR_E_CONVERT: return text(e->u.operand, lang, buf, size);
  case IR_E_UNARY:
    n = (size_t)snprintf(buf, size, "-");
    return n + (n < size ? text_operand(e->u.unary.arg, 3, lang, buf + n, size - n) : 0);
  case IR_E_BINARY: {
    int p = prec(e);
    n = text_operand(e->u.binary.lhs, p, lang, buf, size);
    if (n < size)
      n += (size_t)snprintf(buf + n, size - n, "%s", ir_op_text(e->u.binary.op));
    if (n < size)
      n += text_operand(e->u.binary.rhs, p + 1, lang, buf + n, size - n);
    return n;
  }
  case IR_E_CALL: {
    n = (size_t)snprintf(buf, size, "%s(", e->u.call.fn == IR_FN_USER ? e->u.call.name
                                                                   : ir_intrinsic_name(e->u.call.fn));
    for (int i = 0; i < e->u.call.n && n < size; i++) {
      if (i)
        n += (size_t)snprintf(buf + n, size - n, ",");
      if (n < size)
        n += text(e->u.call.args[i], lang, buf + n, size - n);
    }
    if (n < size)
      n += (size_t)snprintf(buf + n, size - n, ")");
    return n;
  }
  default:
    return (size_t)snprintf(buf, size, "?");
  }
}

void an_expr_text(const IrExpr *e, IrLang lang, char *buf, size_t size)
{
  Affine a;
  buf[0] = 0;
  if (aff_build(e, &a))
    aff_print(&a, buf, size);  /* folded: `nx-2` rather than `nx-1-1` */
  else
    text(e, lang, buf, size);
}

void an_extent_text(const IrExpr *lo, const IrExpr *hi, char *buf, size_t size)
{
  Affine l, h, n;
  if (aff_build(lo, &l) && aff_build(hi, &h)) {
    aff_sub(&h, &l, &n);
    n.c += 1;
    aff_print(&n, buf, size);
    return;
  }
  char a[128], b[128];
  long zero;
  an_expr_text(hi, IR_C, a, sizeof a);
  an_expr_text(lo, IR_C, b, sizeof b);
  if (ir_eval_const(lo, &zero) && zero == 0)
    snprintf(buf, size, "%s+1", a);
  else
    snprintf(buf, size, "%s-%s+1", a, b);
}

void an_box_text(const IrSym *a, IrExpr *const *lo, IrExpr *const *hi, IrLang lang, char *buf,
                 size_t size)
{
  /* a flat array the user indexes flat: its flat range where it is one */
  if (lang == IR_C && dl_flat_box_text(a, lo, hi, buf, size))
    return;
  size_t n = (size_t)snprintf(buf, size, "%s%s", ir_sym_user_name(a),
                              lang == IR_FORTRAN ? "(" : "");
  char l[128], h[128];
  for (int k = 0; k < a->rank && n < size; k++) {
    int d = lang == IR_FORTRAN ? k : a->rank - 1 - k;
    an_expr_text(lo[d], lang, l, sizeof l);
    if (lang == IR_FORTRAN) {
      an_expr_text(hi[d], lang, h, sizeof h);
      n += (size_t)snprintf(buf + n, size - n, "%s%s:%s", k ? "," : "", l, h);
    } else {
      an_extent_text(lo[d], hi[d], h, sizeof h);
      n += (size_t)snprintf(buf + n, size - n, "[%s:%s]", l, h);
    }
  }
  if (lang == IR_FORTRAN && n < size)
    snprintf(buf + n, size - n, ")");
}

const char *an_ref_text(const IrExpr *ref, IrLang lang)
{
  char buf[256], sub[96];
  size_t n = (size_t)snprintf(buf, sizeof buf, "%s%s", ir_sym_user_name(ref->u.elem.sym),
                              lang == IR_FORTRAN ? "(" : "");
  for (int k = 0; k < ref->u.elem.n && n < sizeof buf; k++) {
    int d = lang == IR_FORTRAN ? k : ref->u.elem.n - 1 - k;
    an_expr_text(ref->u.elem.sub[d], lang, sub, sizeof sub);
    n += (size_t)snprintf(buf + n, sizeof buf - n, lang == IR_FORTRAN ? "%s%s" : "%s[%s]",
                          lang == IR_FORTRAN && k ? "," : "", sub);
  }
  if (lang == IR_FORTRAN && n < sizeof buf)
    snprintf(buf + n, sizeof buf - n, ")");
  return ir_strdup(buf);
}

/* ---- boxes ------------------------------------------------------------------ */

/* Affine form over region invariants -> IR expression. */
static IrExpr *aff_expr(const Affine *a, Loc loc)
{
  IrExpr *e = NULL;
  for (int i = 0; i < a->n; i++) {
    IrExpr *t = ir_var(a->t[i].var, loc);
    if (a->t[i].scale)
      t = ir_binary(IR_OP_MUL, t, ir_var(a->t[i].scale, loc), loc);
    long c = a->t[i].coef;
    if (c != 1 && c != -1)
      t = ir_binary(IR_OP_MUL, ir_int(c < 0 ? -c : c, loc), t, loc);
    if (!e)
      e = c < 0 ? ir_binary(IR_OP_SUB, ir_int(0, loc), t, loc) : t;
    else
      e = ir_binary(c < 0 ? IR_OP_SUB : IR_OP_ADD, e, t, loc);
  }
  if (!e)
    return ir_int(a->c, loc);
  if (a->c)
    e = ir_binary(a->c < 0 ? IR_OP_SUB : IR_OP_ADD, e, ir_int(a->c < 0 ? -a->c : a->c, loc), loc);
  return e;
}

typedef struct BoxCtx {
  IrSym **variant;    /* scalars written in the region (loop indices included) */
  int nvariant;
} BoxCtx;

/* The first scalar of a that the region assigns (a loop index, say), or NULL. */
static const IrSym *first_variant(const BoxCtx *b, const Affine *a)
{
  for (int i = 0; i < a->n; i++) {
    if (has_sym(b->variant, b->nvariant, a->t[i].var))
      return a->t[i].var;
    if (a->t[i].scale && has_sym(b->variant, b->nvariant, a->t[i].scale))
      return a->t[i].scale;
  }
  return NULL;
}

static bool invariant(const BoxCtx *b, const Affine *a)
{
  return !first_variant(b, a);
}

static IrStmt *loop_of(const Access *acc, const IrSym *iv)
{
  for (int l = acc->nloops - 1; l >= 0; l--)
    if (acc->loops[l]->u.loop.iv == iv)
      return acc->loops[l];
  return NULL;
}

/* The values a subscript can take, as candidate lower and upper bounds
 * (affine over invariants): the range is [min of los, max of his].  A term
 * whose coefficient is symbolic (`i*m` of a linearized C subscript) has an
 * unknown sign, so both of its end values go into both lists. */
#define RANGE_MAX 4
typedef struct Range {
  int n;
  Affine lo[RANGE_MAX], hi[RANGE_MAX];
} Range;

/* dst += coef * scale * src (scale NULL: a constant factor). */
static bool add_terms(Affine *dst, const Affine *src, IrSym *scale, long coef)
{
  for (int k = 0; k < src->n; k++)
    if ((scale && src->t[k].scale) ||
        !aff_add_term(dst, src->t[k].var, scale ? scale : src->t[k].scale, src->t[k].coef * coef))
      return false;
  if (scale && src->c)
    return aff_add_term(dst, scale, NULL, src->c * coef);
  if (!scale)
    dst->c += src->c * coef;
  return true;
}

/* Add coef*scale*[first..last] (scale NULL: a constant coefficient). */
static bool range_add_loop(Range *r, const Affine *first, const Affine *last, IrSym *scale, long coef)
{
  if (!scale) {
    const Affine *min = coef > 0 ? first : last, *max = coef > 0 ? last : first;
    for (int i = 0; i < r->n; i++)
      if (!add_terms(&r->lo[i], min, NULL, coef) || !add_terms(&r->hi[i], max, NULL, coef))
        return false;
    return true;
  }
  if (2 * r->n > RANGE_MAX)
    return false;
  int n = r->n;
  for (int i = 0; i < n; i++) {
    r->lo[n + i] = r->lo[i];
    r->hi[n + i] = r->hi[i];
    if (!add_terms(&r->lo[i], first, scale, coef) || !add_terms(&r->lo[n + i], last, scale, coef) ||
        !add_terms(&r->hi[i], first, scale, coef) || !add_terms(&r->hi[n + i], last, scale, coef))
      return false;
  }
  r->n = 2 * n;
  return true;
}

/* Range of one subscript over the loops around the access.  False when it
 * depends on something else than loop indices and region invariants. */
static bool subscript_range(const BoxCtx *b, const Access *acc, const IrExpr *sub, Range *r)
{
  Affine f;
  if (!aff_build(sub, &f))
    return false;
  memset(r, 0, sizeof *r);
  r->n = 1;
  r->lo[0].c = r->hi[0].c = f.c;
  for (int i = 0; i < f.n; i++) {
    const AffTerm *t = &f.t[i];
    IrStmt *loop = loop_of(acc, t->var);
    IrSym *other = t->scale;
    if (!loop && t->scale && (loop = loop_of(acc, t->scale)))
      other = t->var;
    if (other) {
      Affine o = { 1, { { other, NULL, 1 } }, 0 };
      if (!invariant(b, &o) || loop_of(acc, other))
        return false;
    }
    if (!loop) {
      Affine one = { 1, { *t }, 0 };
      if (!invariant(b, &one))
        return false;
      for (int k = 0; k < r->n; k++)
        if (!add_terms(&r->lo[k], &one, NULL, 1) || !add_terms(&r->hi[k], &one, NULL, 1))
          return false;
      continue;
    }
    long step = 1;
    Affine l, h;
    if ((loop->u.loop.step && !ir_eval_const(loop->u.loop.step, &step)) ||
        !aff_build(loop->u.loop.lo, &l) || !aff_build(loop->u.loop.hi, &h) || !invariant(b, &l) ||
        !invariant(b, &h))
      return false;
    if (!range_add_loop(r, step > 0 ? &l : &h, step > 0 ? &h : &l, other, t->coef))
      return false;
  }
  return true;
}

/* The union of candidate bounds, merged where only the constant differs. */
typedef struct Bound {
  int n;
  Affine cand[4];
  bool unknown;
} Bound;

static void bound_add(Bound *b, const Affine *a, bool is_lo)
{
  for (int i = 0; i < b->n; i++)
    if (aff_same_terms(&b->cand[i], a)) {
      if (is_lo ? a->c < b->cand[i].c : a->c > b->cand[i].c)
        b->cand[i].c = a->c;
      return;
    }
  if (b->n == 4)
    b->unknown = true;
  else
    b->cand[b->n++] = *a;
}

static IrExpr *bound_expr(const Bound *b, bool is_lo, Loc loc)
{
  IrExpr *e = aff_expr(&b->cand[0], loc);
  for (int i = 1; i < b->n; i++) {
    IrExpr *args[2] = { e, aff_expr(&b->cand[i], loc) };
    IrExpr *c = ir_expr_new(IR_E_CALL, IR_T_INT, loc);
    c->u.call.fn = is_lo ? IR_FN_MIN : IR_FN_MAX;
    c->u.call.n = 2;
    c->u.call.args = ir_alloc(sizeof args);
    memcpy(c->u.call.args, args, sizeof args);
    e = c;
  }
  return e;
}

/* The box of `sym` touched by the accesses of graph g. */
static bool accessed_box(const BoxCtx *b, const DepGraph *g, IrSym *sym, IrExpr **lo, IrExpr **hi)
{
  Bound blo[IR_MAX_RANK] = { 0 }, bhi[IR_MAX_RANK] = { 0 };
  for (int i = 0; i < g->nacc; i++) {
    const Access *acc = &g->acc[i];
    if (acc->ref->u.elem.sym != sym)
      continue;
    for (int d = 0; d < sym->rank; d++) {
      Range r;
      if (!subscript_range(b, acc, acc->ref->u.elem.sub[d], &r)) {
        blo[d].unknown = bhi[d].unknown = true;
        continue;
      }
      for (int k = 0; k < r.n; k++) {
        bound_add(&blo[d], &r.lo[k], true);
        bound_add(&bhi[d], &r.hi[k], false);
      }
    }
  }
  bool ok = true;
  for (int d = 0; d < sym->rank; d++) {
    Loc loc = sym->loc;
    if (blo[d].unknown || bhi[d].unknown || !blo[d].n) {
      /* fall back to the declared bounds of this dimension */
      lo[d] = sym->lo[d];
      hi[d] = sym->hi[d];
      ok &= lo[d] && hi[d];
    } else {
      lo[d] = bound_expr(&blo[d], true, loc);
      hi[d] = bound_expr(&bhi[d], false, loc);
    }
  }
  return ok;
}

/* ---- user clause items -------------------------------------------------- */

/* The front end resolved the items' names (fe_resolve_directive); what
 * did not resolve is reported here, where the clauses are judged, so the
 * messages come in the order they always have.
 *
 * Report each name of bound e that is not an integer scalar of r, left to
 * right.  True when there is none (then the front end gave the bound as IR). */
static bool bound_names_ok(const IrRoutine *r, const DirExpr *e)
{
  switch (e->kind) {
  case DIR_E_INT: return true;
  case DIR_E_NAME: {
    const IrSym *s = e->u.sym;
    if (s && !s->rank && ir_type_is_integer(s->type))
      return true;
    diag_at(DIAG_ERROR, e->loc, (int)strlen(e->u.name),
            "'%s' in a sub-array bound must be an integer scalar of routine '%s'", e->u.name,
            r->name);
    return false;
  }
  case DIR_E_NEG: return bound_names_ok(r, e->u.operand);
  case DIR_E_BINARY: {
    bool lhs = bound_names_ok(r, e->u.bin.lhs), rhs = bound_names_ok(r, e->u.bin.rhs);
    return lhs && rhs;
  }
  }
  return false;
}

/* The resolved bound `ir` of the bound `e` as written, or NULL (reported). */
static IrExpr *bound_ir(const IrRoutine *r, const DirExpr *e, IrExpr *ir)
{
  if (!ir)
    bound_names_ok(r, e);
  return ir;
}

bool an_item_box(IrRoutine *r, IrSym *a, const DirItem *item, IrLang lang, IrExpr **lo, IrExpr **hi)
{
  if (a->delinearized && item->nsections == 1) {
    /* the user's flat range of an array the analyses index per dimension */
    const DirSection *s = &item->sections[0];
    IrExpr *start = s->lo ? bound_ir(r, s->lo, s->lo_ir) : ir_int(0, item->loc);
    IrExpr *len = s->is_index ? ir_int(1, item->loc) : s->len ? bound_ir(r, s->len, s->len_ir)
                                                                : NULL;
    const char *why = NULL;
    if (!start || (!len && !s->is_index && s->len))
      return false;
    if (!len) {
      diag_at(DIAG_ERROR, item->loc, (int)strlen(item->name), "the size of '%s' is unknown; "
              "give its length in the clause, as in copyin(%s[0:n])", ir_sym_user_name(a), ir_sym_user_name(a));
      return false;
    }
    if (dl_flat_item_box(a, start, len, lo, hi, &why))
      return true;
    char shape[256];
    dl_shape_text(a, shape, sizeof shape);
    diag_at(DIAG_ERROR, item->loc, (int)strlen(item->name), "the region indexes '%s' as a "
            "delinearized %s array; %s", ir_sym_user_name(a), shape, why);
    return false;
  }
  if (item->nsections && item->nsections != a->rank) {
    diag_at(DIAG_ERROR, item->loc, (int)strlen(item->name), "'%s' has rank %d but the clause "
            "gives %d dimension%s", ir_sym_user_name(a), a->rank, item->nsections, item->nsections == 1 ? "" : "s");
    return false;
  }
  for (int d = 0; d < a->rank; d++) {
    lo[d] = a->lo[d];
    hi[d] = a->hi[d];
    if (!item->nsections)
      continue;
    const DirSection *s = &item->sections[lang == IR_FORTRAN ? d : a->rank - 1 - d];
    if (s->lo && !(lo[d] = bound_ir(r, s->lo, s->lo_ir)))
      return false;
    if (s->is_index)
      hi[d] = lo[d];
    else if (s->len) {
      IrExpr *len = bound_ir(r, s->len, s->len_ir);
      if (!len)
        return false;
      hi[d] = ir_binary(IR_OP_SUB, ir_binary(IR_OP_ADD, lo[d], len, item->loc),
                        ir_int(1, item->loc), item->loc);
    } else if (s->hi && !(hi[d] = bound_ir(r, s->hi, s->hi_ir)))
      return false;
  }
  for (int d = 0; d < a->rank; d++)
    if (!lo[d] || !hi[d]) {
      diag_at(DIAG_ERROR, item->loc, (int)strlen(item->name),
              "the size of '%s' is unknown; give its bounds in the clause, as in %s", ir_sym_user_name(a),
              lang == IR_FORTRAN ? "copyin(a(1:n))" : "copyin(a[0:n])");
      return false;
    }
  return true;
}

/* ---- host uses ------------------------------------------------------------------ */

int an_host_use(const IrRoutine *r, const char *name, int from, int to, bool stop_at_assignment)
{
  IrHostUses *u;
  HASH_FIND_STR(r->host_uses, name, u);
  for (int i = 0; u && i < u->n; i++)
    if (u->v[i].line >= from && u->v[i].line <= to)
      return stop_at_assignment && u->v[i].assigns ? 0 : u->v[i].line;
  return 0;
}

/* Does the specification part do more with a than declare it (COMMON,
 * EQUIVALENCE, SAVE, DATA, an initializer: all let its values outlive the
 * region or alias them)?  The front end recorded it on the symbol. */
static bool special_local(const IrRoutine *r, const IrSym *a)
{
  return r->saves_all || a->in_common || a->in_equivalence || a->save_named || a->in_data ||
         a->has_initializer;
}

/* Could the host use array a's values outside region g?  Dummies and
 * module variables: yes (the caller, other routines).  Locals: if the
 * routine's executable part mentions it outside g, or the declarations
 * let the values outlive the call or alias them. */
bool an_host_uses_array(const Program *prog, const IrRegion *g, const IrSym *a)
{
  const IrRoutine *r = g->routine;
  if (a->is_dummy || a->is_module || prog->lang == IR_C || special_local(r, a))
    return true;
  return an_host_use(r, a->name, r->body_start_line, g->first_line - 1, false) ||
         an_host_use(r, a->name, g->last_line + 1, r->last_line, false);
}

/* ---- module data -----------------------------------------------------------------
 *
 * A module variable the region uses is the same object for every routine
 * of the program, whichever file defines its module: the front end (or a
 * module summary read from another file) gives it as an IrSym with
 * is_module set, and nothing here looks at a module's source.  Read-only
 * scalars are passed by value; small read-only arrays that every thread
 * reads alike go to constant memory; other arrays move by their data
 * clauses; a written scalar is privatized or refused (an_module_data_place,
 * whose rule access.h states). */

ModulePlace an_module_data_place(const ModuleDataFacts *f)
{
  if (!f->is_array) {
    if (!f->written)
      return MODULE_BY_VALUE;
    return MODULE_REFUSED;      /* what other files read after the region is not known */
  }
  if (f->written || f->user_clause || !f->uniform || f->bytes <= 0 ||
      f->bytes > AN_CONSTANT_ARRAY_MAX_BYTES || f->bytes > f->constant_left)
    return MODULE_DATA_CLAUSE;
  return MODULE_CONSTANT;
}

static bool module_lists(const IrModule *m, const IrSym *s)
{
  IrSym *found = NULL;
  if (m)
    HASH_FIND_STR(m->symbols, s->name, found);
  return found == s;
}

/* The name of the module that declares s: the routine's own module, one it
 * uses, or any module of the program; NULL when none lists it. */
static const char *module_of(const Program *prog, const IrRoutine *r, const IrSym *s)
{
  if (module_lists(r->module, s))
    return r->module->name;
  for (int i = 0; i < r->nuses; i++)
    if (module_lists(r->uses[i], s))
      return r->uses[i]->name;
  for (int i = 0; i < prog->nmodules; i++)
    if (module_lists(prog->modules[i], s))
      return prog->modules[i]->name;
  return NULL;
}

static long type_bytes(IrType t)
{
  return t == IR_T_REAL8 || t == IR_T_INT8 ? 8 : t == IR_T_VOID ? 0 : 4;
}

/* The size of the whole of array a when its bounds are constants, else -1. */
static long whole_bytes(const IrSym *a)
{
  long n = type_bytes(a->type), lo, hi;
  for (int d = 0; d < a->rank; d++) {
    if (!a->lo[d] || !a->hi[d] || !ir_eval_const(a->lo[d], &lo) || !ir_eval_const(a->hi[d], &hi) ||
        hi < lo)
      return -1;
    n *= hi - lo + 1;
  }
  return n;
}

/* Constant memory taken so far in the program's file: the regions planned
 * before this one, and this one's arrays placed already. */
static long constant_bytes_used(const Program *prog)
{
  long used = 0;
  for (int r = 0; r < prog->nroutines; r++)
    for (int i = 0; i < prog->routines[r]->nregions; i++) {
      const RegionPlan *p = prog->routines[r]->regions[i]->analysis;
      for (int a = 0; p && a < p->narrays; a++)
        used += p->arrays[a].constant_memory ? p->arrays[a].constant_bytes : 0;
    }
  return used;
}

typedef struct Uniform {
  const Access *acc;
  IrSym **written;
  int nwritten;
  bool ok;
} Uniform;

/* Is s, read in a subscript of acc, the same in every thread: a named
 * constant, a scalar the region does not assign, or the index of an
 * enclosing loop whose bounds and step are constants (every thread runs
 * the same iterations)? */
static bool uniform_scalar(const Uniform *u, const IrSym *s)
{
  if (s->kind == IR_SYM_PARAM || !has_sym(u->written, u->nwritten, s))
    return true;
  const IrStmt *l = loop_of(u->acc, s);
  long v;
  return l && ir_eval_const(l->u.loop.lo, &v) && ir_eval_const(l->u.loop.hi, &v) &&
         (!l->u.loop.step || ir_eval_const(l->u.loop.step, &v));
}

static void uniform_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  Uniform *u = ctx;
  (void)in;
  /* a value read from an array may differ from thread to thread */
  if (e->kind == IR_E_ELEM || (e->kind == IR_E_VAR && !uniform_scalar(u, e->u.var)))
    u->ok = false;
}

/* Does every reference to array a in dg read the same element in every
 * thread? */
static bool uniform_subscripts(const DepGraph *dg, const IrSym *a, IrSym **written, int nwritten)
{
  for (int i = 0; i < dg->nacc; i++) {
    if (dg->acc[i].ref->u.elem.sym != a)
      continue;
    Uniform u = { &dg->acc[i], written, nwritten, true };
    for (int d = 0; d < dg->acc[i].ref->u.elem.n && u.ok; d++)
      ir_walk_expr(dg->acc[i].ref->u.elem.sub[d], NULL, uniform_visit, &u);
    if (!u.ok)
      return false;
  }
  return true;
}

static ArrayPlan *find_array_plan(RegionPlan *p, const IrSym *s)
{
  for (int i = 0; i < p->narrays; i++)
    if (p->arrays[i].sym == s)
      return &p->arrays[i];
  return NULL;
}

/* A module variable (not a named constant, not the hidden bound scalar of
 * a module allocatable, which the host fills at each call). */
static bool is_module_data(const IrSym *s)
{
  return s->is_module && s->kind == IR_SYM_VAR && !s->bound_of;
}

static void collect_module_data(IrExpr *e, IrStmt *in, void *ctx)
{
  (void)in;
  IrSym *s = e->kind == IR_E_VAR ? e->u.var : e->kind == IR_E_ELEM ? e->u.elem.sym : NULL;
  if (s && is_module_data(s))
    ir_symset_add(ctx, s);
}

/* The error for a module scalar the region writes and cannot privatize,
 * at its first assignment. */
static void refuse_module_write(const IrRegion *g, const ModuleVarPlan *mv,
                                const IrExpr *early_read, int host_line)
{
  const IrSym *s = mv->sym;
  const IrStmt *w = ir_assignment_of(&g->body, s);
  Loc at = w && w->kind == IR_S_ASSIGN ? w->u.assign.lhs->loc : w ? w->loc : g->dir->loc;
  const char *module = mv->module ? ir_printf(" (module %s)", mv->module) : "";
  if (early_read)
    diag_at(DIAG_ERROR, at, (int)strlen(ir_sym_user_name(s)), "module variable '%s'%s is assigned in the "
            "region, but its read at line %d may come before the assignment: each GPU thread "
            "has its own copy, so the value one iteration leaves for the next, and the value "
            "after the region, would be lost; assign it before every read in the region, or "
            "keep the values in an array indexed by the loop", ir_sym_user_name(s), module,
            diag_user_line(early_read->loc));
  else if (host_line)
    diag_at(DIAG_ERROR, at, (int)strlen(ir_sym_user_name(s)), "module variable '%s'%s is assigned in the "
            "region, and routine '%s' reads it after the region at line %d: each GPU thread has "
            "its own copy, so the value after the region would be lost; use a local variable "
            "in the region, and compute '%s' again after it", ir_sym_user_name(s), module,
            g->routine->name, host_line, ir_sym_user_name(s));
  else
    diag_at(DIAG_ERROR, at, (int)strlen(ir_sym_user_name(s)), "module variable '%s'%s is assigned in the "
            "region: each GPU thread would have its own copy, and after the region every routine "
            "that uses the module would see its old value, not the last one assigned; use a "
            "local variable of '%s' in the region instead", ir_sym_user_name(s), module, g->routine->name);
}

/* Fill plan->module_vars (Fortran): each module variable the region uses,
 * in the order of first use, and where it goes; constant-memory arrays are
 * marked on their ArrayPlan.  False when a written scalar must be refused
 * (reported at its write). */
static bool plan_module_data(const Program *prog, IrRegion *g, RegionPlan *plan, IrSym **written,
                             int nwritten, const DepGraph *dg)
{
  IrSymSet used = { 0 };
  ir_walk_exprs(&g->body, collect_module_data, &used);
  for (int i = 0; i < nwritten; i++)      /* a DO index is no expression */
    if (is_module_data(written[i]))
      ir_symset_add(&used, written[i]);
  for (int i = 0; i < plan->ninputs; i++) /* scalars of array bounds */
    if (is_module_data(plan->inputs[i]))
      ir_symset_add(&used, plan->inputs[i]);
  const IrRoutine *r = g->routine;
  bool ok = true;
  for (int i = 0; i < used.n; i++) {
    IrSym *s = used.syms[i];
    ArrayPlan *a = s->rank ? find_array_plan(plan, s) : NULL;
    if (s->rank && !a)
      continue;
    ModuleDataFacts f = { .is_array = s->rank > 0 };
    IrExpr *early_read = NULL;
    int host_line = 0;
    if (a) {
      f.written = a->written;
      f.user_clause = a->user_clause;
      f.uniform = uniform_subscripts(dg, s, written, nwritten);
      f.bytes = whole_bytes(s);
      f.constant_left = AN_CONSTANT_FILE_MAX_BYTES - constant_bytes_used(prog);
    } else if ((f.written = has_sym(written, nwritten, s))) {
      early_read = xf_first_exposed(&g->body, &s, 1, NULL, 0);
      host_line = an_host_use(r, s->name, g->last_line + 1, r->last_line, true);
      f.read_before_write = early_read != NULL;
      f.host_reads_after = host_line != 0;
    }
    ModuleVarPlan mv = { s, module_of(prog, r, s), an_module_data_place(&f) };
    if (mv.place == MODULE_CONSTANT) {
      a->constant_memory = true;
      a->constant_bytes = f.bytes;
    }
    if (mv.place == MODULE_REFUSED && ok) {   /* one error per region: the first */
      refuse_module_write(g, &mv, early_read, host_line);
      ok = false;
    }
    IR_PUSH(plan->module_vars, plan->nmodule_vars, mv);
  }
  return ok;
}

static void report_array(IrRegion *g, IrLang lang, const ArrayPlan *a);

void an_report_module_data(const Program *prog, IrRegion *g, const RegionPlan *plan)
{
  Loc at = { g->dir->loc.file, diag_user_line(g->dir->loc), 0 };
  for (int i = 0; i < plan->nmodule_vars; i++) {
    const ModuleVarPlan *mv = &plan->module_vars[i];
    const char *name = mv->sym->name, *module = mv->module ? ir_printf(" (%s)", mv->module) : "";
    const ArrayPlan *a = NULL;
    for (int k = 0; k < plan->narrays && !a; k++)
      a = plan->arrays[k].sym == mv->sym ? &plan->arrays[k] : NULL;
    switch (mv->place) {
    case MODULE_BY_VALUE:
      report_add(REPORT_INFO, g->routine->name, at, "Module variable '%s'%s passed by value",
                 name, module);
      break;
    case MODULE_CONSTANT:
      report_add(REPORT_INFO, g->routine->name, at, "Module array '%s'%s placed in constant "
                 "memory (%ld bytes, copied before the launch; every thread reads the same "
                 "elements)", name, module, a ? a->constant_bytes : 0L);
      break;
    case MODULE_DATA_CLAUSE:
      if (a && a->constant_demoted) {  /* its clause line was left for this moment */
        report_array(g, prog->lang, a);
        report_add(REPORT_INFO, g->routine->name, at, "Module array '%s'%s moved by its data "
                   "clause, not constant memory: a thread reads its own elements", name, module);
      } else
        report_add(REPORT_INFO, g->routine->name, at, "Module array '%s'%s moved by its data "
                   "clause", name, module);
      break;
    case MODULE_REFUSED:
      break;
    }
  }
}

/* ---- the region ------------------------------------------------------------- */

typedef struct ScanCtx {
  RegionPlan *plan;
  IrSym **written;
  int nwritten;
  IrSym **read;
  int nread;
} ScanCtx;

static void scan_expr(IrExpr *e, IrStmt *in, void *ctx)
{
  ScanCtx *c = ctx;
  (void)in;
  if (e->kind == IR_E_VAR && e->u.var->kind == IR_SYM_PARAM)
    add_sym(&c->plan->params, &c->plan->nparams, e->u.var);
  else if (e->kind == IR_E_VAR)
    add_sym(&c->read, &c->nread, e->u.var);
}

/* The scalars the region assigns (loop indices included), in the order
 * of their first assignment. */
static void scan_writes(ScanCtx *c, IrStmtList *l)
{
  IrSymSet written = { 0 };
  ir_assigned_scalars(l, &written);
  for (int i = 0; i < written.n; i++)
    IR_PUSH(c->written, c->nwritten, written.syms[i]);
}

/* Scalars that array bounds and boxes need on the device side too. */
static void add_bound_inputs(ScanCtx *c, IrExpr *e)
{
  ir_walk_expr(e, NULL, scan_expr, c);
}

/* Are all of a's bounds declared expressions (not run-time lbound/ubound)? */
static bool declared_bounds(const IrSym *a)
{
  for (int d = 0; d < a->rank; d++)
    if (!a->lo[d] || !a->hi[d] || (a->lo[d]->kind == IR_E_VAR && a->lo[d]->u.var->bound_of) ||
        (a->hi[d]->kind == IR_E_VAR && a->hi[d]->u.var->bound_of))
      return false;
  return true;
}

static void report_array(IrRegion *g, IrLang lang, const ArrayPlan *a)
{
  char box[512];
  an_box_text(a->sym, a->box_lo, a->box_hi, lang, box, sizeof box);
  report_add(REPORT_INFO, g->routine->name, (Loc){ g->dir->loc.file, a->clause_line, 0 },
             "Generating %s(%s)%s", dir_clause_name(a->clause), box,
             a->user_clause ? "" : " (inferred)");
}

static const Access *first_access(const DepGraph *dg, const IrSym *s, bool write)
{
  for (int i = 0; i < dg->nacc; i++)
    if (dg->acc[i].ref->u.elem.sym == s && dg->acc[i].write == write)
      return &dg->acc[i];
  return NULL;
}

static bool same_affine(const IrExpr *a, const IrExpr *b)
{
  Affine x, y;
  return aff_build(a, &x) && aff_build(b, &y) && x.c == y.c && aff_same_terms(&x, &y);
}

static const IrStmt *innermost_over(const Access *a, const IrSym *iv)
{
  for (int l = a->nloops - 1; l >= 0; l--)
    if (a->loops[l]->u.loop.iv == iv)
      return a->loops[l];
  return NULL;
}

static bool enclosed_by(const Access *a, const IrStmt *loop)
{
  for (int l = 0; l < a->nloops; l++)
    if (a->loops[l] == loop)
      return true;
  return false;
}

/* Does loop r, its values moved by `shift` (a constant, or an affine form
 * of scalars the region keeps), run over values that loop w also runs over
 * (either direction, unit steps: [first, last] of r plus shift inside that
 * of w, by a constant margin)?  The order does not matter: all of w's
 * stores come before r's loads. */
/* a, a bound of loop `inner` around access r, with the indices of the loops
 * around `inner` replaced by the values that make it least (greatest): a
 * triangular loop `do m = k, 2, -1` inside `do k = 1, km+1` runs over
 * values within 2..km+1.  False when a bound of those loops is no affine
 * form. */
static bool outer_extreme(const Access *r, const IrStmt *inner, Affine *a, bool least)
{
  int upto = 0;
  while (upto < r->nloops && r->loops[upto] != inner)
    upto++;
  for (int l = upto - 1; l >= 0; l--) {
    const IrStmt *o = r->loops[l];
    const AffTerm *t = aff_term(a, o->u.loop.iv);
    long step = 1;
    if (!t)
      continue;
    if (o->u.loop.step && !ir_eval_const(o->u.loop.step, &step))
      return false;
    bool at_lo = (t->coef > 0) == least;       /* the bound where a is extreme */
    const IrExpr *lo_val = step > 0 ? o->u.loop.lo : o->u.loop.hi;
    const IrExpr *hi_val = step > 0 ? o->u.loop.hi : o->u.loop.lo;
    Affine by;
    if (!aff_build(at_lo ? lo_val : hi_val, &by) || !aff_replace(a, o->u.loop.iv, &by))
      return false;
  }
  return true;
}

static bool range_within_by(const Access *ra, const IrStmt *r, const IrStmt *w,
                            const Affine *shift)
{
  long sr = 1, sw = 1;
  if ((r->u.loop.step && !ir_eval_const(r->u.loop.step, &sr)) ||
      (w->u.loop.step && !ir_eval_const(w->u.loop.step, &sw)) ||
      (sr != 1 && sr != -1) || (sw != 1 && sw != -1))
    return false;
  const IrExpr *r_min = sr > 0 ? r->u.loop.lo : r->u.loop.hi;
  const IrExpr *r_max = sr > 0 ? r->u.loop.hi : r->u.loop.lo;
  const IrExpr *w_min = sw > 0 ? w->u.loop.lo : w->u.loop.hi;
  const IrExpr *w_max = sw > 0 ? w->u.loop.hi : w->u.loop.lo;
  Affine a, b, d;
  if (!aff_build(r_min, &a) || !aff_build(w_min, &b) || (ra && !outer_extreme(ra, r, &a, true)))
    return false;
  aff_sub(&a, &b, &d);                      /* r_min + shift - w_min >= 0 */
  if (!aff_combine(&d, shift, 1) || d.n || d.c < 0)
    return false;
  if (!aff_build(w_max, &a) || !aff_build(r_max, &b) || (ra && !outer_extreme(ra, r, &b, false)))
    return false;
  aff_sub(&a, &b, &d);                      /* w_max - (r_max + shift) >= 0 */
  return aff_combine(&d, shift, -1) && !d.n && d.c >= 0;
}

static bool range_within(const IrStmt *r, const IrStmt *w, long shift)
{
  Affine by = { .c = shift };
  return range_within_by(NULL, r, w, &by);
}

/* The loop around w (and not around r) whose index is w's subscript `sub`
 * exactly, or NULL. */
static const IrStmt *index_loop(const Access *w, const Access *r, const IrExpr *sub)
{
  Affine f;
  if (!aff_build(sub, &f) || f.n != 1 || f.c || f.t[0].coef != 1 || f.t[0].scale)
    return NULL;
  const IrStmt *l = innermost_over(w, f.t[0].var);
  return l && !enclosed_by(r, l) ? l : NULL;
}

/* The loop around w (and not around r) over the index v of subscripts
 * ws = v + cw of w and rs = v + cr of r, with *shift = cr - cw; or NULL.
 * (dz(k) stored for k = kts..kte, dz(k-1) loaded for k = kts+1..kte: the
 * loads are among the stores when r's loop over v, moved by the shift,
 * stays within w's.) */
static const IrStmt *shifted_index_loop(const Access *w, const Access *r, const IrExpr *ws,
                                        const IrExpr *rs, long *shift)
{
  Affine fw, fr;
  if (!aff_build(ws, &fw) || !aff_build(rs, &fr) || fw.n != 1 || fr.n != 1 ||
      fw.t[0].var != fr.t[0].var || fw.t[0].coef != 1 || fr.t[0].coef != 1 || fw.t[0].scale ||
      fr.t[0].scale)
    return NULL;
  const IrStmt *l = innermost_over(w, fw.t[0].var);
  if (!l || enclosed_by(r, l))
    return NULL;
  *shift = fr.c - fw.c;
  return l;
}

static bool pinned_already(const IrStmt *const *pinned, int n, const IrStmt *l)
{
  for (int k = 0; k < n; k++)
    if (pinned[k] == l)
      return true;
  return false;
}

static bool index_offset(const IrExpr *sub, const IrSym *v, Affine *rest);

/* Does the affine form name only scalars the region does not assign (no
 * loop index either)? */
static bool offset_invariant(const DepGraph *all, const Affine *f)
{
  for (int i = 0; i < f->n; i++)
    for (int k = 0; k < all->nvariant; k++)
      if (all->variant[k] == f->t[i].var || all->variant[k] == f->t[i].scale)
        return false;
  return true;
}

/* The loop around a (and not around b) whose index is subscript `sub`
 * plus an offset without it (in *offset: a constant, or `2 - kts` where an
 * inlined loop was moved onto the actual's bounds), or NULL. */
static const IrStmt *own_loop_offset(const Access *a, const Access *b, const IrExpr *sub,
                                     Affine *offset)
{
  Affine f;
  if (!aff_build(sub, &f))
    return NULL;
  for (int i = 0; i < f.n; i++) {
    const IrStmt *l = f.t[i].coef == 1 && !f.t[i].scale ? innermost_over(a, f.t[i].var) : NULL;
    if (l && !enclosed_by(b, l) && index_offset(sub, f.t[i].var, offset))
      return l;
  }
  return NULL;
}

/* May the test of an IF have another value at r than at w, or be the
 * test of another element?  It may read only what keeps its value through
 * the region (literals, scalars and arrays the region does not assign) and
 * the indices of loops around both w and r. */
typedef struct TestStable { const DepGraph *dg; const Access *w, *r; bool stable; } TestStable;

static bool loop_over(const Access *a, const IrSym *v)
{
  for (int l = 0; l < a->nloops; l++)
    if (a->loops[l]->u.loop.iv == v)
      return true;
  return false;
}

static void test_stable_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  TestStable *t = ctx;
  (void)in;
  if (e->kind == IR_E_VAR) {
    bool assigned = false;
    for (int i = 0; i < t->dg->nvariant; i++)
      assigned |= t->dg->variant[i] == e->u.var;
    bool index = loop_over(t->w, e->u.var) && loop_over(t->r, e->u.var);
    if ((assigned || e->u.var->rank) && !index)
      t->stable = false;
  } else if (e->kind == IR_E_ELEM) {
    for (int i = 0; i < t->dg->nacc; i++)
      if (t->dg->acc[i].write && t->dg->acc[i].ref->u.elem.sym == e->u.elem.sym)
        t->stable = false;
  } else if (e->kind == IR_E_CALL && e->u.call.fn == IR_FN_USER) {
    t->stable = false;
  }
}

/* A store made only under `if (TEST)` covers a read made under an IF of
 * the same test (scratch written and read under the same condition, as
 * microphysics does per phase): when the read runs, the test held at the
 * store of that element too.  w must be under that one IF alone (in its
 * THEN part), r in the THEN part of its innermost IF. */
static bool same_condition(const DepGraph *dg, const Access *w, const Access *r)
{
  const IrStmt *gw = w->guard, *gr = r->guard;
  if (w->cond_depth != 1 || !gw || gw->kind != IR_S_IF || !r->conditional || !gr ||
      gr->kind != IR_S_IF || !ir_list_contains(&gw->u.cond.then, w->stmt) ||
      !ir_list_contains(&gr->u.cond.then, r->stmt) || !ir_expr_equal(gw->u.cond.test, gr->u.cond.test))
    return false;
  TestStable t = { dg, w, r, true };
  ir_walk_expr(gw->u.cond.test, NULL, test_stable_visit, &t);
  return t.stable;
}

/* Is bound e, of a loop whose other bound is `from`, at least `from` when
 * `up` (at most, when not): their difference is a constant of that sign, or
 * e is max(..., x) (min(..., x) when not up) with one such x (the minor
 * time-step count `max(nint(delt/dtcldcr), 1)` of a loop from 1). */
static bool bound_reaches(const IrExpr *e, const Affine *from, bool up)
{
  e = ir_strip_converts(e);
  Affine b, diff;
  if (aff_build(e, &b)) {
    aff_sub(up ? &b : from, up ? from : &b, &diff);
    return !diff.n && diff.c >= 0;
  }
  if (e->kind != IR_E_CALL || e->u.call.fn != (up ? IR_FN_MAX : IR_FN_MIN))
    return false;
  for (int k = 0; k < e->u.call.n; k++)
    if (bound_reaches(e->u.call.args[k], from, up))
      return true;
  return false;
}

/* Does loop l (step +-1, or a constant) surely run at least once? */
static bool runs_once(const IrStmt *l)
{
  long step = 1;
  Affine lo;
  if (l->kind != IR_S_DO || (l->u.loop.step && !ir_eval_const(l->u.loop.step, &step)) || !step ||
      !aff_build(l->u.loop.lo, &lo))
    return false;
  return bound_reaches(l->u.loop.hi, &lo, step > 0);
}

/* Does write w surely store the element that read r loads, before r?  w is
 * unconditional; in each dimension the subscripts are equal, or w's runs
 * over a loop index (of a loop r is not in) and r's is that loop's first or
 * last value (work(i,k) written for k = kts..kte covers work(i,kts)), or
 * both are that index plus constants (dz(k) stored, dz(k-1) loaded), or
 * each is the index of its own loop and r's runs over values w's does; and
 * every other loop around w that r is not in runs over an index of the
 * subscripts with the bounds of r's loop over it, moved by the difference
 * of the constants, or names no subscript and surely runs at least once.  A conditional w covers only under the same test as r
 * (same_condition). */
static bool covers(const DepGraph *all, const Access *w, const Access *r)
{
  const IrStmt *pinned[IR_MAX_RANK], *shifted[IR_MAX_RANK];
  long shift[IR_MAX_RANK];
  int npinned = 0, nshifted = 0;
  if ((w->conditional && !same_condition(all, w, r)) || w->ref->u.elem.n != r->ref->u.elem.n)
    return false;
  for (int d = 0; d < w->ref->u.elem.n; d++) {
    const IrExpr *ws = w->ref->u.elem.sub[d], *rs = r->ref->u.elem.sub[d];
    if (same_affine(ws, rs))
      continue;
    long by = 0;
    const IrStmt *sl = shifted_index_loop(w, r, ws, rs, &by);
    /* under a test, the store of another element ran under the test of
     * another iteration: only the very element counts */
    if (w->conditional && (!sl || by != 0))
      return false;
    if (sl) {
      for (int k = 0; k < nshifted; k++)
        if (shifted[k] == sl && shift[k] != by)
          return false;                     /* one index, two shifts: w(k,k), r(k,k-1) */
      shifted[nshifted] = sl;
      shift[nshifted++] = by;
      continue;
    }
    /* each subscript the index of its own loop plus a constant, r's loop
     * running over values w's stores (a clear over kk, then reads over k;
     * zi(k+1) stored for k = 1..km, zi(k) loaded for k = 2..km+1) */
    Affine cw, cr, gap;
    const IrStmt *lw = own_loop_offset(w, r, ws, &cw), *lr = NULL;
    if (lw && !w->conditional && (lr = own_loop_offset(r, w, rs, &cr)) &&
        (aff_sub(&cr, &cw, &gap), range_within_by(r, lr, lw, &gap)) && offset_invariant(all, &gap)) {
      if (pinned_already(pinned, npinned, lw))
        return false;                       /* w(kk,kk) is no whole plane */
      pinned[npinned++] = lw;
      continue;
    }
    const IrStmt *l = index_loop(w, r, ws);
    if (!l || ir_expr_mentions(rs, l->u.loop.iv) ||
        !(same_affine(rs, l->u.loop.lo) || same_affine(rs, l->u.loop.hi)) ||
        pinned_already(pinned, npinned, l))
      return false;
    pinned[npinned++] = l;
  }
  for (int l = 0; l < w->nloops; l++) {
    const IrStmt *lw = w->loops[l];
    bool is_pinned = false;
    for (int k = 0; k < npinned; k++)
      is_pinned |= pinned[k] == lw;
    if (enclosed_by(r, lw) || is_pinned)
      continue;
    const IrStmt *lr = innermost_over(r, lw->u.loop.iv);
    bool in_subs = false;
    for (int d = 0; d < w->ref->u.elem.n; d++)
      in_subs |= ir_expr_mentions(w->ref->u.elem.sub[d], lw->u.loop.iv);
    long by = 0;
    for (int k = 0; k < nshifted; k++)
      by = shifted[k] == lw ? shift[k] : by;
    /* a loop whose index no subscript names (a minor time-step loop around
     * the store) repeats it: enough that it runs once */
    if (!in_subs && runs_once(lw))
      continue;
    if (!in_subs || !lr || !range_within(lr, lw, by))
      return false;
  }
  return true;
}

/* Is write acc[k], in the THEN part of an IF and under no other test, one of
 * a pair: the ELSE part stores the same element too (`if (q <= qmin) then
 * rslope = rmax else rslope = 1./lamda endif`), so that one of them runs
 * whatever the test, as an unconditional store would?  Both before index i. */
static bool stored_either_way(const DepGraph *dg, int k, int i)
{
  const Access *w = &dg->acc[k];
  const IrStmt *g = w->guard;
  if (!w->conditional || w->cond_depth != 1 || !g || g->kind != IR_S_IF ||
      !ir_list_contains(&g->u.cond.then, w->stmt))
    return false;
  for (int e = 0; e < i; e++) {
    const Access *x = &dg->acc[e];
    if (!x->write || x->ref->u.elem.sym != w->ref->u.elem.sym || x->guard != g ||
        x->cond_depth != 1 || !ir_list_contains(&g->u.cond.els, x->stmt))
      continue;
    bool same = true;
    for (int d = 0; d < w->ref->u.elem.n && same; d++)
      same = same_affine(w->ref->u.elem.sub[d], x->ref->u.elem.sub[d]);
    if (same)
      return true;
  }
  return false;
}

/* Does an access of dg before acc[i] (index < i) surely store what r reads?
 * all: every access of the region (for the tests of IFs). */
static bool covered_before(const DepGraph *dg, const DepGraph *all, int i, const Access *r)
{
  for (int k = 0; k < i; k++) {
    if (!dg->acc[k].write || dg->acc[k].ref->u.elem.sym != r->ref->u.elem.sym)
      continue;
    if (covers(all, &dg->acc[k], r))
      return true;
    if (stored_either_way(dg, k, i)) {
      Access both = dg->acc[k];
      both.conditional = false;
      both.cond_depth = 0;
      both.guard = NULL;
      if (covers(all, &both, r))
        return true;
    }
  }
  return false;
}

/* Is sub the index v plus terms without v (in *rest: a constant, or other
 * scalars, `k - kts + 1` of an inlined loop)? */
static bool index_offset(const IrExpr *sub, const IrSym *v, Affine *rest)
{
  Affine f;
  if (!aff_build(sub, &f))
    return false;
  const AffTerm *t = aff_term(&f, v);
  if (!t || t->coef != 1 || t->scale)
    return false;
  Affine iv = { 0 };
  aff_add_term(&iv, (IrSym *)v, NULL, 1);
  aff_sub(&f, &iv, rest);
  for (int i = 0; i < rest->n; i++)
    if (rest->t[i].var == v)
      return false;          /* v twice, with a scale */
  return true;
}

/* Loop r->loops[li] as a sweep of r: its step (1 or -1) in *step, and the
 * one dimension whose subscript is its index plus an offset without it (in
 * *offset), no other subscript mentioning the index; -1 when it is no such
 * sweep. */
static int swept_dimension(const Access *r, int li, long *step, Affine *offset)
{
  const IrStmt *loop = r->loops[li];
  const IrSym *v = loop->u.loop.iv;
  *step = 1;
  if ((loop->u.loop.step && !ir_eval_const(loop->u.loop.step, step)) || (*step != 1 && *step != -1))
    return -1;
  int dim = -1;
  for (int d = 0; d < r->ref->u.elem.n; d++)
    if (index_offset(r->ref->u.elem.sub[d], v, offset))
      dim = dim == -1 ? d : -2;
    else if (ir_expr_mentions(r->ref->u.elem.sub[d], v))
      dim = -2;
  return dim < 0 ? -1 : dim;
}

/* Is sub the index v plus `offset` plus the constant c? */
static bool index_offset_plus(const IrExpr *sub, const IrSym *v, const Affine *offset, long c)
{
  Affine rest, diff;
  if (!index_offset(sub, v, &rest))
    return false;
  aff_sub(&rest, offset, &diff);
  return !diff.n && diff.c == c;
}

/* Does the previous iteration of a loop around read acc[i] store what it
 * reads, and what the first iteration reads come from a store before the
 * loop?  The recurrence of a downward sweep:
 *     falk(i,kte) = ...                      (before the loop)
 *     do k = kte-1, kts, -1
 *       falk(i,k) = ...  falk(i,k+1) ...     (k+1: the previous iteration's)
 * or of the interfaces of a column, stored one ahead:
 *     zi(kts) = 0.
 *     do k = kts, kte: zi(k+1) = zi(k) + dz(i,k)
 * The store must run in every iteration of the loops the read is in, and
 * store element v + c + step there where the read loads v + c. */
static bool covered_by_previous_iteration(const DepGraph *dg, const DepGraph *all, int i,
                                          const Access *r)
{
  for (int li = r->nloops - 1; li >= 0; li--) {
    const IrStmt *loop = r->loops[li];
    const IrSym *v = loop->u.loop.iv;
    long step;
    Affine offset;
    int dim = swept_dimension(r, li, &step, &offset);
    if (dim < 0)
      continue;
    bool stored = false;
    for (int k = 0; k < dg->nacc && !stored; k++) {
      const Access *w = &dg->acc[k];
      if (!w->write || w->conditional || w->ref->u.elem.sym != r->ref->u.elem.sym ||
          w->nloops != r->nloops)
        continue;
      bool same = true;
      for (int l = 0; l < w->nloops && same; l++)
        same = w->loops[l] == r->loops[l];
      for (int d = 0; d < w->ref->u.elem.n && same; d++)
        same = d == dim ? index_offset_plus(w->ref->u.elem.sub[d], v, &offset, step)
                        : same_affine(w->ref->u.elem.sub[d], r->ref->u.elem.sub[d]);
      stored = same;
    }
    if (!stored)
      continue;                           /* not this loop's recurrence */
    /* the first iteration's element, loaded before any iteration stored it */
    Access first = *r;
    IrExpr *ref = ir_expr_new(IR_E_ELEM, r->ref->type, r->ref->loc);
    ref->u.elem = r->ref->u.elem;
    ref->u.elem.sub[dim] = ir_binary(IR_OP_ADD, loop->u.loop.lo, aff_expr(&offset, loop->loc),
                                     loop->loc);
    first.ref = ref;
    /* the loops around r but the swept one: inner loops (over i inside the
     * loop over k) still run their values in the first iteration */
    first.nloops = 0;
    for (int l = 0; l < r->nloops; l++)
      if (l != li)
        first.loops[first.nloops++] = r->loops[l];
    return covered_before(dg, all, i, &first);
  }
  return false;
}

/* The read r at the value `at` (plus r's offset) of its loop li, outside
 * that loop. */
static Access read_at(const Access *r, int li, int dim, const IrExpr *at, const Affine *offset)
{
  Access one = *r;
  IrExpr *ref = ir_expr_new(IR_E_ELEM, r->ref->type, r->ref->loc);
  ref->u.elem = r->ref->u.elem;
  ref->u.elem.sub[dim] = ir_binary(IR_OP_ADD, (IrExpr *)at, aff_expr(offset, at->loc), at->loc);
  one.ref = ref;
  one.nloops = 0;
  for (int l = 0; l < r->nloops; l++)
    if (l != li)
      one.loops[one.nloops++] = r->loops[l];
  return one;
}

/* Is read r (acc[i], or what stands for it), over the values of a loop
 * around it, covered in parts: the loop's first value, its last value or
 * both by single stores, the others by a loop of stores?  The Thomas
 * algorithm's back substitution:
 *     cp(i,kts) = ...                       (the first level, peeled)
 *     do k = kts+1, kte: cp(i,k) = ...      (the others)
 *     do k = kte-1, kts, -1: ... cp(i,k)    (reads kts .. kte-1)
 * and the interface speeds of a column: wi(1) = .., wi(k) for k = 2..km,
 * wi(km+1) = .., read for k = 1..km+1. */
static bool covered_in_parts(const DepGraph *dg, const DepGraph *all, int i, const Access *r)
{
  for (int li = r->nloops - 1; li >= 0; li--) {
    IrStmt *loop = r->loops[li];
    long step;
    Affine offset;
    int dim = swept_dimension(r, li, &step, &offset);
    if (dim < 0)
      continue;
    for (int peel = 1; peel <= 3; peel++) {   /* 1: the first value, 2: the last, 3: both */
      /* the loop without its peeled values ... */
      IrStmt rest = *loop;
      IrExpr *one = ir_int(step, loop->loc);
      if (peel & 2)
        rest.u.loop.hi = ir_binary(IR_OP_SUB, loop->u.loop.hi, one, loop->loc);
      if (peel & 1)
        rest.u.loop.lo = ir_binary(IR_OP_ADD, loop->u.loop.lo, one, loop->loc);
      Access most = *r;
      most.loops[li] = &rest;
      /* ... and the reads at the peeled values, outside the loop */
      Access first = read_at(r, li, dim, loop->u.loop.lo, &offset);
      Access last = read_at(r, li, dim, loop->u.loop.hi, &offset);
      if (covered_before(dg, all, i, &most) &&
          (!(peel & 1) || covered_before(dg, all, i, &first)) &&
          (!(peel & 2) || covered_before(dg, all, i, &last)))
        return true;
    }
  }
  return false;
}

static bool covered(const DepGraph *dg, const DepGraph *all, int i, const Access *r)
{
  return covered_before(dg, all, i, r) || covered_by_previous_iteration(dg, all, i, r) ||
         covered_in_parts(dg, all, i, r);
}

/* Is a subscript of read r one the coverage tests cannot place (a scalar
 * the region computes: `zi(m-1)` after `m = max(m, 2)`)? */
static bool unplaced_subscript(const DepGraph *all, const Access *r, const IrExpr *sub)
{
  Affine f;
  if (!aff_build(sub, &f))
    return true;
  for (int t = 0; t < f.n; t++) {
    bool index = false;
    for (int l = 0; l < r->nloops; l++)
      index |= r->loops[l]->u.loop.iv == f.t[t].var;
    for (int k = 0; !index && k < all->nvariant; k++)
      if (all->variant[k] == f.t[t].var)
        return true;
  }
  return false;
}

/* Is read acc[i] covered because every element the array declares was
 * stored before it, in the dimensions whose subscripts the tests cannot
 * place?  A valid program reads inside the declared bounds, so whatever
 * element it reads was stored.  Each such dimension is read as a loop over
 * its declared bounds, placed innermost. */
static bool covered_whole(const DepGraph *dg, const DepGraph *all, int i)
{
  const Access *r = &dg->acc[i];
  const IrSym *a = r->ref->u.elem.sym;
  Access any = *r;
  IrExpr *ref = ir_expr_new(IR_E_ELEM, r->ref->type, r->ref->loc);
  ref->u.elem = r->ref->u.elem;
  any.ref = ref;
  int placed = 0;
  for (int d = 0; d < a->rank; d++) {
    if (!unplaced_subscript(all, r, r->ref->u.elem.sub[d]))
      continue;
    if (!a->lo[d] || !a->hi[d] || any.nloops == DEP_MAX_DEPTH)
      return false;
    IrSym *v = ir_alloc(sizeof *v);
    v->name = ir_printf("(any element of dimension %d)", d + 1);
    v->kind = IR_SYM_VAR;
    v->type = IR_T_INT;
    v->dummy_index = -1;
    IrStmt *l = ir_stmt(IR_S_DO, r->ref->loc);
    l->u.loop.iv = v;
    l->u.loop.lo = a->lo[d];
    l->u.loop.hi = a->hi[d];
    any.loops[any.nloops++] = l;
    ref->u.elem.sub[d] = ir_var(v, r->ref->loc);
    placed++;
  }
  return placed && covered(dg, all, i, &any);
}

/* The first read of s that no earlier write surely stores, or NULL when
 * every read is preceded by a write of what it reads. */
static const Access *uncovered_read(const IrSym *s, const DepGraph *dg, const DepGraph *all)
{
  for (int i = 0; i < dg->nacc; i++) {
    if (dg->acc[i].ref->u.elem.sym != s || dg->acc[i].write)
      continue;
    if (!covered(dg, all, i, &dg->acc[i]) && !covered_whole(dg, all, i))
      return &dg->acc[i];
  }
  return NULL;
}

static bool written_before_read(const IrSym *s, const DepGraph *dg, const DepGraph *all)
{
  return !uncovered_read(s, dg, all);
}

/* Does a `!$stencil do private(...)` in region g name array s?  The user's
 * word that each column stores every element of s it reads before reading
 * it, where the analysis cannot prove it (as `independent` is for loops). */
typedef struct UserPrivate { const IrSym *s; bool named, stencil; } UserPrivate;

static IrVisitStep user_private_pre(IrStmt *t, IrVisit *v)
{
  UserPrivate *u = v->ctx;
  const Directive *adv = t->kind == IR_S_DO ? t->u.loop.advice : NULL;
  for (int c = 0; adv && c < adv->nclauses; c++)
    for (int i = 0; adv->clauses[c].kind == DIR_PRIVATE && i < adv->clauses[c].nitems; i++)
      if (adv->clauses[c].items[i].sym == u->s) {
        u->named = true;
        u->stencil |= adv->origin == DIR_FROM_STENCIL;
      }
  return u->stencil ? IR_VISIT_STOP : IR_VISIT_CONTINUE;
}

static UserPrivate user_private(IrRegion *g, const IrSym *s)
{
  UserPrivate u = { s, false, false };
  IrVisit v = { .pre = user_private_pre, .ctx = &u };
  ir_visit_stmts(&g->body, &v);
  return u;
}

bool an_user_private(IrRegion *g, const IrSym *s)
{
  return user_private(g, s).named;
}

/* Only `!$stencil do private(...)` is the user's word that the analysis
 * need not prove; an `!$acc` private list is advice it checks. */
static bool user_private_waives_proof(IrRegion *g, const IrSym *s)
{
  return user_private(g, s).stencil;
}

/* Why a written array cannot have one copy per thread, or NULL (then it is
 * privatizable: the mapping still decides whether its shape allows it). */
static const char *not_private_because(const Program *prog, const IrRegion *g, const ArrayPlan *a,
                                       const DepGraph *dg, const DepGraph *all)
{
  const IrSym *s = a->sym;
  /* create (local) moves nothing and nothing outlives the region, so one
   * copy per thread is what the user's private(list) asks for; a clause
   * that moves data says the host's values matter */
  if (a->user_clause && !(a->clause == DIR_CREATE && an_user_private((IrRegion *)g, s)))
    return ir_printf("a data clause names '%s'", ir_sym_user_name(s));
  if (prog->lang != IR_FORTRAN)
    return "keeping C arrays per thread is not implemented yet";
  if (s->is_dummy)
    return ir_printf("'%s' is a dummy argument: the caller sees its values", ir_sym_user_name(s));
  if (s->is_module)
    return ir_printf("'%s' is a module variable: other routines see its values", ir_sym_user_name(s));
  if (an_host_uses_array(prog, g, s))
    return ir_printf("the routine uses '%s' outside the region, or its declaration lets its "
                     "values outlive the call", ir_sym_user_name(s));
  const Access *r = uncovered_read(s, dg, all);
  if (r && !user_private_waives_proof((IrRegion *)g, s))
    return ir_printf("its element %s read at line %d may not have been written before in the "
                     "same iteration (if each column stores every element it reads first, say so "
                     "with private(%s) on the `!$stencil do` of a column loop)",
                     an_ref_text(r->ref, prog->lang), diag_user_line(r->stmt->loc), s->name);
  if (!declared_bounds(s))
    return ir_printf("the bounds of '%s' are known only at run time", ir_sym_user_name(s));
  return NULL;
}

/* ---- copyout or copy ----------------------------------------------------------
 *
 * An array the region writes and never reads needs no copy in (copyout)
 * only when the region surely writes every element of the box that is
 * copied back: an element it skips would carry whatever the fresh device
 * memory held back over the host's value.  The proof, for the one write
 * reference of the array:
 *   - it runs in every iteration of its loops (no IF around it, no CYCLE
 *     that can skip it, no EXIT that can end one of its loops early);
 *   - every loop around it has step 1 or -1 and bounds invariant in the
 *     region (not another loop's index, not a value read from an array);
 *   - each subscript is an invariant, or one enclosing loop's index with
 *     coefficient 1 or -1 plus an invariant, no index in two subscripts;
 *   - a loop whose index no subscript uses surely runs at least once.
 * The elements written are then exactly the box accessed_box computes.
 * Otherwise: copy, and the reason goes to the report. */

/* Why loop l may not run over every value from its first to its last with
 * invariant bounds, or NULL. */
static const char *loop_not_dense(const BoxCtx *b, const IrStmt *l)
{
  long step = 1;
  Affine lo, hi;
  if (l->u.loop.step && !ir_eval_const(l->u.loop.step, &step))
    return ir_printf("loop '%s' at line %d has a step that is not a constant", ir_sym_user_name(l->u.loop.iv),
                     diag_user_line(l->loc));
  if (step != 1 && step != -1)
    return ir_printf("loop '%s' at line %d steps by %ld", ir_sym_user_name(l->u.loop.iv), diag_user_line(l->loc),
                     step);
  if (!aff_build(l->u.loop.lo, &lo) || !aff_build(l->u.loop.hi, &hi))
    return ir_printf("the bounds of loop '%s' at line %d are read from an array or are not "
                     "affine", ir_sym_user_name(l->u.loop.iv), diag_user_line(l->loc));
  const IrSym *v = first_variant(b, &lo) ? first_variant(b, &lo) : first_variant(b, &hi);
  if (v)
    return ir_printf("the bounds of loop '%s' at line %d depend on '%s', which changes in the "
                     "region", ir_sym_user_name(l->u.loop.iv), diag_user_line(l->loc), ir_sym_user_name(v));
  return NULL;
}

/* The enclosing loop of w whose index subscript `sub` runs over, through
 * the single loop-index term of coefficient +-1 (NULL and *ok true: an
 * invariant subscript; *ok false: neither). */
static const IrStmt *subscript_loop(const BoxCtx *b, const Access *w, const IrExpr *sub, bool *ok)
{
  Affine f;
  const IrStmt *loop = NULL;
  *ok = aff_build(sub, &f);
  for (int t = 0; *ok && t < f.n; t++) {
    const IrStmt *l = f.t[t].scale ? NULL : loop_of(w, f.t[t].var);
    Affine one = { 1, { f.t[t] }, 0 };
    if (l && !loop && (f.t[t].coef == 1 || f.t[t].coef == -1))
      loop = l;
    else if (l || !invariant(b, &one))
      *ok = false;
  }
  return *ok ? loop : NULL;
}

static const char *jump_name(const IrStmt *j, IrLang lang)
{
  if (j->kind == IR_S_CYCLE)
    return lang == IR_FORTRAN ? "CYCLE" : "continue";
  return lang == IR_FORTRAN ? "EXIT" : "break";
}

/* Why write w may be skipped in some iteration of its loops. */
static const char *skipped_because(const Access *w, IrLang lang)
{
  const IrStmt *g = w->guard;
  int at = diag_user_line(w->stmt->loc);
  if (!g)
    return ir_printf("the write at line %d may not run in every iteration", at);
  if (g->kind == IR_S_IF)
    return ir_printf("the write at line %d is under the IF at line %d", at, diag_user_line(g->loc));
  if (g->kind == IR_S_WHILE)
    return ir_printf("the write at line %d is inside the loop without an index at line %d (DO "
                     "WHILE, DO or GOTO), whose iterations the analysis does not follow", at,
                     diag_user_line(g->loc));
  if (g->u.jump.name && strncmp(ir_jump_text(g), "EXIT", 4) && strncmp(ir_jump_text(g), "CYCLE", 5))
    return ir_printf("the %s at line %d can skip the write at line %d", ir_jump_text(g),
                     diag_user_line(g->loc), at);
  if (g->kind == IR_S_CYCLE)
    return ir_printf("the %s at line %d can skip the write at line %d", jump_name(g, lang),
                     diag_user_line(g->loc), at);
  return ir_printf("the %s at line %d can end a loop around the write at line %d before its "
                   "last iteration", jump_name(g, lang), diag_user_line(g->loc), at);
}

/* Why the region may leave elements of a's box unwritten, or NULL when it
 * writes every one (see above). */
static const char *partial_write(const BoxCtx *b, const DepGraph *dg, const IrSym *a, IrLang lang)
{
  const Access *w = NULL;
  for (int i = 0; i < dg->nacc; i++)
    if (dg->acc[i].ref->u.elem.sym == a && dg->acc[i].write) {
      if (w && w->stmt != dg->acc[i].stmt)
        return ir_printf("it is written at lines %d and %d, and the analysis does not prove "
                         "that the writes together cover every element",
                         diag_user_line(w->stmt->loc), diag_user_line(dg->acc[i].stmt->loc));
      w = &dg->acc[i];
    }
  if (!w)
    return "it is not written";
  if (w->conditional)
    return skipped_because(w, lang);
  const IrStmt *used[IR_MAX_RANK];
  for (int d = 0; d < w->ref->u.elem.n; d++) {
    bool ok;
    const IrStmt *l = subscript_loop(b, w, w->ref->u.elem.sub[d], &ok);
    char text[128];
    an_expr_text(w->ref->u.elem.sub[d], lang, text, sizeof text);
    if (!ok)
      return ir_printf("its subscript '%s' at line %d is not one loop index plus a value "
                       "fixed in the region", text, diag_user_line(w->stmt->loc));
    for (int k = 0; l && k < d; k++)
      if (used[k] == l)
        return ir_printf("the index of loop '%s' appears in two of its subscripts at line %d",
                         ir_sym_user_name(l->u.loop.iv), diag_user_line(w->stmt->loc));
    used[d] = l;
  }
  for (int i = 0; i < w->nloops; i++) {
    const IrStmt *l = w->loops[i];
    const char *why = loop_not_dense(b, l);
    if (why)
      return why;
    bool subscripted = false;
    for (int d = 0; d < w->ref->u.elem.n; d++)
      subscripted |= used[d] == l;
    if (!subscripted && !runs_once(l))
      return ir_printf("loop '%s' at line %d, whose index is not a subscript, may run zero times",
                       ir_sym_user_name(l->u.loop.iv), diag_user_line(l->loc));
  }
  return NULL;
}

static void infer_clause(ArrayPlan *a, const BoxCtx *b, const DepGraph *dg, IrLang lang)
{
  if (!a->written) {
    a->clause = DIR_COPYIN;
    return;
  }
  a->clause = DIR_COPY;
  if (a->read)
    return;
  a->copy_reason = partial_write(b, dg, a->sym, lang);
  if (!a->copy_reason)
    a->clause = DIR_COPYOUT;
}

/* A user clause that contradicts the code: warn with the conflicting line. */
/* A user clause that contradicts the code: the warning, kept for the report. */
static void check_user_clause(ArrayPlan *a, const DepGraph *dg)
{
  const Access *w = first_access(dg, a->sym, true), *r = first_access(dg, a->sym, false);
  if (a->clause == DIR_COPYIN && w)
    a->clause_warning = ir_printf("copyin(%s) but the region writes '%s' at line %d; the host "
                                  "will not see those values (use copy)", ir_sym_user_name(a->sym),
                                  ir_sym_user_name(a->sym), diag_user_line(w->stmt->loc));
  if ((a->clause == DIR_COPYOUT || a->clause == DIR_CREATE) && r && !w)
    a->clause_warning = ir_printf("%s(%s) but the region reads '%s' at line %d and never writes "
                                  "it; the device copy is not initialized (use copyin)",
                                  dir_clause_name(a->clause), ir_sym_user_name(a->sym), ir_sym_user_name(a->sym),
                                  diag_user_line(r->stmt->loc));
}

/* An `!$acc` copyout is advice: honoured only where the region surely
 * writes every element it copies back (as an inferred copyout must);
 * otherwise the elements it skips would come back with whatever the
 * device memory held, so it becomes copy, and the report says why. */
static void check_acc_copyout(ArrayPlan *a, const BoxCtx *b, const DepGraph *dg, IrLang lang)
{
  const char *why = a->read ? ir_printf("the region reads '%s'", ir_sym_user_name(a->sym))
                            : partial_write(b, dg, a->sym, lang);
  IrExpr *lo[IR_MAX_RANK], *hi[IR_MAX_RANK];
  char user[512], touched[512];
  if (!why && accessed_box(b, dg, a->sym, lo, hi)) {
    an_box_text(a->sym, a->box_lo, a->box_hi, lang, user, sizeof user);
    an_box_text(a->sym, lo, hi, lang, touched, sizeof touched);
    if (strcmp(user, touched) != 0)
      why = ir_printf("it writes %s, not every element of %s", touched, user);
  } else if (!why)
    why = "the analysis cannot tell which elements it writes";
  if (!why)
    return;
  a->clause = DIR_COPY;
  a->clause_superseded = ir_printf("the region may not write every element it would copy back "
                                   "(%s): copy, so the others keep the host's values", why);
}

IrSym *an_clause_array(IrRoutine *r, const DirItem *item, DirClauseKind kind)
{
  IrSym *s = item->sym;   /* resolved by the front end */
  if (s && s->rank)
    return s;
  IrSym *named = s ? s : ir_lookup(r, item->name);
  IrMissingUse *missing = named ? named->from_missing : NULL;
  /* a declaration that needed a name of a module that was not found
   * leaves no array: that USE is what is missing, not the array */
  if ((!named || named->type == IR_T_VOID) && r->nmissing_uses)
    missing = r->missing_uses[0];
  if (missing)
    diag_missing_use(missing, ir_printf("the directive's %s(...)", dir_clause_name(kind)),
                     item->name, true);
  else
    diag_at(DIAG_ERROR, item->loc, (int)strlen(item->name), "'%s' in %s(...) is not an array of "
            "routine '%s'%s", item->name, dir_clause_name(kind), r->name,
            strpbrk(item->name, ".>") ? " (a clause names a struct member that a region of the "
                                        "routine uses)" : "");
  return NULL;
}

static bool apply_user_clauses(IrRegion *g, IrLang lang, RegionPlan *plan)
{
  Directive *d = g->dir;
  for (int c = 0; c < d->nclauses; c++) {
    DirClause *cl = &d->clauses[c];
    for (int i = 0; i < cl->nitems; i++) {
      DirItem *item = &cl->items[i];
      IrSym *s = an_clause_array(g->routine, item, cl->kind);
      if (!s)
        return false;
      ArrayPlan *a = array_plan(plan, s);
      a->user_clause = true;
      a->clause = cl->kind;
      a->clause_line = diag_user_line(item->loc);
      if (!an_item_box(g->routine, s, item, lang, a->box_lo, a->box_hi))
        return false;
    }
  }
  return true;
}

void an_report_arrays(const Program *prog, IrRegion *g, const RegionPlan *plan)
{
  for (int i = 0; i < plan->narrays; i++) {
    const ArrayPlan *a = &plan->arrays[i];
    if (a->constant_memory)
      continue;                 /* no data clause (unless the storage pass demotes it: then
                                   an_report_module_data prints its line) */
    if (!a->privatized) {
      report_array(g, prog->lang, a);
      if (a->clause == DIR_COPY && a->copy_reason && !a->user_clause) {
        char box[512];
        an_box_text(a->sym, a->box_lo, a->box_hi, prog->lang, box, sizeof box);
        report_add(REPORT_NOTE, g->routine->name, (Loc){ g->dir->loc.file, a->clause_line, 0 },
                   "copy, not copyout, for '%s': the region may not write every element of "
                   "%s: %s", ir_sym_user_name(a->sym), box, a->copy_reason);
      }
      if (a->clause_warning)
        report_add(REPORT_WARNING, g->routine->name, (Loc){ g->dir->loc.file, a->clause_line, 0 },
                   "%s", a->clause_warning);
      /* a work array of the routine (or of an inlined callee) that stays
       * shared: why, so the user sees what blocks one copy per thread */
      if (a->written && !a->user_clause && !a->sym->is_dummy && !a->sym->is_module &&
          a->not_private_why && prog->lang == IR_FORTRAN && !an_host_uses_array(prog, g, a->sym))
        report_add(REPORT_NOTE, g->routine->name, (Loc){ g->dir->loc.file, a->clause_line, 0 },
                   "Array '%s' not kept per thread: %s", ir_sym_user_name(a->sym), a->not_private_why);
      continue;
    }
    Loc at = { g->dir->loc.file, a->clause_line, 0 };
    int kept = 0;
    for (int d = 0; d < a->sym->rank; d++)
      kept += !a->column_dim[d];
    if (!kept)
      report_add(REPORT_INFO, g->routine->name, at, "Array '%s' scalarized (one value per "
                 "column, no device copy)", ir_sym_user_name(a->sym));
    else if (a->private_elems >= 0)
      report_add(REPORT_INFO, g->routine->name, at, "Array '%s' privatized per column (%ld "
                 "elements, registers or local memory; no device copy)", ir_sym_user_name(a->sym),
                 a->private_elems);
    else
      report_add(REPORT_INFO, g->routine->name, at, "Array '%s' privatized per column (its "
                 "size is known at run time: one slice per thread in device memory; no copy)",
                 ir_sym_user_name(a->sym));
  }
}

bool an_region_accesses(const Program *prog, IrRegion *g, RegionPlan *plan)
{
  IrLang lang = prog->lang;
  ScanCtx c = { .plan = plan };
  scan_writes(&c, &g->body);
  ir_walk_exprs(&g->body, scan_expr, &c);
  DepGraph dg = { .nvariant = c.nwritten, .variant = c.written };
  dep_collect(&g->body, &dg);
  bool ok = apply_user_clauses(g, lang, plan);
  DepArray *by_array = dep_arrays(&dg), *arr, *tmp;
  HASH_ITER(hh, by_array, arr, tmp) {      /* arrays in the order of their first access */
    ArrayPlan *a = array_plan(plan, (IrSym *)arr->sym);
    for (int p = 0; p < arr->n; p++)
      if (dg.acc[arr->idx[p]].write)
        a->written = true;
      else
        a->read = true;
  }
  BoxCtx b = { c.written, c.nwritten };
  for (int i = 0; ok && i < plan->narrays; i++) {
    ArrayPlan *a = &plan->arrays[i];
    DepGraph one;      /* the questions below are about this array: its accesses */
    dep_array_graph(&dg, by_array, a->sym, &one);
    if (a->user_clause) {
      check_user_clause(a, &one);
      if (a->clause == DIR_COPYOUT && g->dir->origin != DIR_FROM_STENCIL)
        check_acc_copyout(a, &b, &one, lang);
    } else {
      a->clause_line = diag_user_line(g->dir->loc);
      infer_clause(a, &b, &one, lang);
      /* a local work array the host never touches: no copy back, and no
       * copy in either when the region writes every element before reading it */
      if (a->written && !an_host_uses_array(prog, g, a->sym))
        a->clause = a->clause == DIR_COPYOUT || written_before_read(a->sym, &one, &dg) ? DIR_CREATE
                                                                                 : DIR_COPYIN;
      bool boxed = accessed_box(&b, &one, a->sym, a->box_lo, a->box_hi);
      if (!boxed && a->sym->delinearize_why) {
        diag_at(DIAG_ERROR, g->dir->loc, 1, "the size of the GPU copy of '%s' is unknown: its "
                "subscripts are linearized but cannot be delinearized (%s); add a clause such "
                "as copy(%s[0:n]) to the region", ir_sym_user_name(a->sym), a->sym->delinearize_why,
                ir_sym_user_name(a->sym));
        ok = false;
        dep_free(&one);
        break;
      }
      if (!boxed) {
        diag_at(DIAG_ERROR, g->dir->loc, 1, "the size of the GPU copy of '%s' is unknown: its "
                "subscripts are not affine in the loop indices and its bounds are not declared; "
                "add a clause such as copy(%s%s) to the region", ir_sym_user_name(a->sym), ir_sym_user_name(a->sym),
                a->sym->is_pointer ? "[0:n]" : "(1:n)");
        ok = false;
        dep_free(&one);
        break;
      }
    }
    if (a->written)
      a->not_private_why = not_private_because(prog, g, a, &one, &dg);
    a->privatizable = a->written && !a->not_private_why;
    dep_free(&one);
    for (int d = 0; d < a->sym->rank; d++) {
      add_bound_inputs(&c, a->sym->lo[d]);
      add_bound_inputs(&c, a->sym->hi[d]);
      add_bound_inputs(&c, a->box_lo[d]);
      add_bound_inputs(&c, a->box_hi[d]);
    }
  }
  for (int i = 0; i < c.nread; i++)
    if (!has_sym(c.written, c.nwritten, c.read[i]) && !c.read[i]->rank)
      add_sym(&plan->inputs, &plan->ninputs, c.read[i]);
  for (int i = 0; i < c.nwritten; i++)
    add_sym(&plan->privates, &plan->nprivates, c.written[i]);
  if (ok && lang == IR_FORTRAN)
    ok = plan_module_data(prog, g, plan, c.written, c.nwritten, &dg);
  dep_arrays_free(by_array);
  /* kept: the region's access list, the one later passes query */
  plan->acc = dg;
  plan->acc.nvariant = plan->nprivates;
  plan->acc.variant = plan->privates;
  return ok;
}
