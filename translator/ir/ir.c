/* ir.c — IR construction, the arena, and small queries on types and
 * expressions that every pass needs.
 *
 * The arena is a chain of large blocks; every IR node of a translation unit
 * is carved from it and released at once by ir_arena_free().  Front ends and
 * passes therefore never free IR nodes.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ir.h"
#include "diag.h"

/* ---- arena ---------------------------------------------------------------- */

typedef struct ArenaBlock {
  struct ArenaBlock *next;
  size_t used, size;
  _Alignas(16) unsigned char data[];
} ArenaBlock;

static ArenaBlock *arena;

typedef struct Cleanup {
  void (*fn)(void *);
  void *p;
  struct Cleanup *next;
} Cleanup;
static Cleanup *cleanups;

void ir_arena_on_free(void (*fn)(void *), void *p)
{
  Cleanup *c = xmalloc(sizeof *c);
  *c = (Cleanup){ fn, p, cleanups };
  cleanups = c;
}

void *ir_alloc(size_t n)
{
  n = (n + 15) & ~(size_t)15;
  if (!arena || arena->used + n > arena->size) {
    size_t size = n > 65536 ? n : 65536;
    ArenaBlock *b = xmalloc(sizeof *b + size);
    b->next = arena;
    b->used = 0;
    b->size = size;
    arena = b;
  }
  void *p = arena->data + arena->used;
  arena->used += n;
  memset(p, 0, n);
  return p;
}

char *ir_strndup(const char *s, size_t n)
{
  char *p = ir_alloc(n + 1);
  memcpy(p, s, n);
  p[n] = 0;
  return p;
}

char *ir_strdup(const char *s)
{
  return ir_strndup(s, strlen(s));
}

char *ir_printf(const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  char *p = ir_alloc((size_t)n + 1);
  va_start(ap, fmt);
  vsnprintf(p, (size_t)n + 1, fmt, ap);
  va_end(ap);
  return p;
}

void ir_arena_free(void)
{
  while (cleanups) {
    Cleanup *next = cleanups->next;
    cleanups->fn(cleanups->p);
    free(cleanups);
    cleanups = next;
  }
  while (arena) {
    ArenaBlock *next = arena->next;
    free(arena);
    arena = next;
  }
}

/* ---- construction ----------------------------------------------------------- */

void *ir_reserve(void *old, size_t elem, int n, int *cap)
{
  if (n < *cap)
    return old;
  *cap = *cap ? 2 * *cap : 8;
  void *v = ir_alloc(elem * (size_t)*cap);
  if (n)
    memcpy(v, old, elem * (size_t)n);
  return v;
}

void ir_list_push(IrStmtList *l, IrStmt *s)
{
  IR_APPEND(l->v, l->n, l->cap, s);
}

void *ir_grow(const void *old, size_t elem, int n)
{
  void *p = ir_alloc(elem * (size_t)(n + 1));
  if (n)
    memcpy(p, old, elem * (size_t)n);
  return p;
}

IrExpr *ir_expr_new(IrExprKind kind, IrType type, Loc loc)
{
  IrExpr *e = ir_alloc(sizeof *e);
  e->kind = kind;
  e->type = type;
  e->loc = loc;
  return e;
}

IrExpr *ir_int(long v, Loc loc)
{
  IrExpr *e = ir_expr_new(IR_E_INT, IR_T_INT, loc);
  e->u.ival = v;
  return e;
}

IrExpr *ir_var(IrSym *s, Loc loc)
{
  IrExpr *e = ir_expr_new(IR_E_VAR, s->type, loc);
  e->u.var = s;
  return e;
}

static bool op_is_relational(IrOp op)
{
  return op >= IR_OP_LT && op <= IR_OP_NE;
}

static bool op_is_logical(IrOp op)
{
  return op == IR_OP_AND || op == IR_OP_OR || op == IR_OP_EQV || op == IR_OP_NEQV ||
         op == IR_OP_NOT;
}

