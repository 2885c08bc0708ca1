/* ir.h — the loop IR shared by both front ends, the analyses and the emitters.
 *
 * One structured IR for Fortran and C: a Program holds routines; a routine
 * holds its symbols and the regions found in it; a region holds the
 * statements the user offloads.  Only what is inside a region is lowered
 * into statements; host code outside regions is kept as text by the host
 * emitter, which replaces each region's source lines by a launcher call.
 *
 * Conventions every pass relies on:
 *   - Array dimensions and subscripts are listed FASTEST-VARYING FIRST
 *     (Fortran order).  The C front end reverses `a[i][j][k]` into
 *     subscripts (k, j, i) so analyses and the CUDA emitter see one layout.
 *   - Every dimension has an explicit lower bound expression (C: 0).
 *   - Names are lower-cased for Fortran, kept as written for C.
 *   - Every node carries the location of its first token in the parsed text.
 *
 * Memory: all IR nodes live in one arena per translation unit (ir_alloc);
 * ir_arena_free() releases everything at once.  Nothing in the IR is freed
 * individually.
 */
#ifndef S2S_IR_H
#define S2S_IR_H

#include <stdbool.h>
#include <stddef.h>
#include "diag.h"

/* uthash tables of the IR live in the arena too. */
void *ir_alloc(size_t n);
#define uthash_malloc(sz) ir_alloc(sz)
#define uthash_free(ptr, sz) ((void)(ptr), (void)(sz))
#include <uthash.h>
#include "directive.h"

#define IR_MAX_RANK 7

typedef struct IrExpr IrExpr;
typedef struct IrStmt IrStmt;
typedef struct IrSym IrSym;

/* Scalar types.  Fortran default REAL/INTEGER/LOGICAL are 4 bytes; LOGICAL
 * is carried as a 4-byte int on the device (gfortran stores .true. as 1). */
typedef enum IrType {
  IR_T_VOID, IR_T_LOGICAL, IR_T_INT, IR_T_INT8, IR_T_REAL4, IR_T_REAL8
} IrType;

typedef enum IrLang { IR_FORTRAN, IR_C } IrLang;

/* ---- symbols ---------------------------------------------------------- */

typedef enum IrSymKind {
  IR_SYM_VAR,        /* variable or dummy argument */
  IR_SYM_PARAM,      /* named constant: Fortran PARAMETER, C const-qualified
                        scalar with a constant initializer; `init` holds the value */
} IrSymKind;

typedef enum IrIntent { IR_INTENT_NONE, IR_INTENT_IN, IR_INTENT_OUT, IR_INTENT_INOUT } IrIntent;

