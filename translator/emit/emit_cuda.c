/* emit_cuda.c — write NAME.s2s.cu from the planned regions.
 *
 * Per region: one __global__ kernel per KernelPlan and one extern "C"
 * launcher that brackets the kernels with the data clauses.  Per host data
 * or update directive: one extern "C" function.  The file includes only
 * s2s_rt.h, so it builds with nvcc for a GPU and with g++ -DS2S_EMULATE for
 * the CPU emulation (S2S_LAUNCH hides the difference).
 *
 * Arrays are indexed through one macro per array, `S2S_t(i,k,j)`, that
 * applies the declared lower bounds and extents (fastest dimension first),
 * so the kernel body reads like the user's loop body.  Named constants
 * (PARAMETERs, C const scalars) keep their names: each kernel and launcher
 * declares the ones it uses at its top, `constexpr` (or `const` when the
 * value calls a function), under the names the storage pass chose.  Small
 * read-only module arrays the plan put in constant memory are __constant__
 * arrays of the region, written by the launcher before its kernels.  User
 * names that are C++ keywords get a trailing underscore.
 *
 * A function that the regions call but that the inliner kept as a call
 * (IrRoutine.device_why) is a static __host__ __device__ function ahead
 * of every kernel, named s2s_dev_NAME.
 *
 * Where each array lives (ArrayPlan.storage) and what every kernel and
 * launcher is passed (KernelPlan.params, RegionPlan.launcher) were decided
 * by the storage pass (transforms/storage.c): this file spells them and
 * decides nothing about them.
 *
 * Relaxed floating point (-Mfprelaxed, EmitCudaConfig.relaxed_fp): inside
 * kernels, single-precision exp, log, log10, ** and SIN/COS/TAN become
 * CUDA's intrinsics (__expf, __logf, __log10f, __powf, __sinf, __cosf,
 * __tanf) and a real(4) division __fdividef: faster, a few ulp off IEEE
 * (and __powf is NaN for a negative base).  Double precision is untouched;
 * so are the launchers (host code) and the __host__ __device__ functions,
 * where the intrinsics do not exist on the host side (nvcc's
 * --use_fast_math, which the driver adds, relaxes those on the device).
 * s2s_emu.h maps the intrinsics back to the standard functions.
 *
 * Strict IEEE floating point (-Kieee, EmitCudaConfig.strict_fp): every real
 * product in kernels is __fmul_rn(x, y) or __dmul_rn(x, y), which nvcc
 * never contracts with a following sum into an FMA, so a translation gives
 * the bits of a CPU build without FMA even when the .cu is compiled by hand
 * without --fmad=false (the driver passes it too).  The __host__ __device__
 * functions call s2s_fmul_rn/s2s_dmul_rn (s2s_rt.h): __fmul_rn on the
 * device, a plain product on the host.  Division and square root are IEEE
 * by nvcc's default (--prec-div=true --prec-sqrt=true); the banner says not
 * to compile with --use_fast_math.  In emulation the products are plain.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "emit.h"
#include "emit_text.h"
#include "access.h"
#include "column.h"
#include "present.h"
#include "report.h"
#include "transforms.h"
#include "storage.h"
#include "visit.h"

/* A DO, WHILE or BLOCK open around the statement being emitted: a target
 * of the jumps inside it.  C's break and continue reach the innermost
 * loop only; a jump to another target goes to a label of its own, written
 * only when a jump uses it. */
typedef struct OpenConstruct {
  const IrStmt *s;
  int id;                  /* labels s2s_exit_<id> (after it), s2s_next_<id> (end of its body) */
  bool exit_used, next_used;
} OpenConstruct;

typedef struct Emit {
  Program *prog;
  FILE *out;
  HostCalls *calls;
  IrRegion *region;     /* region being emitted */
  const KernelPlan *kernel; /* kernel being emitted */
  OpenConstruct *open;  /* sequential constructs around the statement being emitted (arena) */
  int nopen, open_cap;
  int nlabels;          /* label numbers given in the kernel */
  bool ok;
  /* While a kernel or launcher body is written (to a buffer): the region's
   * named constants it mentions, declared before the body once it is done. */
  bool naming_consts;
  IrSymSet consts_used;
  /* While a __device__ function is written: the named constants it
   * declares at its top, by their own names. */
  IrSymSet device_consts;
  /* While a data or update function is written: the named constants of the
   * routine its bounds use, declared by their own names (emit_host_consts). */
  IrSymSet *host_consts;
  const EmitCudaConfig *cfg; /* never NULL */
  bool fast;            /* in a kernel with relaxed_fp: the fast intrinsics apply */
  bool in_kernel;       /* writing a kernel's body (not a __device__ function's) */
  unsigned fast_used;   /* the FastIntrinsic bits the kernel being written used */
  const char *strict_mul; /* -Kieee, while a kernel ("__") or a __host__ __device__ function
                             ("s2s_") is written: the prefix of fmul_rn/dmul_rn; else NULL */
  /* The comment blocks of the user's source already carried into the
   * function being written, by the (file, line) of their first line: a
   * statement the passes duplicated, or a loop and its first statement
   * made from one array assignment, repeats none. */
  long *comments_seen;
  int ncomments_seen, comments_seen_cap;
  /* pass "coarsen": while point p > 0 of a coarsened kernel is written, the
   * index of its loop on grid axis y, which reads as itself + point_delta */
  const IrSym *point_var;
  long point_delta;
} Emit;

/* CUDA's fast single-precision intrinsics (-Mfprelaxed), as bits of
 * Emit.fast_used, in the order the report lists them. */
typedef enum FastIntrinsic {
  FAST_EXPF, FAST_LOGF, FAST_LOG10F, FAST_POWF, FAST_SINF, FAST_COSF, FAST_TANF, FAST_FDIVIDEF,
  NFAST
} FastIntrinsic;

static const char *const fast_names[NFAST] = {
  "__expf", "__logf", "__log10f", "__powf", "__sinf", "__cosf", "__tanf", "__fdividef",
};