IrExpr *ir_binary(IrOp op, IrExpr *a, IrExpr *b, Loc loc)
{
  IrType t;
  if (op_is_relational(op) || op_is_logical(op))
    t = IR_T_LOGICAL;
  else if (op == IR_OP_POW)
    t = ir_type_is_integer(b->type) ? a->type : ir_promote(a->type, b->type);
  else
    t = ir_promote(a->type, b->type);
  IrExpr *e = ir_expr_new(IR_E_BINARY, t, loc);
  e->u.binary.op = op;
  e->u.binary.lhs = a;
  e->u.binary.rhs = b;
  return e;
}

IrExpr *ir_convert(IrExpr *e, IrType to)
{
  if (e->type == to)
    return e;
  IrExpr *c = ir_expr_new(IR_E_CONVERT, to, e->loc);
  c->u.operand = e;
  return c;
}

IrStmt *ir_stmt(IrStmtKind kind, Loc loc)
{
  IrStmt *s = ir_alloc(sizeof *s);
  s->kind = kind;
  s->loc = loc;
  return s;
}

IrSym *ir_lookup(const IrRoutine *r, const char *name)
{
  IrSym *s = NULL;
  HASH_FIND_STR(r->symbols, name, s);
  if (!s && r->module)
    HASH_FIND_STR(r->module->symbols, name, s);
  if (!s) {
    IrUseName *u = NULL;
    HASH_FIND_STR(r->use_names, name, u);
    s = u ? u->sym : NULL;
  }
  for (int i = 0; !s && i < r->nuses; i++)
    HASH_FIND_STR(r->uses[i]->symbols, name, s);
  return s;
}

/* ---- types ---------------------------------------------------------------- */

bool ir_type_is_real(IrType t)
{
  return t == IR_T_REAL4 || t == IR_T_REAL8;
}

bool ir_type_is_integer(IrType t)
{
  return t == IR_T_INT || t == IR_T_INT8;
}

/* The type of a mixed-mode operation: the "larger" of the two in the order
 * logical < int < int8 < real4 < real8, which is both Fortran's rule and C's
 * usual arithmetic conversions for the types the IR has. */
IrType ir_promote(IrType a, IrType b)
{
  IrType t = a > b ? a : b;
  return t == IR_T_LOGICAL ? IR_T_INT : t;
}

const char *ir_type_c(IrType t)
{
  switch (t) {
  case IR_T_VOID: return "void";
  case IR_T_LOGICAL: return "int";
  case IR_T_INT: return "int";
  case IR_T_INT8: return "long long";
  case IR_T_REAL4: return "float";
  case IR_T_REAL8: return "double";
  }
  S2S_BUG("bad type %d", (int)t);
}

const char *ir_sym_user_name(const IrSym *s)
{
  return s->source_name ? s->source_name : s->name;
}

const char *ir_type_name(IrType t)
{
  switch (t) {
  case IR_T_VOID: return "void";
  case IR_T_LOGICAL: return "logical";
  case IR_T_INT: return "integer";
  case IR_T_INT8: return "integer(8)";
  case IR_T_REAL4: return "real(4)";
  case IR_T_REAL8: return "real(8)";
  }
  S2S_BUG("bad type %d", (int)t);
}

const char *ir_op_text(IrOp op)
{
  static const char *const text[] = {
    [IR_OP_ADD] = "+", [IR_OP_SUB] = "-", [IR_OP_MUL] = "*", [IR_OP_DIV] = "/",
    [IR_OP_POW] = "**", [IR_OP_NEG] = "-", [IR_OP_NOT] = "!",
    [IR_OP_AND] = "&&", [IR_OP_OR] = "||", [IR_OP_EQV] = "==", [IR_OP_NEQV] = "!=",
    [IR_OP_LT] = "<", [IR_OP_LE] = "<=", [IR_OP_GT] = ">", [IR_OP_GE] = ">=",
    [IR_OP_EQ] = "==", [IR_OP_NE] = "!=", [IR_OP_MOD_C] = "%",
  };
  return text[op];
}

/* ---- queries -------------------------------------------------------------- */