struct IrSym {
  char *name;
  IrSymKind kind;
  IrType type;
  int rank;                     /* 0: scalar */
  IrExpr *lo[IR_MAX_RANK];      /* declared lower bound of each dimension, fastest first */
  IrExpr *hi[IR_MAX_RANK];      /* declared upper bound; NULL: assumed size / unknown (C pointer) */
  IrExpr *init;                 /* IR_SYM_PARAM: the value */
  IrIntent intent;
  bool is_dummy;                /* a dummy argument (Fortran) or parameter (C) */
  bool is_module;               /* declared in a module's specification part */
  bool is_pointer;              /* C: declared as a pointer (`double *a`), rank 1 */
  bool region_local;            /* C: declared inside a region; exists only in the kernel */
  bool is_optional;             /* Fortran OPTIONAL dummy argument */
  bool is_saved;                /* Fortran SAVE, DATA or an initializer: keeps its value
                                   from one call to the next */
  bool inlined_local;           /* a local of an inlined routine, or a loop index or
                                   temporary of pass "normalize": no host variable exists */
  bool is_restrict;             /* C: a `restrict` pointer or array parameter, which the
                                   user promises overlaps no other; Fortran dummies are
                                   treated so by the language rules */
  bool by_value;                /* C scalar parameter: passed by value */
  bool delinearized;            /* C: a flat array whose linearized subscripts pass
                                   "delinearize" rewrote per dimension (analysis/
                                   delinearize.h); the user indexes it flat */
  const char *delinearize_why;  /* C: why its linearized subscripts were left flat, or NULL */
  /* C: the name as the user spells it where `name` differs (a region local
   * renamed `j_2` for `j`; a struct member `s->u` given the name `s_u`);
   * messages print it (ir_sym_user_name), kernels print `name`. */
  const char *source_name;
  /* C: a member of a struct that a region reaches (`s->u`, `s.w`, `s->nx`):
   * the struct variable or pointer as written (`s`), else NULL.  The host
   * passes source_name (evaluated where the region starts) for it. */
  const char *member_base;
  bool member_array;            /* ... a member declared as an array (`w[NZ][NY][NX]`): the
                                   array members of one struct never overlap */
  /* What the Fortran specification part does with the name besides
   * declaring it (the front end's reading of it; see also
   * IrRoutine.saves_all).  Each lets a local's values outlive the call or
   * alias them, so its values are the host's too. */
  bool in_common;               /* named in a COMMON block */
  bool in_equivalence;          /* named in an EQUIVALENCE set */
  bool device_by_ref;           /* a dummy of a subroutine made a __device__ function that
                                   its body assigns: passed by pointer (transforms/inline.c) */
  bool device_returned;         /* ... and a call in a region takes its value after the
                                   subroutine ran (IrExpr.u.call.result_of) */
  bool in_data;                 /* given values by a DATA statement */
  bool save_named;              /* SAVE attribute, or named in a SAVE statement */
  bool has_initializer;         /* declared with `= value` (not a PARAMETER) */
  int dummy_index;              /* position in the argument list, -1 if not a dummy */
  /* A hidden integer scalar standing for a bound known only at run time
   * (allocatable and assumed-shape arrays): the host passes
   * lbound/ubound(bound_of, bound_dim+1) for it. */
  IrSym *bound_of;
  int bound_dim;
  bool bound_is_upper;
  /* Declared with a kind, a bound or a value that names something of a
   * module that was not found (the front end's IrMissingUse): unusable,
   * and a region that names it is blamed on that USE, not on the name. */
  struct IrMissingUse *from_missing;
  /* Declared with a type no kernel can hold (CHARACTER, COMPLEX, TYPE(...)):
   * the type as written, for the error where a region uses it; else NULL. */
  const char *unsupported_type;
  Loc loc;                      /* of the declaration */
  UT_hash_handle hh;            /* in IrRoutine.symbols or IrModule.symbols, keyed by name */
};

/* ---- expressions -------------------------------------------------------- */

typedef enum IrExprKind {
  IR_E_INT,          /* integer literal: u.ival */
  IR_E_REAL,         /* real literal: u.real (text as C wants it, without suffix) */
  IR_E_LOGICAL,      /* .true./.false.: u.ival 1/0 */
  IR_E_VAR,          /* scalar variable or named constant: u.var */
  IR_E_ELEM,         /* array element: u.elem (subscripts fastest first) */
  IR_E_UNARY,        /* u.unary */
  IR_E_BINARY,       /* u.binary */
  IR_E_CALL,         /* intrinsic call: u.call */
  IR_E_COND,         /* C conditional `c ? a : b`: u.cond */
  IR_E_CONVERT,      /* type conversion to `type` (Fortran REAL(), INT(); C casts;
                        mixed-mode promotion made explicit): u.operand */
  IR_E_SECTION,      /* Fortran array syntax: an array section `a(its:ite,k)` or a whole
                        array `a` in an expression or on the left of `=`: u.section.
                        Only between the front end and pass "normalize"
                        (transforms/normalize.c), which expands it into loops */
} IrExprKind;

typedef enum IrOp {
  IR_OP_ADD, IR_OP_SUB, IR_OP_MUL, IR_OP_DIV, IR_OP_POW,
  IR_OP_NEG, IR_OP_NOT,
  IR_OP_AND, IR_OP_OR, IR_OP_EQV, IR_OP_NEQV,
  IR_OP_LT, IR_OP_LE, IR_OP_GT, IR_OP_GE, IR_OP_EQ, IR_OP_NE,
  IR_OP_MOD_C,       /* C `%` on integers (truncating, same as Fortran MOD) */
} IrOp;