static void out(Emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void out(Emit *e, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  vfprintf(e->out, fmt, ap);
  va_end(ap);
}

/* A user name as a C++ identifier. */
static const char *cident(const char *name)
{
  static const char *const reserved[] = {
    "auto", "bool", "break", "case", "catch", "char", "class", "const", "continue", "default",
    "delete", "do", "double", "else", "enum", "explicit", "extern", "false", "float", "for",
    "friend", "goto", "if", "inline", "int", "long", "new", "operator", "private", "protected",
    "public", "register", "return", "short", "signed", "sizeof", "static", "struct", "switch",
    "template", "this", "throw", "true", "try", "typedef", "typename", "union", "unsigned",
    "using", "virtual", "void", "volatile", "while", "dim3", "threadIdx", "blockIdx", "blockDim",
    "gridDim", "warpSize", "main", "asm", "restrict", NULL,
  };
  for (int i = 0; reserved[i]; i++)
    if (!strcmp(reserved[i], name))
      return ir_printf("%s_", name);
  return name;
}

static const char *cname(const IrSym *s)
{
  return cident(s->name);
}

/* The region's named constant of s, or NULL (then its value is folded in). */
static const NamedConst *region_const(const Emit *e, const IrSym *s)
{
  const RegionPlan *p = e->region ? e->region->analysis : NULL;
  for (int i = 0; p && i < p->nconsts; i++)
    if (p->consts[i].sym == s)
      return &p->consts[i];
  return NULL;
}

/* ---- expressions ------------------------------------------------------------ */

/* Expressions are printed by C's precedence: an operand is parenthesized
 * only where C would otherwise group it differently from the IR tree
 * (a - (b - c), a / (b * c), -(a + b), (double)(i / j)), so the kernel
 * reads like the user's statement; the tree, and so the value, is exactly
 * the IR's.  Binary operators are left-associative: the left operand
 * needs at least the operator's precedence, the right one more.  For
 * clarity (and gcc's -Wparentheses) a comparison inside a comparison and
 * && inside || keep their parentheses, and a minus never meets a following
 * minus (-(-b), a - (-b); "--b" would even be a decrement). */
typedef enum Prec {
  PREC_TOP = 0,      /* a full expression: statement, argument, subscript */
  PREC_COND = 3,     /* c ? a : b */
  PREC_OR = 4,
  PREC_AND = 5,
  PREC_EQ = 9,       /* == != */
  PREC_REL = 10,     /* < <= > >= */
  PREC_ADD = 12,
  PREC_MUL = 13,     /* * / % */
  PREC_UNARY = 14,   /* - ! casts, * (dereference) & (address) */
  PREC_PRIMARY = 16, /* names, literals, calls, macro references */
} Prec;

static void emit_expr(Emit *e, const IrExpr *x);
static void emit_prec(Emit *e, const IrExpr *x, Prec min);
static Prec expr_prec(const Emit *e, const IrExpr *x);

static const char *math_name(IrIntrinsic fn, IrType t)
{
  static const char *const names[] = {
    [IR_FN_SQRT] = "sqrt", [IR_FN_EXP] = "exp", [IR_FN_LOG] = "log", [IR_FN_LOG10] = "log10",
    [IR_FN_SIN] = "sin", [IR_FN_COS] = "cos", [IR_FN_TAN] = "tan", [IR_FN_ATAN] = "atan",
    [IR_FN_TANH] = "tanh", [IR_FN_MOD] = "fmod", [IR_FN_POW] = "pow", [IR_FN_FLOOR] = "floor",
    [IR_FN_CEILING] = "ceil", [IR_FN_NINT] = "round", [IR_FN_ABS] = "fabs",
    [IR_FN_PRESENT] = "present",
  };
  return ir_printf("%s%s", names[fn], t == IR_T_REAL4 ? "f" : "");
}

/* The fast intrinsic for a real(4) intrinsic call in a relaxed kernel (its
 * use recorded), or NULL: the standard function stays. */
static const char *fast_name(Emit *e, IrIntrinsic fn, IrType t)
{
  static const int fast_of[] = {
    [IR_FN_EXP] = FAST_EXPF + 1, [IR_FN_LOG] = FAST_LOGF + 1, [IR_FN_LOG10] = FAST_LOG10F + 1,
    [IR_FN_POW] = FAST_POWF + 1, [IR_FN_SIN] = FAST_SINF + 1, [IR_FN_COS] = FAST_COSF + 1,
    [IR_FN_TAN] = FAST_TANF + 1,
  };
  if (!e->fast || t != IR_T_REAL4 || (size_t)fn >= sizeof fast_of / sizeof *fast_of || !fast_of[fn])
    return NULL;
  e->fast_used |= 1u << (fast_of[fn] - 1);
  return fast_names[fast_of[fn] - 1];
}

static void emit_args(Emit *e, const IrExpr *x, int from)
{
  for (int i = from; i < x->u.call.n; i++) {
    if (i > from)
      out(e, ", ");
    emit_expr(e, x->u.call.args[i]);
  }
}

/* min/max of n arguments as nested two-argument calls. */
static void emit_minmax(Emit *e, const IrExpr *x, const char *fn, int i)
{
  if (i == x->u.call.n - 1) {
    emit_expr(e, x->u.call.args[i]);
    return;
  }
  out(e, "%s(", fn);
  emit_expr(e, x->u.call.args[i]);
  out(e, ", ");
  emit_minmax(e, x, fn, i + 1);
  out(e, ")");
}

/* The C name of __device__ function fn: prefixed, so that it can clash
 * neither with a CUDA math function (a Fortran `erf`) nor with a variable of
 * the kernel or of itself (its result variable is often its own name). */
static const char *device_fn_name(const IrRoutine *fn)
{
  return ir_printf("s2s_dev_%s", fn->name);
}

/* The C name of the function that runs __device__ subroutine fn and
 * returns the value its argument d has after it (IrExpr.u.call.result_of),
 * numbered by d's position: a routine's name cannot begin with a digit. */
static const char *device_result_fn_name(const IrRoutine *fn, const IrSym *d)
{
  return ir_printf("s2s_devret%d_%s", d->dummy_index + 1, fn->name);
}

static void emit_call(Emit *e, const IrExpr *x)
{
  if (x->u.call.fn == IR_FN_USER) {
    if (!x->u.call.device_fn)
      S2S_BUG("reference to function '%s' was not inlined before emission", x->u.call.name);
    out(e, "%s(", x->u.call.result_of ? device_result_fn_name(x->u.call.device_fn,
        x->u.call.result_of) : device_fn_name(x->u.call.device_fn));
    emit_args(e, x, 0);
    out(e, ")");
    return;
  }
  IrType at = x->u.call.args[0]->type;
  bool real = ir_type_is_real(at);
  switch (x->u.call.fn) {
  case IR_FN_MIN: emit_minmax(e, x, "s2s_min", 0); return;
  case IR_FN_MAX: emit_minmax(e, x, "s2s_max", 0); return;
  case IR_FN_SIGN: out(e, "s2s_sign("); emit_args(e, x, 0); out(e, ")"); return;
  case IR_FN_ABS:
    out(e, "%s(", real ? math_name(IR_FN_ABS, at) : at == IR_T_INT8 ? "llabs" : "abs");
    break;
  case IR_FN_MOD:
    if (!real) {   /* expr_prec: PREC_MUL */
      emit_prec(e, x->u.call.args[0], PREC_MUL);
      out(e, " %% ");
      emit_prec(e, x->u.call.args[1], PREC_MUL + 1);
      return;
    }
    out(e, "%s(", math_name(IR_FN_MOD, at));
    break;
  case IR_FN_NINT:
  case IR_FN_FLOOR:
  case IR_FN_CEILING:
    /* Fortran NINT rounds half away from zero, as C round() does (not rint) */
    out(e, "(%s)%s(", ir_type_c(x->type), math_name(x->u.call.fn, at));
    break;
  default: {
    const char *fast = fast_name(e, x->u.call.fn, at);
    out(e, "%s(", fast ? fast : math_name(x->u.call.fn, at));
    break;
  }
  }
  emit_args(e, x, 0);
  out(e, ")");
}

static void emit_pow(Emit *e, const IrExpr *x)
{
  const IrExpr *b = x->u.binary.lhs, *p = x->u.binary.rhs;
  if (ir_type_is_integer(p->type)) {
    out(e, "%s(", ir_type_is_integer(b->type) ? "s2s_ipow" : "s2s_powi");
    emit_expr(e, b);
    out(e, ", (int)");
    emit_prec(e, p, PREC_UNARY);
  } else {
    const char *fast = fast_name(e, IR_FN_POW, x->type);
    out(e, "%s(", fast ? fast : x->type == IR_T_REAL4 ? "powf" : "pow");
    emit_expr(e, b);
    out(e, ", ");
    emit_expr(e, p);
  }
  out(e, ")");
}

/* A real(4) division in a relaxed kernel: __fdividef(x, y). */
static bool emit_fast_division(Emit *e, const IrExpr *x)
{
  const IrExpr *l = x->u.binary.lhs, *r = x->u.binary.rhs;
  if (!e->fast || x->u.binary.op != IR_OP_DIV || x->type != IR_T_REAL4 || l->type != IR_T_REAL4 ||
      r->type != IR_T_REAL4)
    return false;
  e->fast_used |= 1u << FAST_FDIVIDEF;
  out(e, "%s(", fast_names[FAST_FDIVIDEF]);
  emit_expr(e, l);
  out(e, ", ");
  emit_expr(e, r);
  out(e, ")");
  return true;
}

/* Operand y of a strict product of type t, converted as C would. */
static void emit_product_operand(Emit *e, const IrExpr *y, IrType t)
{
  if (y->type == t) {
    emit_expr(e, y);
    return;
  }
  out(e, "(%s)", ir_type_c(t));
  emit_prec(e, y, PREC_UNARY);
}

/* A real product in a strict (-Kieee) kernel: __fmul_rn(x, y) or
 * __dmul_rn(x, y), never fused into an FMA. */
static bool emit_strict_product(Emit *e, const IrExpr *x)
{
  if (!e->strict_mul || x->u.binary.op != IR_OP_MUL ||
      (x->type != IR_T_REAL4 && x->type != IR_T_REAL8))
    return false;
  out(e, "%s%s(", e->strict_mul, x->type == IR_T_REAL4 ? "fmul_rn" : "dmul_rn");
  emit_product_operand(e, x->u.binary.lhs, x->type);
  out(e, ", ");
  emit_product_operand(e, x->u.binary.rhs, x->type);
  out(e, ")");
  return true;
}

/* The precedence of binary operator op as C groups it. */
static Prec binary_prec(IrOp op)
{
  switch (op) {
  case IR_OP_OR: return PREC_OR;
  case IR_OP_AND: return PREC_AND;
  case IR_OP_EQ: case IR_OP_NE: case IR_OP_EQV: case IR_OP_NEQV: return PREC_EQ;
  case IR_OP_LT: case IR_OP_LE: case IR_OP_GT: case IR_OP_GE: return PREC_REL;
  case IR_OP_ADD: case IR_OP_SUB: return PREC_ADD;
  case IR_OP_MUL: case IR_OP_DIV: case IR_OP_MOD_C: return PREC_MUL;
  case IR_OP_POW: return PREC_PRIMARY;   /* a call: pow, s2s_ipow, s2s_powi */
  case IR_OP_NEG: case IR_OP_NOT: break;
  }
  S2S_BUG("binary_prec of operator %d", (int)op);
}

static bool is_comparison(Prec p) { return p == PREC_EQ || p == PREC_REL; }

/* Is the product or division x written as a call (__fdividef, __fmul_rn)?
 * The same tests as emit_fast_division and emit_strict_product. */
static bool binary_is_call(const Emit *e, const IrExpr *x)
{
  IrOp op = x->u.binary.op;
  const IrExpr *l = x->u.binary.lhs, *r = x->u.binary.rhs;
  if (op == IR_OP_POW)
    return true;
  if (e->fast && op == IR_OP_DIV && x->type == IR_T_REAL4 && l->type == IR_T_REAL4 &&
      r->type == IR_T_REAL4)
    return true;
  return e->strict_mul && op == IR_OP_MUL && (x->type == IR_T_REAL4 || x->type == IR_T_REAL8);
}

/* Does the text of x begin with a minus sign (a negative literal, a
 * negation, a product or sum whose left operand does)?  Then it cannot
 * follow a minus without parentheses. */
static bool starts_with_minus(const Emit *e, const IrExpr *x)
{
  switch (x->kind) {
  case IR_E_INT: return x->u.ival < 0;
  case IR_E_REAL: return x->u.real[0] == '-';
  case IR_E_UNARY: return x->u.unary.op == IR_OP_NEG;
  case IR_E_BINARY: {
    IrOp op = x->u.binary.op;
    if (binary_is_call(e, x) || op == IR_OP_EQV || op == IR_OP_NEQV)
      return false;
    const IrExpr *l = x->u.binary.lhs;
    return expr_prec(e, l) >= binary_prec(op) && starts_with_minus(e, l);
  }
  case IR_E_COND:
    return expr_prec(e, x->u.cond.test) >= PREC_OR && starts_with_minus(e, x->u.cond.test);
  default: return false;
  }
}

/* The operand of binary operator op (precedence p) on the given side. */
static void emit_operand(Emit *e, const IrExpr *y, IrOp op, Prec p, bool right)
{
  Prec yp = expr_prec(e, y);
  bool paren = yp < p + (right ? 1 : 0);
  if (is_comparison(p) && is_comparison(yp))
    paren = true;   /* (a < b) == (c < d) */
  if (op == IR_OP_OR && y->kind == IR_E_BINARY && y->u.binary.op == IR_OP_AND)
    paren = true;   /* (a && b) || c */
  if (right && (op == IR_OP_ADD || op == IR_OP_SUB) && starts_with_minus(e, y))
    paren = true;   /* a - (-b), not a - -b */
  if (paren)
    out(e, "(");
  emit_prec(e, y, PREC_TOP);   /* grouping decided here */
  if (paren)
    out(e, ")");
}

static void emit_binary(Emit *e, const IrExpr *x)
{
  IrOp op = x->u.binary.op;
  if (op == IR_OP_POW) {
    emit_pow(e, x);
    return;
  }
  if (emit_fast_division(e, x) || emit_strict_product(e, x))
    return;
  if (op == IR_OP_EQV || op == IR_OP_NEQV) {   /* (a != 0) == (b != 0), a comparison kept whole */
    out(e, "(");
    emit_prec(e, x->u.binary.lhs, PREC_REL + 1);
    out(e, " != 0) %s (", op == IR_OP_EQV ? "==" : "!=");
    emit_prec(e, x->u.binary.rhs, PREC_REL + 1);
    out(e, " != 0)");
    return;
  }
  Prec p = binary_prec(op);
  emit_operand(e, x->u.binary.lhs, op, p, false);
  out(e, " %s ", ir_op_text(op));
  emit_operand(e, x->u.binary.rhs, op, p, true);
}

/* How a variable reference is written. */
typedef enum VarForm {
  VAR_REGION_CONST,  /* a named constant of the region, by the name storage chose */
  VAR_OWN_NAME,      /* by its own name: a variable, a __device__ function's or a host
                        function's named constant */
  VAR_FOLDED,        /* a named constant no declaration names: (int)5 */
  VAR_DEREF,         /* a __device__ subroutine's argument it assigns: *x */
} VarForm;

static VarForm var_form(const Emit *e, const IrSym *v)
{
  if (v->kind == IR_SYM_PARAM && e->naming_consts && region_const(e, v))
    return VAR_REGION_CONST;
  if (ir_symset_has(&e->device_consts, v))
    return VAR_OWN_NAME;
  if (v->kind == IR_SYM_PARAM && e->host_consts && !v->rank)
    return VAR_OWN_NAME;
  if (v->kind == IR_SYM_PARAM)
    return VAR_FOLDED;
  return v->device_by_ref ? VAR_DEREF : VAR_OWN_NAME;
}

/* How C groups the text emit_prec writes for x (without parentheses). */
static Prec expr_prec(const Emit *e, const IrExpr *x)
{
  /* pass "coarsen": the y index at point p > 0 is written as a sum (k - j
   * at point 1 is k - (j + 1)) */
  if (e->point_var && x->kind == IR_E_VAR && x->u.var == e->point_var && e->point_delta)
    return PREC_ADD;
  switch (x->kind) {
  case IR_E_INT:
  case IR_E_REAL:
    return starts_with_minus(e, x) ? PREC_UNARY : PREC_PRIMARY;
  case IR_E_LOGICAL:
  case IR_E_ELEM:
    return PREC_PRIMARY;
  case IR_E_VAR:
    return var_form(e, x->u.var) >= VAR_FOLDED ? PREC_UNARY : PREC_PRIMARY;
  case IR_E_UNARY:
  case IR_E_CONVERT:
    return PREC_UNARY;
  case IR_E_BINARY:
    return binary_is_call(e, x) ? PREC_PRIMARY : binary_prec(x->u.binary.op);
  case IR_E_CALL:
    if (x->u.call.fn == IR_FN_MOD && !ir_type_is_real(x->u.call.args[0]->type))
      return PREC_MUL;
    if (x->u.call.fn == IR_FN_NINT || x->u.call.fn == IR_FN_FLOOR || x->u.call.fn == IR_FN_CEILING)
      return PREC_UNARY;  /* (int)round(x) */
    return PREC_PRIMARY;
  case IR_E_COND:
    return PREC_COND;
  case IR_E_SECTION:
    break;
  }
  S2S_BUG("expr_prec of expression kind %d", (int)x->kind);
}

/* A read that pass "smem" takes from a shared-memory tile (SmemTile):
 * the tile's element at the thread's own place plus the read's offsets.
 * False for every other element reference. */
static bool emit_tile_read(Emit *e, const IrExpr *x)
{
  if (!e->kernel)
    return false;
  for (int t = 0; t < e->kernel->ntiles; t++) {
    const SmemTile *tile = &e->kernel->tiles[t];
    for (int r = 0; tile->sym == x->u.elem.sym && r < tile->nreads; r++)
      if (tile->reads[r] == x) {
        const char *n = tile->sym->name;
        long cx = tile->cx[r], cy = tile->cy[r];
        out(e, "s2s_%s_at[", n);   /* the thread's own point: emit_tile_loads */
        if (labs(cy) == 1)
          out(e, "%ss2s_%s_tx", cy < 0 ? "-" : "", n);
        else if (cy)
          out(e, "%s%ld * s2s_%s_tx", cy < 0 ? "-" : "", labs(cy), n);
        if (cx || !cy)
          out(e, "%s%ld", !cy ? (cx < 0 ? "-" : "") : cx < 0 ? " - " : " + ", labs(cx));
        out(e, "]");
        return true;
      }
  }
  return false;
}

/* Pass "coarsen": x, when it is Emit.point_var plus or minus constants,
 * written as point_var + the constants + point_delta folded into one
 * (`j + 1` at point 1 is `j + 2`): the subscripts of an element two points
 * read are then the same text.  False when x is not of that form. */
static bool emit_point_offset(Emit *e, const IrExpr *x, Prec min)
{
  const IrExpr *f = x, *v = x;
  if (x->kind == IR_E_BINARY && (x->u.binary.op == IR_OP_ADD || x->u.binary.op == IR_OP_SUB) &&
      x->u.binary.rhs->kind == IR_E_INT) {
    f = ir_fold_offsets((IrExpr *)x);
    v = f->kind == IR_E_BINARY && f->u.binary.rhs->kind == IR_E_INT ? f->u.binary.lhs : f;
  }
  if (v->kind != IR_E_VAR || v->u.var != e->point_var)
    return false;
  const IrSym *var = e->point_var;
  e->point_var = NULL;
  emit_prec(e, ir_add_const(ir_expr_copy(f), e->point_delta), min);
  e->point_var = var;
  return true;
}

/* x as an operand that needs at least precedence `min`: parenthesized
 * when it binds less tightly. */
static void emit_prec(Emit *e, const IrExpr *x, Prec min)
{
  if (e->point_var && emit_point_offset(e, x, min))
    return;
  bool paren = expr_prec(e, x) < min;
  if (paren)
    out(e, "(");
  switch (x->kind) {
  case IR_E_INT: out(e, "%ld%s", x->u.ival, x->type == IR_T_INT8 ? "LL" : ""); break;
  case IR_E_REAL: out(e, "%s%s", x->u.real, x->type == IR_T_REAL4 ? "f" : ""); break;
  case IR_E_LOGICAL: out(e, "%d", x->u.ival ? 1 : 0); break;
  case IR_E_VAR:
    switch (var_form(e, x->u.var)) {
    case VAR_REGION_CONST:
      ir_symset_add(&e->consts_used, x->u.var);
      out(e, "%s", cident(region_const(e, x->u.var)->name));
      break;
    case VAR_OWN_NAME:
      if (x->u.var->kind == IR_SYM_PARAM && e->host_consts)
        ir_symset_add(e->host_consts, x->u.var);   /* declared by emit_host_consts */
      out(e, "%s", cname(x->u.var));
      break;
    case VAR_FOLDED:
      out(e, "(%s)", ir_type_c(x->u.var->type));
      emit_prec(e, x->u.var->init, PREC_UNARY);
      break;
    case VAR_DEREF:
      out(e, "*%s", cname(x->u.var));
      break;
    }
    break;
  case IR_E_ELEM:
    if (emit_tile_read(e, x))
      break;
    out(e, "S2S_%s(", x->u.elem.sym->name);
    for (int i = 0; i < x->u.elem.n; i++) {
      out(e, "%s", i ? ", " : "");
      emit_expr(e, x->u.elem.sub[i]);
    }
    out(e, ")");
    break;
  case IR_E_UNARY: {
    const IrExpr *a = x->u.unary.arg;
    bool neg = x->u.unary.op == IR_OP_NEG;
    bool inner = expr_prec(e, a) < PREC_UNARY || (neg && starts_with_minus(e, a));
    out(e, "%s%s", neg ? "-" : "!", inner ? "(" : "");
    emit_prec(e, a, PREC_TOP);   /* grouping decided here */
    out(e, "%s", inner ? ")" : "");
    break;
  }
  case IR_E_BINARY: emit_binary(e, x); break;
  case IR_E_CALL: emit_call(e, x); break;
  case IR_E_COND:
    emit_prec(e, x->u.cond.test, PREC_OR);
    out(e, " ? ");
    emit_expr(e, x->u.cond.then);
    out(e, " : ");
    emit_prec(e, x->u.cond.els, PREC_COND);
    break;
  case IR_E_SECTION: S2S_BUG("array section left after pass normalize");
  case IR_E_CONVERT:
    out(e, "(%s)", ir_type_c(x->type));
    emit_prec(e, x->u.operand, PREC_UNARY);
    break;
  }
  if (paren)
    out(e, ")");
}

/* x where any expression may stand: a statement, an argument, a subscript. */
static void emit_expr(Emit *e, const IrExpr *x)
{
  emit_prec(e, x, PREC_TOP);
}

char *emit_expr_text(const IrExpr *x)
{
  static const EmitCudaConfig ieee = { 0 };
  char *text = NULL;
  size_t len = 0;
  Emit e = { .out = open_memstream(&text, &len), .ok = true, .cfg = &ieee };
  if (!e.out)
    S2S_BUG("open_memstream failed");
  emit_expr(&e, x);
  fclose(e.out);
  return text;
}

/* ---- statements --------------------------------------------------------------- */

static void emit_stmts(Emit *e, const IrStmtList *l, int indent);

/* Open construct s: its index in e->open. */
static int open_construct(Emit *e, const IrStmt *s)
{
  OpenConstruct c = { s, ++e->nlabels, false, false };
  IR_APPEND(e->open, e->nopen, e->open_cap, c);
  return e->nopen - 1;
}

/* The end of the body of loop e->open[at], where `goto s2s_next_<id>` goes. */
static void close_body(Emit *e, int at, int indent)
{
  if (e->open[at].next_used)
    out(e, "%*ss2s_next_%d: ;\n", indent, "", e->open[at].id);
}

/* After construct e->open[at], where `goto s2s_exit_<id>` goes: closed. */
static void close_construct(Emit *e, int at, int indent)
{
  if (e->open[at].exit_used)
    out(e, "%*ss2s_exit_%d: ;\n", indent, "", e->open[at].id);
  e->nopen = at;
}

static void emit_loop(Emit *e, const IrStmt *s, int indent)
{
  const char *iv = cname(s->u.loop.iv);
  long step = 1;
  if (s->u.loop.step)
    ir_eval_const(s->u.loop.step, &step);
  /* Fortran evaluates the bounds once, before the first iteration. */
  out(e, "%*s{ /* %s:%d */\n", indent, "", diag_user_file(s->loc), diag_user_line(s->loc));
  out(e, "%*s  const %s s2s_last_%s = ", indent, "", ir_type_c(s->u.loop.iv->type), iv);
  emit_expr(e, s->u.loop.hi);
  out(e, ";\n");
  /* -Munroll=N: measured on thomas (H100) 7% faster with N = 4, laplace and
   * hdiff unchanged (tests/bench/RESULTS.md) */
  bool innermost = true;
  for (int i = 0; i < s->u.loop.body.n; i++)
    if (s->u.loop.body.v[i]->kind == IR_S_DO) innermost = false;
  if (e->cfg->unroll > 1 && innermost && e->in_kernel)
    out(e, "%*s  #pragma unroll %d\n", indent, "", e->cfg->unroll);
  out(e, "%*s  for (%s = ", indent, "", iv);
  emit_expr(e, s->u.loop.lo);
  out(e, "; %s %s s2s_last_%s; %s += %ld) {\n", iv, step > 0 ? "<=" : ">=", iv, iv, step);
  int at = open_construct(e, s);
  emit_stmts(e, &s->u.loop.body, indent + 4);
  close_body(e, at, indent + 4);
  out(e, "%*s  }\n%*s}\n", indent, "", indent, "");
  close_construct(e, at, indent);
}

/* WHILE: C's while, the test evaluated before each iteration as Fortran's
 * DO WHILE does; BLOCK: a C block that EXIT leaves by its label. */
static void emit_sequential(Emit *e, const IrStmt *s, int indent)
{
  if (s->kind == IR_S_BLOCK)
    out(e, "%*s{ /* block, line %d */\n", indent, "", diag_user_line(s->loc));
  else if (!s->u.loop.test)
    out(e, "%*sfor (;;) { /* line %d */\n", indent, "", diag_user_line(s->loc));
  else {
    out(e, "%*swhile (", indent, "");
    emit_expr(e, s->u.loop.test);
    out(e, ") { /* line %d */\n", diag_user_line(s->loc));
  }
  int at = open_construct(e, s);
  emit_stmts(e, &s->u.loop.body, indent + 2);
  close_body(e, at, indent + 2);
  out(e, "%*s}\n", indent, "");
  close_construct(e, at, indent);
}

/* The open construct that jump j goes to (ir.h), or -1: one outside the
 * kernel body, a loop mapped to the grid. */
static int jump_target(const Emit *e, const IrStmt *j)
{
  for (int i = e->nopen - 1; i >= 0; i--) {
    const IrStmt *c = e->open[i].s;
    if (j->u.jump.name ? c->u.loop.name && !strcmp(c->u.loop.name, j->u.jump.name) : ir_is_loop(c))
      return i;
  }
  return -1;
}

/* Does CYCLE j end the iteration of the innermost loop mapped to the grid
 * (this thread's work)? */
static bool cycles_thread(const Emit *e, const IrStmt *j)
{
  const KernelPlan *k = e->kernel;
  const IrStmt *mapped = k && k->nmapped ? k->mapped[k->nmapped - 1] : NULL;
  if (!j->u.jump.name)
    return true;
  return mapped && mapped->u.loop.name && !strcmp(mapped->u.loop.name, j->u.jump.name);
}

static void emit_jump(Emit *e, const IrStmt *s, int indent)
{
  bool is_exit = s->kind == IR_S_EXIT;
  int t = jump_target(e, s), inner = e->nopen - 1;
  while (inner >= 0 && !ir_is_loop(e->open[inner].s))
    inner--;
  if (t >= 0 && t == inner) {
    out(e, "%*s%s\n", indent, "", is_exit ? "break;" : "continue;");
  } else if (t >= 0) {
    if (is_exit)
      e->open[t].exit_used = true;
    else
      e->open[t].next_used = true;
    out(e, "%*sgoto s2s_%s_%d;\n", indent, "", is_exit ? "exit" : "next", e->open[t].id);
  } else if (!is_exit && cycles_thread(e, s)) {
    /* CYCLE of a parallel loop ends this thread's iteration */
    out(e, "%*sreturn;\n", indent, "");
  } else {
    diag_at(DIAG_ERROR, s->loc, 1, "%s leaves a loop that runs in parallel on the GPU; this "
            "is not supported (one thread cannot end the other threads' iterations: keep the "
            "jump inside the loop's body, e.g. with a flag that the column tests)",
            ir_jump_text(s));
    e->ok = false;
  }
}

/* The call of __device__ subroutine fn with its actuals in the order of
 * its dummies: a pointer for each argument it assigns (the address of a
 * variable or element, or a pointer argument passed on), a value for the
 * others. */
static void emit_device_call(Emit *e, const IrRoutine *fn, IrExpr **actual)
{
  out(e, "%s(", device_fn_name(fn));
  for (int i = 0; i < fn->ndummies; i++) {
    const IrExpr *a = actual[i];
    out(e, "%s", i ? ", " : "");
    if (!fn->dummies[i]->device_by_ref) {
      emit_expr(e, a);
    } else if (a->kind == IR_E_VAR && a->u.var->device_by_ref) {
      out(e, "%s", cname(a->u.var));
    } else {
      out(e, "&");
      emit_prec(e, a, PREC_UNARY);
    }
  }
  out(e, ")");
}

/* ---- the user's comments and lines --------------------------------------------- */

/* The comment on parsed line `line` of `file` as the text to carry (in
 * *text, *len), or false when the line is not a whole-line comment: code,
 * a blank line, a directive (!$..., #pragma) or a multi-line C comment. */
static bool comment_line(IrLang lang, int file, int line, const char **text, size_t *len)
{
  size_t n;
  const char *s = diag_line(file, line, &n);
  if (!s)
    return false;
  size_t i = 0;
  while (i < n && (s[i] == ' ' || s[i] == '\t'))
    i++;
  size_t skip;
  if (lang == IR_FORTRAN && i < n && s[i] == '!' && (i + 1 >= n || s[i + 1] != '$'))
    skip = 1;
  else if (lang == IR_C && i + 1 < n && s[i] == '/' && s[i + 1] == '/')
    skip = 2;
  else if (lang == IR_C && i + 3 < n && s[i] == '/' && s[i + 1] == '*' && s[n - 2] == '*' &&
           s[n - 1] == '/')
    skip = 2, n -= 2;
  else
    return false;
  i += skip;
  while (i < n && (s[i] == ' ' || s[i] == '\t'))
    i++;
  /* nothing that would continue a // comment onto the next line: a final
   * backslash, or the ??/ trigraph g++ -std=c++14 reads as one */
  while (n > i && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\\' ||
                   (n - i >= 3 && !strncmp(s + n - 3, "?\?/", 3))))
    n -= s[n - 1] == '/' ? 3 : 1;
  *text = s + i;
  *len = n - i;
  return true;
}