static bool eval_binary(IrOp op, long a, long b, long *out)
{
  switch (op) {
  case IR_OP_ADD: *out = a + b; return true;
  case IR_OP_SUB: *out = a - b; return true;
  case IR_OP_MUL: *out = a * b; return true;
  case IR_OP_DIV: if (!b) return false; *out = a / b; return true;
  case IR_OP_MOD_C: if (!b) return false; *out = a % b; return true;
  default: return false;
  }
}

bool ir_eval_const(const IrExpr *e, long *out)
{
  long a, b;
  switch (e->kind) {
  case IR_E_INT:
    *out = e->u.ival;
    return true;
  case IR_E_VAR:
    return e->u.var->kind == IR_SYM_PARAM && e->u.var->init &&
           ir_type_is_integer(e->u.var->type) && ir_eval_const(e->u.var->init, out);
  case IR_E_UNARY:
    if (e->u.unary.op != IR_OP_NEG || !ir_eval_const(e->u.unary.arg, &a))
      return false;
    *out = -a;
    return true;
  case IR_E_BINARY:
    return ir_type_is_integer(e->type) && ir_eval_const(e->u.binary.lhs, &a) &&
           ir_eval_const(e->u.binary.rhs, &b) && eval_binary(e->u.binary.op, a, b, out);
  case IR_E_CONVERT:
    return ir_type_is_integer(e->type) && ir_type_is_integer(e->u.operand->type) &&
           ir_eval_const(e->u.operand, out);
  default:
    return false;
  }
}

typedef struct MentionCtx { const IrSym *sym; bool found; } MentionCtx;

static void expr_walk(IrExpr *e, IrStmt *in, IrExprVisit fn, void *ctx);

static void mention_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  MentionCtx *m = ctx;
  (void)in;
  if ((e->kind == IR_E_VAR && e->u.var == m->sym) ||
      (e->kind == IR_E_ELEM && e->u.elem.sym == m->sym) ||
      (e->kind == IR_E_SECTION && e->u.section.sym == m->sym))
    m->found = true;
}

static IrExpr **copy_list(IrExpr *const *v, int n)
{
  IrExpr **c = ir_alloc(sizeof *c * (size_t)(n + 1));
  for (int i = 0; i < n; i++)
    c[i] = ir_expr_copy(v[i]);
  return c;
}

IrExpr *ir_expr_copy(const IrExpr *e)
{
  if (!e)
    return NULL;
  IrExpr *c = ir_alloc(sizeof *c);
  *c = *e;
  switch (e->kind) {
  case IR_E_ELEM:
    for (int i = 0; i < e->u.elem.n; i++)
      c->u.elem.sub[i] = ir_expr_copy(e->u.elem.sub[i]);
    break;
  case IR_E_UNARY: c->u.unary.arg = ir_expr_copy(e->u.unary.arg); break;
  case IR_E_BINARY:
    c->u.binary.lhs = ir_expr_copy(e->u.binary.lhs);
    c->u.binary.rhs = ir_expr_copy(e->u.binary.rhs);
    break;
  case IR_E_CALL: c->u.call.args = copy_list(e->u.call.args, e->u.call.n); break;
  case IR_E_COND:
    c->u.cond.test = ir_expr_copy(e->u.cond.test);
    c->u.cond.then = ir_expr_copy(e->u.cond.then);
    c->u.cond.els = ir_expr_copy(e->u.cond.els);
    break;
  case IR_E_CONVERT: c->u.operand = ir_expr_copy(e->u.operand); break;
  case IR_E_SECTION:
    c->u.section.dim = ir_alloc(sizeof *c->u.section.dim * (size_t)e->u.section.n);
    for (int i = 0; i < e->u.section.n; i++) {
      const IrTriplet *t = &e->u.section.dim[i];
      c->u.section.dim[i] = (IrTriplet){ t->is_range, ir_expr_copy(t->lo), ir_expr_copy(t->hi),
                                         ir_expr_copy(t->stride) };
    }
    break;
  default:
    break;
  }
  return c;
}