/* Intrinsic functions of both languages, with Fortran semantics.  C's
 * fmin/fmax/fabs/sqrt/exp/log/pow map onto these. */
typedef enum IrIntrinsic {
  IR_FN_MIN, IR_FN_MAX, IR_FN_ABS, IR_FN_SQRT, IR_FN_EXP, IR_FN_LOG, IR_FN_LOG10,
  IR_FN_SIN, IR_FN_COS, IR_FN_TAN, IR_FN_ATAN, IR_FN_TANH,
  IR_FN_SIGN, IR_FN_MOD,
  IR_FN_NINT,        /* round half away from zero, to integer */
  IR_FN_FLOOR, IR_FN_CEILING,
  IR_FN_POW,         /* C pow()/powf(): real ** real */
  IR_FN_PRESENT,     /* Fortran PRESENT(optional dummy): folded by the inliner */
  IR_FN_USER,        /* a function of the program, u.call.name: expanded by the inliner
                        (transforms/inline.c) before any analysis, like IR_S_CALL, or
                        kept as a call of a __device__ function (u.call.device_fn) */
  /* Reductions over an array-valued args[0] (IR_E_SECTION in it), with an
   * optional logical mask args[1] (maxval, minval, sum, product, maxloc,
   * minloc; n is then 2): scalar results, replaced by loops and a
   * temporary in pass "normalize" like the array syntax they read.
   * MAXLOC/MINLOC: the 1-based position in the section of the first
   * extreme element, 0 when none is selected (rank-1 sections, DIM=1). */
  IR_FN_MAXVAL, IR_FN_MINVAL, IR_FN_SUM, IR_FN_PRODUCT,
  IR_FN_ANY, IR_FN_ALL, IR_FN_COUNT,   /* args[0]: the logical array */
  IR_FN_MAXLOC, IR_FN_MINLOC,
} IrIntrinsic;

/* One subscript of an IR_E_SECTION: a scalar subscript (is_range false,
 * lo only) or a triplet lo:hi[:stride] (stride NULL: 1).  A bound the
 * user left out is the declared one; hi NULL: none is declared (assumed
 * size). */
typedef struct IrTriplet {
  bool is_range;
  struct IrExpr *lo, *hi, *stride;
} IrTriplet;

struct IrExpr {
  IrExprKind kind;
  IrType type;                  /* result type, set by the front end */
  Loc loc;
  union {
    long ival;
    const char *real;
    IrSym *var;
    struct { IrSym *sym; int n; IrExpr *sub[IR_MAX_RANK]; } elem;
    struct { IrOp op; IrExpr *arg; } unary;
    struct { IrOp op; IrExpr *lhs, *rhs; } binary;
    struct {
      IrIntrinsic fn;
      int n;
      IrExpr **args;
      const char *name;              /* IR_FN_USER: the function's name */
      /* IR_FN_USER that the inliner kept: the call of this __device__ function
       * (IrRoutine.device_why), a pure function of its arguments, passed by
       * value; NULL before inlining and for every other call */
      struct IrRoutine *device_fn;
      /* device_fn a subroutine: the call stands for the value that this
       * dummy of it (IrSym.device_by_ref) has after the subroutine ran, and
       * args are the dummies it reads on entry (all but the INTENT(OUT)
       * ones it assigns); NULL for a function's result */
      struct IrSym *result_of;
    } call;
    struct { IrExpr *test, *then, *els; } cond;
    IrExpr *operand;
    struct { IrSym *sym; int n; IrTriplet *dim; /* n == sym->rank */ } section;
  } u;
};

/* ---- statements ------------------------------------------------------- */

typedef struct IrStmtList {
  int n, cap;
  IrStmt **v;
} IrStmtList;