/* Where the user's text of the line at loc is, with its comments: the
 * parsed file itself, or when that was preprocessed (comments removed) the
 * user's bytes (EmitCudaConfig.user_text_file), for lines of the input file
 * (not of headers it includes).  False when there is no such text. */
static bool comment_source(const Emit *e, Loc loc, int *file, int *line)
{
  const SourceFile *sf = diag_source(loc.file);
  if (!sf || !sf->map_file) {
    *file = loc.file, *line = loc.line;
    return true;
  }
  int text = e->cfg->user_text_file - 1;
  const SourceFile *user = text >= 0 ? diag_source(text) : NULL;
  if (!user || strcmp(diag_user_file(loc), user->path) != 0)
    return false;
  *file = text, *line = diag_user_line(loc);
  return true;
}

/* The whole-line comments right above statement s in the user's source,
 * as // lines before its code, once per function. */
static void emit_comments(Emit *e, const IrStmt *s, int indent)
{
  int file, line;
  if (!e->prog || !comment_source(e, s->loc, &file, &line) || line <= 1)
    return;
  const char *text;
  size_t len;
  int first = line;
  while (first > 1 && comment_line(e->prog->lang, file, first - 1, &text, &len))
    first--;
  if (first == line)
    return;
  long key = (long)file * 100000000L + first;
  for (int i = 0; i < e->ncomments_seen; i++)
    if (e->comments_seen[i] == key)
      return;
  IR_APPEND(e->comments_seen, e->ncomments_seen, e->comments_seen_cap, key);
  for (int l = first; l < line; l++) {
    comment_line(e->prog->lang, file, l, &text, &len);
    out(e, "%*s//%s%.*s\n", indent, "", len ? " " : "", (int)len, text);
  }
}

/* The comment after the code on parsed line `line` (Fortran `! text`, C
 * `// text`, or a C block comment that ends the line), outside character
 * strings, as the text to carry; false when there is none, when the line
 * is all comment (emit_comments carries it) or for a directive. */
static bool trailing_comment(IrLang lang, int file, int line, const char **text, size_t *len)
{
  size_t n;
  const char *s = diag_line(file, line, &n);
  if (!s)
    return false;
  char quote = 0;
  size_t at = n, end = n, start = n;
  for (size_t i = 0; i < n && at == n; i++) {
    if (quote) {
      if (s[i] == quote) quote = 0;
      else if (lang == IR_C && s[i] == '\\') i++;
    } else if (s[i] == '\'' || s[i] == '"') {
      quote = s[i];
    } else if (lang == IR_FORTRAN && s[i] == '!') {
      if (i + 1 < n && s[i + 1] == '$')
        return false;
      start = i, at = i + 1;
    } else if (lang == IR_C && s[i] == '/' && i + 1 < n && (s[i + 1] == '/' || s[i + 1] == '*')) {
      if (s[i + 1] == '*' && !(n >= i + 4 && s[n - 2] == '*' && s[n - 1] == '/'))
        return false;             /* a comment that goes on, or code after it */
      if (s[i + 1] == '*')
        end = n - 2;
      start = i, at = i + 2;
    }
  }
  size_t first = 0;
  while (first < at && (s[first] == ' ' || s[first] == '\t'))
    first++;
  if (at == n || start == first)     /* none, or a whole-line comment */
    return false;
  while (at < end && (s[at] == ' ' || s[at] == '\t'))
    at++;
  /* as comment_line: nothing that would continue a // comment */
  while (end > at && (s[end - 1] == ' ' || s[end - 1] == '\t' || s[end - 1] == '\\' ||
                      (end - at >= 3 && !strncmp(s + end - 3, "?\?/", 3))))
    end -= s[end - 1] == '/' ? 3 : 1;
  if (end == at)
    return false;
  *text = s + at;
  *len = end - at;
  return true;
}

/* The end of a statement's first output line: its user line, and the
 * user's comment after the code of that line (once per function: a line
 * the transforms made several statements of carries it at the first). */
static void end_stmt_line(Emit *e, const IrStmt *s)
{
  const char *text;
  size_t len;
  int file, line;
  out(e, " /* line %d */", diag_user_line(s->loc));
  bool known = e->prog && comment_source(e, s->loc, &file, &line);
  long key = known ? -((long)file * 100000000L + line) : 0;
  bool seen = false;
  for (int i = 0; i < e->ncomments_seen && !seen; i++)
    seen = e->comments_seen[i] == key;
  if (known && !seen && trailing_comment(e->prog->lang, file, line, &text, &len)) {
    IR_APPEND(e->comments_seen, e->ncomments_seen, e->comments_seen_cap, key);
    out(e, " // %.*s", (int)len, text);
  }
  out(e, "\n");
}

/* `#line N "user.f90"` before the code of a statement at loc, so that
 * nvcc's line table, and so cuda-gdb, compute-sanitizer and Nsight, name
 * the user's line (emit_line_directives drops those the compiler would
 * infer). */
static void emit_line_directive(Emit *e, Loc loc)
{
  if (!e->cfg->line_directives || loc.line <= 0)
    return;
  char *file = emit_c_string_body(diag_user_file(loc));
  out(e, "#line %d \"%s\"\n", diag_user_line(loc), file);
  free(file);
}

/* After the statements of a kernel or __device__ function: the code that
 * follows is the .cu's own again. */
static void emit_line_restore(Emit *e)
{
  if (e->cfg->line_directives)
    out(e, "%s\n", EMIT_LINE_RESTORE);
}

static void emit_stmt(Emit *e, const IrStmt *s, int indent)
{
  emit_comments(e, s, indent);
  emit_line_directive(e, s->loc);
  switch (s->kind) {
  case IR_S_ASSIGN:
    out(e, "%*s", indent, "");
    emit_expr(e, s->u.assign.lhs);
    out(e, " = ");
    emit_expr(e, s->u.assign.rhs);
    out(e, ";");
    end_stmt_line(e, s);
    break;
  case IR_S_DO: emit_loop(e, s, indent); break;
  case IR_S_IF:
    out(e, "%*sif (", indent, "");
    emit_expr(e, s->u.cond.test);
    out(e, ") {");
    end_stmt_line(e, s);
    emit_stmts(e, &s->u.cond.then, indent + 2);
    if (s->u.cond.els.n) {
      out(e, "%*s} else {\n", indent, "");
      emit_stmts(e, &s->u.cond.els, indent + 2);
    }
    out(e, "%*s}\n", indent, "");
    break;
  case IR_S_CYCLE:
  case IR_S_EXIT: emit_jump(e, s, indent); break;
  case IR_S_WHILE:
  case IR_S_BLOCK: emit_sequential(e, s, indent); break;
  case IR_S_CALL:
    if (!s->u.call.device_fn)
      S2S_BUG("call of '%s' was not inlined before emission", s->u.call.name);
    out(e, "%*s", indent, "");
    emit_device_call(e, s->u.call.device_fn, s->u.call.args);
    out(e, ";");
    end_stmt_line(e, s);
    break;
  case IR_S_WHERE: S2S_BUG("WHERE left after pass normalize");
  }
}

static void emit_stmts(Emit *e, const IrStmtList *l, int indent)
{
  for (int i = 0; i < l->n; i++)
    emit_stmt(e, l->v[i], indent);
}

/* ---- named constants and function bodies ---------------------------------------- */

/* Can the value be a C++ constant expression: literals, operators and
 * constants that are?  (Math functions are not constexpr in CUDA.) */