IrExpr *ir_expr_map(const IrExpr *e, IrExprMap fn, void *ctx)
{
  if (!e)
    return NULL;
  IrExpr *r = fn(e, ctx);
  if (r)
    return r;
  IrExpr *c = ir_alloc(sizeof *c);
  *c = *e;
  switch (e->kind) {
  case IR_E_ELEM:
    for (int i = 0; i < e->u.elem.n; i++)
      c->u.elem.sub[i] = ir_expr_map(e->u.elem.sub[i], fn, ctx);
    break;
  case IR_E_UNARY: c->u.unary.arg = ir_expr_map(e->u.unary.arg, fn, ctx); break;
  case IR_E_BINARY:
    c->u.binary.lhs = ir_expr_map(e->u.binary.lhs, fn, ctx);
    c->u.binary.rhs = ir_expr_map(e->u.binary.rhs, fn, ctx);
    break;
  case IR_E_CALL:
    c->u.call.args = ir_alloc(sizeof *c->u.call.args * (size_t)(e->u.call.n ? e->u.call.n : 1));
    for (int i = 0; i < e->u.call.n; i++)
      c->u.call.args[i] = ir_expr_map(e->u.call.args[i], fn, ctx);
    break;
  case IR_E_COND:
    c->u.cond.test = ir_expr_map(e->u.cond.test, fn, ctx);
    c->u.cond.then = ir_expr_map(e->u.cond.then, fn, ctx);
    c->u.cond.els = ir_expr_map(e->u.cond.els, fn, ctx);
    break;
  case IR_E_CONVERT: c->u.operand = ir_expr_map(e->u.operand, fn, ctx); break;
  case IR_E_SECTION: S2S_BUG("array section left after pass normalize");
  default:
    break;
  }
  return c;
}

/* The last suffix ir_new_local gave a name in a routine: the search for a
 * free name_N starts after it (thousands of k loops each wanting s2s_b_k
 * would otherwise try every taken suffix, quadratic in the loops). */
typedef struct IrNameSeq {
  const char *name;
  int last;
  UT_hash_handle hh;
} IrNameSeq;

IrSym *ir_new_local(IrRoutine *r, const char *name, IrType type, Loc loc)
{
  IrSym *s = ir_alloc(sizeof *s);
  IrNameSeq *seq;
  HASH_FIND_STR(r->name_seq, name, seq);
  if (!seq) {
    seq = ir_alloc(sizeof *seq);
    seq->name = name;
    seq->last = 1;
    HASH_ADD_KEYPTR(hh, r->name_seq, seq->name, strlen(seq->name), seq);
  }
  s->name = (char *)name;
  if (seq->last > 1 || ir_lookup(r, s->name))
    for (int k = seq->last + 1; ; k++) {
      s->name = ir_printf("%s_%d", name, k);
      if (!ir_lookup(r, s->name)) {
        seq->last = k;
        break;
      }
    }
  s->kind = IR_SYM_VAR;
  s->type = type;
  s->dummy_index = -1;
  s->inlined_local = true;
  s->loc = loc;
  HASH_ADD_KEYPTR(hh, r->symbols, s->name, strlen(s->name), s);
  return s;
}

IrExpr *ir_add_const(IrExpr *e, long delta)
{
  long c;
  if (e->kind == IR_E_INT)
    return ir_int(e->u.ival + delta, e->loc);
  if (e->kind == IR_E_BINARY && (e->u.binary.op == IR_OP_ADD || e->u.binary.op == IR_OP_SUB) &&
      e->u.binary.rhs->kind == IR_E_INT && ir_eval_const(e->u.binary.rhs, &c)) {
    delta += e->u.binary.op == IR_OP_ADD ? c : -c;
    e = e->u.binary.lhs;
  }
  if (!delta)
    return e;
  return ir_binary(delta > 0 ? IR_OP_ADD : IR_OP_SUB, e, ir_int(delta > 0 ? delta : -delta, e->loc),
                   e->loc);
}