typedef enum IrStmtKind {
  IR_S_ASSIGN,       /* u.assign; lhs is IR_E_VAR or IR_E_ELEM */
  IR_S_DO,           /* u.loop: counted loop, Fortran DO semantics (trip count
                        fixed at entry: max(0, (hi-lo+step)/step)) */
  IR_S_IF,           /* u.cond: ELSE IF chains nest in els */
  IR_S_CYCLE,        /* u.jump: next iteration of the innermost loop (C continue), or of
                        the loop that u.jump.name names */
  IR_S_EXIT,         /* u.jump: leave the innermost loop (C break), or the loop or block
                        that u.jump.name names */
  IR_S_CALL,         /* u.call: a subroutine of this file, inlined by transforms/inline.c
                        before any analysis (no other pass ever sees one); only the
                        body of a __device__ function keeps one (u.call.device_fn) */
  IR_S_WHILE,        /* u.loop (test, body, name): a loop without an index, run
                        sequentially in a thread and never spread over the grid: Fortran
                        DO WHILE (test before each iteration), `do ... end do` and the
                        loops that backward GOTOs form (test NULL: until an EXIT) */
  IR_S_BLOCK,        /* u.loop (body, name): the body, run once; an EXIT naming it goes
                        to the statement after it (forward GOTOs, an early RETURN of an
                        inlined routine; Fortran 2008's EXIT from a BLOCK construct) */
  IR_S_WHERE,        /* u.cond: Fortran WHERE (test: the array mask) with its ELSEWHERE
                        part in els; a masked ELSEWHERE is a WHERE alone in els.  Only
                        before pass "normalize", which expands it into loops */
} IrStmtKind;

/* Control flow is structured: a jump is an EXIT or CYCLE whose target is a
 * statement around it.  Its target is the innermost IR_S_DO or IR_S_WHILE
 * around it when u.jump.name is NULL (an unnamed jump never targets a
 * block), else the innermost IR_S_DO, IR_S_WHILE or IR_S_BLOCK around it
 * whose u.loop.name is that name (CYCLE: never a block).  Names are found
 * lexically, so a body copied twice (inlining) keeps its meaning; names the
 * front end makes up (GOTO labels such as "100", "(return)") cannot be
 * spelled in Fortran, so they never capture a user's EXIT.  visit.h has the
 * queries (ir_jump_leaving). */
#define IR_RETURN_NAME "(return)"   /* the block an inlined routine's early RETURN leaves */

/* An actual argument written as an array section, `a(its:ite, k)` or
 * `a(:, k)`: the call's args[i] is then the element where the section
 * starts, a(its, k), and hi[d] the upper bound of each dimension given as a
 * range (NULL: a plain subscript).  Stride 1 only. */
typedef struct IrSection {
  IrExpr *hi[IR_MAX_RANK];
} IrSection;

/* Read u.X only where kind says so: IR_S_DO, IR_S_WHILE, IR_S_BLOCK->loop
 * IR_S_IF, IR_S_WHERE->cond  IR_S_ASSIGN->assign  IR_S_CYCLE, IR_S_EXIT->jump  IR_S_CALL->call */
struct IrStmt {
  IrStmtKind kind;
  Loc loc;
  union {
    struct {
      IrSym *iv;                /* IR_S_DO only (NULL in the others) */
      IrExpr *lo, *hi, *step;   /* IR_S_DO only; step NULL means 1 */
      IrStmtList body;
      Directive *advice;        /* a `do` directive right before the loop, or NULL */
      Loc end_loc;
      IrExpr *test;             /* IR_S_WHILE: run the body while it holds (NULL: no test) */
      const char *name;         /* construct name that EXIT and CYCLE may give, or NULL */
    } loop;
    struct { const char *name; } jump;  /* the target's name, or NULL: the innermost loop */
    struct { IrExpr *test; IrStmtList then, els; } cond;
    struct { IrExpr *lhs, *rhs; } assign;
    struct {
      const char *name;
      int nargs;
      IrExpr **args;        /* whole-array actuals are IR_E_VAR of an array */
      const char **keywords;/* keywords[i]: the `name=` of args[i], or NULL (positional) */
      struct IrSection **sections; /* sections[i]: args[i] is an array section (NULL: it is
                                      not; the array NULL: no actual is) */
      struct IrRoutine *device_fn; /* in a __device__ function's body: the subroutine
                                      called, one too; NULL everywhere else */
    } call;
  } u;
};

/* ---- regions, routines, program ----------------------------------------- */