static bool constexpr_value(const Emit *e, const IrExpr *x)
{
  switch (x->kind) {
  case IR_E_INT: case IR_E_REAL: case IR_E_LOGICAL: return true;
  case IR_E_VAR: {
    const NamedConst *k = region_const(e, x->u.var);
    return k && constexpr_value(e, k->sym->init);
  }
  case IR_E_UNARY: return constexpr_value(e, x->u.unary.arg);
  case IR_E_BINARY:
    return x->u.binary.op != IR_OP_POW && constexpr_value(e, x->u.binary.lhs) &&
           constexpr_value(e, x->u.binary.rhs);
  case IR_E_CONVERT: return constexpr_value(e, x->u.operand);
  case IR_E_COND:
    return constexpr_value(e, x->u.cond.test) && constexpr_value(e, x->u.cond.then) &&
           constexpr_value(e, x->u.cond.els);
  default: return false;
  }
}

static void mark_const_uses(IrExpr *x, IrStmt *in, void *ctx)
{
  Emit *e = ctx;
  (void)in;
  if (x->kind == IR_E_VAR && region_const(e, x->u.var))
    ir_symset_add(&e->consts_used, x->u.var);
}

/* Start writing a function body into a buffer, to learn which named
 * constants it uses before its declarations are printed. */
static FILE *body_begin(Emit *e, char **text, size_t *len)
{
  FILE *buf = open_memstream(text, len);
  if (!buf)
    S2S_BUG("open_memstream failed");
  FILE *real = e->out;
  e->out = buf;
  e->naming_consts = true;
  e->consts_used = (IrSymSet){ 0 };
  return real;
}

/* Declare the constants the body used (and those their values use), each
 * after the ones it needs, then the body itself. */
static void body_end(Emit *e, FILE *real, char **textp, size_t *lenp)
{
  fclose(e->out);             /* sets *textp and *lenp */
  char *text = *textp;
  size_t len = *lenp;
  e->out = real;
  const RegionPlan *p = e->region->analysis;
  bool fast = e->fast;
  const char *strict_mul = e->strict_mul;
  e->fast = false;          /* a constexpr value cannot call an intrinsic */
  e->strict_mul = NULL;     /* (and is folded by the compiler, never contracted) */
  for (int i = p->nconsts - 1; i >= 0; i--)   /* a constant's value uses earlier ones only */
    if (ir_symset_has(&e->consts_used, p->consts[i].sym))
      ir_walk_expr(p->consts[i].sym->init, NULL, mark_const_uses, e);
  for (int i = 0; i < p->nconsts; i++) {
    const NamedConst *k = &p->consts[i];
    if (!ir_symset_has(&e->consts_used, k->sym))
      continue;
    IrExpr *v = k->sym->init;
    out(e, "  %s %s %s = ", constexpr_value(e, v) ? "constexpr" : "const", ir_type_c(k->sym->type),
        cident(k->name));
    if (v->type != k->sym->type)
      out(e, "(%s)", ir_type_c(k->sym->type));
    emit_prec(e, v, v->type != k->sym->type ? PREC_UNARY : PREC_TOP);
    if (strcmp(k->name, k->sym->name))
      out(e, "; /* '%s' */\n", k->sym->name);
    else
      out(e, ";\n");
  }
  e->naming_consts = false;
  e->fast = fast;
  e->strict_mul = strict_mul;
  fwrite(text, 1, len, e->out);
  free(text);
}

/* ---- __device__ functions -------------------------------------------------------- */

/* A function the inliner kept as a call (IrRoutine.device_why) becomes one
 * static __device__ function: its scalar arguments by value, its result
 * variable returned at the end, its body written by the kernels' own
 * statement emitter (Fortran semantics alike).  Its named constants are
 * `const` locals of their own names; its local arrays, of fixed
 * size, are C arrays behind the same indexing macros as a kernel's.  It is
 * __host__ too: a launcher computes the trip counts and data boxes of its
 * kernels from the region's expressions, where a call may be. */

static void emit_device_signature(Emit *e, const IrRoutine *fn)
{
  out(e, "static __host__ __device__ %s %s(", fn->is_function ? ir_type_c(fn->result->type) :
      "void", device_fn_name(fn));
  for (int i = 0; i < fn->ndummies; i++)
    out(e, "%s%s %s%s", i ? ", " : "", ir_type_c(fn->dummies[i]->type),
        fn->dummies[i]->device_by_ref ? "*" : "", cname(fn->dummies[i]));
  out(e, "%s)", fn->ndummies ? "" : "void");
}

/* The function that returns argument d of subroutine fn after it ran, for
 * a call in a kernel (IrExpr.u.call.result_of). */
static void emit_device_result_signature(Emit *e, const IrRoutine *fn, const IrSym *d)
{
  out(e, "static __host__ __device__ %s %s(", ir_type_c(d->type), device_result_fn_name(fn, d));
  int n = 0;
  for (int i = 0; i < fn->ndummies; i++)
    if (ir_device_entry_arg(fn->dummies[i]))
      out(e, "%s%s %s", n++ ? ", " : "", ir_type_c(fn->dummies[i]->type), cname(fn->dummies[i]));
  out(e, "%s)", n ? "" : "void");
}

static void emit_device_result_function(Emit *e, const IrRoutine *fn, const IrSym *d)
{
  emit_device_result_signature(e, fn, d);
  out(e, "\n{\n");
  for (int i = 0; i < fn->ndummies; i++)
    if (!ir_device_entry_arg(fn->dummies[i]))
      out(e, "  %s %s;\n", ir_type_c(fn->dummies[i]->type), cname(fn->dummies[i]));
  out(e, "  %s(", device_fn_name(fn));
  for (int i = 0; i < fn->ndummies; i++)
    out(e, "%s%s%s", i ? ", " : "", fn->dummies[i]->device_by_ref ? "&" : "",
        cname(fn->dummies[i]));
  out(e, ");\n  return %s;\n}\n\n", cname(d));
}

/* Is s a variable of fn's own to declare at its top: its result, or a
 * local its body names? */
static bool device_local(const IrRoutine *fn, const IrSym *s, const IrSymSet *named)
{
  return s == fn->result || (ir_symset_has(named, s) && s->kind == IR_SYM_VAR && !s->is_dummy &&
                             !s->is_module);
}

/* The bounds of local array a of a __device__ function, constant. */
static void local_array_bounds(const IrSym *a, long *lo, long *hi)
{
  for (int d = 0; d < a->rank; d++)
    if (!ir_eval_const(a->lo[d], &lo[d]) || !ir_eval_const(a->hi[d], &hi[d]))
      S2S_BUG("local array '%s' of a __device__ function without constant bounds", a->name);
}

/* The indexing macro of local array a, column-major. */
static void emit_local_array_macro(Emit *e, const IrSym *a)
{
  long lo[IR_MAX_RANK], hi[IR_MAX_RANK];
  local_array_bounds(a, lo, hi);
  out(e, "#define S2S_%s(", a->name);
  for (int d = 0; d < a->rank; d++)
    out(e, "%si%d", d ? ", " : "", d);
  out(e, ") %s[", cname(a));
  for (int d = 0; d < a->rank; d++) {
    if (d)
      out(e, " + %ldL * (", hi[d - 1] - lo[d - 1] + 1);
    out(e, "((long)(i%d) - %ldL)", d, lo[d]);
  }
  for (int d = 1; d < a->rank; d++)
    out(e, ")");
  out(e, "]\n");
}

/* The declaration of local s of a __device__ function (an array: of its
 * constant size, at least one element). */
static void emit_device_local(Emit *e, const IrSym *s)
{
  long lo[IR_MAX_RANK], hi[IR_MAX_RANK], elems = 1;
  out(e, "  %s %s", ir_type_c(s->type), cname(s));
  if (s->rank) {
    local_array_bounds(s, lo, hi);
    for (int d = 0; d < s->rank; d++)
      elems *= hi[d] >= lo[d] ? hi[d] - lo[d] + 1 : 0;
    out(e, "[%ld]", elems ? elems : 1);
  }
  out(e, ";\n");
}

/* The scalar named constants fn's body names, declared at its top under
 * their own names, where no other symbol of fn has that name (a constant
 * renamed by a USE may); the others are folded in. */
static void emit_device_consts(Emit *e, const IrRoutine *fn, const IrSymSet *named)
{
  e->device_consts = (IrSymSet){ 0 };
  for (int i = 0; i < named->n; i++) {
    IrSym *k = named->syms[i], *same = NULL;
    HASH_FIND_STR(fn->symbols, k->name, same);
    if (k->kind != IR_SYM_PARAM || k->rank || (same && same != k))
      continue;
    out(e, "  const %s %s = ", ir_type_c(k->type), cname(k));
    if (k->init->type != k->type)
      out(e, "(%s)", ir_type_c(k->type));
    emit_prec(e, k->init, k->init->type != k->type ? PREC_UNARY : PREC_TOP);
    out(e, ";\n");
    ir_symset_add(&e->device_consts, k);
  }
}

static void emit_device_function(Emit *e, IrRoutine *fn)
{
  IrSymSet *named = ir_list_symbols(&fn->body);
  out(e, "/* %s '%s' of %s:%d, a __device__ function (%s) */\n",
      fn->is_function ? "function" : "subroutine", fn->name, diag_user_file(fn->loc),
      diag_user_line(fn->loc), fn->device_why);
  for (IrSym *s = fn->symbols; s; s = s->hh.next)
    if (s->rank && device_local(fn, s, named))
      emit_local_array_macro(e, s);
  emit_device_signature(e, fn);
  out(e, "\n{\n");
  for (IrSym *s = fn->symbols; s; s = s->hh.next)
    if (device_local(fn, s, named))
      emit_device_local(e, s);
  /* emitted before any kernel: no region, no loop open around it */
  e->strict_mul = e->cfg->strict_fp ? "s2s_" : NULL;
  emit_device_consts(e, fn, named);
  emit_stmts(e, &fn->body, 2);
  emit_line_restore(e);
  e->ncomments_seen = 0;
  e->strict_mul = NULL;
  e->device_consts = (IrSymSet){ 0 };
  if (fn->is_function)
    out(e, "  return %s;\n", cname(fn->result));
  out(e, "}\n");
  for (IrSym *s = fn->symbols; s; s = s->hh.next)
    if (s->rank && device_local(fn, s, named))
      out(e, "#undef S2S_%s\n", s->name);
  out(e, "\n");
}

/* Every __device__ function, before the kernels that call them: the
 * prototypes first, so that they may call one another in any order. */
static void emit_device_functions(Emit *e)
{
  bool any = false;
  for (int r = 0; r < e->prog->nroutines; r++) {
    const IrRoutine *fn = e->prog->routines[r];
    if (!fn->device_why)
      continue;
    if (!any)
      out(e, "/* ==== __device__ functions: functions the regions call that are not inlined "
             "==== */\n\n");
    any = true;
    emit_device_signature(e, fn);
    out(e, ";\n");
  }
  if (any)
    out(e, "\n");
  for (int r = 0; r < e->prog->nroutines; r++) {
    IrRoutine *fn = e->prog->routines[r];
    if (!fn->device_why)
      continue;
    emit_device_function(e, fn);
    for (int i = 0; !fn->is_function && i < fn->ndummies; i++)
      if (fn->dummies[i]->device_returned)
        emit_device_result_function(e, fn, fn->dummies[i]);
  }
}

/* ---- kernels ------------------------------------------------------------------- */

static const char *elem_ctype(const IrSym *a)
{
  return ir_type_c(a->type);
}

/* The indexing macro of a privatized array: the column dimensions are the
 * thread's own and dropped; the rest index the thread's copy.  Scratch
 * slices are interleaved (element e of thread t at t + nthreads*e) so that
 * neighbouring threads touch neighbouring words. */
static void emit_private_macro(Emit *e, const ArrayPlan *a)
{
  const IrSym *s = a->sym;
  ArrayStorage st = a->storage;
  out(e, "#define S2S_%s(", s->name);
  for (int d = 0; d < s->rank; d++)
    out(e, "%si%d", d ? ", " : "", d);
  if (st == ARRAY_REGISTER) {
    out(e, ") s2s_p_%s\n", s->name);
    return;
  }
  out(e, ") s2s_p_%s[%s", s->name, st == ARRAY_SCRATCH_SLICE ? "s2s_tid + s2s_nthreads * (" : "");
  int open = 0, prev = -1;
  for (int d = 0; d < s->rank; d++) {
    if (a->column_dim[d])
      continue;
    if (prev >= 0) {
      long lo = 0, hi = 0;
      if (st == ARRAY_THREAD_LOCAL && ir_eval_const(s->lo[prev], &lo) &&
          ir_eval_const(s->hi[prev], &hi))
        out(e, " + %ld * (", hi - lo + 1);
      else
        out(e, " + s2s_%s_n%d * (", s->name, prev);
      open++;
    }
    long lo = 0;
    if (st == ARRAY_THREAD_LOCAL && ir_eval_const(s->lo[d], &lo))
      out(e, "((s2s_idx)(i%d) - %ld)", d, lo);
    else
      out(e, "((s2s_idx)(i%d) - s2s_%s_lo%d)", d, s->name, d);
    prev = d;
  }
  for (int i = 0; i < open; i++)
    out(e, ")");
  out(e, "%s]\n", st == ARRAY_SCRATCH_SLICE ? ")" : "");
}

/* The __constant__ copy of a module array in constant memory, one per
 * region, and its indexing macro over the declared (constant) bounds. */
static const char *constant_name(const Emit *e, const IrSym *a)
{
  return ir_printf("s2s_%s_%s", e->region->name, a->name);
}

static void emit_constant_array(Emit *e, const ArrayPlan *p)
{
  const IrSym *a = p->sym;
  long lo[IR_MAX_RANK], hi[IR_MAX_RANK];
  for (int d = 0; d < a->rank; d++)
    if (!ir_eval_const(a->lo[d], &lo[d]) || !ir_eval_const(a->hi[d], &hi[d]))
      S2S_BUG("constant-memory array '%s' without constant bounds", a->name);
  out(e, "static __constant__ %s %s[%ld]; /* module array '%s' */\n", elem_ctype(a), constant_name(e, a),
      p->constant_bytes / (a->type == IR_T_REAL8 || a->type == IR_T_INT8 ? 8 : 4), a->name);
  out(e, "#define S2S_%s(", a->name);
  for (int d = 0; d < a->rank; d++)
    out(e, "%si%d", d ? ", " : "", d);
  out(e, ") %s[", constant_name(e, a));
  for (int d = 0; d < a->rank; d++) {
    if (d)
      out(e, " + %ldL * (", hi[d - 1] - lo[d - 1] + 1);
    out(e, "((long)(i%d) - %ldL)", d, lo[d]);
  }
  for (int d = 1; d < a->rank; d++)
    out(e, ")");
  out(e, "]\n");
}

/* The indexing macro of array a: fastest dimension first, column-major, in
 * the kernel's index type s2s_idx (the macros are expanded inside the
 * kernel templates).  The element goes through S2S_ELEM(array, offset)
 * (s2s_rt.h): `array[offset]` on the GPU, a reference the race check sees
 * in emulation (S2S_EMU_CHECK=race). */