IrExpr *ir_fold_offsets(IrExpr *e)
{
  long c;
  if (e->kind == IR_E_BINARY && (e->u.binary.op == IR_OP_ADD || e->u.binary.op == IR_OP_SUB) &&
      e->u.binary.rhs->kind == IR_E_INT && ir_eval_const(e->u.binary.rhs, &c))
    return ir_add_const(ir_fold_offsets(e->u.binary.lhs), e->u.binary.op == IR_OP_ADD ? c : -c);
  return e;
}

static IrExpr *subst_node(const IrExpr *e, void *ctx)
{
  const IrExpr *const *vb = ctx;   /* { the variable (as IR_E_VAR), its replacement } */
  return e->kind == IR_E_VAR && e->u.var == vb[0]->u.var ? ir_expr_copy(vb[1]) : NULL;
}

IrExpr *ir_expr_subst(const IrExpr *e, IrSym *v, const IrExpr *by)
{
  IrExpr var = { .kind = IR_E_VAR, .u.var = v };
  const IrExpr *vb[2] = { &var, by };
  return ir_expr_map(e, subst_node, vb);
}

const IrExpr *ir_strip_converts(const IrExpr *e)
{
  while (e->kind == IR_E_CONVERT)
    e = e->u.operand;
  return e;
}

IrModule *ir_module_of(const Program *p, const IrSym *s)
{
  for (int m = 0; m < p->nmodules; m++) {
    IrSym *found = NULL;
    HASH_FIND_STR(p->modules[m]->symbols, s->name, found);
    if (found == s)
      return p->modules[m];
  }
  return NULL;
}

bool ir_expr_equal(const IrExpr *a, const IrExpr *b)
{
  if (!a || !b)
    return a == b;
  if (a->kind != b->kind || a->type != b->type)
    return false;
  switch (a->kind) {
  case IR_E_INT:
  case IR_E_LOGICAL:
    return a->u.ival == b->u.ival;
  case IR_E_REAL:
    return strcmp(a->u.real, b->u.real) == 0;
  case IR_E_VAR:
    return a->u.var == b->u.var;
  case IR_E_UNARY:
    return a->u.unary.op == b->u.unary.op && ir_expr_equal(a->u.unary.arg, b->u.unary.arg);
  case IR_E_BINARY:
    return a->u.binary.op == b->u.binary.op && ir_expr_equal(a->u.binary.lhs, b->u.binary.lhs) &&
           ir_expr_equal(a->u.binary.rhs, b->u.binary.rhs);
  case IR_E_CONVERT:
    return ir_expr_equal(a->u.operand, b->u.operand);
  case IR_E_CALL:
    /* a user function may not give the same value twice */
    if (a->u.call.fn != b->u.call.fn || a->u.call.n != b->u.call.n || a->u.call.fn == IR_FN_USER)
      return false;
    for (int i = 0; i < a->u.call.n; i++)
      if (!ir_expr_equal(a->u.call.args[i], b->u.call.args[i]))
        return false;
    return true;
  case IR_E_COND:
    return ir_expr_equal(a->u.cond.test, b->u.cond.test) && ir_expr_equal(a->u.cond.then, b->u.cond.then) &&
           ir_expr_equal(a->u.cond.els, b->u.cond.els);
  case IR_E_ELEM:
    if (a->u.elem.sym != b->u.elem.sym || a->u.elem.n != b->u.elem.n)
      return false;
    for (int d = 0; d < a->u.elem.n; d++)
      if (!ir_expr_equal(a->u.elem.sub[d], b->u.elem.sub[d]))
        return false;
    return true;
  default:
    return false;
  }
}

bool ir_expr_mentions(const IrExpr *e, const IrSym *s)
{
  MentionCtx m = { s, false };
  expr_walk((IrExpr *)e, NULL, mention_visit, &m);
  return m.found;
}

bool ir_list_mentions(IrStmtList *l, const IrSym *s)
{
  MentionCtx m = { s, false };
  ir_walk_exprs(l, mention_visit, &m);
  return m.found;
}