/* Host-side directive that is not a region: data, end data, update. */
typedef struct IrHostDirective {
  Directive *dir;
  int first_line, last_line;    /* user-file lines the directive occupies */
  int stmt_last_line;           /* C `data`: last line of the statement the pragma
                                   applies to (the end call goes after it); 0 otherwise */
  int index;                    /* 1-based among the routine's data directives */
  struct IrHostDirective *partner; /* data <-> end data */
} IrHostDirective;

/* One kernel variant of a region whose body tests present() of optional
 * dummies of its own routine (transforms/present.c): the body with every
 * such test decided.  The host tests presence and launches the variant
 * that matches. */
typedef struct IrVariant {
  int index;                    /* 1-based among the region's variants */
  int count;                    /* how many variants the region has: 2^ntested */
  int ntested;
  IrSym **tested;               /* the optional dummies whose presence is tested */
  bool *present;                /* present[i]: tested[i] is present in this variant */
} IrVariant;

/* A fact the translation relies on that only the run can show: an affine
 * form of the routine's scalars (none of which the region or the host code
 * assigns) that must be >= 0, e.g. its - ims when a helper called with
 * p(its,k) reaches p(ite,k) of p(ims:ime,...).  The launcher checks each
 * before any data movement and stops when one fails. */
typedef struct IrAssumption {
  IrExpr *nonneg;               /* must be >= 0 */
  Loc loc;                      /* the actual whose reach needs it */
  const char *text;             /* `its >= ims` */
  const char *why;              /* `dimension 1 of 'p' inside its declared bounds` */
} IrAssumption;

typedef struct IrRegion {
  char *name;                   /* <routine>_r<N>, also the kernel name prefix;
                                   <routine>_r<N>_v<M> for a variant */
  char *launcher;               /* s2s_<routine>_r<N> */
  int index;                    /* 1-based within the routine */
  Directive *dir;               /* the region directive with its clauses */
  int first_line, last_line;    /* user-file lines replaced on the host side: from the
                                   region directive through `end region` (Fortran) or
                                   the end of the statement it applies to (C) */
  IrStmtList body;
  struct IrRoutine *routine;
  void *analysis;               /* RegionPlan (analysis/plan.h), owned by the arena */
  int nassumptions, assumptions_cap;
  IrAssumption *assumptions;    /* checked by the launcher (inline.c adds them) */
  int report_start;             /* report_count() when its planning began (pipeline.c): a
                                   pass that plans it again drops the lines from there */
  const IrVariant *variant;     /* NULL, or which variant of its region this is: the
                                   variants of a region follow one another in
                                   IrRoutine.regions and share its lines */
} IrRegion;

/* Where the host code of a routine mentions a name, as its front end's
 * host scan saw it: identifier nodes of the executable part (every region
 * of the routine included: for one region, the others are host code too),
 * so comments, strings and directive lines never count.  Queries: access.h
 * (an_host_use). */
typedef struct IrHostUse {
  int line;                     /* user-file line */
  bool assigns;                 /* the mention gives the name a value: `name = ...`, a DO
                                   variable, C `name = ...` or `int name = ...` */
} IrHostUse;

/* A loop of the host code (DO, DO WHILE; C for, while, do), as the host
 * scan saw it: the advice pass looks for regions run at every iteration. */
typedef struct IrHostLoop {
  int first_line, last_line;
} IrHostLoop;

typedef struct IrHostUses {
  const char *name;             /* as the IR spells it (Fortran: lower case) */
  int n, cap;
  IrHostUse *v;                 /* in source order */
  UT_hash_handle hh;            /* in IrRoutine.host_uses */
} IrHostUses;

/* A name that a USE with an ONLY list or a rename makes visible in a
 * routine or module: `use m, only: kp => kind_phys` gives `kp` for m's
 * symbol kind_phys (the same IrSym: identity is what the analyses
 * compare).  A module procedure named so is a call's target instead. */
typedef struct IrUseName {
  const char *name;             /* as the using scope spells it (lower case) */
  IrSym *sym;                   /* the module's variable or constant, or NULL */
  const char *routine;          /* else the module procedure's own name */
  UT_hash_handle hh;            /* in IrRoutine.use_names or IrModule.use_names */
} IrUseName;