static void emit_index_macro(Emit *e, const IrSym *a)
{
  const char *n = a->name;
  out(e, "#define S2S_%s(", n);
  for (int d = 0; d < a->rank; d++)
    out(e, "%si%d", d ? ", " : "", d);
  out(e, ") S2S_ELEM(%s, ", cname(a));
  /* (i0-lo0) + n0*((i1-lo1) + n1*((i2-lo2) ...)) : column-major */
  for (int d = 0; d < a->rank; d++) {
    if (d)
      out(e, " + s2s_%s_n%d * (", n, d - 1);
    out(e, "((s2s_idx)(i%d) - s2s_%s_lo%d)", d, n, d);
  }
  for (int d = 1; d < a->rank; d++)
    out(e, ")");
  out(e, ")\n");
}

/* Parameters are listed one array (address and bounds) per line. */
static bool array_param(const Param *a)
{
  return a->role == PARAM_ARRAY || a->role == PARAM_SCRATCH_BASE || a->role == PARAM_LOWER_BOUND ||
         a->role == PARAM_EXTENT || a->role == PARAM_BOX_LOWER || a->role == PARAM_BOX_UPPER;
}

/* What goes before parameter i of l: nothing, ", ", or a line break when an
 * array's group of parameters has ended. */
static const char *param_separator(const ParamList *l, int i, const char *newline)
{
  if (i == 0)
    return "";
  ParamRole r = l->v[i].role;
  if (r != PARAM_LOWER_BOUND && r != PARAM_EXTENT && r != PARAM_BOX_LOWER &&
      r != PARAM_BOX_UPPER && array_param(&l->v[i - 1]))
    return newline;
  return ", ";
}

static void emit_param_decl(Emit *e, const Param *a, const char *name)
{
  const char *type = emit_param_ctype(a);
  out(e, "%s%s%s%s", type, type[strlen(type) - 1] == '*' ? "" : " ",
      a->no_alias ? "__restrict__ " : "", name);
}

/* The kernel's name of a parameter. */
static const char *kernel_param_name(const Param *a)
{
  static const char *const axis[] = { "x", "y", "z" };
  switch (a->role) {
  case PARAM_ARRAY:
  case PARAM_SCALAR: return cname(a->sym);
  case PARAM_SCRATCH_BASE: return ir_printf("s2s_p_%s", a->sym->name);
  case PARAM_LOWER_BOUND: return ir_printf("s2s_%s_lo%d", a->sym->name, a->dim);
  case PARAM_EXTENT: return ir_printf("s2s_%s_n%d", a->sym->name, a->dim);
  case PARAM_FIRSTPRIVATE: return ir_printf("s2s_in_%s", a->sym->name);
  case PARAM_REDUCTION: return ir_printf("s2s_red_%s", a->sym->name);
  case PARAM_TRIP: return ir_printf("s2s_trip_%s", axis[a->dim]);
  case PARAM_BOX_LOWER: return ir_printf("s2s_%s_blo%d", a->sym->name, a->dim);
  case PARAM_BOX_UPPER: return ir_printf("s2s_%s_bhi%d", a->sym->name, a->dim);
  case PARAM_HOST_LBOUND:
  case PARAM_HOST_UBOUND: break;
  }
  S2S_BUG("kernel parameter in host-only role %d", (int)a->role);
}

/* The launcher's value for a kernel parameter. */
static const char *launch_arg(const Param *a)
{
  switch (a->role) {
  case PARAM_ARRAY:
  case PARAM_SCRATCH_BASE: return ir_printf("d_%s", a->sym->name);
  case PARAM_LOWER_BOUND: return ir_printf("s2s_%s.lo[%d]", a->sym->name, a->dim);
  case PARAM_EXTENT: return ir_printf("s2s_%s.ext[%d]", a->sym->name, a->dim);
  case PARAM_SCALAR:
  case PARAM_FIRSTPRIVATE: return cname(a->sym);
  case PARAM_REDUCTION: return ir_printf("s2s_red_%s", a->sym->name);
  case PARAM_TRIP: return ir_printf("s2s_trip[%d]", a->dim);
  case PARAM_BOX_LOWER: return ir_printf("s2s_%s.sub_lo[%d]", a->sym->name, a->dim);
  case PARAM_BOX_UPPER: return ir_printf("s2s_%s.sub_hi[%d]", a->sym->name, a->dim);
  case PARAM_HOST_LBOUND:
  case PARAM_HOST_UBOUND: break;
  }
  S2S_BUG("kernel parameter in host-only role %d", (int)a->role);
}

/* Bounds, extents and trip counts are passed in the kernel's index type. */
static void emit_kernel_params(Emit *e, const KernelPlan *k)
{
  for (int i = 0; i < k->params.n; i++) {
    const Param *a = &k->params.v[i];
    out(e, "%s", param_separator(&k->params, i, ",\n    "));
    if (a->role == PARAM_LOWER_BOUND || a->role == PARAM_EXTENT || a->role == PARAM_TRIP ||
        a->role == PARAM_BOX_LOWER || a->role == PARAM_BOX_UPPER)
      out(e, "s2s_idx %s", kernel_param_name(a));
    else
      emit_param_decl(e, a, kernel_param_name(a));
  }
}

static void emit_launch_args(Emit *e, const KernelPlan *k, const char *newline)
{
  for (int i = 0; i < k->params.n; i++)
    out(e, "%s%s", param_separator(&k->params, i, newline), launch_arg(&k->params.v[i]));
}

/* The thread's own copies of the privatized arrays it uses. */
static void emit_private_storage(Emit *e, const KernelPlan *k, const char *ind, int point)
{
  bool scratch = false;
  for (int i = 0; i < k->nprivate_arrays; i++) {
    const ArrayPlan *a = k->private_arrays[i];
    if (a->storage == ARRAY_REGISTER)
      out(e, "%s%s s2s_p_%s; /* array '%s' scalarized */\n", ind, elem_ctype(a->sym), a->sym->name,
          a->sym->name);
    else if (a->storage == ARRAY_THREAD_LOCAL)
      out(e, "%s%s s2s_p_%s[%ld]; /* array '%s' privatized */\n", ind, elem_ctype(a->sym),
          a->sym->name, a->private_elems, a->sym->name);
    scratch |= a->storage == ARRAY_SCRATCH_SLICE;
  }
  if (scratch)
    out(e, "%sconst s2s_idx s2s_tid = s2s_x + s2s_trip_x * (s2s_y%s + s2s_trip_y * s2s_z);\n"
           "%sconst s2s_idx s2s_nthreads = s2s_trip_x * s2s_trip_y * s2s_trip_z;\n", ind,
        point ? ir_printf(" + %d", point) : "", ind);
}

/* The runtime's combining operator of a GPU reduction (s2s_rt.h). */
static const char *reduce_functor(ReduceOp op)
{
  switch (op) {
  case REDUCE_SUM: return "S2sSum";
  case REDUCE_MAX: return "S2sMax";
  case REDUCE_MIN: return "S2sMin";
  default: break;
  }
  S2S_BUG("reduction operator %d reached the emitter", (int)op);
}

static bool kernel_reduces(const KernelPlan *k, const IrSym *s)
{
  for (int i = 0; i < k->nreductions; i++)
    if (k->reductions[i]->sym == s)
      return true;
  return false;
}

static bool is_mapped(const KernelPlan *k, const IrSym *s)
{
  for (int i = 0; i < k->nmapped; i++)
    if (k->mapped[i]->u.loop.iv == s)
      return true;
  return false;
}

/* The report line of a relaxed kernel: the intrinsics it uses, or that it
 * had nothing to relax. */
static void report_relaxed(const Emit *e, const KernelPlan *k)
{
  char used[160] = "";
  for (int i = 0; i < NFAST; i++)
    if (e->fast_used & (1u << i))
      snprintf(used + strlen(used), sizeof used - strlen(used), "%s%s", used[0] ? ", " : "",
               fast_names[i]);
  const char *routine = e->region->routine->name;
  if (used[0])
    report_at(REPORT_INFO, routine, k->nest->loc, "Relaxed floating point (-Mfprelaxed): fast "
              "intrinsics %s in kernel %s; results differ from IEEE in the last bits", used,
              k->name);
  else
    report_at(REPORT_INFO, routine, k->nest->loc, "Relaxed floating point (-Mfprelaxed): no "
              "single-precision exp, log, power, sin, cos, tan or division in kernel %s; its "
              "code is unchanged", k->name);
}

/* The kernel's entry in the driver's side table (resources.h). */
static void record_site(const Emit *e, const KernelPlan *k)
{
  if (!e->cfg->sites)
    return;
  res_sites_add(e->cfg->sites, k->name, e->region->routine->name, diag_user_file(k->nest->loc),
                diag_user_line(k->nest->loc), k->block, k->block_fixed);
  long tiles = 0;
  for (int t = 0; t < k->ntiles; t++)
    tiles += xf_tile_bytes(&k->tiles[t], k->block[0], k->block[1], k->block[2]);
  e->cfg->sites->v[e->cfg->sites->n - 1].tile_bytes = tiles;
}

/* The mapped loops' indices (i = its + s2s_x, ...). */
static void emit_mapped_indices(Emit *e, const KernelPlan *k, const char *ind)
{
  static const char *const axis[] = { "x", "y", "z" };
  for (int i = 0; i < k->nmapped; i++) {
    const IrStmt *l = k->mapped[i];
    long step = 1;
    if (l->u.loop.step)
      ir_eval_const(l->u.loop.step, &step);
    emit_comments(e, l, (int)strlen(ind));
    emit_line_directive(e, l->loc);
    out(e, "%sconst %s %s = ", ind, ir_type_c(l->u.loop.iv->type), cname(l->u.loop.iv));
    emit_prec(e, l->u.loop.lo, PREC_ADD);
    out(e, " + (%s)s2s_%s", ir_type_c(l->u.loop.iv->type), axis[k->axis[i]]);
    if (step != 1)
      out(e, " * %ld", step);
    out(e, "; /* %s:%d */\n", diag_user_file(l->loc), diag_user_line(l->loc));
  }
}

/* The bytes of every tile of k for block shape `block` (a dim3 of the
 * launcher or blockDim), as the launcher sizes and the kernel places them. */
static void emit_tiles_bytes(Emit *e, const KernelPlan *k, const char *block, int upto)
{
  for (int t = 0; t < upto; t++) {
    const SmemTile *tile = &k->tiles[t];
    out(e, "%sS2S_TILE_BYTES(%s.x, %s.y, %s.z, %ld, %ld, sizeof(%s))", t ? " + " : "", block, block,
        block, tile->xhi - tile->xlo, tile->yhi - tile->ylo, elem_ctype(tile->sym));
  }
}

/* " + 7", " - 2", or nothing for 0: an offset added in generated code. */
static const char *offset_text(long c)
{
  return c ? ir_printf(" %c %ld", c < 0 ? '-' : '+', labs(c)) : "";
}

/* Pass "smem": each tile's place in the block's shared memory, then its
 * load.  Every thread of the block runs this, in range or not, before the
 * out-of-range return: each loads its share of its own z slice (elements of
 * the array's box only: the device copy holds no others), and all meet
 * the barrier. */
static void emit_tile_loads(Emit *e, const KernelPlan *k)
{
  out(e, "  S2S_SMEM_DECLARE; /* shared-memory tiles (pass smem) */\n");
  for (int t = 0; t < k->ntiles; t++) {
    const SmemTile *tile = &k->tiles[t];
    const char *n = tile->sym->name, *ty = elem_ctype(tile->sym);
    out(e, "  const int s2s_%s_tx = (int)blockDim.x + %ld, s2s_%s_ty = (int)blockDim.y + %ld;\n", n,
        tile->xhi - tile->xlo, n, tile->yhi - tile->ylo);
    out(e, "  %s *const s2s_t_%s = (%s *)", ty, n, ty);
    if (t) {   /* after the tiles before it */
      out(e, "(s2s_smem + ");
      emit_tiles_bytes(e, k, "blockDim", t);
      out(e, ")");
    } else {
      out(e, "s2s_smem");
    }
    out(e, " + (int)threadIdx.z * s2s_%s_tx * s2s_%s_ty;\n", n, n);
  }
  out(e, "  if (S2S_SMEM_LOADING && s2s_z < s2s_trip_z) {\n");
  for (int t = 0; t < k->ntiles; t++) {
    const SmemTile *tile = &k->tiles[t];
    const char *n = tile->sym->name, *ivx = cname(tile->ix), *ivy = cname(tile->iy);
    const char *tx = ir_type_c(tile->ix->type), *ty = ir_type_c(tile->iy->type);
    const char *ind = "    ";
    int others = 0;
    for (int d = 0; d < tile->sym->rank; d++) {
      if (d == tile->dx || d == tile->dy)
        continue;
      out(e, others++ ? " &&\n        " : "    if (");
      out(e, "(s2s_idx)(");
      emit_expr(e, tile->first->u.elem.sub[d]);
      out(e, ") >= s2s_%s_blo%d && (s2s_idx)(", n, d);
      emit_expr(e, tile->first->u.elem.sub[d]);
      out(e, ") <= s2s_%s_bhi%d", n, d);
    }
    if (others) {
      out(e, ")\n");
      ind = "      ";
    }
    out(e, "%sfor (int s2s_ty = (int)threadIdx.y; s2s_ty < s2s_%s_ty; s2s_ty += (int)blockDim.y) {\n",
        ind, n);
    out(e, "%s  const %s s2s_jj = %s - (%s)threadIdx.y%s + s2s_ty;\n", ind, ty, ivy, ty,
        offset_text(tile->ylo));
    out(e, "%s  if (s2s_jj < s2s_%s_blo%d || s2s_jj > s2s_%s_bhi%d)\n%s    continue;\n", ind, n,
        tile->dy, n, tile->dy, ind);
    out(e, "%s  for (int s2s_tx = (int)threadIdx.x; s2s_tx < s2s_%s_tx; s2s_tx += (int)blockDim.x) {\n",
        ind, n);
    out(e, "%s    const %s s2s_ii = %s - (%s)threadIdx.x%s + s2s_tx;\n", ind, tx, ivx, tx,
        offset_text(tile->xlo));
    out(e, "%s    if (s2s_ii >= s2s_%s_blo%d && s2s_ii <= s2s_%s_bhi%d)\n", ind, n, tile->dx, n,
        tile->dx);
    out(e, "%s      s2s_t_%s[s2s_ty * s2s_%s_tx + s2s_tx] = S2S_%s(", ind, n, n, n);
    for (int d = 0; d < tile->sym->rank; d++) {
      out(e, "%s", d ? ", " : "");
      if (d == tile->dx)
        out(e, "s2s_ii");
      else if (d == tile->dy)
        out(e, "s2s_jj");
      else
        emit_expr(e, tile->first->u.elem.sub[d]);
    }
    out(e, ");\n%s  }\n%s}\n", ind, ind);
  }
  out(e, "  }\n  S2S_SMEM_SYNC(); /* every thread of the block reaches it */\n");
}

static IrVisitStep find_loop_of(IrStmt *st, IrVisit *v)
{
  if (st->kind == IR_S_DO && st->u.loop.iv == v->ctx) {
    v->ctx = NULL;                      /* found */
    return IR_VISIT_STOP;
  }
  return IR_VISIT_CONTINUE;
}