static void symbol_visit(IrExpr *e, IrStmt *in, void *ctx)
{
  (void)in;
  IrSym *s = e->kind == IR_E_VAR ? e->u.var : e->kind == IR_E_ELEM ? e->u.elem.sym
           : e->kind == IR_E_SECTION ? e->u.section.sym : NULL;
  if (s)
    ir_symset_add(ctx, s);
}

IrSymSet *ir_list_symbols(IrStmtList *l)
{
  IrSymSet *set = ir_alloc(sizeof *set);
  ir_walk_exprs(l, symbol_visit, set);
  return set;
}

/* ---- symbol sets ------------------------------------------------------------ */

/* Up to this many members a set has no hash table: scanning a few pointers
 * beats hashing, and the many small sets (scalars assigned so far, copied
 * at every branch) cost one array each.  Storage comes from the arena:
 * sets are made and dropped in hot walks, where malloc and free cost more
 * than the walk (a grown set leaves its old arrays there, at most as much
 * again as it holds). */
enum { SYMSET_SCAN_MAX = 8 };

static size_t slot_of(const IrSym *s, int nslots)
{
  uint64_t h = (uint64_t)(uintptr_t)s * UINT64_C(0x9E3779B97F4A7C15);
  return (size_t)(h >> 32) & (size_t)(nslots - 1);
}

static void slots_insert(IrSym **slots, int nslots, IrSym *s)
{
  size_t i = slot_of(s, nslots);
  while (slots[i])
    i = (i + 1) & (size_t)(nslots - 1);
  slots[i] = s;
}

/* A table at most half full, for the members and the one being added. */
static void slots_rebuild(IrSymSet *set)
{
  int nslots = 4 * SYMSET_SCAN_MAX;
  while (nslots < 2 * (set->n + 1))
    nslots *= 2;
  set->slots = ir_alloc(sizeof *set->slots * (size_t)nslots);
  set->nslots = nslots;
  for (int i = 0; i < set->n; i++)
    slots_insert(set->slots, nslots, set->syms[i]);
}

bool ir_symset_has(const IrSymSet *set, const IrSym *s)
{
  if (!set)
    return false;
  if (!set->nslots) {
    for (int i = 0; i < set->n; i++)
      if (set->syms[i] == s)
        return true;
    return false;
  }
  for (size_t i = slot_of(s, set->nslots); set->slots[i]; i = (i + 1) & (size_t)(set->nslots - 1))
    if (set->slots[i] == s)
      return true;
  return false;
}

bool ir_symset_add(IrSymSet *set, IrSym *s)
{
  if (ir_symset_has(set, s))
    return false;
  set->syms = ir_reserve(set->syms, sizeof *set->syms, set->n, &set->cap);
  if (set->nslots ? 2 * (set->n + 1) > set->nslots : set->n == SYMSET_SCAN_MAX)
    slots_rebuild(set);
  if (set->nslots)
    slots_insert(set->slots, set->nslots, s);
  set->syms[set->n++] = s;
  return true;
}

IrSymSet ir_symset_copy(const IrSymSet *set)
{
  IrSymSet c = *set;
  if (set->cap) {
    c.syms = ir_alloc(sizeof *c.syms * (size_t)set->cap);
    memcpy(c.syms, set->syms, sizeof *c.syms * (size_t)set->n);
  }
  if (set->nslots) {
    c.slots = ir_alloc(sizeof *c.slots * (size_t)set->nslots);
    memcpy(c.slots, set->slots, sizeof *c.slots * (size_t)set->nslots);
  }
  return c;
}