/* A USE of a module that was not found (fe_fortran.c): reported once, at
 * the USE, when a region first needs a name it may provide. */
typedef struct IrMissingUse {
  const char *module;
  Loc loc;                      /* of the module's name in the USE statement */
  int width;
  int nonly;                    /* ONLY list: the names it would give (local names), */
  const char **only;            /* or nonly < 0: no ONLY list, any name may come from it */
  const char *why;              /* found but unusable (why, for the message), or NULL */
  bool reported;
} IrMissingUse;

/* The error for missing module use m, the first time that `needer` (the
 * region, the data region) needs a name it may provide (`name`), or a name
 * whose declaration needs one (`declared`); later calls say nothing. */
void diag_missing_use(IrMissingUse *m, const char *needer, const char *name, bool declared);

/* Is dummy d of a subroutine made a __device__ function read on entry, so
 * that a kernel's reference to one of its results passes it (all but the
 * INTENT(OUT) dummies it assigns)?  IrExpr.u.call.result_of. */
bool ir_device_entry_arg(const IrSym *d);

typedef struct IrModule {
  char *name;
  IrSym *symbols;               /* uthash by name */
  /* What the module's own USE statements make visible to it and, by use
   * association, to whoever uses it: whole modules (transitively), and the
   * names of ONLY lists. */
  int nuses;
  struct IrModule **uses;
  IrUseName *use_names;
  int nmissing;
  IrMissingUse **missing;
  const char *loaded_from;      /* read from a summary of another file (its path), or NULL */
} IrModule;

typedef struct IrRoutine {
  char *name;
  Loc loc;
  bool is_function;
  IrSym *result;                /* functions: the result variable (the function's name, or
                                   the name RESULT gives), among symbols */
  IrModule *module;             /* enclosing module, or NULL */
  int nuses;
  IrModule **uses;              /* modules named in USE statements without an ONLY list
                                   (of this file or loaded from a summary), and those
                                   they use in turn */
  IrUseName *use_names;         /* uthash: names of ONLY lists and renames */
  int nmissing_uses;
  IrMissingUse **missing_uses;  /* USEs of modules that were not found */
  int unresolved_use_line;      /* the first of them (0: none) */
  const char *defined_elsewhere;/* a routine of another file, read from a summary (its
                                   path) for inlining: never emitted nor translated */
  IrSym *symbols;               /* uthash by name: dummies and locals */
  struct IrNameSeq *name_seq;   /* ir_new_local: per name, the last suffix given */
  int ndummies;
  IrSym **dummies;              /* in argument order */
  int nregions;
  IrRegion **regions;
  int nhost_dirs;
  IrHostDirective **host_dirs;
  /* host-file edit points */
  int spec_end_line;            /* Fortran: last line of the specification part
                                   (interfaces are inserted after it);
                                   C: line of the function definition's start
                                   (prototypes are inserted before it) */
  int first_line, last_line;    /* of the whole routine */
  int body_start_line;          /* first line of the executable part */
  bool implicit_none;
  bool saves_all;               /* Fortran: a SAVE statement without a list */
  IrHostUses *host_uses;        /* uthash by name (front end's host scan) */
  int nhost_loops, host_loops_cap;
  IrHostLoop *host_loops;       /* loops of the executable part, regions' own included, in
                                   source order of their first line (front end's host scan) */
  bool body_lowered;            /* `body` holds the executable part (routines that regions
                                   call, for inlining) */
  IrStmtList body;
  /* A function that a region calls but that cannot be inlined (recursive,
   * or its loops would nest too deep), kept as a __device__ function of the
   * generated file (transforms/inline.c): why, for the report ("recursive:
   * cannot be inlined").  NULL: it is not one.  Its body's function calls
   * are all IR_FN_USER with device_fn set. */
  const char *device_why;
  void *frontend_private;       /* the front end's own data (statement functions) */
} IrRoutine;

typedef struct Program {
  IrLang lang;
  int file;                     /* diag source index */
  const char *path;             /* user's file */
  int nroutines;
  IrRoutine **routines;
  int nmodules;
  IrModule **modules;           /* this file's, then those loaded from summaries */
} Program;

/* ---- construction ------------------------------------------------------- */