/* Does kernel k's body name scalar s (in an expression, or as a DO index)?
 * A private scalar of the region that this kernel never names is not
 * declared in it (nvcc would warn that it is never referenced). */
static bool kernel_names(const KernelPlan *k, IrSym *s)
{
  for (int i = 0; i < k->nfirstprivate; i++)
    if (k->firstprivate[i] == s)
      return true;
  if (ir_list_mentions(k->body, s))
    return true;
  IrVisit v = { .pre = find_loop_of, .ctx = s };
  ir_visit_stmts(k->body, &v);
  return v.ctx == NULL;
}

/* The thread's own variables, as a thread starts: the private scalars,
 * the scalars passes introduced, the privatized arrays, the firstprivates
 * from the host's values.  `point`: which of a coarsened thread's points
 * they are for (its scratch slice is that point's). */
static void emit_thread_decls(Emit *e, const RegionPlan *p, const KernelPlan *k, const char *ind,
                              int point)
{
  for (int i = 0; i < p->nprivates; i++)
    if (!is_mapped(k, p->privates[i]) && !kernel_reduces(k, p->privates[i]) &&
        kernel_names(k, p->privates[i]))
      out(e, "%s%s %s;\n", ind, ir_type_c(p->privates[i]->type), cname(p->privates[i]));
  for (int i = 0; i < k->nlocals; i++)
    out(e, "%s%s %s; /* %s */\n", ind, ir_type_c(k->locals[i]->type), cname(k->locals[i]),
        k->local_notes[i]);
  emit_private_storage(e, k, ind, point);
  for (int i = 0; i < k->nfirstprivate; i++)
    out(e, "%s%s = s2s_in_%s; /* firstprivate */\n", ind, cname(k->firstprivate[i]),
        k->firstprivate[i]->name);
}

/* Pass "coarsen": the thread's points one after the other, each in a block
 * of its own that declares the thread's variables afresh (it starts as a
 * thread of its own would), point p > 0 after the return of a thread that
 * has no such point, its body with the y loop's index read as `j + p*step`
 * (Emit.point_var), so that the elements the points share are spelled
 * alike and nvcc loads them once.  The indices are point 0's, computed once. */
static void emit_points(Emit *e, const RegionPlan *p, const KernelPlan *k, int points)
{
  const IrStmt *yl = NULL;
  for (int i = 0; i < k->nmapped; i++)
    if (k->axis[i] == 1)
      yl = k->mapped[i];
  if (!yl)
    S2S_BUG("kernel %s coarsened with no loop on grid axis y", k->name);
  long step = 1;
  if (yl->u.loop.step && !ir_eval_const(yl->u.loop.step, &step))
    S2S_BUG("kernel %s coarsened along a loop of variable step", k->name);
  const char *y = cname(yl->u.loop.iv);
  emit_mapped_indices(e, k, "  ");
  for (int pt = 0; pt < points; pt++) {
    if (!pt) {
      out(e, "  { /* point 1 of %d: %s */\n", points, y);
    } else {
      /* a return, not an IF around the point: every point's loads then
       * come after the earlier points' (they dominate), for nvcc to reuse */
      out(e, "  if (s2s_y + %d >= s2s_trip_y)\n    return;\n", pt);
      out(e, "  { /* point %d of %d: %s %c %ld */\n", pt + 1, points, y,
          step * pt < 0 ? '-' : '+', labs(step * pt));
    }
    emit_thread_decls(e, p, k, "    ", pt);
    e->point_var = pt ? yl->u.loop.iv : NULL;
    e->point_delta = step * pt;
    emit_stmts(e, k->body, 4);
    e->point_var = NULL;
    out(e, "  }\n");
  }
}

static void emit_kernel(Emit *e, const RegionPlan *p, const KernelPlan *k)
{
  static const char *const axis[] = { "x", "y", "z" };
  record_site(e, k);
  e->fast = e->cfg->relaxed_fp;
  e->in_kernel = true;
  e->fast_used = 0;
  e->strict_mul = e->cfg->strict_fp ? "__" : NULL;
  out(e, "/* %s: the loop nest at %s:%d */\ntemplate <typename s2s_idx>\n__global__ void %s(",
      k->name, diag_user_file(k->nest->loc), diag_user_line(k->nest->loc), k->name);
  emit_kernel_params(e, k);
  out(e, ")\n{\n");
  char *text;
  size_t len;
  FILE *real = body_begin(e, &text, &len);
  /* pass "coarsen": the thread computes `points` consecutive points along
   * y, from s2s_y on (never with a reduction or tiles: coarsen.c) */
  int points = k->coarsen > 1 ? k->coarsen : 1;
  if (points > 1 && (k->nreductions || k->ntiles))
    S2S_BUG("kernel %s coarsened with a reduction or tiles", k->name);
  for (int a = 0; a < 3; a++)
    out(e, "  const s2s_idx s2s_%s = %s(s2s_idx)blockIdx.%s * (s2s_idx)blockDim.%s + "
        "(s2s_idx)threadIdx.%s%s;%s\n", axis[a], a == 1 && points > 1 ? "(" : "", axis[a], axis[a],
        axis[a], a == 1 && points > 1 ? ir_printf(") * %d", points) : "",
        a == 1 && points > 1 ? ir_printf(" /* the first of %d points (pass coarsen) */", points)
                             : "");
  /* A kernel that reduces keeps every thread of its blocks to the end:
   * they all take part in combining the partial results. */
  const char *ind = k->nreductions ? "    " : "  ";
  for (int i = 0; i < k->nreductions; i++) {
    const IrSym *r = k->reductions[i]->sym;
    out(e, "  %s %s = %s::identity<%s>(); /* reduction(%s:%s): this thread's partial result */\n",
        ir_type_c(r->type), cname(r), reduce_functor(k->reductions[i]->op), ir_type_c(r->type),
        xf_reduce_op_text(k->reductions[i]->op), r->name);
  }
  if (k->ntiles) {
    /* the indices first: the tile's load needs them in every thread */
    emit_mapped_indices(e, k, ind);
    emit_tile_loads(e, k);
  }
  if (k->nreductions)
    out(e, "  if (s2s_x < s2s_trip_x && s2s_y < s2s_trip_y && s2s_z < s2s_trip_z) {\n");
  else
    out(e, "  if (s2s_x >= s2s_trip_x || s2s_y >= s2s_trip_y || s2s_z >= s2s_trip_z)\n    return;\n");
  for (int t = 0; t < k->ntiles; t++) {   /* where each tile holds the thread's own point */
    const SmemTile *tile = &k->tiles[t];
    const char *n = tile->sym->name;
    out(e, "  const %s *const s2s_%s_at = s2s_t_%s + ((int)threadIdx.y%s) * s2s_%s_tx + "
        "(int)threadIdx.x%s;\n", elem_ctype(tile->sym), n, n, offset_text(-tile->ylo), n,
        offset_text(-tile->xlo));
  }
  e->kernel = k;
  e->nopen = 0;
  e->nlabels = 0;
  if (points == 1) {
    emit_thread_decls(e, p, k, ind, 0);
    if (!k->ntiles)
      emit_mapped_indices(e, k, ind);
    emit_stmts(e, k->body, (int)strlen(ind));
  } else {
    emit_points(e, p, k, points);
  }
  emit_line_restore(e);
  e->ncomments_seen = 0;
  e->kernel = NULL;
  if (k->nreductions)
    out(e, "  }\n");
  for (int i = 0; i < k->nreductions; i++)
    out(e, "  s2s_reduce<%s>(s2s_red_%s, %s);\n", reduce_functor(k->reductions[i]->op),
        k->reductions[i]->sym->name, cname(k->reductions[i]->sym));
  body_end(e, real, &text, &len);
  out(e, "}\n\n");
  e->fast = false;
  e->in_kernel = false;
  e->strict_mul = NULL;
  if (e->cfg->relaxed_fp)
    report_relaxed(e, k);
  if (e->cfg->strict_fp)
    report_at(REPORT_INFO, e->region->routine->name, k->nest->loc, "Strict IEEE floating point "
              "(-Kieee): no FMA contraction, IEEE division and square root in kernel %s", k->name);
}

/* ---- launchers ------------------------------------------------------------------ */

static HostCall *new_call(Emit *e, HostCallKind kind, IrRoutine *r, char *fn)
{
  HostCall *c = ir_alloc(sizeof *c);
  c->kind = kind;
  c->routine = r;
  c->function = fn;
  IR_PUSH(e->calls->v, e->calls->n, c);
  return c;
}

/* The extern "C" function's parameter list: the launcher ABI (storage.h),
 * the same list the host file's interface or prototype declares.  Fortran
 * passes scalars by reference: the function reads them into locals of the
 * user's names (emit_scalar_locals). */
static void emit_launcher_params(Emit *e, const HostCall *c)
{
  for (int i = 0; i < c->params.n; i++) {
    const Param *a = &c->params.v[i];
    out(e, "%s", i ? ", " : "");
    if (a->role != PARAM_ARRAY && a->by_reference)
      emit_param_decl(e, a, ir_printf("s2s_p_%s", a->sym->name));
    else
      emit_param_decl(e, a, cname(a->sym));
  }
  if (!c->params.n)
    out(e, "void");
}

static void emit_scalar_locals(Emit *e, const HostCall *c)
{
  for (int i = 0; i < c->params.n; i++) {
    const Param *a = &c->params.v[i];
    if (a->role != PARAM_ARRAY && a->by_reference)
      out(e, "  %s%s %s = *s2s_p_%s;\n", a->read_only ? "const " : "", a->ctype, cname(a->sym),
          a->sym->name);
  }
}

static void emit_ir_or(Emit *e, const IrExpr *x, const char *fallback)
{
  if (x)
    emit_expr(e, x);
  else
    out(e, "%s", fallback);
}

/* Does a kernel of the region keep array a per thread? */
static bool kernel_uses_private(const RegionPlan *p, const ArrayPlan *a)
{
  for (int k = 0; k < p->nkernels; k++)
    for (int i = 0; i < p->kernels[k].nprivate_arrays; i++)
      if (p->kernels[k].private_arrays[i] == a)
        return true;
  return false;
}

/* The declared bounds of a privatized scratch array, in the fields the
 * kernels' launch reads (s2s_NAME.lo[d], s2s_NAME.ext[d]). */
static void emit_bounds(Emit *e, const IrSym *a)
{
  out(e, "  struct { long lo[%d], ext[%d]; } s2s_%s = { {", a->rank, a->rank, a->name);
  for (int d = 0; d < a->rank; d++) {
    out(e, "%s(long)(", d ? ", " : " ");
    emit_expr(e, a->lo[d]);
    out(e, ")");
  }
  out(e, " }, {");
  for (int d = 0; d < a->rank; d++) {
    out(e, "%s(long)(", d ? ", " : " ");
    emit_expr(e, a->hi[d]);
    out(e, ") - (long)(");
    emit_expr(e, a->lo[d]);
    out(e, ") + 1");
  }
  out(e, " } };\n");
}

/* S2sArray descriptor of array a with box (lo, hi), clamped to the
 * declared bounds where they are known.  `read_only`: the region's kernels
 * never write it, so the runtime lets them run beside an update host of the
 * box still copying, and other threads need not wait for them (rt/README.md,
 * "Copies beside the kernels"). */
static void emit_descriptor(Emit *e, const IrSym *a, IrExpr *const *lo, IrExpr *const *hi,
                            bool read_only)
{
  out(e, "  S2sArray s2s_%s = { \"%s\", (void *)%s, sizeof(%s), %d, {", a->name,
      ir_sym_user_name(a), cname(a),
      elem_ctype(a), a->rank);
  for (int d = 0; d < a->rank; d++) {
    out(e, "%s", d ? ", " : " ");
    emit_expr(e, a->lo[d]);
  }
  out(e, " }, {");
  for (int d = 0; d < a->rank; d++) {
    out(e, "%s", d ? ", " : " ");
    if (a->hi[d]) {
      out(e, "(long)(");
      emit_expr(e, a->hi[d]);
      out(e, ") - (");
      emit_expr(e, a->lo[d]);
      out(e, ") + 1");
    } else
      out(e, "0");
  }
  out(e, " }, {");
  for (int d = 0; d < a->rank; d++) {
    out(e, "%ss2s_max<long>(", d ? ", " : " ");
    emit_expr(e, lo[d]);
    out(e, ", ");
    emit_expr(e, a->lo[d]);
    out(e, ")");
  }
  out(e, " }, {");
  for (int d = 0; d < a->rank; d++) {
    out(e, "%s", d ? ", " : " ");
    if (a->hi[d]) {
      out(e, "s2s_min<long>(");
      emit_expr(e, hi[d]);
      out(e, ", ");
      emit_expr(e, a->hi[d]);
      out(e, ")");
    } else
      emit_ir_or(e, hi[d], "0");
  }
  out(e, " }%s };\n", read_only ? ", 1" : "");
}

static const char *rt_clause(DirClauseKind k)
{
  switch (k) {
  case DIR_COPYIN: return "S2S_COPYIN";
  case DIR_COPYOUT: return "S2S_COPYOUT";
  case DIR_CREATE: return "S2S_CREATE";
  case DIR_PRESENT: return "S2S_PRESENT";
  case DIR_DELETE: return "S2S_DELETE";
  default: return "S2S_COPY";
  }
}

static void emit_region_static(Emit *e, const char *name, IrRoutine *r, int line)
{
  out(e, "  static S2sRegion s2s_region = S2S_REGION(\"%s\", \"%s\", \"%s\", %d);\n", name, r->name,
      e->prog->path, line);
}

/* Device memory for the scratch slices of the kernel's privatized arrays:
 * one slice (the array minus its column dimensions) per thread. */
static void emit_scratch(Emit *e, const KernelPlan *k, int line, bool alloc)
{
  for (int i = 0; i < k->nprivate_arrays; i++) {
    const ArrayPlan *a = k->private_arrays[i];
    if (a->storage != ARRAY_SCRATCH_SLICE)
      continue;
    const char *n = a->sym->name;
    if (!alloc) {
      out(e, "      s2s_scratch_free(&s2s_region, %d, d_%s);\n", line, n);
      continue;
    }
    out(e, "      size_t s2s_%s_bytes = sizeof(%s) * (size_t)(s2s_trip[0] * s2s_trip[1] * s2s_trip[2])",
        n, elem_ctype(a->sym));
    for (int d = 0; d < a->sym->rank; d++)
      if (!a->column_dim[d])
        out(e, " * (size_t)s2s_%s.ext[%d]", n, d);
    out(e, ";\n      %s *d_%s = (%s *)s2s_scratch_alloc(&s2s_region, %d, s2s_%s_bytes);\n",
        elem_ctype(a->sym), n, elem_ctype(a->sym), line, n);
  }
}

/* What the choice of the kernel's index type looks at (s2s_index32): the
 * span of every array it indexes (scratch slices: their whole size) and its
 * thread count.  Returns how many. */