static void expr_walk(IrExpr *e, IrStmt *in, IrExprVisit fn, void *ctx)
{
  if (!e)
    return;
  fn(e, in, ctx);
  switch (e->kind) {
  case IR_E_ELEM:
    for (int i = 0; i < e->u.elem.n; i++)
      expr_walk(e->u.elem.sub[i], in, fn, ctx);
    break;
  case IR_E_UNARY:
    expr_walk(e->u.unary.arg, in, fn, ctx);
    break;
  case IR_E_BINARY:
    expr_walk(e->u.binary.lhs, in, fn, ctx);
    expr_walk(e->u.binary.rhs, in, fn, ctx);
    break;
  case IR_E_CALL:
    for (int i = 0; i < e->u.call.n; i++)
      expr_walk(e->u.call.args[i], in, fn, ctx);
    break;
  case IR_E_COND:
    expr_walk(e->u.cond.test, in, fn, ctx);
    expr_walk(e->u.cond.then, in, fn, ctx);
    expr_walk(e->u.cond.els, in, fn, ctx);
    break;
  case IR_E_CONVERT:
    expr_walk(e->u.operand, in, fn, ctx);
    break;
  case IR_E_SECTION:
    for (int i = 0; i < e->u.section.n; i++) {
      expr_walk(e->u.section.dim[i].lo, in, fn, ctx);
      expr_walk(e->u.section.dim[i].hi, in, fn, ctx);
      expr_walk(e->u.section.dim[i].stride, in, fn, ctx);
    }
    break;
  default:
    break;
  }
}

bool ir_is_reduction(const IrExpr *e)
{
  return e->kind == IR_E_CALL && e->u.call.fn >= IR_FN_MAXVAL && e->u.call.fn <= IR_FN_MINLOC;
}

static int max_rank(int a, const IrExpr *e)
{
  int b = e ? ir_expr_rank(e) : 0;
  return a > b ? a : b;
}

int ir_expr_rank(const IrExpr *e)
{
  int rank = 0;
  switch (e->kind) {
  case IR_E_SECTION:
    for (int i = 0; i < e->u.section.n; i++)
      rank += e->u.section.dim[i].is_range;
    return rank;
  case IR_E_UNARY: return ir_expr_rank(e->u.unary.arg);
  case IR_E_BINARY: return max_rank(ir_expr_rank(e->u.binary.lhs), e->u.binary.rhs);
  case IR_E_CONVERT: return ir_expr_rank(e->u.operand);
  case IR_E_COND:
    return max_rank(max_rank(ir_expr_rank(e->u.cond.test), e->u.cond.then), e->u.cond.els);
  case IR_E_CALL:
    if (ir_is_reduction(e) || e->u.call.fn == IR_FN_USER || e->u.call.fn == IR_FN_PRESENT)
      return 0;
    for (int i = 0; i < e->u.call.n; i++)
      rank = max_rank(rank, e->u.call.args[i]);
    return rank;
  default:
    return 0;
  }
}

void ir_walk_expr(IrExpr *e, IrStmt *in, IrExprVisit fn, void *ctx)
{
  expr_walk(e, in, fn, ctx);
}

void diag_missing_use(IrMissingUse *m, const char *needer, const char *name, bool declared)
{
  if (m->reported)
    return;
  m->reported = true;
  const char *mod = m->module;
  const char *need = ir_printf(declared ? "%s needs '%s', declared with a name from it"
                               : m->nonly >= 0 ? "%s needs '%s' from it"
                               : "%s needs '%s', which may come from it", needer, name);
  if (m->why)
    diag_at(DIAG_ERROR, m->loc, m->width, "module '%s' cannot be used (%s): %s", mod, need, m->why);
  else
    diag_at(DIAG_ERROR, m->loc, m->width, "module '%s' was not found (%s): translate or compile "
            "the file that defines it first, which writes %s.s2smod, or name that file on the "
            "same command line, or give the directory of %s.s2smod with -I or -J", mod, need, mod,
            mod);
}

bool ir_device_entry_arg(const IrSym *d)
{
  return !(d->device_by_ref && d->intent == IR_INTENT_OUT);
}

void ir_collect_elem(IrExpr *e, IrStmt *in, void *refs)
{
  IrElemRefs *r = refs;
  (void)in;
  if (e->kind == IR_E_ELEM && e->u.elem.sym == r->sym)
    IR_APPEND(r->v, r->n, r->cap, e);
}

IrStmt *ir_assign(IrExpr *lhs, IrExpr *rhs, Loc loc)
{
  IrStmt *s = ir_stmt(IR_S_ASSIGN, loc);
  s->u.assign.lhs = lhs;
  s->u.assign.rhs = rhs;
  return s;
}