void *ir_alloc(size_t n);                  /* zeroed, lives until ir_arena_free */
char *ir_strdup(const char *s);
char *ir_strndup(const char *s, size_t n);
char *ir_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2))); /* arena string */
void ir_arena_free(void);
/* Have ir_arena_free call fn(p) (for things allocated outside the arena,
 * such as parsed directives). */
void ir_arena_on_free(void (*fn)(void *), void *p);

void ir_list_push(IrStmtList *l, IrStmt *s);
/* Append x to an arena array `arr` of n elements (arrays of routines,
 * regions, symbols...; short, so copying on growth is fine). */
void *ir_grow(const void *old, size_t elem, int n);
#define IR_PUSH(arr, n, x) \
  do { (arr) = ir_grow((arr), sizeof *(arr), (n)); (arr)[(n)++] = (x); } while (0)

/* Room for element n of an arena array that may grow long: doubles *cap
 * when n reaches it (amortized O(1) per element, where IR_PUSH copies the
 * whole array every time).  Returns the array, moved or not. */
void *ir_reserve(void *old, size_t elem, int n, int *cap);
#define IR_APPEND(arr, n, cap, x) \
  do { (arr) = ir_reserve((arr), sizeof *(arr), (n), &(cap)); (arr)[(n)++] = (x); } while (0)

IrExpr *ir_expr_new(IrExprKind kind, IrType type, Loc loc);
IrExpr *ir_int(long v, Loc loc);
IrExpr *ir_var(IrSym *s, Loc loc);
IrExpr *ir_binary(IrOp op, IrExpr *a, IrExpr *b, Loc loc); /* type from operands */
IrExpr *ir_convert(IrExpr *e, IrType to);   /* returns e when already of type `to` */
IrStmt *ir_stmt(IrStmtKind kind, Loc loc);

IrSym *ir_lookup(const IrRoutine *r, const char *name); /* routine, its module, ONLY and
                                                           renamed names, used modules */

/* A new scalar of routine r that no host variable backs (a temporary of a
 * pass, declared where the generated code needs it): named `name`, or
 * name_2, name_3... where that is taken; `name` must live in the arena. */
IrSym *ir_new_local(IrRoutine *r, const char *name, IrType type, Loc loc);

/* ---- queries ------------------------------------------------------------ */

bool ir_type_is_real(IrType t);
bool ir_type_is_integer(IrType t);
IrType ir_promote(IrType a, IrType b);      /* Fortran mixed-mode arithmetic */
const char *ir_type_c(IrType t);            /* "float", "double", "int", ... */
const char *ir_sym_user_name(const IrSym *s); /* source_name if set, else name */
const char *ir_type_name(IrType t);         /* "real(4)", ... for messages */
const char *ir_op_text(IrOp op);            /* C spelling */
const char *ir_intrinsic_name(IrIntrinsic fn); /* Fortran spelling: "max", "mod" */

/* Evaluate an integer expression made of literals and PARAMETERs. */
bool ir_eval_const(const IrExpr *e, long *out);

/* The rank of e's value under Fortran array syntax: the number of ranges
 * of its sections (IR_E_SECTION), 0 for a scalar.  Operands of elemental
 * operations and intrinsics share one rank (the largest is returned); a
 * reduction, a function of the program and present() are scalars. */
int ir_expr_rank(const IrExpr *e);
/* Is e an IR_E_CALL of a reduction (IR_FN_MAXVAL .. IR_FN_MINLOC)? */
bool ir_is_reduction(const IrExpr *e);

/* A deep copy of e (NULL: NULL): no node shared, so that a pass may put an
 * expression in several places and later passes rewrite it in place. */
IrExpr *ir_expr_copy(const IrExpr *e);

/* A copy of e made node by node, where fn(node, ctx) may answer a
 * replacement for a node (used as it is, its children not visited) or NULL
 * (the node is copied and its children mapped). */