static int emit_spans(Emit *e, const KernelPlan *k)
{
  int n = 0;
  out(e, "      const long s2s_spans[] = {");
  for (int i = 0; i < k->params.n; i++) {
    const Param *a = &k->params.v[i];
    const char *sep = n ? ", " : " ";
    if (a->role == PARAM_ARRAY && a->sym->rank) {
      out(e, "%ss2s_array_span(&s2s_%s)", sep, a->sym->name);
      n++;
    } else if (a->role == PARAM_SCRATCH_BASE) {
      out(e, "%s(long)(s2s_%s_bytes / sizeof(%s))", sep, a->sym->name, elem_ctype(a->sym));
      n++;
    }
  }
  out(e, "%ss2s_trip[0] * s2s_trip[1] * s2s_trip[2] };\n", n ? ", " : " ");
  return n + 1;
}

/* Trip counts and grid of one kernel; Fortran: max(0, (hi - lo + step) / step). */
static void emit_launch(Emit *e, const KernelPlan *k)
{
  int line = diag_user_line(k->nest->loc);
  out(e, "  {\n    long s2s_trip[3] = { 1, 1, 1 };\n");
  for (int i = 0; i < k->nmapped; i++) {
    const IrStmt *l = k->mapped[i];
    long step = 1;
    if (l->u.loop.step)
      ir_eval_const(l->u.loop.step, &step);
    long lo;
    out(e, "    s2s_trip[%d] = s2s_max<long>(0, ", k->axis[i]);
    if (step != 1)
      out(e, "(");
    out(e, "(long)(");
    emit_expr(e, l->u.loop.hi);
    out(e, ")");
    if (step == 1 && ir_eval_const(l->u.loop.lo, &lo)) {  /* do i = 1, n: n iterations */
      if (lo != 1)
        out(e, " %c %ld", lo < 1 ? '+' : '-', lo < 1 ? 1 - lo : lo - 1);
      out(e, ");\n");
      continue;
    }
    out(e, " - (long)(");
    emit_expr(e, l->u.loop.lo);
    if (step != 1)
      out(e, ") + %ld) / %ld);\n", step, step);
    else
      out(e, ") + 1);\n");
  }
  /* pass "coarsen": the threads along y, each computing k->coarsen points;
   * the tuner and the grid see those */
  const char *threads = "s2s_trip";
  if (k->coarsen > 1) {
    threads = "s2s_threads";
    out(e, "    const long s2s_threads[3] = { s2s_trip[0], (s2s_trip[1] + %d) / %d, s2s_trip[2] }; "
        "/* %d points of y per thread */\n", k->coarsen - 1, k->coarsen, k->coarsen);
  }
  out(e, "    dim3 s2s_block = s2s_block_shape(&s2s_region, %d, \"%s\", %s, %d, %d, %d, %d);\n",
      line, k->name, threads, k->block[0], k->block[1], k->block[2], k->block_fixed);
  if (k->ntiles) {
    out(e, "    size_t s2s_smem = ");
    emit_tiles_bytes(e, k, "s2s_block", k->ntiles);
    out(e, ";\n    if (s2s_smem > s2s_smem_limit()) { /* a tuned shape too big for the tiles */\n"
           "      s2s_block = dim3(%d, %d, %d);\n      s2s_smem = ", k->block[0], k->block[1],
        k->block[2]);
    emit_tiles_bytes(e, k, "s2s_block", k->ntiles);
    out(e, ";\n    }\n");
  }
  out(e, "    dim3 s2s_grid(s2s_grid_dim(&s2s_region, %d, %s[0], s2s_block.x, 0),\n"
         "                  s2s_grid_dim(&s2s_region, %d, %s[1], s2s_block.y, 1),\n"
         "                  s2s_grid_dim(&s2s_region, %d, %s[2], s2s_block.z, 2));\n",
      line, threads, line, threads, line, threads);
  out(e, "    if (s2s_grid.x && s2s_grid.y && s2s_grid.z) {\n");
  emit_scratch(e, k, line, true);
  out(e, "      s2s_kernel_begin(&s2s_region, %d, s2s_grid, s2s_block);\n", line);
  int nspans = emit_spans(e, k);
  for (int wide = 0; wide < 2; wide++) {
    out(e, wide ? "      else\n" : "      if (s2s_index32(s2s_spans, %d))\n", nspans);
    if (k->ntiles)
      out(e, "        S2S_LAUNCH_SMEM(%s<%s>, s2s_grid, s2s_block, s2s_smem,\n        ", k->name,
          wide ? "long" : "int");
    else
      out(e, "        S2S_LAUNCH(%s<%s>, s2s_grid, s2s_block,\n        ", k->name,
          wide ? "long" : "int");
    emit_launch_args(e, k, ",\n        ");
    out(e, ");\n");
  }
  out(e, "      s2s_kernel_end(&s2s_region, %d);\n", line);
  emit_scratch(e, k, line, false);
  out(e, "    }\n  }\n");
}

/* The runtime's type code of a value of type t (autocompare). */
static const char *rt_type(IrType t)
{
  switch (t) {
  case IR_T_REAL4: case IR_T_REAL8: return "S2S_TYPE_REAL";
  case IR_T_LOGICAL: return "S2S_TYPE_LOGICAL";
  default: return "S2S_TYPE_INTEGER";
  }
}

/* The device accumulator of reduction r, set to its starting value: the
 * region's initial value (computed here, as the region would before its
 * loops) or the host's. */
static void emit_reduction_begin(Emit *e, const ReductionPlan *r)
{
  const char *n = r->sym->name, *t = ir_type_c(r->sym->type);
  int line = diag_user_line(r->updates[0]->loc);
  if (r->init) {
    out(e, "  %s = ", cname(r->sym));
    emit_expr(e, r->init->u.assign.rhs);
    out(e, "; /* %s:%d */\n", diag_user_file(r->init->loc), diag_user_line(r->init->loc));
  }
  out(e, "  %s *s2s_red_%s = (%s *)s2s_scratch_alloc(&s2s_region, %d, sizeof(%s));\n", t, n, t,
      line, t);
  out(e, "  s2s_check(cudaMemcpy(s2s_red_%s, &%s, sizeof(%s), cudaMemcpyHostToDevice), "
      "&s2s_region, %d, \"start of reduction(%s:%s)\");\n", n, cname(r->sym), t, line,
      xf_reduce_op_text(r->op), n);
}

/* After the last kernel that updates it: the result to the host scalar
 * (and to the kernels after, which are passed it by value). */
static void emit_reduction_end(Emit *e, const ReductionPlan *r)
{
  const char *n = r->sym->name, *t = ir_type_c(r->sym->type);
  int line = diag_user_line(r->updates[0]->loc);
  out(e, "  s2s_check(cudaMemcpy(&%s, s2s_red_%s, sizeof(%s), cudaMemcpyDeviceToHost), "
      "&s2s_region, %d, \"result of reduction(%s:%s)\");\n", cname(r->sym), n, t, line,
      xf_reduce_op_text(r->op), n);
  out(e, "  s2s_scratch_free(&s2s_region, %d, s2s_red_%s);\n", line, n);
  out(e, "  if (!s2s_compare_scalar(&s2s_region, %d, \"%s\", s2s_p_%s, &%s, sizeof(%s), %s))\n"
      "    *s2s_p_%s = %s;\n", line, n, n, cname(r->sym), t, rt_type(r->sym->type), n,
      cname(r->sym));
}

typedef struct ScalarArgs {
  IrLang lang;
  ParamList *params;
} ScalarArgs;

static void collect_scalars(IrExpr *x, IrStmt *in, void *ctx)
{
  ScalarArgs *sa = ctx;
  (void)in;
  if (x->kind == IR_E_VAR && x->u.var->kind != IR_SYM_PARAM)
    xf_launcher_add(sa->params, sa->lang, PARAM_SCALAR, x->u.var);
}

static void collect_assumed(IrExpr *x, IrStmt *in, void *ctx)
{
  (void)in;
  if (x->kind == IR_E_VAR)
    ir_symset_add(ctx, x->u.var);
}

/* The launcher stops before any data movement when a fact the
 * translation assumed (IrAssumption) does not hold, printing the values. */
static void emit_assumption_check(Emit *e, const IrAssumption *a)
{
  IrSymSet vars = { 0 };
  ir_walk_expr(a->nonneg, NULL, collect_assumed, &vars);
  out(e, "  s2s_assume(&s2s_region, %d, (long)(", diag_user_line(a->loc));
  emit_expr(e, a->nonneg);
  out(e, ") >= 0, \"%s\", \"%s\", \"", a->text, a->why);
  for (int i = 0; i < vars.n; i++)
    out(e, "%s%s = %%ld", i ? ", " : "", vars.syms[i]->name);
  out(e, "\"");
  for (int i = 0; i < vars.n; i++)
    out(e, ", (long)%s", cname(vars.syms[i]));
  out(e, ");\n");
}

static void emit_region(Emit *e, IrRegion *g)
{
  RegionPlan *p = g->analysis;
  if (!p->storage_planned)
    S2S_BUG("region %s reached the emitter without its storage plan", g->name);
  e->region = g;
  out(e, "/* ==== region %s: %s lines %d-%d", g->name, e->prog->path, g->first_line,
      g->last_line);
  if (g->variant)
    out(e, ", variant %d of %d: %s", g->variant->index, g->variant->count,
        xf_variant_text(g->variant));
  out(e, " ==== */\n\n");
  for (int i = 0; i < p->narrays; i++)
    if (p->arrays[i].storage == ARRAY_CONSTANT)
      emit_constant_array(e, &p->arrays[i]);
    else if (p->arrays[i].storage != ARRAY_DEVICE)
      emit_private_macro(e, &p->arrays[i]);
    else
      emit_index_macro(e, p->arrays[i].sym);
  out(e, "\n");
  for (int i = 0; i < p->nkernels; i++)
    emit_kernel(e, p, &p->kernels[i]);
  HostCall *c = new_call(e, HOST_CALL_REGION, g->routine, g->launcher);
  c->first_line = g->first_line;
  c->last_line = g->last_line;
  ParamList *launcher = &p->launcher;
  ScalarArgs scalars = { e->prog->lang, launcher };
  for (int i = 0; i < g->nassumptions; i++)
    ir_walk_expr(g->assumptions[i].nonneg, NULL, collect_scalars, &scalars);
  c->params = p->launcher;
  c->variant = g->variant;
  out(e, "extern \"C\" void %s(", g->launcher);
  emit_launcher_params(e, c);
  out(e, ")\n{\n");
  char *text;
  size_t len;
  FILE *real = body_begin(e, &text, &len);
  emit_region_static(e, g->name, g->routine, g->first_line);
  emit_scalar_locals(e, c);
  /* Host fallback returns here: the host pass after the call computes the region. */
  out(e, "  if (!s2s_compute_begin(&s2s_region)) return;\n");
  for (int i = 0; i < g->nassumptions; i++)
    emit_assumption_check(e, &g->assumptions[i]);
  for (int i = 0; i < p->narrays; i++) {
    const ArrayPlan *a = &p->arrays[i];
    if (a->storage == ARRAY_REGISTER || a->storage == ARRAY_THREAD_LOCAL)
      continue;
    if (a->storage == ARRAY_SCRATCH_SLICE) {   /* only its bounds, for the indexing */
      if (kernel_uses_private(p, a))           /* (a kernel it was fused away from: none) */
        emit_bounds(e, a->sym);
      continue;
    }
    if (a->storage == ARRAY_CONSTANT) {        /* the whole array, before any kernel runs */
      out(e, "  s2s_check(cudaMemcpyToSymbol(%s, %s, sizeof %s), &s2s_region, %d, \"copy of "
          "module array '%s' to constant memory\");\n", constant_name(e, a->sym), cname(a->sym),
          constant_name(e, a->sym), a->clause_line, a->sym->name);
      continue;
    }
    emit_descriptor(e, a->sym, a->box_lo, a->box_hi, !a->written);
    out(e, "  %s *d_%s = (%s *)s2s_data_begin(&s2s_region, %d, &s2s_%s, %s);\n", elem_ctype(a->sym),
        a->sym->name, elem_ctype(a->sym), a->clause_line, a->sym->name, rt_clause(a->clause));
  }
  for (int i = 0; i < p->nreductions; i++)
    if (p->reductions[i].gpu && p->reductions[i].kernel >= 0)
      emit_reduction_begin(e, &p->reductions[i]);
  for (int i = 0; i < p->nkernels; i++) {
    emit_launch(e, &p->kernels[i]);
    for (int r = 0; r < p->nreductions; r++)
      if (p->reductions[r].gpu && p->reductions[r].kernel == i)
        emit_reduction_end(e, &p->reductions[r]);
  }
  /* Autocompare: what the device wrote is kept for the host pass to compare with. */
  for (int i = 0; i < p->narrays; i++)
    if (p->arrays[i].storage == ARRAY_DEVICE && p->arrays[i].written)
      out(e, "  s2s_compare_array(&s2s_region, %d, &s2s_%s, d_%s, %s);\n",
          p->arrays[i].clause_line, p->arrays[i].sym->name, p->arrays[i].sym->name,
          rt_type(p->arrays[i].sym->type));
  for (int i = p->narrays - 1; i >= 0; i--)
    if (p->arrays[i].storage == ARRAY_DEVICE)
      out(e, "  s2s_data_end(&s2s_region, %d, &s2s_%s, %s);\n", p->arrays[i].clause_line,
          p->arrays[i].sym->name, rt_clause(p->arrays[i].clause));
  out(e, "  s2s_region_end(&s2s_region);\n");
  body_end(e, real, &text, &len);
  out(e, "}\n\n");
  for (int i = 0; i < p->narrays; i++)
    out(e, "#undef S2S_%s\n", p->arrays[i].sym->name);
  out(e, "\n");
}

/* ---- host data and update directives ------------------------------------------ */

typedef struct ItemBox {
  IrSym *sym;
  DirClauseKind clause;
  int line;
  IrExpr *lo[IR_MAX_RANK], *hi[IR_MAX_RANK];
} ItemBox;

/* Add to c the host arguments of item b: the array, and the scalars its
 * declared bounds and its box name. */
static void add_item_params(Emit *e, HostCall *c, const ItemBox *b)
{
  xf_launcher_add(&c->params, e->prog->lang, PARAM_ARRAY, b->sym);
  ScalarArgs sa = { e->prog->lang, &c->params };
  for (int dd = 0; dd < b->sym->rank; dd++) {
    ir_walk_expr(b->sym->lo[dd], NULL, collect_scalars, &sa);
    ir_walk_expr(b->sym->hi[dd], NULL, collect_scalars, &sa);
    ir_walk_expr(b->lo[dd], NULL, collect_scalars, &sa);
    ir_walk_expr(b->hi[dd], NULL, collect_scalars, &sa);
  }
}

/* The items of a data/update directive with their boxes; adds the host
 * arguments they need to c.  Returns the number of items, -1 on error. */