typedef IrExpr *(*IrExprMap)(const IrExpr *node, void *ctx);
IrExpr *ir_expr_map(const IrExpr *e, IrExprMap fn, void *ctx);
/* A copy of e with every read of scalar v replaced by a copy of `by`. */
IrExpr *ir_expr_subst(const IrExpr *e, IrSym *v, const IrExpr *by);
/* e + delta, folded into e's own constant where e is `x + c` or `x - c`
 * (`kts + 1` - 1 is `kts`); e itself when delta is 0.  May share nodes of e. */
IrExpr *ir_add_const(IrExpr *e, long delta);
/* `(i - 1) + 1` as `i`, `((j - 1) + 1) + 1` as `j + 1`: chains of integer
 * constants added and subtracted folded into one.  May share nodes of e. */
IrExpr *ir_fold_offsets(IrExpr *e);
/* e without the type conversions around it. */
const IrExpr *ir_strip_converts(const IrExpr *e);

/* The module whose specification part declares s, or NULL. */
IrModule *ir_module_of(const Program *p, const IrSym *s);

/* Are a and b the same expression, node for node (same symbols, same
 * literals, same types; both NULL counts as the same)?  Expressions have no
 * side effects, so the same tree has the same value where the symbols it
 * reads do; a call of a user function is never the same, nor an array
 * section. */
bool ir_expr_equal(const IrExpr *a, const IrExpr *b);

/* Does `e` mention symbol `s`?  (array elements: in subscripts too) */
bool ir_expr_mentions(const IrExpr *e, const IrSym *s);
/* ... anywhere in the expressions of a statement list (loop bounds, tests,
 * both sides of assignments, call arguments)? */
bool ir_list_mentions(IrStmtList *l, const IrSym *s);

/* A set of symbols: members kept in the order they were added, no limit on
 * the size, membership in constant time.  A zeroed IrSymSet is empty.  Its
 * storage lives in the IR arena, like the nodes, and goes with it at
 * ir_arena_free: there is nothing to free per set (`= (IrSymSet){ 0 }`
 * empties one).  Read the members as syms[0..n); change them only through
 * the functions. */
typedef struct IrSymSet {
  int n, cap;
  IrSym **syms;                 /* members, in the order added */
  int nslots;                   /* 0 while the set is small: membership scans syms */
  IrSym **slots;                /* open addressing on the pointer; NULL is empty */
} IrSymSet;

bool ir_symset_add(IrSymSet *set, IrSym *s);                  /* false: s was there */
bool ir_symset_has(const IrSymSet *set, const IrSym *s);      /* set NULL: false */
IrSymSet ir_symset_copy(const IrSymSet *set);                 /* shares nothing with set */

/* The symbols a statement list mentions (as ir_list_mentions sees them),
 * for asking about many symbols with one walk. */
IrSymSet *ir_list_symbols(IrStmtList *l);

/* Visit every expression node of a statement list, pre-order; statements'
 * own expressions (loop bounds, test, lhs, rhs) included.  (visit.c: on
 * the statement visitor of visit.h) */
typedef void (*IrExprVisit)(IrExpr *e, IrStmt *in, void *ctx);
void ir_walk_exprs(IrStmtList *l, IrExprVisit fn, void *ctx);
/* The same for the expressions of statement s itself, not of its bodies. */
void ir_walk_stmt_exprs(IrStmt *s, IrExprVisit fn, void *ctx);
/* The same for one expression tree (`in` is passed through to fn). */
void ir_walk_expr(IrExpr *e, IrStmt *in, IrExprVisit fn, void *ctx);

/* The element references (IR_E_ELEM nodes) of one array, gathered by
 * ir_collect_elem, an IrExprVisit for the walks above: set sym, walk with
 * &refs as ctx; v lives in the arena. */
typedef struct IrElemRefs {
  const IrSym *sym;
  int n, cap;
  IrExpr **v;
} IrElemRefs;
void ir_collect_elem(IrExpr *e, IrStmt *in, void *refs);

/* `lhs = rhs`, a new statement. */
IrStmt *ir_assign(IrExpr *lhs, IrExpr *rhs, Loc loc);

/* Print, for --dump-ir: Fortran-like text, one statement per line. */
void ir_dump_program(const Program *p, void *file /* FILE* */);
void ir_dump_stmts(const IrStmtList *l, int indent, void *file);
void ir_dump_expr(const IrExpr *e, void *file);

#endif