static int directive_items(Emit *e, IrRoutine *r, const Directive *d, HostCall *c, ItemBox **out_items)
{
  ItemBox *items = NULL;
  int n = 0;
  for (int k = 0; k < d->nclauses; k++)
    for (int i = 0; i < d->clauses[k].nitems; i++) {
      const DirItem *it = &d->clauses[k].items[i];
      IrSym *s = an_clause_array(r, it, d->clauses[k].kind);
      if (!s)
        return -1;
      ItemBox b = { s, d->clauses[k].kind, diag_user_line(it->loc), { 0 }, { 0 } };
      if (!an_item_box(r, s, it, e->prog->lang, b.lo, b.hi))
        return -1;
      add_item_params(e, c, &b);
      IR_PUSH(items, n, b);
    }
  *out_items = items;
  return n;
}

/* The named constants of a data or update function's bounds keep their
 * names: its descriptors are written to a buffer, then the constants they
 * used are declared (each after those its value uses) before them. */
static FILE *host_consts_begin(Emit *e, IrSymSet *used, char **text, size_t *len)
{
  FILE *buf = open_memstream(text, len);
  if (!buf)
    S2S_BUG("open_memstream failed");
  FILE *real = e->out;
  e->out = buf;
  *used = (IrSymSet){ 0 };
  e->host_consts = used;
  return real;
}

static void collect_named_consts(IrExpr *x, IrStmt *in, void *ctx)
{
  (void)in;
  if (x->kind == IR_E_VAR && x->u.var->kind == IR_SYM_PARAM && !x->u.var->rank)
    ir_symset_add(ctx, x->u.var);
}

static void declare_host_const(Emit *e, IrSym *k, IrSymSet *declared)
{
  if (!ir_symset_add(declared, k))
    return;
  IrSymSet needs = { 0 };
  ir_walk_expr(k->init, NULL, collect_named_consts, &needs);
  for (int i = 0; i < needs.n; i++)
    declare_host_const(e, needs.syms[i], declared);
  out(e, "  const %s %s = ", ir_type_c(k->type), cname(k));
  if (k->init->type != k->type)
    out(e, "(%s)", ir_type_c(k->type));
  emit_prec(e, k->init, k->init->type != k->type ? PREC_UNARY : PREC_TOP);
  out(e, ";\n");
}

static void host_consts_end(Emit *e, FILE *real, IrSymSet *used, char **text, size_t *len)
{
  fclose(e->out);
  e->out = real;
  IrSymSet declared = { 0 }, scratch = { 0 };
  e->host_consts = &scratch;   /* a value that uses another constant names it too */
  for (int i = 0; i < used->n; i++)
    declare_host_const(e, used->syms[i], &declared);
  e->host_consts = NULL;
  fwrite(*text, 1, *len, e->out);
  free(*text);
}

static void emit_host_function(Emit *e, HostCall *c, IrRoutine *r, int line)
{
  out(e, "extern \"C\" void %s(", c->function);
  emit_launcher_params(e, c);
  out(e, ")\n{\n");
  emit_region_static(e, c->function + 4, r, line);
  emit_scalar_locals(e, c);
  out(e, "  if (!s2s_region_begin(&s2s_region)) return; /* host fallback: nothing to move */\n");
}

/* The runtime call `call` for each item with its clause; the end of a data
 * region releases in the reverse order (the runtime relies on it). */
static void emit_data_calls(Emit *e, ItemBox *items, int n, const char *call, bool reverse)
{
  IrSymSet used;
  char *text;
  size_t len;
  FILE *real = host_consts_begin(e, &used, &text, &len);
  for (int k = 0; k < n; k++) {
    const ItemBox *it = &items[reverse ? n - 1 - k : k];
    emit_descriptor(e, it->sym, it->lo, it->hi, false);
    out(e, "  %s(&s2s_region, %d, &s2s_%s, %s);\n", call, it->line, it->sym->name,
        rt_clause(it->clause));
  }
  host_consts_end(e, real, &used, &text, &len);
}

/* The lines a paired directive's two calls replace: the directive's, and
 * its end directive's (Fortran) or the statement's last line (C). */
static void paired_lines(const IrHostDirective *h, HostCall *begin, HostCall *end)
{
  begin->first_line = h->first_line;
  begin->last_line = h->last_line;
  if (h->partner) {
    end->first_line = h->partner->first_line;
    end->last_line = h->partner->last_line;
  }
  end->stmt_last_line = h->stmt_last_line;
}

static void emit_data(Emit *e, IrRoutine *r, IrHostDirective *h)
{
  const char *base = ir_printf("s2s_%s_d%d", r->name, h->index);
  HostCall *begin = new_call(e, HOST_CALL_DATA_BEGIN, r, ir_printf("%s_begin", base));
  HostCall *end = new_call(e, HOST_CALL_DATA_END, r, ir_printf("%s_end", base));
  paired_lines(h, begin, end);
  ItemBox *items;
  int n = directive_items(e, r, h->dir, begin, &items);
  if (n < 0) {
    e->ok = false;
    return;
  }
  end->params = begin->params;
  out(e, "/* ==== data region: %s lines %d-%d ==== */\n", e->prog->path, h->first_line,
      h->partner ? h->partner->last_line : h->stmt_last_line);
  emit_host_function(e, begin, r, h->first_line);
  emit_data_calls(e, items, n, "s2s_data_begin", false);
  out(e, "  s2s_region_end(&s2s_region);\n}\n\n");
  emit_host_function(e, end, r, h->partner ? h->partner->first_line : h->stmt_last_line);
  emit_data_calls(e, items, n, "s2s_data_end", true);
  out(e, "  s2s_region_end(&s2s_region);\n}\n\n");
}

/* The runtime call of one item of an update, enter data or exit data.
 * async: the host need not wait for a copy to the host (a `wait` directive
 * does); a staged copy to the device returns once queued anyway.  enter
 * and exit data add or drop dynamic references (s2s_enter_data,
 * s2s_exit_data): the arrays stay present from one to the other, across
 * routines and files, for the regions, data regions and updates between. */
static void emit_item_call(Emit *e, const Directive *d, const ItemBox *it)
{
  if (d->kind == DIR_ENTER_DATA)
    out(e, "  s2s_enter_data(&s2s_region, %d, &s2s_%s, %s);\n", it->line, it->sym->name,
        rt_clause(it->clause));
  else if (d->kind == DIR_EXIT_DATA)
    out(e, "  s2s_exit_data(&s2s_region, %d, &s2s_%s, %s, %d);\n", it->line, it->sym->name,
        rt_clause(it->clause), d->finalize ? 1 : 0);
  else
    out(e, "  %s(&s2s_region, %d, &s2s_%s);\n",
        it->clause == DIR_UPDATE_HOST ? (d->async ? "s2s_update_host_async" : "s2s_update_host")
                                      : "s2s_update_device",
        it->line, it->sym->name);
}

/* `update`, `enter data`, `exit data`: one host function each, called in
 * place of the directive, one runtime call per array item. */
static void emit_item_directive(Emit *e, IrRoutine *r, IrHostDirective *h)
{
  char tag = h->dir->kind == DIR_ENTER_DATA ? 'e' : h->dir->kind == DIR_EXIT_DATA ? 'x' : 'u';
  HostCall *c = new_call(e, HOST_CALL_UPDATE, r, ir_printf("s2s_%s_%c%d", r->name, tag, h->index));
  c->first_line = h->first_line;
  c->last_line = h->last_line;
  ItemBox *items;
  int n = directive_items(e, r, h->dir, c, &items);
  if (n < 0) {
    e->ok = false;
    return;
  }
  out(e, "/* ==== %s: %s line %d ==== */\n", dir_kind_name(h->dir->kind), e->prog->path,
      h->first_line);
  emit_host_function(e, c, r, h->first_line);
  IrSymSet used;
  char *text;
  size_t len;
  FILE *real = host_consts_begin(e, &used, &text, &len);
  for (int i = 0; i < n; i++) {
    emit_descriptor(e, items[i].sym, items[i].lo, items[i].hi, false);
    emit_item_call(e, h->dir, &items[i]);
  }
  host_consts_end(e, real, &used, &text, &len);
  out(e, "  s2s_region_end(&s2s_region);\n}\n\n");
}

/* `host_data use_device(list)`: a function that returns in its last
 * argument the device address of each array (its element at the declared
 * lower bounds), as the present table maps it; the host file then names
 * the arrays by those addresses up to the construct's end.  Under host
 * fallback (no GPU) the addresses are the host's.  The box looked up is
 * the whole array, or its first element when its size is unknown (an
 * assumed-size dummy, a C pointer): the runtime wants one present copy to
 * hold some of it. */
static void emit_host_data(Emit *e, IrRoutine *r, IrHostDirective *h)
{
  HostCall *c = new_call(e, HOST_CALL_HOST_DATA, r, ir_printf("s2s_%s_h%d", r->name, h->index));
  HostCall *end = new_call(e, HOST_CALL_HOST_DATA_END, r, ir_printf("%s_end", c->function));
  paired_lines(h, c, end);
  ItemBox *items = NULL;
  int n = 0;
  for (int k = 0; k < h->dir->nclauses; k++)
    for (int i = 0; i < h->dir->clauses[k].nitems; i++) {
      const DirItem *it = &h->dir->clauses[k].items[i];
      IrSym *s = an_clause_array(r, it, DIR_USE_DEVICE);
      if (!s) {
        e->ok = false;
        return;
      }
      if (s->type != IR_T_INT && s->type != IR_T_INT8 && s->type != IR_T_REAL4 &&
          s->type != IR_T_REAL8) {
        diag_at(DIAG_ERROR, it->loc, (int)strlen(it->name), "use_device(%s): only arrays of "
                "integers and reals are supported, not %s", it->name, ir_type_name(s->type));
        e->ok = false;
        return;
      }
      if (s->member_base) {
        diag_at(DIAG_ERROR, it->loc, (int)strlen(it->name), "use_device(%s): a struct member "
                "cannot stand for its device copy; copy the pointer into a local first", it->name);
        e->ok = false;
        return;
      }
      ItemBox b = { s, DIR_USE_DEVICE, diag_user_line(it->loc), { 0 }, { 0 } };
      for (int d = 0; d < s->rank; d++) {
        b.lo[d] = s->lo[d];
        b.hi[d] = s->hi[d] ? s->hi[d] : s->lo[d];
      }
      add_item_params(e, c, &b);
      IR_PUSH(items, n, b);
      IR_PUSH(c->device, c->ndevice, s);
    }
  end->device = c->device;
  end->ndevice = c->ndevice;
  end->params = c->params;
  out(e, "/* ==== host_data: %s line %d ==== */\n", e->prog->path, h->first_line);
  out(e, "extern \"C\" void %s(", c->function);
  emit_launcher_params(e, c);
  out(e, ", void **s2s_device)\n{\n");
  emit_region_static(e, c->function + 4, r, h->first_line);
  emit_scalar_locals(e, c);
  for (int i = 0; i < n; i++)
    out(e, "  s2s_device[%d] = (void *)%s;\n", i, cname(items[i].sym));
  out(e, "  if (!s2s_region_begin(&s2s_region)) return; /* host fallback: the host's arrays */\n");
  IrSymSet used;
  char *text;
  size_t len;
  FILE *real = host_consts_begin(e, &used, &text, &len);
  for (int i = 0; i < n; i++) {
    emit_descriptor(e, items[i].sym, items[i].lo, items[i].hi, false);
    out(e, "  s2s_device[%d] = s2s_use_device(&s2s_region, %d, &s2s_%s, %d);\n", i, items[i].line,
        items[i].sym->name, h->dir->if_present ? 1 : 0);
  }
  host_consts_end(e, real, &used, &text, &len);
  out(e, "  s2s_region_end(&s2s_region);\n}\n\n");
  int end_line = h->partner ? h->partner->first_line : h->stmt_last_line;
  emit_host_function(e, end, r, end_line);
  real = host_consts_begin(e, &used, &text, &len);
  for (int i = 0; i < n; i++) {
    emit_descriptor(e, items[i].sym, items[i].lo, items[i].hi, false);
    out(e, "  s2s_host_data_end(&s2s_region, %d, &s2s_%s);\n", end_line, items[i].sym->name);
  }
  host_consts_end(e, real, &used, &text, &len);
  out(e, "  s2s_region_end(&s2s_region);\n}\n\n");
}

/* `wait`: the thread's asynchronous updates are done (the kernels queued
 * after them need not be). */
static void emit_wait(Emit *e, IrRoutine *r, IrHostDirective *h)
{
  HostCall *c = new_call(e, HOST_CALL_UPDATE, r, ir_printf("s2s_%s_w%d", r->name, h->index));
  c->first_line = h->first_line;
  c->last_line = h->last_line;
  out(e, "/* ==== wait: %s line %d ==== */\n", e->prog->path, h->first_line);
  emit_host_function(e, c, r, h->first_line);
  out(e, "  s2s_wait_updates(&s2s_region, %d);\n", h->first_line);
  out(e, "  s2s_region_end(&s2s_region);\n}\n\n");
}

static void emit_host_directives(Emit *e, IrRoutine *r)
{
  for (int i = 0; i < r->nhost_dirs; i++) {
    IrHostDirective *h = r->host_dirs[i];
    if (h->dir->kind == DIR_DATA)
      emit_data(e, r, h);
    else if (h->dir->kind == DIR_UPDATE || h->dir->kind == DIR_ENTER_DATA ||
             h->dir->kind == DIR_EXIT_DATA)
      emit_item_directive(e, r, h);
    else if (h->dir->kind == DIR_WAIT)
      emit_wait(e, r, h);
    else if (h->dir->kind == DIR_HOST_DATA)
      emit_host_data(e, r, h);
  }
}

bool emit_cuda(Program *p, FILE *f, HostCalls *calls)
{
  return emit_cuda_with(p, f, calls, NULL);
}

bool emit_cuda_with(Program *p, FILE *f, HostCalls *calls, const EmitCudaConfig *cfg)
{
  static const EmitCudaConfig ieee = { 0 };
  Emit e = { .prog = p, .out = f, .calls = calls, .ok = true, .cfg = cfg ? cfg : &ieee };
  out(&e, "/* Generated by s2s-cuda from %s; edit the source and translate again rather than\n"
          " * editing this file.  Builds with nvcc for a GPU, or with g++ -DS2S_EMULATE for the\n"
          " * CPU emulation.  Kernels are templates over their index type s2s_idx: each\n"
          " * launch runs the int instance when every offset fits in 32 bits (s2s_index32),\n"
          " * the long one otherwise.", p->path);
  if (e.cfg->strict_fp)
    out(&e, "\n *\n * Strict IEEE floating point (-Kieee): products are __fmul_rn/__dmul_rn, which\n"
            " * nvcc never contracts into FMAs; compile without --use_fast_math, --prec-div=false,\n"
            " * --prec-sqrt=false and --ftz=true (s2s-cuda's driver passes --fmad=false\n"
            " * --prec-div=true --prec-sqrt=true --ftz=false).");
  out(&e, " */\n#include \"s2s_rt.h\"\n\n");
  emit_device_functions(&e);
  for (int r = 0; r < p->nroutines; r++) {
    IrRoutine *rt = p->routines[r];
    for (int i = 0; i < rt->nregions; i++)
      emit_region(&e, rt->regions[i]);
    emit_host_directives(&e, rt);
  }
  return e.ok;
}
