/* fe_fortran.c — the free-form Fortran front end.
 *
 * Reads the tree-sitter-fortran CST of one file and builds the Program:
 * modules with their specification-part symbols, routines (subroutines,
 * functions, the main program) with their declarations, the data/update
 * directives of host code, and for every `!$stencil region` the lowered IR
 * of the statements it encloses.
 *
 * Directives are comments to tree-sitter: a region is the run of sibling
 * statements between a `region` comment and the matching `end region`
 * comment in the same block.  Everything outside regions stays text.
 *
 * A USE of a module that is not in the file, and a call of a procedure that
 * is in no module, read that module's or procedure's summary (modules.h),
 * written when its own file was translated or compiled, into the same
 * Program: the module's symbols, and its procedures as routines defined
 * elsewhere (never emitted), whose bodies the inliner takes as it takes a
 * routine of this file's.  A module that cannot be found costs nothing
 * until a region needs a name it may provide; then it is one error, at the
 * USE, and no name from it is reported again.
 *
 * Typing follows Fortran: default REAL is real(4), literals without a kind
 * are real(4) (a `d` exponent or `_8` makes them real(8)), mixed-mode
 * arithmetic is made explicit with IR_E_CONVERT nodes, and implicit typing
 * (i-n integer, otherwise real) applies where no IMPLICIT NONE is in force.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "frontend.h"
#include "modules.h"

const TSLanguage *tree_sitter_fortran(void);

/* A statement function, `f(x, y) = expr`, expanded where it is used. */
typedef struct StmtFn {
  const char *name;
  IrSym *result;             /* its declared (or implicit) type */
  int nargs;
  const char *args[8];       /* dummy names */
  TSNode rhs;
  bool recursive;            /* refers to itself, maybe through others: reported,
                                never expanded */
} StmtFn;

typedef struct StmtFns {
  int n;
  StmtFn *v;
} StmtFns;

/* While a statement function's expression is lowered: its dummies' values. */
typedef struct StmtFnScope {
  const StmtFn *fn;
  IrExpr *actual[8];
  const struct StmtFnScope *outer;
} StmtFnScope;

/* A routine's CST node and the source it is in: this file, or a summary
 * read for a USE or a call. */
typedef struct RoutineNode {
  IrRoutine *r;
  TSNode node;
  int file;
  bool has_directives;       /* read from a summary, and holds directives */
} RoutineNode;

/* A CALL in a region, or in a routine a region calls. */
typedef struct CallSite {
  const char *name;
  IrRoutine *caller;
  Loc loc;
  int width;
} CallSite;

/* Control flow of the body being lowered (a region's, or a routine's that
 * a region calls): its open DO constructs, for EXIT and CYCLE, and its
 * GOTOs, which become loops and blocks as each statement list is finished
 * (structure_gotos). */
typedef struct FeLabel {
  long label;
  int pos;                   /* the labelled statement's index in its list (n: the end) */
  Loc loc;
} FeLabel;

typedef struct FeGoto {
  long label;                /* 0: reported, no longer waiting */
  IrStmt *jump;              /* an EXIT until structure_gotos makes it the jump to its label */
  int top;                   /* index, in the list being finished, of the statement holding it */
  int width;
} FeGoto;

typedef struct FeJumps {
  int depth;                 /* lower_block calls open (0: none, the state is reset) */
  int nloops, loops_cap;
  IrStmt **loops;            /* DO and DO WHILE constructs around the statement, innermost last */
  int ngotos, gotos_cap;
  FeGoto *gotos;             /* GOTOs whose label is not found yet, in source order */
  int nclosed, closed_cap;
  FeLabel *closed;           /* labels of the statement lists already finished */
  bool returns;              /* an early RETURN was lowered (inlining) */
} FeJumps;

typedef struct FortranFe {
  FeCtx cx;
  IrModule *module;          /* enclosing module while reading one */
  bool module_implicit_none;
  IrRoutine *routine;        /* routine being read */
  bool implicit_none;
  IrRegion *region;          /* region being lowered, NULL in host code */
  Directive *pending_do;     /* a `do` directive waiting for its loop */
  TSNode pending_do_node;
  int unmatched_regions;          /* '!$stencil region' refused inside a region or without
                                     its 'end region' in its block: as many later 'end
                                     region' are theirs, not strays (one error for the
                                     one mistake) */
  int region_count;
  int host_dir_count;
  bool real16_reported;      /* DOUBLE PRECISION under -fdefault-real-8 alone: said once */
  int data_depth;            /* open `data` directives while scanning a routine */
  IrHostDirective *open_data[16];
  TSNode routine_node;             /* the routine being scanned (its internal procedures are not) */
  IrHostDirective *open_host_data; /* a `host_data` whose end is still to come, and the */
  TSNode host_data_block;          /* node whose children it is among: its end must be too */
  bool host_data_refused;          /* a directive inside it was refused: that error says the
                                      construct is not closed where it should be */
  bool whole_array_ok;       /* lowering the actual arguments of a call */
  const StmtFnScope *scope;  /* lowering a statement function's expression */
  int expr_depth;            /* lower_expr calls open (FE_MAX_EXPR_DEPTH) */
  bool expr_too_deep;        /* reported for the expression being lowered */
  int stmt_depth;            /* IF and DO constructs open (FE_MAX_STMT_DEPTH) */
  bool stmt_too_deep;        /* reported for the outermost construct being lowered */
  bool inlining;             /* lowering the body of a routine a region calls */
  int ncalls;                /* names of the subroutines regions call (to lower their bodies) */
  const char **calls;
  int nroutine_nodes;        /* each routine's CST node, with its source */
  RoutineNode *routine_nodes;
  bool loading;              /* reading a summary of another file: its regions and host
                                code are that file's business, not lowered here */
  int nmissing_fails;        /* names that failed because a module was not found */
  IrMissingUse *last_missing;/* ... the last one's USE */
  int nsites;
  CallSite *sites;
  int nsought;               /* procedures looked for as summaries (once each) */
  const char **sought;
  TSNode root;               /* the file's translation_unit */
  TSNode module_node;        /* the module being read, or null */
  int nclaimed_ends;         /* lines of `end region` comments that tree-sitter placed */
  int *claimed_ends;         /* outside the block of their region (see trailing_end) */
  int nhigh_rank;            /* arrays of rank above IR_MAX_RANK (the IR cannot hold their */
  struct HighRank *high_rank;/* bounds): fine in host code, an error where a region or a
                                directive names them */
  FeJumps jumps;
} FortranFe;

typedef struct HighRank {
  IrSym *sym;                /* declared with rank 0 and no bounds */
  int rank;                  /* as declared */
  bool reported;             /* one error per array */
} HighRank;

static IrExpr *lower_expr(FortranFe *f, TSNode n);
static IrSym *env_kind(FortranFe *f, const char *name, TSNode at);
static void lower_block(FortranFe *f, TSNode parent, uint32_t from, uint32_t to, IrStmtList *out);

/* dir_read, with the directive owned by the IR arena from then on. */
static void free_directive(void *d)
{
  dir_free(d);
}

static bool usable_rank(FortranFe *f, const IrSym *s, Loc at, int width);

/* A directive's clause items must not name an array the IR cannot hold. */
static void check_items(FortranFe *f, const Directive *d)
{
  for (int c = 0; c < d->nclauses; c++)
    for (int i = 0; i < d->clauses[c].nitems; i++) {
      const DirItem *it = &d->clauses[c].items[i];
      IrSym *s = f->routine ? ir_lookup(f->routine, it->name) : NULL;
      if (s)
        usable_rank(f, s, it->loc, (int)strlen(it->name));
    }
}

static Directive *read_directive(FortranFe *f, int line, int *last)
{
  Directive *d = dir_read(f->cx.file, line, DIR_FORTRAN, last);
  if (d) {
    ir_arena_on_free(free_directive, d);
    fe_directive_read(&f->cx, d);
    check_items(f, d);        /* reported; the directive still opens what it opens */
  }
  return d;
}

/* ---- symbols and declarations ----------------------------------------- */

static IrSym *new_sym(FortranFe *f, IrSym **table, const char *name, TSNode at)
{
  IrSym *s = ir_alloc(sizeof *s);
  s->name = ir_strdup(name);
  s->type = IR_T_VOID;
  s->dummy_index = -1;
  s->loc = fe_loc(&f->cx, at);
  HASH_ADD_KEYPTR(hh, *table, s->name, strlen(s->name), s);
  return s;
}

static IrSym **current_table(FortranFe *f)
{
  return f->routine ? &f->routine->symbols : &f->module->symbols;
}

static IrSym *find_local(FortranFe *f, const char *name)
{
  IrSym *s = NULL;
  HASH_FIND_STR(*current_table(f), name, s);
  return s;
}

/* Default REAL: real(4), or real(8) under -fdefault-real-8 (fe_config). */
static IrType default_real(void)
{
  return fe_config.default_real8 ? IR_T_REAL8 : IR_T_REAL4;
}

/* DOUBLE PRECISION (also `1.0d0`, dble, the d-specific intrinsics):
 * real(8), unless -fdefault-real-8 without -fdefault-double-8 made it
 * real(16) as gfortran does; then an error at `at` (the first one of the
 * file only: the missing flag is one cause) and false (*out is real(8)
 * still, so that the uses of a declaration are not reported too). */
static bool double_precision(FortranFe *f, TSNode at, const char *what, IrType *out)
{
  *out = IR_T_REAL8;
  if (!fe_config.default_real8 || fe_config.default_double8)
    return true;
  if (f->real16_reported) /* one root cause, one error: the flag */
    return false;
  f->real16_reported = true;
  fe_error(&f->cx, at, "%s is real(16) under -fdefault-real-8 (as gfortran makes it), and CUDA "
           "kernels have no real(16); add -fdefault-double-8 (or use -r8 for both)", what);
  return false;
}

static IrType implicit_type(const char *name)
{
  return (name[0] >= 'i' && name[0] <= 'n') ? IR_T_INT : default_real();
}

/* A name module m makes visible: its own, one of its ONLY lists, or one
 * of the modules it uses (IrModule.uses holds them all, transitively). */
static IrSym *module_lookup(const IrModule *m, const char *name)
{
  IrSym *s = NULL;
  HASH_FIND_STR(m->symbols, name, s);
  if (!s) {
    IrUseName *u = NULL;
    HASH_FIND_STR(m->use_names, name, u);
    s = u ? u->sym : NULL;
  }
  for (int i = 0; !s && i < m->nuses; i++)
    HASH_FIND_STR(m->uses[i]->symbols, name, s);
  return s;
}

/* Find a variable by name for use inside a region: routine, then module,
 * then (without IMPLICIT NONE) an implicitly typed local. */
static IrSym *lookup(FortranFe *f, const char *name)
{
  if (f->routine)
    return ir_lookup(f->routine, name);
  IrSym *s = find_local(f, name);
  return s || !f->module ? s : module_lookup(f->module, name);
}

/* ---- modules that were not found ------------------------------------------ */

/* The USE among v[0..n) that `name` may come from: the one whose ONLY list
 * names it, else the first without an ONLY list. */
static IrMissingUse *missing_source(int n, IrMissingUse **v, const char *name)
{
  for (int i = 0; i < n; i++)
    for (int k = 0; k < v[i]->nonly; k++)
      if (!strcmp(v[i]->only[k], name))
        return v[i];
  for (int i = 0; i < n; i++)
    if (v[i]->nonly < 0)
      return v[i];
  return NULL;
}

/* Why `name` (symbol s, or none) cannot be used: the USE of a module that
 * was not found, or NULL.  A name the scope declares itself (s without
 * from_missing) never comes from a module. */
static IrMissingUse *missing_cause(FortranFe *f, const char *name, const IrSym *s)
{
  if (s)
    return s->from_missing;
  if (f->routine)
    return missing_source(f->routine->nmissing_uses, f->routine->missing_uses, name);
  if (f->module)
    return missing_source(f->module->nmissing, f->module->missing, name);
  return NULL;
}


/* `name` failed because of missing module use m.  Lowering a region (or a
 * routine a region calls), that is the error, once per USE: the names that
 * follow are not reported again.  Elsewhere (a declaration) nothing is
 * said: what was being declared is marked unusable (IrSym.from_missing),
 * and only a region that needs it is refused. */

static void blame_missing(FortranFe *f, IrMissingUse *m, const char *name, bool declared)
{
  f->nmissing_fails++;
  f->last_missing = m;
  if (f->region)
    diag_missing_use(m, "the region", name, declared);
}

static IrSym *resolve(FortranFe *f, TSNode id)
{
  char *name = fe_text_lower(&f->cx, id);
  IrSym *s = lookup(f, name);
  if (s && s->type != IR_T_VOID && !s->from_missing)
    return s;
  if (!s && (s = env_kind(f, name, id)))
    return s;
  IrMissingUse *missing = missing_cause(f, name, s);
  if (missing) {
    blame_missing(f, missing, name, s != NULL);
    return NULL;
  }
  if (s && s->unsupported_type) {
    fe_error(&f->cx, id, "'%s' is declared %s: only integer, real and logical variables can be "
             "used inside a region", name, s->unsupported_type);
    return NULL;
  }
  if (f->routine ? f->implicit_none : f->module_implicit_none) {
    fe_error(&f->cx, id, "'%s' has no IMPLICIT type (IMPLICIT NONE is in force): declare it, "
             "or check its spelling", name);
    return NULL;
  }
  if (!s)
    s = new_sym(f, current_table(f), name, id);
  s->type = implicit_type(name);
  return s;
}

/* kind=N, *N, (N), (kind=r8) with r8 a PARAMETER: the kind number. */
static bool read_kind(FortranFe *f, TSNode kind, long *out)
{
  uint32_t count = ts_node_named_child_count(kind);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(kind, i);
    if (fe_is(c, "keyword_argument"))
      c = ts_node_child_by_field_name(c, "value", 5);
    int missing = f->nmissing_fails;
    IrExpr *e = lower_expr(f, c);
    if (e && ir_eval_const(e, out))
      return true;
    if (f->nmissing_fails == missing)
      fe_error(&f->cx, c, "cannot evaluate this kind; use a literal or an integer PARAMETER");
    return false;
  }
  return false;
}

static bool read_type(FortranFe *f, TSNode type, IrType *out)
{
  char *text = fe_text_lower(&f->cx, type);
  TSNode kind = ts_node_child_by_field_name(type, "kind", 4);
  long k = 0;
  bool numeric = !strncmp(text, "real", 4) || !strncmp(text, "integer", 7) ||
                 !strncmp(text, "logical", 7) || !strncmp(text, "double", 6);
  if (numeric && !ts_node_is_null(kind) && !read_kind(f, kind, &k))
    return false;
  if (!strncmp(text, "double", 6)) {
    double_precision(f, type, "DOUBLE PRECISION", out); /* typed real(8) after an error: no cascade */
  } else if (!strncmp(text, "real", 4))
    *out = k == 8 ? IR_T_REAL8 : k == 4 ? IR_T_REAL4 : default_real();
  else if (!strncmp(text, "integer", 7))
    *out = k == 8 ? IR_T_INT8 : IR_T_INT;
  else if (!strncmp(text, "logical", 7))
    *out = IR_T_LOGICAL;
  else
    *out = IR_T_VOID; /* character, complex, derived types: not usable in regions */
  if ((k && k != 4 && k != 8 && *out != IR_T_VOID && *out != IR_T_LOGICAL)) {
    fe_error(&f->cx, type, "kind %ld is not supported; use kind 4 or 8", k);
    return false;
  }
  return true;
}

/* One dimension of a declaration: `n`, `lo:hi`, `*`, `:` */
static bool read_extent(FortranFe *f, TSNode d, IrExpr **lo, IrExpr **hi)
{
  Loc loc = fe_loc(&f->cx, d);
  if (fe_is(d, "assumed_size")) {
    *lo = ir_int(1, loc);
    *hi = NULL;
    return true;
  }
  if (!fe_is(d, "extent_specifier")) {
    *lo = ir_int(1, loc);
    *hi = lower_expr(f, d);
    return *hi != NULL;
  }
  uint32_t count = ts_node_named_child_count(d);
  char *text = fe_text(&f->cx, d);
  if (count == 0 || text[0] == ':') {
    /* deferred or assumed shape: bounds known only at run time */
    *lo = NULL;
    *hi = NULL;
    return true;
  }
  *lo = lower_expr(f, ts_node_named_child(d, 0));
  if (count < 2) { /* `lo:`: assumed shape with a lower bound */
    *hi = NULL;
    return *lo != NULL;
  }
  TSNode h = ts_node_named_child(d, 1);
  *hi = fe_is(h, "assumed_size") ? NULL : lower_expr(f, h);
  return *lo != NULL;
}

/* A bound known only at run time becomes a hidden scalar the host fills
 * with lbound()/ubound() when it calls the launcher. */
static IrExpr *runtime_bound(FortranFe *f, IrSym *array, int dim, bool upper, TSNode at)
{
  char *name = ir_printf("s2s_%cb%d_%s", upper ? 'u' : 'l', dim + 1, array->name);
  IrSym *b = new_sym(f, current_table(f), name, at);
  b->type = IR_T_INT;
  b->bound_of = array;
  b->bound_dim = dim;
  b->bound_is_upper = upper;
  b->is_module = array->is_module;
  return ir_var(b, b->loc);
}

static HighRank *high_rank_of(FortranFe *f, const IrSym *s)
{
  for (int i = 0; i < f->nhigh_rank; i++)
    if (f->high_rank[i].sym == s)
      return &f->high_rank[i];
  return NULL;
}

/* Is s an array the IR can hold?  If not, report it at `at` (the first
 * time: one error per array) and say no. */
static bool usable_rank(FortranFe *f, const IrSym *s, Loc at, int width)
{
  HighRank *h = high_rank_of(f, s);
  if (!h)
    return true;
  if (!h->reported)
    diag_at(DIAG_ERROR, at, width, "array '%s' has rank %d (declared at line %d); arrays of "
            "rank more than %d are supported only in host code, not in regions or directives",
            s->name, h->rank, diag_user_line(s->loc), IR_MAX_RANK);
  h->reported = true;
  return false;
}

static bool read_shape(FortranFe *f, IrSym *s, TSNode list)
{
  uint32_t count = ts_node_named_child_count(list);
  if (count > IR_MAX_RANK) {
    HighRank h = { s, (int)count, false };
    IR_PUSH(f->high_rank, f->nhigh_rank, h);
    return true;
  }
  s->rank = (int)count;
  for (uint32_t i = 0; i < count; i++) {
    TSNode d = ts_node_named_child(list, i);
    if (!read_extent(f, d, &s->lo[i], &s->hi[i]))
      return false;
    bool deferred = !s->lo[i];
    if (deferred)
      s->lo[i] = runtime_bound(f, s, (int)i, false, d);
    bool assumed_size = fe_is(d, "assumed_size") || strchr(fe_text(&f->cx, d), '*');
    if (deferred || (!s->hi[i] && !assumed_size))
      s->hi[i] = runtime_bound(f, s, (int)i, true, d);
  }
  return true;
}

typedef struct DeclAttrs {
  IrType type;
  const char *type_text; /* IR_T_VOID: the type as written (character(len=8), complex) */
  bool parameter;
  bool save;
  bool optional;
  IrIntent intent;
  TSNode dimension;   /* argument_list of a DIMENSION attribute, or null */
} DeclAttrs;

static void read_attribute(FortranFe *f, TSNode q, DeclAttrs *a)
{
  char *text = fe_text_lower(&f->cx, q);
  if (!strncmp(text, "parameter", 9))
    a->parameter = true;
  else if (!strncmp(text, "save", 4))
    a->save = true;
  else if (!strncmp(text, "optional", 8))
    a->optional = true;
  else if (!strncmp(text, "dimension", 9))
    a->dimension = fe_child_of_type(q, "argument_list");
  else if (!strncmp(text, "intent", 6)) {
    char *p = strchr(text, '(');
    p = p ? p + 1 : text;
    while (*p == ' ')
      p++;
    a->intent = !strncmp(p, "inout", 5) ? IR_INTENT_INOUT
              : !strncmp(p, "in", 2)    ? IR_INTENT_IN
                                        : IR_INTENT_OUT;
  }
}

/* A declaration that names something of a module that was not found:
 * the symbol is there (so that it is not taken for an implicitly typed
 * local), but nothing may use it. */
static void unusable(IrSym *s, IrMissingUse *why)
{
  s->from_missing = why;
  s->type = IR_T_VOID;
  s->kind = IR_SYM_VAR;
  s->rank = 0;
  s->init = NULL;
}

/* The name node of a declarator: `x`, `x(n)`, `x = 1`, `x(n) = 1`. */
static TSNode declarator_name(TSNode decl)
{
  TSNode name = decl;
  if (fe_is(decl, "init_declarator"))
    name = ts_node_child_by_field_name(decl, "left", 4);
  if (fe_is(name, "sized_declarator"))
    name = ts_node_named_child(name, 0);
  return name;
}

static void declare_one(FortranFe *f, TSNode decl, const DeclAttrs *a)
{
  TSNode name = decl, shape = { 0 }, init = { 0 };
  if (fe_is(decl, "init_declarator")) {
    name = ts_node_child_by_field_name(decl, "left", 4);
    init = ts_node_child_by_field_name(decl, "right", 5);
  }
  if (fe_is(name, "sized_declarator")) {
    shape = fe_child_of_type(name, "size");
    name = ts_node_named_child(name, 0);
  }
  char *id = fe_text_lower(&f->cx, name);
  IrSym *s = find_local(f, id);
  if (!s)
    s = new_sym(f, current_table(f), id, name);
  int missing = f->nmissing_fails;
  s->type = a->type;
  s->unsupported_type = a->type == IR_T_VOID ? a->type_text : NULL;
  s->loc = fe_loc(&f->cx, name);
  s->is_module = f->routine == NULL;
  if (a->intent)
    s->intent = a->intent;
  if (!ts_node_is_null(shape))
    read_shape(f, s, shape);
  else if (!ts_node_is_null(a->dimension))
    read_shape(f, s, a->dimension);
  s->is_saved |= a->save || (!a->parameter && !ts_node_is_null(init));
  s->save_named |= a->save;
  s->has_initializer |= !a->parameter && !ts_node_is_null(init);
  s->is_optional |= a->optional;
  /* A named constant of a type regions do not support (a CHARACTER name
   * for messages, say) stays a variable of that type: a region that uses it
   * is refused at the use, and host code never needs its value. */
  if (a->parameter && !ts_node_is_null(init) && a->type != IR_T_VOID) {
    s->kind = IR_SYM_PARAM;
    s->init = lower_expr(f, init);
    if (s->init && s->type != IR_T_VOID)
      s->init = ir_convert(s->init, s->type);
  }
  if (f->nmissing_fails != missing)
    unusable(s, f->last_missing);
}

/* variable_declaration: type (',' attribute)* '::' declarator (',' declarator)* */
static void read_declaration(FortranFe *f, TSNode n)
{
  DeclAttrs a = { 0 };
  TSNode type = ts_node_child_by_field_name(n, "type", 4);
  uint32_t count = ts_node_child_count(n);
  int missing = f->nmissing_fails;
  a.type_text = fe_text_lower(&f->cx, type);
  if (!read_type(f, type, &a.type)) {
    for (uint32_t i = 0; f->nmissing_fails != missing && i < count; i++) {
      const char *field = ts_node_field_name_for_child(n, i);
      if (!field || strcmp(field, "declarator"))
        continue;
      TSNode name = declarator_name(ts_node_child(n, i));
      char *id = fe_text_lower(&f->cx, name);
      IrSym *s = find_local(f, id);
      unusable(s ? s : new_sym(f, current_table(f), id, name), f->last_missing);
    }
    return;
  }
  for (uint32_t i = 0; i < count; i++) {
    const char *field = ts_node_field_name_for_child(n, i);
    if (field && !strcmp(field, "attribute"))
      read_attribute(f, ts_node_child(n, i), &a);
  }
  for (uint32_t i = 0; i < count; i++) {
    const char *field = ts_node_field_name_for_child(n, i);
    if (field && !strcmp(field, "declarator"))
      declare_one(f, ts_node_child(n, i), &a);
  }
}

static bool is_specification(TSNode n)
{
  static const char *const spec[] = {
    "use_statement", "implicit_statement", "variable_declaration", "interface",
    "derived_type_definition", "parameter_statement", "common_statement",
    "equivalence_statement", "data_statement", "include_statement", "import_statement",
    "namelist_statement", "external_statement", "save_statement", "private_statement",
    "public_statement", NULL,
  };
  for (int i = 0; spec[i]; i++)
    if (fe_is(n, spec[i]))
      return true;
  return false;
}

/* ---- expressions ------------------------------------------------------- */

/* A literal: 12, 12_8, 1.5, 1.e-3, .5d0, 2.0_8, 1.0_r8 */
static IrExpr *lower_number(FortranFe *f, TSNode n)
{
  char *text = fe_text_lower(&f->cx, n);
  Loc loc = fe_loc(&f->cx, n);
  char *under = strchr(text, '_');
  long kind = 0;
  if (under) {
    *under = 0;
    TSNode k = ts_node_child_by_field_name(n, "kind", 4);
    int missing = f->nmissing_fails;
    IrExpr *ke = ts_node_is_null(k) ? NULL : lower_expr(f, k);
    if (!ke || !ir_eval_const(ke, &kind)) {
      if (f->nmissing_fails == missing)
        fe_error(&f->cx, n, "cannot evaluate the kind of this literal");
      return NULL;
    }
  }
  if (!strpbrk(text, ".ed")) {
    IrExpr *e = ir_int(strtol(text, NULL, 10), loc);
    e->type = kind == 8 ? IR_T_INT8 : IR_T_INT;
    return e;
  }
  bool dexp = false;
  for (char *p = text; *p; p++)
    if (*p == 'd') {
      *p = 'e';
      dexp = true;
    }
  IrType type = kind == 8 ? IR_T_REAL8 : kind == 4 ? IR_T_REAL4 : default_real();
  if (dexp)
    double_precision(f, n, "a literal with a 'd' exponent", &type);
  IrExpr *e = ir_expr_new(IR_E_REAL, type, loc);
  e->u.real = text;
  return e;
}

static void promote_pair(IrExpr **a, IrExpr **b)
{
  IrType t = ir_promote((*a)->type, (*b)->type);
  *a = ir_convert(*a, t);
  *b = ir_convert(*b, t);
}

static IrOp binary_op(const char *op)
{
  static const struct { const char *text; IrOp op; } ops[] = {
    { "+", IR_OP_ADD }, { "-", IR_OP_SUB }, { "*", IR_OP_MUL }, { "/", IR_OP_DIV },
    { "**", IR_OP_POW }, { ".lt.", IR_OP_LT }, { "<", IR_OP_LT }, { ".le.", IR_OP_LE },
    { "<=", IR_OP_LE }, { ".gt.", IR_OP_GT }, { ">", IR_OP_GT }, { ".ge.", IR_OP_GE },
    { ">=", IR_OP_GE }, { ".eq.", IR_OP_EQ }, { "==", IR_OP_EQ }, { ".ne.", IR_OP_NE },
    { "/=", IR_OP_NE }, { ".and.", IR_OP_AND }, { ".or.", IR_OP_OR },
    { ".eqv.", IR_OP_EQV }, { ".neqv.", IR_OP_NEQV }, { NULL, 0 },
  };
  for (int i = 0; ops[i].text; i++)
    if (!strcmp(ops[i].text, op))
      return ops[i].op;
  return (IrOp)-1;
}

/* A construct the lowering does not handle, as a user would call it (the
 * grammar's node name where there is no better word). */
static const char *construct_text(const char *node_type)
{
  static const char *const names[][2] = {
    { "string_literal", "a character string" },
    { "complex_literal", "a complex number" },
    { "derived_type_member_expression", "a derived-type component (a%b)" },
    { "concatenation_expression", "string concatenation (//)" },
    { "array_literal", "an array constructor" },
    { "implied_do_loop_expression", "an implied DO" },
    { "allocate_statement", "an ALLOCATE statement" },
    { "deallocate_statement", "a DEALLOCATE statement" },
    { "print_statement", "a PRINT statement (input/output)" },
    { "write_statement", "a WRITE statement (input/output)" },
    { "read_statement", "a READ statement (input/output)" },
    { "open_statement", "an OPEN statement (input/output)" },
    { "close_statement", "a CLOSE statement (input/output)" },
    { "stop_statement", "a STOP statement" },
    { "pointer_association_statement", "pointer assignment (=>)" },
    { "nullify_statement", "a NULLIFY statement" },
  };
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(node_type, names[i][0]))
      return names[i][1];
  return node_type;
}

/* math_expression / relational_expression / logical_expression:
 *   left: expr  operator: op  right: expr   (logical .not. has no left) */
static IrExpr *lower_operator(FortranFe *f, TSNode n)
{
  TSNode opn = ts_node_child_by_field_name(n, "operator", 8);
  char *op = fe_text_lower(&f->cx, opn);
  TSNode ln = ts_node_child_by_field_name(n, "left", 4);
  Loc loc = fe_loc(&f->cx, n);
  if (ts_node_is_null(ln)) {
    IrExpr *arg = lower_expr(f, ts_node_child_by_field_name(n, "argument", 8));
    if (!arg)
      return NULL;
    IrExpr *e = ir_expr_new(IR_E_UNARY, IR_T_LOGICAL, loc);
    e->u.unary.op = IR_OP_NOT;
    e->u.unary.arg = arg;
    return e;
  }
  /* `tag == 'x'`: the character variable is the mistake, refused where it
   * is named; the string it is compared with is not a second one (either
   * way round). */
  TSNode rn = ts_node_child_by_field_name(n, "right", 5);
  bool left_string = fe_is(ln, "string_literal"), right_string = fe_is(rn, "string_literal");
  IrExpr *a = NULL, *b = NULL;
  if (left_string && !right_string) {
    b = lower_expr(f, rn);
    a = b ? lower_expr(f, ln) : NULL;
  } else {
    a = lower_expr(f, ln);
    b = a || !right_string ? lower_expr(f, rn) : NULL;
  }
  IrOp o = binary_op(op);
  if (!a || !b)
    return NULL;
  if ((int)o < 0) {
    fe_error(&f->cx, opn, "operator '%s' is not supported inside a region", op);
    return NULL;
  }
  if (o == IR_OP_POW) {
    if (!ir_type_is_integer(b->type) || !ir_type_is_integer(a->type))
      if (ir_type_is_real(b->type))
        promote_pair(&a, &b);
  } else if (o != IR_OP_AND && o != IR_OP_OR && o != IR_OP_EQV && o != IR_OP_NEQV) {
    promote_pair(&a, &b);
  }
  return ir_binary(o, a, b, loc);
}

static IrExpr *lower_unary(FortranFe *f, TSNode n)
{
  char *op = fe_text_lower(&f->cx, ts_node_child_by_field_name(n, "operator", 8));
  IrExpr *arg = lower_expr(f, ts_node_child_by_field_name(n, "argument", 8));
  if (!arg)
    return NULL;
  if (!strcmp(op, "+"))
    return arg;
  IrExpr *e = ir_expr_new(IR_E_UNARY, !strcmp(op, "-") ? arg->type : IR_T_LOGICAL,
                       fe_loc(&f->cx, n));
  e->u.unary.op = !strcmp(op, "-") ? IR_OP_NEG : IR_OP_NOT;
  e->u.unary.arg = arg;
  return e;
}

/* Fortran intrinsic names, the IR function they become and their typing. */
typedef enum ArgRule { ARG_SAME, ARG_REAL, ARG_ANY } ArgRule;
typedef struct Intrinsic {
  const char *name;
  IrIntrinsic fn;
  int min_args, max_args;
  ArgRule rule;        /* ARG_SAME: all args promoted to a common type, result that type;
                          ARG_REAL: like ARG_SAME, but the argument must be real */
  IrType forced;       /* IR_T_VOID, or the specific type of a legacy name (dsqrt, amax1) */
  IrType result;       /* IR_T_VOID: the argument type; else this (nint, floor) */
} Intrinsic;

static const Intrinsic intrinsics[] = {
  { "min", IR_FN_MIN, 2, 16, ARG_SAME, IR_T_VOID, IR_T_VOID },
  { "max", IR_FN_MAX, 2, 16, ARG_SAME, IR_T_VOID, IR_T_VOID },
  { "amin1", IR_FN_MIN, 2, 16, ARG_SAME, IR_T_REAL4, IR_T_VOID },
  { "amax1", IR_FN_MAX, 2, 16, ARG_SAME, IR_T_REAL4, IR_T_VOID },
  { "dmin1", IR_FN_MIN, 2, 16, ARG_SAME, IR_T_REAL8, IR_T_VOID },
  { "dmax1", IR_FN_MAX, 2, 16, ARG_SAME, IR_T_REAL8, IR_T_VOID },
  { "min0", IR_FN_MIN, 2, 16, ARG_SAME, IR_T_INT, IR_T_VOID },
  { "max0", IR_FN_MAX, 2, 16, ARG_SAME, IR_T_INT, IR_T_VOID },
  { "abs", IR_FN_ABS, 1, 1, ARG_SAME, IR_T_VOID, IR_T_VOID },
  { "iabs", IR_FN_ABS, 1, 1, ARG_SAME, IR_T_INT, IR_T_VOID },
  { "dabs", IR_FN_ABS, 1, 1, ARG_SAME, IR_T_REAL8, IR_T_VOID },
  { "sqrt", IR_FN_SQRT, 1, 1, ARG_REAL, IR_T_VOID, IR_T_VOID },
  { "dsqrt", IR_FN_SQRT, 1, 1, ARG_REAL, IR_T_REAL8, IR_T_VOID },
  { "exp", IR_FN_EXP, 1, 1, ARG_REAL, IR_T_VOID, IR_T_VOID },
  { "dexp", IR_FN_EXP, 1, 1, ARG_REAL, IR_T_REAL8, IR_T_VOID },
  { "log", IR_FN_LOG, 1, 1, ARG_REAL, IR_T_VOID, IR_T_VOID },
  { "alog", IR_FN_LOG, 1, 1, ARG_REAL, IR_T_REAL4, IR_T_VOID },
  { "dlog", IR_FN_LOG, 1, 1, ARG_REAL, IR_T_REAL8, IR_T_VOID },
  { "log10", IR_FN_LOG10, 1, 1, ARG_REAL, IR_T_VOID, IR_T_VOID },
  { "alog10", IR_FN_LOG10, 1, 1, ARG_REAL, IR_T_REAL4, IR_T_VOID },
  { "sin", IR_FN_SIN, 1, 1, ARG_REAL, IR_T_VOID, IR_T_VOID },
  { "cos", IR_FN_COS, 1, 1, ARG_REAL, IR_T_VOID, IR_T_VOID },
  { "tan", IR_FN_TAN, 1, 1, ARG_REAL, IR_T_VOID, IR_T_VOID },
  { "atan", IR_FN_ATAN, 1, 1, ARG_REAL, IR_T_VOID, IR_T_VOID },
  { "tanh", IR_FN_TANH, 1, 1, ARG_REAL, IR_T_VOID, IR_T_VOID },
  { "sign", IR_FN_SIGN, 2, 2, ARG_SAME, IR_T_VOID, IR_T_VOID },
  { "isign", IR_FN_SIGN, 2, 2, ARG_SAME, IR_T_INT, IR_T_VOID },
  { "dsign", IR_FN_SIGN, 2, 2, ARG_SAME, IR_T_REAL8, IR_T_VOID },
  { "mod", IR_FN_MOD, 2, 2, ARG_SAME, IR_T_VOID, IR_T_VOID },
  { "amod", IR_FN_MOD, 2, 2, ARG_SAME, IR_T_REAL4, IR_T_VOID },
  { "dmod", IR_FN_MOD, 2, 2, ARG_SAME, IR_T_REAL8, IR_T_VOID },
  { "nint", IR_FN_NINT, 1, 1, ARG_REAL, IR_T_VOID, IR_T_INT },
  { "idnint", IR_FN_NINT, 1, 1, ARG_REAL, IR_T_REAL8, IR_T_INT },
  { "floor", IR_FN_FLOOR, 1, 1, ARG_REAL, IR_T_VOID, IR_T_INT },
  { "ceiling", IR_FN_CEILING, 1, 1, ARG_REAL, IR_T_VOID, IR_T_INT },
  { NULL, 0, 0, 0, 0, 0, 0 },
};

static const Intrinsic *find_intrinsic(const char *name)
{
  for (const Intrinsic *in = intrinsics; in->name; in++)
    if (!strcmp(in->name, name))
      return in;
  return NULL;
}

/* Arguments of a call: positional expressions; keyword arguments only as
 * `kind=` (returned through *kind_arg). */
static int lower_args(FortranFe *f, TSNode list, IrExpr **args, int max, TSNode *kind_arg)
{
  uint32_t count = ts_node_named_child_count(list);
  int n = 0;
  for (uint32_t i = 0; i < count; i++) {
    TSNode a = ts_node_named_child(list, i);
    if (fe_is(a, "comment"))
      continue;
    if (fe_is(a, "keyword_argument")) {
      char *kw = fe_text_lower(&f->cx, ts_node_child_by_field_name(a, "name", 4));
      if (kind_arg && !strcmp(kw, "kind")) {
        *kind_arg = ts_node_child_by_field_name(a, "value", 5);
        continue;
      }
      fe_error(&f->cx, a, "keyword argument '%s=' is not supported here", kw);
      return -1;
    }
    if (n == max) {
      fe_error(&f->cx, a, "too many arguments");
      return -1;
    }
    if (!(args[n++] = lower_expr(f, a)))
      return -1;
  }
  return n;
}

static IrExpr *make_call(IrIntrinsic fn, IrType type, IrExpr **args, int n, Loc loc)
{
  IrExpr *e = ir_expr_new(IR_E_CALL, type, loc);
  e->u.call.fn = fn;
  e->u.call.n = n;
  e->u.call.args = ir_alloc(sizeof *args * (size_t)n);
  memcpy(e->u.call.args, args, sizeof *args * (size_t)n);
  return e;
}

static IrExpr *lower_intrinsic(FortranFe *f, const Intrinsic *in, TSNode n, IrExpr **args, int nargs)
{
  TSNode name = ts_node_named_child(n, 0);
  if (nargs < in->min_args || nargs > in->max_args) {
    fe_error(&f->cx, name, "'%s' takes %d%s argument%s, not %d", in->name, in->min_args,
             in->max_args > in->min_args ? " or more" : "", in->min_args == 1 ? "" : "s", nargs);
    return NULL;
  }
  /* The specific names of default real (amax1, alog) follow the default
   * kind; those of double precision (dsqrt, dmax1) its kind. */
  IrType t = in->forced == IR_T_REAL4 ? default_real() : in->forced;
  if (in->forced == IR_T_REAL8)
    double_precision(f, name, ir_printf("the result of '%s'", in->name), &t);
  if (t == IR_T_VOID)
    for (int i = 0; i < nargs; i++)
      t = i ? ir_promote(t, args[i]->type) : args[i]->type;
  if (in->rule == ARG_REAL && !ir_type_is_real(t)) {
    fe_error(&f->cx, name, "'%s' needs a real argument, not %s", in->name, ir_type_name(t));
    return NULL;
  }
  for (int i = 0; i < nargs; i++)
    args[i] = ir_convert(args[i], t);
  return make_call(in->fn, in->result != IR_T_VOID ? in->result : t, args, nargs, fe_loc(&f->cx, n));
}

/* real(x), real(x, 8), float(x), sngl(x), dble(x), int(x), ifix(x) */
static IrExpr *lower_conversion(FortranFe *f, const char *name, TSNode n, IrExpr **args,
                                int nargs, TSNode kind_arg)
{
  long kind = 0;
  if (nargs == 2 && !ir_eval_const(args[1], &kind)) {
    fe_error(&f->cx, n, "the kind argument of '%s' must be a constant", name);
    return NULL;
  }
  if (!ts_node_is_null(kind_arg)) {
    int missing = f->nmissing_fails;
    IrExpr *k = lower_expr(f, kind_arg);
    if (!k || !ir_eval_const(k, &kind)) {
      if (f->nmissing_fails == missing)
        fe_error(&f->cx, kind_arg, "the kind argument of '%s' must be a constant", name);
      return NULL;
    }
  }
  if (nargs < 1 || nargs > 2) {
    fe_error(&f->cx, n, "'%s' takes one argument and an optional kind", name);
    return NULL;
  }
  IrType to;
  if (!strcmp(name, "dble")) {
    double_precision(f, n, "the result of 'dble'", &to);
  } else if (!strcmp(name, "int") || !strcmp(name, "ifix") || !strcmp(name, "idint"))
    to = kind == 8 ? IR_T_INT8 : IR_T_INT;
  else
    to = kind == 8 ? IR_T_REAL8 : kind == 4 ? IR_T_REAL4 : default_real();
  return ir_convert(args[0], to);
}

static bool is_conversion(const char *name)
{
  static const char *const names[] = { "real", "float", "sngl", "dble", "int", "ifix", "idint", NULL };
  for (int i = 0; names[i]; i++)
    if (!strcmp(names[i], name))
      return true;
  return false;
}

/* ---- array syntax ------------------------------------------------------------ */

/* A subscript or a bound of a section: an integer scalar (an array-valued
 * one would be a vector subscript).  NULL when it is not (reported). */
static IrExpr *lower_subscript(FortranFe *f, IrSym *s, TSNode a)
{
  IrExpr *sub = lower_expr(f, a);
  if (!sub)
    return NULL;
  if (ir_expr_rank(sub) > 0) {
    fe_error(&f->cx, a, "vector subscript of '%s' inside a region is not supported; index it "
             "with a scalar in an explicit loop", s->name);
    return NULL;
  }
  if (!ir_type_is_integer(sub->type)) {
    fe_error(&f->cx, a, "subscript of '%s' is %s, not integer", s->name, ir_type_name(sub->type));
    return NULL;
  }
  return sub;
}

/* extent_specifier: [lo] ':' [hi] [':' stride] — the parts are told apart
 * by the colons before them; an omitted bound is the declared one of
 * dimension d. */
static bool lower_triplet(FortranFe *f, IrSym *s, int d, TSNode a, IrTriplet *t)
{
  TSNode part[3];
  memset(part, 0, sizeof part);
  int slot = 0;
  for (uint32_t i = 0; i < ts_node_child_count(a); i++) {
    TSNode c = ts_node_child(a, i);
    if (!ts_node_is_named(c))
      slot += !strcmp(ts_node_type(c), ":");
    else if (slot < 3 && !fe_is(c, "comment"))
      part[slot] = c;
  }
  t->is_range = true;
  t->lo = ts_node_is_null(part[0]) ? s->lo[d] : lower_subscript(f, s, part[0]);
  t->hi = ts_node_is_null(part[1]) ? s->hi[d] : lower_subscript(f, s, part[1]);
  t->stride = ts_node_is_null(part[2]) ? NULL : lower_subscript(f, s, part[2]);
  return t->lo && (t->hi || ts_node_is_null(part[1])) && (t->stride || ts_node_is_null(part[2]));
}

/* a(lo:hi:stride, k) in a region: IR_E_SECTION, expanded into loops by
 * pass "normalize" (transforms/normalize.c). */
static IrExpr *lower_array_section(FortranFe *f, IrSym *s, TSNode n, TSNode list)
{
  uint32_t count = ts_node_named_child_count(list);
  if ((int)count != s->rank) {
    fe_error(&f->cx, n, "'%s' has rank %d but %u subscript%s given", s->name, s->rank, count,
             count == 1 ? " is" : "s are");
    return NULL;
  }
  IrExpr *e = ir_expr_new(IR_E_SECTION, s->type, fe_loc(&f->cx, n));
  e->u.section.sym = s;
  e->u.section.n = (int)count;
  e->u.section.dim = ir_alloc(sizeof *e->u.section.dim * count);
  for (uint32_t i = 0; i < count; i++) {
    TSNode a = ts_node_named_child(list, i);
    IrTriplet *t = &e->u.section.dim[i];
    if (fe_is(a, "extent_specifier") ? !lower_triplet(f, s, (int)i, a, t)
                                     : !(t->lo = lower_subscript(f, s, a)))
      return NULL;
  }
  return e;
}

/* A whole array `a` in an expression of a region: the section of its
 * declared bounds. */
static IrExpr *whole_array(FortranFe *f, IrSym *s, TSNode n)
{
  IrExpr *e = ir_expr_new(IR_E_SECTION, s->type, fe_loc(&f->cx, n));
  e->u.section.sym = s;
  e->u.section.n = s->rank;
  e->u.section.dim = ir_alloc(sizeof *e->u.section.dim * (size_t)s->rank);
  for (int d = 0; d < s->rank; d++)
    e->u.section.dim[d] = (IrTriplet){ true, s->lo[d], s->hi[d], NULL };
  return e;
}

static bool has_triplet(TSNode list)
{
  for (uint32_t i = 0; i < ts_node_named_child_count(list); i++)
    if (fe_is(ts_node_named_child(list, i), "extent_specifier"))
      return true;
  return false;
}

static IrExpr *lower_element(FortranFe *f, IrSym *s, TSNode n, TSNode list)
{
  if (f->region && has_triplet(list))
    return lower_array_section(f, s, n, list);
  IrExpr *e = ir_expr_new(IR_E_ELEM, s->type, fe_loc(&f->cx, n));
  e->u.elem.sym = s;
  uint32_t count = ts_node_named_child_count(list);
  for (uint32_t i = 0; i < count; i++) {
    TSNode a = ts_node_named_child(list, i);
    if (fe_is(a, "extent_specifier")) {
      fe_error(&f->cx, a, "array section of '%s' outside a region cannot be evaluated here",
               s->name);
      return NULL;
    }
    if (e->u.elem.n == IR_MAX_RANK)
      break;
    IrExpr *sub = lower_expr(f, a);
    if (!sub)
      return NULL;
    if (ir_expr_rank(sub) > 0) {
      fe_error(&f->cx, a, "vector subscript of '%s' inside a region is not supported; index it "
               "with a scalar in an explicit loop", s->name);
      return NULL;
    }
    if (!ir_type_is_integer(sub->type)) {
      fe_error(&f->cx, a, "subscript of '%s' is %s, not integer", s->name, ir_type_name(sub->type));
      return NULL;
    }
    e->u.elem.sub[e->u.elem.n++] = sub;
  }
  if ((int)count != s->rank) {
    fe_error(&f->cx, n, "'%s' has rank %d but %u subscript%s given", s->name, s->rank, count,
             count == 1 ? " is" : "s are");
    return NULL;
  }
  return e;
}

/* The reductions over array syntax: name, IR function, whether the first
 * argument is the logical mask itself (any, all, count), whether MASK= is
 * accepted beside it, and whether the result is a position (maxloc). */
typedef struct Reduction {
  const char *name;
  IrIntrinsic fn;
  bool logical;
  bool takes_mask;
  bool position;
} Reduction;

static const Reduction reductions[] = {
  { "maxval", IR_FN_MAXVAL, false, true, false },
  { "minval", IR_FN_MINVAL, false, true, false },
  { "sum", IR_FN_SUM, false, true, false },
  { "product", IR_FN_PRODUCT, false, true, false },
  { "any", IR_FN_ANY, true, false, false },
  { "all", IR_FN_ALL, true, false, false },
  { "count", IR_FN_COUNT, true, false, false },
  { "maxloc", IR_FN_MAXLOC, false, true, true },
  { "minloc", IR_FN_MINLOC, false, true, true },
  { NULL, 0, false, false, false },
};

static const Reduction *find_reduction(const char *name)
{
  for (const Reduction *r = reductions; r->name; r++)
    if (!strcmp(r->name, name))
      return r;
  return NULL;
}

/* The arguments of a reduction by role: ARRAY (or MASK for any/all/count),
 * DIM and MASK, positional or by keyword; DIM and MASK are told apart by
 * type when given by position (`maxval(a, mask)` and `maxval(a, 1)` are
 * both Fortran).  False (reported) for anything else. */
static bool reduction_args(FortranFe *f, const Reduction *rd, TSNode list, IrExpr **array,
                           IrExpr **dim, IrExpr **mask)
{
  uint32_t count = ts_node_named_child_count(list);
  int npos = 0;
  for (uint32_t i = 0; i < count; i++) {
    TSNode a = ts_node_named_child(list, i);
    if (fe_is(a, "comment"))
      continue;
    const char *kw = NULL;
    if (fe_is(a, "keyword_argument")) {
      kw = fe_text_lower(&f->cx, ts_node_child_by_field_name(a, "name", 4));
      a = ts_node_child_by_field_name(a, "value", 5);
    }
    IrExpr *x = lower_expr(f, a);
    if (!x)
      return false;
    IrExpr **slot = NULL;
    if (kw)
      slot = !strcmp(kw, "dim") ? dim : !strcmp(kw, "mask") && (rd->takes_mask || rd->logical)
                                           ? (rd->logical ? array : mask)
             : !strcmp(kw, "array") && !rd->logical ? array : NULL;
    else if (npos++ == 0)
      slot = array;
    else if (!*dim && x->type != IR_T_LOGICAL)
      slot = dim;
    else if (rd->takes_mask && x->type == IR_T_LOGICAL)
      slot = mask;
    if ((!slot || *slot) && kw)
      fe_error(&f->cx, a, "argument '%s=' of '%s' is not supported inside a region", kw,
               rd->name);
    else if (!slot || *slot)
      fe_error(&f->cx, a, "too many arguments for '%s'", rd->name);
    if (!slot || *slot)
      return false;
    *slot = x;
  }
  if (!*array)
    fe_error(&f->cx, list, "'%s' needs an array argument", rd->name);
  return *array != NULL;
}

/* maxval(a(:,k)), count(q > 0.), maxloc(t(kts:kte), 1), sum(x, mask=m):
 * a reduction over array syntax, with a scalar result.  DIM may only be 1
 * on a rank-1 argument (the result is then the same scalar); MAXLOC and
 * MINLOC need it, since without DIM they return an array. */
static IrExpr *lower_reduction(FortranFe *f, const Reduction *rd, TSNode n, TSNode list)
{
  TSNode id = ts_node_named_child(n, 0);
  IrExpr *array = NULL, *dim = NULL, *mask = NULL;
  if (!reduction_args(f, rd, list, &array, &dim, &mask))
    return NULL;
  int rank = ir_expr_rank(array);
  long d = 0;
  if (rank == 0) {
    fe_error(&f->cx, id, "the argument of '%s' must be an array (a section or a whole array)",
             rd->name);
    return NULL;
  }
  if (dim && (!ir_eval_const(dim, &d) || d != 1 || rank != 1)) {
    fe_error(&f->cx, id, "'%s' with dim= inside a region: only dim=1 on an argument of rank 1 "
             "is supported (an array-valued result is not); write the loops explicitly",
             rd->name);
    return NULL;
  }
  if (rd->position && (!dim || rank != 1)) {
    fe_error(&f->cx, id, "'%s' without dim= returns an array, which is not supported inside a "
             "region; write %s(x, dim=1) with x of rank 1 for the position as a scalar",
             rd->name, rd->name);
    return NULL;
  }
  IrType t = array->type;
  if (rd->logical ? t != IR_T_LOGICAL : !ir_type_is_integer(t) && !ir_type_is_real(t)) {
    fe_error(&f->cx, id, "'%s' needs %s array, not %s", rd->name, rd->logical ? "a logical"
             : "an integer or real", ir_type_name(t));
    return NULL;
  }
  if (mask && mask->type != IR_T_LOGICAL) {
    fe_error(&f->cx, id, "the mask of '%s' must be logical, not %s", rd->name,
             ir_type_name(mask->type));
    return NULL;
  }
  IrType result = rd->position || rd->fn == IR_FN_COUNT ? IR_T_INT : t;
  IrExpr *args[2] = { array, mask };
  return make_call(rd->fn, result, args, mask ? 2 : 1, fe_loc(&f->cx, n));
}

/* kind(x), selected_real_kind(p[, r]), selected_int_kind(r): the kind
 * numbers gfortran gives, for declarations such as real(kind(1.0d0)). */
static IrExpr *kind_inquiry(FortranFe *f, const char *name, IrExpr **args, int nargs, Loc loc)
{
  long p = 0;
  (void)f;
  if (!strcmp(name, "kind") && nargs == 1)
    return ir_int(args[0]->type == IR_T_REAL8 || args[0]->type == IR_T_INT8 ? 8 : 4, loc);
  if (nargs < 1 || !ir_eval_const(args[0], &p))
    return NULL;
  if (!strcmp(name, "selected_real_kind"))
    return p <= 6 ? ir_int(4, loc) : p <= 15 ? ir_int(8, loc) : NULL;
  if (!strcmp(name, "selected_int_kind"))
    return p <= 9 ? ir_int(4, loc) : p <= 18 ? ir_int(8, loc) : NULL;
  return NULL;
}

/* The kind constants of iso_fortran_env and iso_c_binding (gfortran's
 * values on x86-64 and aarch64 Linux) of the types the IR has: 4- and
 * 8-byte integers and reals. */
static IrSym *env_kind(FortranFe *f, const char *name, TSNode at)
{
  static const struct { const char *name; long kind; } kinds[] = {
    { "real32", 4 }, { "real64", 8 }, { "int32", 4 }, { "int64", 8 },
    { "c_int", 4 }, { "c_int32_t", 4 }, { "c_long", 8 }, { "c_long_long", 8 },
    { "c_int64_t", 8 }, { "c_size_t", 8 }, { "c_intptr_t", 8 }, { "c_ptrdiff_t", 8 },
    { "c_float", 4 }, { "c_double", 8 }, { NULL, 0 },
  };
  for (int i = 0; kinds[i].name; i++)
    if (!strcmp(kinds[i].name, name)) {
      IrSym *s = new_sym(f, current_table(f), name, at);
      s->kind = IR_SYM_PARAM;
      s->type = IR_T_INT;
      s->init = ir_int(kinds[i].kind, s->loc);
      return s;
    }
  return NULL;
}

static const StmtFn *find_stmt_fn(FortranFe *f, const char *name)
{
  const StmtFns *fns = f->routine ? f->routine->frontend_private : NULL;
  for (int i = 0; fns && i < fns->n; i++)
    if (!strcmp(fns->v[i].name, name))
      return &fns->v[i];
  return NULL;
}

/* Looking, in a COMMON statement, for an array declarator `name(...)`. */
typedef struct CommonArray {
  FortranFe *f;
  const char *name;
  bool found;
} CommonArray;

static FeWalk find_common_array(TSNode n, void *ctx)
{
  CommonArray *c = ctx;
  if (!fe_is(n, "sized_declarator"))
    return FE_WALK_INTO;
  c->found |= !strcmp(fe_text_lower(&c->f->cx, ts_node_named_child(n, 0)), c->name);
  return c->found ? FE_WALK_STOP : FE_WALK_SKIP;
}

/* Does a COMMON statement before `stmt` give `name` dimensions?  (The
 * symbol table does not record them: such an array looks like a scalar.) */
static bool dimensioned_in_common(FortranFe *f, TSNode stmt, const char *name)
{
  CommonArray c = { f, name, false };
  for (TSNode p = ts_node_prev_named_sibling(stmt); !ts_node_is_null(p) && !c.found;
       p = ts_node_prev_named_sibling(p))
    if (fe_is(p, "common_statement"))
      fe_walk(p, find_common_array, &c);
  return c.found;
}

/* assignment_statement `f(x, y) = expr` in the specification part, with f
 * not an array: a statement function.  Record it. */
static bool read_stmt_fn(FortranFe *f, TSNode n)
{
  if (!fe_is(n, "assignment_statement"))
    return false;
  TSNode lhs = ts_node_child_by_field_name(n, "left", 4);
  if (!fe_is(lhs, "call_expression"))
    return false;
  char *name = fe_text_lower(&f->cx, ts_node_named_child(lhs, 0));
  IrSym *s = ir_lookup(f->routine, name);
  if ((s && (s->rank || high_rank_of(f, s))) || dimensioned_in_common(f, n, name))
    return false;                 /* an array element: the first executable statement */
  TSNode list = fe_child_of_type(lhs, "argument_list");
  StmtFn fn = { .name = name, .rhs = ts_node_child_by_field_name(n, "right", 5) };
  uint32_t count = ts_node_is_null(list) ? 0 : ts_node_named_child_count(list);
  for (uint32_t i = 0; i < count; i++) {
    TSNode a = ts_node_named_child(list, i);
    if (!fe_is(a, "identifier") || fn.nargs == 8)
      return false;
    fn.args[fn.nargs++] = fe_text_lower(&f->cx, a);
  }
  if (!s)
    s = new_sym(f, &f->routine->symbols, name, lhs);
  fn.result = s;
  StmtFns *fns = f->routine->frontend_private;
  if (!fns)
    f->routine->frontend_private = fns = ir_alloc(sizeof *fns);
  IR_PUSH(fns->v, fns->n, fn);
  return true;
}

/* The statement functions one statement function refers to: by index in
 * the routine's list, with the first reference to each. */
typedef struct StmtFnRefs {
  FortranFe *f;
  const StmtFns *fns;
  int n;
  int *to;
  TSNode *at;
} StmtFnRefs;

static FeWalk collect_stmt_fn_ref(TSNode n, void *ctx)
{
  StmtFnRefs *r = ctx;
  if (!fe_is(n, "call_expression"))
    return FE_WALK_INTO;
  TSNode id = ts_node_named_child(n, 0);
  char *name = fe_text_lower(&r->f->cx, id);
  for (int j = 0; j < r->fns->n; j++)
    if (!strcmp(r->fns->v[j].name, name)) {
      for (int k = 0; k < r->n; k++)
        if (r->to[k] == j)
          return FE_WALK_INTO;
      r->to[r->n] = j;
      r->at[r->n++] = id;
    }
  return FE_WALK_INTO;
}

/* A path of references from statement function `from` back to `target`,
 * breadth first: fills via[] (the functions after `from`, ending with
 * `target`) and returns its length, or 0 when there is none. */
static int path_back(const StmtFnRefs *refs, int nfns, int from, int target, int *via)
{
  int *pred = ir_alloc(sizeof *pred * (size_t)nfns), *queue = ir_alloc(sizeof *queue * (size_t)nfns);
  for (int j = 0; j < nfns; j++)
    pred[j] = -2;
  int head = 0, tail = 0;
  queue[tail++] = from;
  pred[from] = -1;
  while (head < tail) {
    int u = queue[head++];
    for (int k = 0; k < refs[u].n; k++) {
      int v = refs[u].to[k];
      if (v == target) {
        int len = 0;
        for (int w = u; w != from; w = pred[w])
          via[len++] = w;
        for (int a = 0, b = len - 1; a < b; a++, b--) {
          int t = via[a];
          via[a] = via[b];
          via[b] = t;
        }
        via[len++] = target;
        return len;
      }
      if (pred[v] == -2) {
        pred[v] = u;
        queue[tail++] = v;
      }
    }
  }
  return 0;
}

/* Report recursive statement function i (the path of references via[0..n)
 * leads from it back to itself) at its reference to via[0]. */
static void report_recursion(FortranFe *f, StmtFns *fns, const StmtFnRefs *refs, int i,
                             const int *via, int n)
{
  TSNode at = { 0 };
  for (int k = 0; k < refs[i].n; k++)
    if (refs[i].to[k] == via[0])
      at = refs[i].at[k];
  const char *name = fns->v[i].name;
  if (n == 1) {
    fe_error(&f->cx, at, "statement function '%s' refers to itself; statement functions cannot "
             "be recursive", name);
  } else {
    char *chain = ir_strdup(name);
    for (int k = 0; k < n; k++)
      chain = ir_printf("%s -> %s", chain, fns->v[via[k]].name);
    fe_error(&f->cx, at, "statement function '%s' refers to itself through '%s' (%s); statement "
             "functions cannot be recursive", name, fns->v[via[0]].name, chain);
  }
  fns->v[i].recursive = true;
  for (int k = 0; k < n; k++)
    fns->v[via[k]].recursive = true;
}

/* Fortran forbids a statement function to refer to itself, directly or
 * through others (expanding it would never end).  Report each cycle once,
 * at the definition of its first function; the functions on it are never
 * expanded. */
static void check_stmt_fn_recursion(FortranFe *f)
{
  StmtFns *fns = f->routine->frontend_private;
  if (!fns)
    return;
  StmtFnRefs *refs = ir_alloc(sizeof *refs * (size_t)fns->n);
  for (int i = 0; i < fns->n; i++) {
    refs[i] = (StmtFnRefs){ f, fns, 0, ir_alloc(sizeof(int) * (size_t)fns->n),
                            ir_alloc(sizeof(TSNode) * (size_t)fns->n) };
    fe_walk(fns->v[i].rhs, collect_stmt_fn_ref, &refs[i]);
  }
  int *via = ir_alloc(sizeof *via * (size_t)(fns->n + 1));
  for (int i = 0; i < fns->n; i++) {
    int n = fns->v[i].recursive ? 0 : path_back(refs, fns->n, i, i, via);
    if (n)
      report_recursion(f, fns, refs, i, via, n);
  }
}

/* A use of statement function fn: its expression with the actuals (as the
 * dummies' types) in place of the dummies, as the function's type. */
static IrExpr *expand_stmt_fn(FortranFe *f, const StmtFn *fn, TSNode n, IrExpr **args, int nargs)
{
  if (fn->recursive)
    return NULL;               /* reported at its definition */
  if (nargs != fn->nargs) {
    fe_error(&f->cx, n, "statement function '%s' takes %d argument%s, not %d", fn->name,
             fn->nargs, fn->nargs == 1 ? "" : "s", nargs);
    return NULL;
  }
  StmtFnScope scope = { fn, { NULL }, f->scope };
  for (int i = 0; i < nargs; i++) {
    IrSym *d = ir_lookup(f->routine, fn->args[i]);
    IrType t = d && d->type != IR_T_VOID ? d->type : implicit_type(fn->args[i]);
    scope.actual[i] = ir_convert(args[i], t);
  }
  const StmtFnScope *saved = f->scope;
  f->scope = &scope;
  IrExpr *e = lower_expr(f, fn->rhs);
  f->scope = saved;
  if (!e)
    return NULL;
  IrType t = fn->result->type != IR_T_VOID ? fn->result->type : implicit_type(fn->name);
  return ir_convert(e, t);
}

/* present(x) for an OPTIONAL dummy x: kept as IR_FN_PRESENT; the inliner
 * knows whether the call passes x and folds it. */
static IrExpr *lower_present(FortranFe *f, TSNode n, TSNode list)
{
  TSNode a = ts_node_named_child_count(list) == 1 ? ts_node_named_child(list, 0) : (TSNode){ 0 };
  if (!fe_is(a, "identifier")) {
    fe_error(&f->cx, n, "present() takes the name of one optional dummy argument");
    return NULL;
  }
  f->whole_array_ok = true;
  IrExpr *x = lower_expr(f, a);
  f->whole_array_ok = false;
  if (!x)
    return NULL;
  if (x->kind != IR_E_VAR || !x->u.var->is_optional) {
    fe_error(&f->cx, a, "'%s' is not an optional dummy argument", fe_text_lower(&f->cx, a));
    return NULL;
  }
  IrExpr *e = ir_expr_new(IR_E_CALL, IR_T_LOGICAL, fe_loc(&f->cx, n));
  e->u.call.fn = IR_FN_PRESENT;
  e->u.call.n = 1;
  e->u.call.args = ir_alloc(sizeof *e->u.call.args);
  e->u.call.args[0] = x;
  return e;
}

/* ---- functions of the program, called inside regions ------------------------- */

/* The name of function node n's result: RESULT(name), or the function's. */
static const char *function_result_name(FortranFe *f, TSNode n)
{
  TSNode stmt = ts_node_named_child(n, 0);
  TSNode res = fe_child_of_type(stmt, "function_result");
  if (!ts_node_is_null(res) && ts_node_named_child_count(res))
    return fe_text_lower(&f->cx, ts_node_named_child(res, 0));
  TSNode name = ts_node_child_by_field_name(stmt, "name", 4);
  return ts_node_is_null(name) ? "" : fe_text_lower(&f->cx, name);
}

/* The function named `name` among the procedures of `scope` (a module's
 * internal_procedures, or the translation unit), or a null node. */
static TSNode function_in(FortranFe *f, TSNode scope, const char *name)
{
  uint32_t count = ts_node_is_null(scope) ? 0 : ts_node_named_child_count(scope);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(scope, i);
    if (fe_is(c, "internal_procedures"))
      return function_in(f, c, name);
    TSNode stmt = ts_node_named_child(c, 0);
    TSNode id = fe_is(c, "function") ? ts_node_child_by_field_name(stmt, "name", 4) : (TSNode){ 0 };
    if (!ts_node_is_null(id) && !strcmp(fe_text_lower(&f->cx, id), name))
      return c;
  }
  return (TSNode){ 0 };
}

/* The type of function node n's result: the type before FUNCTION, or the
 * declaration of its result variable, or the implicit type. */
static bool function_type(FortranFe *f, TSNode n, IrType *out)
{
  TSNode stmt = ts_node_named_child(n, 0);
  TSNode type = ts_node_child_by_field_name(stmt, "type", 4);
  if (!ts_node_is_null(type))
    return read_type(f, type, out);
  const char *result = function_result_name(f, n);
  for (uint32_t i = 1; i < ts_node_named_child_count(n); i++) {
    TSNode d = ts_node_named_child(n, i);
    if (!fe_is(d, "variable_declaration"))
      continue;
    for (uint32_t k = 0; k < ts_node_child_count(d); k++) {
      const char *field = ts_node_field_name_for_child(d, k);
      TSNode decl = ts_node_child(d, k);
      if (fe_is(decl, "sized_declarator") || fe_is(decl, "init_declarator"))
        decl = ts_node_named_child(decl, 0);
      if (field && !strcmp(field, "declarator") && !strcmp(fe_text_lower(&f->cx, decl), result))
        return read_type(f, ts_node_child_by_field_name(d, "type", 4), out);
    }
  }
  *out = implicit_type(result);
  return true;
}

/* A reference f(args) inside a region to a function of this file (its
 * module, or outside any module), or of the type `declared` (an external
 * function the routine declares): kept as IR_FN_USER for the inliner, its
 * body lowered with the called routines'.  NULL when the name is no such
 * function (not reported: the caller says what it is not). */
static TSNode find_function(FortranFe *f, const char *name)
{
  TSNode fn = function_in(f, f->module_node, name);
  return ts_node_is_null(fn) ? function_in(f, f->root, name) : fn;
}

/* A function of the Program already read (earlier in this file, or given
 * to it from elsewhere) whose result has a type, or NULL. */
static const IrRoutine *program_function(FortranFe *f, const char *name)
{
  for (int i = 0; i < f->cx.prog->nroutines; i++) {
    const IrRoutine *r = f->cx.prog->routines[i];
    if (r->is_function && r->result && r->result->type != IR_T_VOID && !strcmp(r->name, name))
      return r;
  }
  return NULL;
}

static IrExpr *lower_user_call(FortranFe *f, TSNode n, TSNode list, const char *name,
                               IrType declared)
{
  TSNode fn = find_function(f, name);
  const IrRoutine *known = program_function(f, name);
  IrType type = declared;
  if (type == IR_T_VOID && known)
    type = known->result->type;
  if (type == IR_T_VOID && (ts_node_is_null(fn) || !function_type(f, fn, &type)))
    return NULL;
  IrExpr *args[16];
  f->whole_array_ok = true;
  int nargs = lower_args(f, list, args, 16, NULL);
  f->whole_array_ok = false;
  if (nargs < 0)
    return NULL;
  IrExpr *e = make_call(IR_FN_USER, type, args, nargs, fe_loc(&f->cx, n));
  e->u.call.name = name;
  IR_PUSH(f->calls, f->ncalls, name);
  return e;
}

/* `v%x` or `v%x(i,j)` in a region: say what it is (a component of a
 * derived-type variable, with the variable's declared type) and what to do,
 * rather than call it a function or an unknown construct. */
static void derived_component_error(FortranFe *f, TSNode member)
{
  char *text = fe_text_lower(&f->cx, member);
  char *base = xstrndup(text, strcspn(text, "%"));
  IrSym *s = lookup(f, base);
  const char *declared = s && s->unsupported_type ? s->unsupported_type : "a derived type";
  fe_error(&f->cx, member, "'%s' is a component of '%s', declared %s: derived types cannot be "
           "used inside a region; pass the component to this routine as an argument of its "
           "own (the caller passing '%s' as the actual) and use that in the region", text, base,
           declared, text);
  free(base);
}

/* call_expression: identifier argument_list — an array element, an
 * intrinsic function, a conversion or a function of the program. */
static IrExpr *lower_call_expr(FortranFe *f, TSNode n)
{
  TSNode id = ts_node_named_child(n, 0);
  if (fe_is(id, "derived_type_member_expression")) {
    derived_component_error(f, id);
    return NULL;
  }
  TSNode list = fe_child_of_type(n, "argument_list");
  char *name = fe_text_lower(&f->cx, id);
  IrSym *s = lookup(f, name);
  if (s && s->from_missing) {
    blame_missing(f, s->from_missing, name, true);
    return NULL;
  }
  int errors = diag_error_count();
  if (s && !usable_rank(f, s, fe_loc(&f->cx, id), fe_width(&f->cx, id)))
    return NULL;
  if (s && s->rank > 0)
    return lower_element(f, s, n, list);
  if (s && s->type != IR_T_VOID && s->kind == IR_SYM_VAR && !find_intrinsic(name) &&
      !find_stmt_fn(f, name)) {
    IrExpr *call = f->region && !s->is_dummy ? lower_user_call(f, n, list, name, s->type) : NULL;
    if (!call && diag_error_count() == errors)
      fe_error(&f->cx, id, "'%s' is a scalar, not an array or function", name);
    return call;
  }
  if (!strcmp(name, "present") && (!s || s->kind != IR_SYM_VAR || s->type == IR_T_VOID))
    return lower_present(f, n, list);
  if (f->region && !find_stmt_fn(f, name) && !find_intrinsic(name) &&
      (!ts_node_is_null(find_function(f, name)) || program_function(f, name)))
    return lower_user_call(f, n, list, name, IR_T_VOID);
  const Reduction *rd = find_reduction(name);
  if (rd && f->region && !find_stmt_fn(f, name) && (!s || s->kind != IR_SYM_VAR || s->type == IR_T_VOID))
    return lower_reduction(f, rd, n, list);
  IrExpr *args[16];
  TSNode kind_arg = { 0 };
  int nargs = lower_args(f, list, args, 16, &kind_arg);
  if (nargs < 0)
    return NULL;
  const StmtFn *sfn = find_stmt_fn(f, name);
  if (sfn)
    return expand_stmt_fn(f, sfn, n, args, nargs);
  if (is_conversion(name))
    return lower_conversion(f, name, n, args, nargs, kind_arg);
  if (!strcmp(name, "merge") && nargs == 3) {
    IrExpr *e = ir_expr_new(IR_E_COND, ir_promote(args[0]->type, args[1]->type), fe_loc(&f->cx, n));
    e->u.cond.test = args[2];
    e->u.cond.then = ir_convert(args[0], e->type);
    e->u.cond.els = ir_convert(args[1], e->type);
    return e;
  }
  const Intrinsic *in = find_intrinsic(name);
  if (in)
    return lower_intrinsic(f, in, n, args, nargs);
  IrExpr *kind = kind_inquiry(f, name, args, nargs, fe_loc(&f->cx, n));
  if (kind)
    return kind;
  IrMissingUse *missing = s ? NULL : missing_cause(f, name, NULL);
  if (missing) {
    blame_missing(f, missing, name, false);
    return NULL;
  }
  if (!f->region)
    fe_error(&f->cx, id, "cannot evaluate '%s' here; s2s-cuda knows the kind inquiries kind, "
             "selected_real_kind and selected_int_kind", name);
  else
    fe_error(&f->cx, id, "call of function '%s' inside a region: it is neither an intrinsic "
             "function s2s-cuda knows nor a function of this file, which it would inline", name);
  return NULL;
}

static IrExpr *lower_identifier(FortranFe *f, TSNode n)
{
  if (f->scope) {
    char *name = fe_text_lower(&f->cx, n);
    for (int i = 0; i < f->scope->fn->nargs; i++)
      if (!strcmp(f->scope->fn->args[i], name))
        return f->scope->actual[i];
  }
  IrSym *s = resolve(f, n);
  if (!s || !usable_rank(f, s, fe_loc(&f->cx, n), fe_width(&f->cx, n)))
    return NULL;
  if (s->rank > 0 && !f->whole_array_ok && f->region)
    return whole_array(f, s, n);
  if (s->rank > 0 && !f->whole_array_ok) {
    fe_error(&f->cx, n, "whole array '%s' cannot be evaluated here", s->name);
    return NULL;
  }
  return ir_var(s, fe_loc(&f->cx, n));
}

static IrExpr *lower_expr_node(FortranFe *f, TSNode n)
{
  const char *type = ts_node_type(n);
  if (!strcmp(type, "number_literal"))
    return lower_number(f, n);
  if (!strcmp(type, "identifier"))
    return lower_identifier(f, n);
  if (!strcmp(type, "parenthesized_expression"))
    return lower_expr(f, ts_node_named_child(n, 0));
  if (!strcmp(type, "math_expression") || !strcmp(type, "relational_expression") ||
      !strcmp(type, "logical_expression"))
    return lower_operator(f, n);
  if (!strcmp(type, "unary_expression"))
    return lower_unary(f, n);
  if (!strcmp(type, "call_expression"))
    return lower_call_expr(f, n);
  if (!strcmp(type, "boolean_literal")) {
    IrExpr *e = ir_expr_new(IR_E_LOGICAL, IR_T_LOGICAL, fe_loc(&f->cx, n));
    e->u.ival = strstr(fe_text_lower(&f->cx, n), "true") != NULL;
    return e;
  }
  if (!strcmp(type, "derived_type_member_expression")) {
    derived_component_error(f, n);
    return NULL;
  }
  fe_error(&f->cx, n, "%s is not supported inside a region", construct_text(type));
  return NULL;
}

/* Lower expression n, at most FE_MAX_EXPR_DEPTH levels deep (counting the
 * expressions of statement functions it uses).  One error per expression:
 * the operands beside a too deep one may be too deep as well. */
static IrExpr *lower_expr(FortranFe *f, TSNode n)
{
  if (f->expr_depth == FE_MAX_EXPR_DEPTH) {
    if (!f->expr_too_deep)
      diag_at(DIAG_ERROR, fe_loc(&f->cx, n), 1, "expression nested more than %d levels deep; "
              "split it into several statements", FE_MAX_EXPR_DEPTH);
    f->expr_too_deep = true;
    return NULL;
  }
  f->expr_depth++;
  IrExpr *e = lower_expr_node(f, n);
  if (--f->expr_depth == 0)
    f->expr_too_deep = false;
  return e;
}

/* ---- control flow: loops without an index, EXIT and CYCLE, GOTO, RETURN ----

 * Everything stays structured (ir.h: a jump's target is a statement
 * around it).  DO WHILE and `do ... end do` become IR_S_WHILE, named
 * constructs keep their names for EXIT and CYCLE, and an early RETURN of
 * a routine a region calls becomes an EXIT of the block around its body.
 * A GOTO is structured when the statement list holding its label is
 * finished: the label must be in that list and the GOTO inside one of its
 * statements (the GOTO's own list, or one around it: a jump into a
 * construct is refused).  Then, for label L at index p of the list:
 *   - GOTOs from statements at p or after (backward) make statements p..q
 *     a loop, `L: do; ...; exit L; end do`, q the last of them, each GOTO
 *     a `cycle L`;
 *   - GOTOs from statements before p (forward) make statements o..p-1 a
 *     block, `L: block; ...; end block`, o the first of them, each GOTO an
 *     `exit L`.
 * Two such spans that overlap without nesting are made to nest by
 * stretching one of them where that keeps its meaning: a loop may end
 * later (what it gains runs once after its last iteration, as before) and
 * a block may start earlier (what it gains runs before any of its exits);
 * neither can move its label.  The one shape left, a block that starts
 * before a loop and ends inside it, is a jump into the loop: refused. */

static FeJumps *jumps_of(FortranFe *f)
{
  return &f->jumps;
}

/* Construct name of a DO or IF node (`outer: do k = ...`), or NULL. */
static const char *construct_name(FortranFe *f, TSNode n)
{
  TSNode start = fe_child_of_type(n, "block_label_start_expression");
  if (ts_node_is_null(start))
    return NULL;
  return fe_text_lower(&f->cx, ts_node_child(start, 0));   /* the name, before the colon */
}

static void open_loop(FortranFe *f, IrStmt *loop)
{
  FeJumps *j = jumps_of(f);
  IR_APPEND(j->loops, j->nloops, j->loops_cap, loop);
}

/* The loop an EXIT or CYCLE naming `name` (NULL: none) leaves, or NULL. */
static IrStmt *open_loop_named(FortranFe *f, const char *name)
{
  FeJumps *j = jumps_of(f);
  for (int i = j->nloops - 1; i >= 0; i--)
    if (!name || (j->loops[i]->u.loop.name && !strcmp(j->loops[i]->u.loop.name, name)))
      return j->loops[i];
  return NULL;
}

/* keyword_statement: 'exit' [name] | 'cycle' [name] */
static IrStmt *lower_loop_jump(FortranFe *f, TSNode n, IrStmtKind kind)
{
  TSNode id = fe_child_of_type(n, "identifier");
  const char *name = ts_node_is_null(id) ? NULL : fe_text_lower(&f->cx, id);
  const char *what = kind == IR_S_EXIT ? "EXIT" : "CYCLE";
  if (!open_loop_named(f, name)) {
    if (name)
      fe_error(&f->cx, id, "%s names '%s', which is not a DO loop around it in the %s", what,
               name, f->inlining ? "routine" : "region");
    else
      fe_error(&f->cx, n, "%s outside every DO loop of the %s: a jump out of %s is not "
               "supported", what, f->inlining ? "routine" : "region",
               f->inlining ? "a routine that a region calls" : "a region");
    return NULL;
  }
  IrStmt *s = ir_stmt(kind, fe_loc(&f->cx, n));
  s->u.jump.name = name;
  return s;
}

/* keyword_statement: 'go' 'to' label | 'goto' label — an EXIT until its
 * label's list is finished (structure_gotos). */
static IrStmt *lower_goto(FortranFe *f, TSNode n)
{
  uint32_t count = ts_node_named_child_count(n);
  TSNode target = fe_child_of_type(n, "statement_label_reference");
  if (count != 1 || ts_node_is_null(target)) {
    fe_error(&f->cx, n, "computed or assigned GOTO is not supported inside a region; write it "
             "as IF (...) GO TO statements, which are");
    return NULL;
  }
  IrStmt *s = ir_stmt(IR_S_EXIT, fe_loc(&f->cx, n));
  FeGoto g = { atol(fe_text(&f->cx, target)), s, -1, fe_width(&f->cx, n) };
  FeJumps *j = jumps_of(f);
  IR_APPEND(j->gotos, j->ngotos, j->gotos_cap, g);
  return s;
}

/* A RETURN of a routine a region calls: an EXIT of the block that
 * lower_body puts around the inlined body. */
static IrStmt *lower_return(FortranFe *f, TSNode n)
{
  IrStmt *s = ir_stmt(IR_S_EXIT, fe_loc(&f->cx, n));
  s->u.jump.name = IR_RETURN_NAME;
  jumps_of(f)->returns = true;
  return s;
}

static int label_pos(const FeLabel *v, int n, long label)
{
  for (int i = 0; i < n; i++)
    if (v[i].label == label)
      return i;
  return -1;
}

static void refuse_goto(FeGoto *g, const char *why)
{
  diag_at(DIAG_ERROR, g->jump->loc, g->width, "GOTO %ld %s", g->label, why);
  g->label = 0;
}

/* Statements lo..hi of a list become a loop (backward GOTOs to `label`,
 * which is at lo) or a block (forward GOTOs; the label is at hi + 1). */
typedef struct Span {
  int lo, hi;
  bool loop;
  long label;
  FeGoto *blame;             /* a GOTO that makes it, for a refusal */
} Span;

static bool crosses(const Span *a, const Span *b)
{
  return a->lo < b->lo && b->lo <= a->hi && a->hi < b->hi;
}

/* Make spans a and b (a starting first) nest, if that keeps their meaning. */
static bool make_nest(Span *a, Span *b)
{
  if (a->loop) {
    a->hi = b->hi;               /* a loop ends later: b's statements run once after it */
    return true;
  }
  if (!b->loop) {
    b->lo = a->lo;               /* a block starts earlier */
    return true;
  }
  return false;                  /* block a starts before loop b and ends inside it */
}

/* Two spans that overlap without nesting: *a starts first. */
static bool find_crossing(const Span *v, int n, int *a, int *b)
{
  for (*a = 0; *a < n; (*a)++)
    for (*b = 0; *b < n; (*b)++)
      if (*a != *b && crosses(&v[*a], &v[*b]))
        return true;
  return false;
}

/* Stretch the spans until they nest; refuse a block that jumps into a
 * loop (its GOTOs: the first one reported).  Returns how many spans are
 * left. */
static int nest_spans(FeJumps *j, int mark, Span *v, int n)
{
  int a, b;
  while (find_crossing(v, n, &a, &b)) {
    if (make_nest(&v[a], &v[b]))
      continue;
    refuse_goto(v[a].blame, ir_printf("jumps into the loop that the GOTO %ld at line %d forms; "
                "only jumps out of a loop, or within it, are supported", v[b].label,
                diag_user_line(v[b].blame->jump->loc)));
    for (int k = mark; k < j->ngotos; k++)
      if (j->gotos[k].label == v[a].label && j->gotos[k].top < v[a].hi + 1)
        j->gotos[k].label = 0;
    v[a] = v[--n];
  }
  return n;
}

static int span_order(const void *x, const void *y)
{
  const Span *a = x, *b = y;
  if (a->lo != b->lo)
    return a->lo - b->lo;
  if (a->hi != b->hi)
    return b->hi - a->hi;       /* the larger one outside */
  return (int)b->loop - (int)a->loop;
}

/* The name of the innermost loop around the list being finished (made up
 * when the user gave it none), for the jumps a GOTO loop would capture. */
static const char *enclosing_loop_name(FortranFe *f)
{
  IrStmt *loop = open_loop_named(f, NULL);
  if (!loop)
    S2S_BUG("EXIT or CYCLE outside every loop was lowered");
  if (!loop->u.loop.name)
    loop->u.loop.name = ir_printf("(do@%d)", diag_user_line(loop->loc));
  return loop->u.loop.name;
}

/* Unnamed EXITs and CYCLEs of l that a new loop around l would capture
 * (those not inside a loop of l) name their own loop instead. */
static void name_unnamed_jumps(FortranFe *f, IrStmtList *l)
{
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i];
    if ((s->kind == IR_S_EXIT || s->kind == IR_S_CYCLE) && !s->u.jump.name)
      s->u.jump.name = enclosing_loop_name(f);
    else if (s->kind == IR_S_IF) {
      name_unnamed_jumps(f, &s->u.cond.then);
      name_unnamed_jumps(f, &s->u.cond.els);
    } else if (s->kind == IR_S_BLOCK)
      name_unnamed_jumps(f, &s->u.loop.body);
  }
}

/* Statements lo..hi of `in`, with the spans from *next on (in span_order)
 * that lie inside them made loops and blocks, into out. */
static void build_spans(FortranFe *f, IrStmtList *in, int lo, int hi, Span *spans, int nspans,
                        int *next, IrStmtList *out)
{
  for (int i = lo; i <= hi;) {
    if (*next >= nspans || spans[*next].lo != i) {
      ir_list_push(out, in->v[i++]);
      continue;
    }
    Span *sp = &spans[(*next)++];
    IrStmt *w = ir_stmt(sp->loop ? IR_S_WHILE : IR_S_BLOCK, in->v[sp->lo]->loc);
    w->u.loop.name = ir_printf("%ld", sp->label);
    build_spans(f, in, sp->lo, sp->hi, spans, nspans, next, &w->u.loop.body);
    if (sp->loop) {
      name_unnamed_jumps(f, &w->u.loop.body);
      IrStmt *leave = ir_stmt(IR_S_EXIT, in->v[sp->hi]->loc);
      leave->u.jump.name = w->u.loop.name;
      ir_list_push(&w->u.loop.body, leave);
    }
    ir_list_push(out, w);
    i = sp->hi + 1;
  }
}

/* The span of the GOTOs to one label from one side, made or grown. */
static void add_span(Span **v, int *n, int *cap, FeGoto *g, int pos)
{
  bool loop = g->top >= pos;
  for (int i = 0; i < *n; i++) {
    Span *sp = &(*v)[i];
    if (sp->label != g->label || sp->loop != loop)
      continue;
    if (loop && g->top > sp->hi)
      sp->hi = g->top;
    if (!loop && g->top < sp->lo)
      sp->lo = g->top;
    return;
  }
  Span sp = { loop ? pos : g->top, loop ? g->top : pos - 1, loop, g->label, g };
  IR_APPEND(*v, *n, *cap, sp);
}

/* List `out` is finished: its labels are `labels`, the GOTOs lowered in it
 * are gotos[mark..).  Structure those that jump to its labels; refuse
 * those that jump into it from outside, or into a list already finished. */
static void structure_gotos(FortranFe *f, IrStmtList *out, const FeLabel *labels, int nlabels,
                            int mark)
{
  FeJumps *j = jumps_of(f);
  for (int k = 0; k < mark; k++)
    if (j->gotos[k].label && label_pos(labels, nlabels, j->gotos[k].label) >= 0)
      refuse_goto(&j->gotos[k], ir_printf("jumps into a construct (to line %d); only jumps to a "
                  "label of the same or an enclosing statement list are supported",
                  diag_user_line(labels[label_pos(labels, nlabels, j->gotos[k].label)].loc)));
  Span *spans = NULL;
  int nspans = 0, cap = 0;
  for (int k = mark; k < j->ngotos; k++) {
    FeGoto *g = &j->gotos[k];
    int at = g->label ? label_pos(labels, nlabels, g->label) : -1;
    int closed = g->label ? label_pos(j->closed, j->nclosed, g->label) : -1;
    if (at < 0 && closed >= 0)
      refuse_goto(g, ir_printf("jumps into a construct (to line %d); only jumps to a label of "
                  "the same or an enclosing statement list are supported",
                  diag_user_line(j->closed[closed].loc)));
    if (at >= 0)
      add_span(&spans, &nspans, &cap, g, labels[at].pos);
  }
  nspans = nest_spans(j, mark, spans, nspans);
  if (nspans) {
    qsort(spans, (size_t)nspans, sizeof *spans, span_order);
    IrStmtList built = { 0, 0, NULL };
    int next = 0;
    build_spans(f, out, 0, out->n - 1, spans, nspans, &next, &built);
    *out = built;
  }
  int kept = mark;
  for (int k = mark; k < j->ngotos; k++) {
    FeGoto *g = &j->gotos[k];
    int at = g->label ? label_pos(labels, nlabels, g->label) : -1;
    if (at >= 0) {
      bool back = g->top >= labels[at].pos;
      g->jump->kind = back ? IR_S_CYCLE : IR_S_EXIT;
      g->jump->u.jump.name = ir_printf("%ld", g->label);
    } else if (g->label)
      j->gotos[kept++] = *g;
  }
  j->ngotos = kept;
  for (int i = 0; i < nlabels; i++)
    IR_APPEND(j->closed, j->nclosed, j->closed_cap, labels[i]);
}

/* The body is finished: a GOTO still waiting jumps out of it. */
static void refuse_open_gotos(FortranFe *f)
{
  FeJumps *j = jumps_of(f);
  for (int k = 0; k < j->ngotos; k++)
    if (j->gotos[k].label)
      refuse_goto(&j->gotos[k], f->inlining
                  ? "jumps out of the routine, which a region calls (its label is not in the "
                    "routine's executable part)"
                  : "jumps out of the region (its label is not inside it); a jump out of a "
                    "region, or into one, is not supported");
  j->ngotos = 0;
}

/* ---- statements ------------------------------------------------------- */

static IrStmt *lower_assignment(FortranFe *f, TSNode n)
{
  TSNode ln = ts_node_child_by_field_name(n, "left", 4);
  IrExpr *lhs = lower_expr(f, ln);
  IrExpr *rhs = lower_expr(f, ts_node_child_by_field_name(n, "right", 5));
  if (!lhs || !rhs)
    return NULL;
  if (lhs->kind != IR_E_VAR && lhs->kind != IR_E_ELEM && lhs->kind != IR_E_SECTION) {
    fe_error(&f->cx, ln, "cannot assign to this expression");
    return NULL;
  }
  if (lhs->kind == IR_E_VAR && lhs->u.var->kind == IR_SYM_PARAM) {
    fe_error(&f->cx, ln, "cannot assign to PARAMETER '%s'", lhs->u.var->name);
    return NULL;
  }
  IrStmt *s = ir_stmt(IR_S_ASSIGN, fe_loc(&f->cx, n));
  s->u.assign.lhs = lhs;
  s->u.assign.rhs = ir_convert(rhs, lhs->type == IR_T_LOGICAL ? IR_T_LOGICAL : lhs->type);
  return s;
}

static bool assigns_to(const IrStmtList *l, const IrSym *iv, Loc *where);

/* do_loop: [name ':'] do_statement('do' ['while' (cond)]) body... end
 * — a loop without an index, run in order in its thread (IR_S_WHILE). */
static IrStmt *lower_do_while(FortranFe *f, TSNode n, TSNode head)
{
  IrStmt *s = ir_stmt(IR_S_WHILE, fe_loc(&f->cx, n));
  TSNode w = fe_child_of_type(head, "while_statement");
  if (!ts_node_is_null(w)) {
    TSNode c = fe_child_of_type(w, "parenthesized_expression");
    if (!(s->u.loop.test = lower_expr(f, c)))
      return NULL;
    if (s->u.loop.test->type != IR_T_LOGICAL) {
      fe_error(&f->cx, c, "the condition of DO WHILE must be logical, not %s",
               ir_type_name(s->u.loop.test->type));
      return NULL;
    }
  }
  if (f->pending_do) {
    fe_error(&f->cx, f->pending_do_node, "'%s' applies to counted DO loops; a DO %sloop runs in "
             "order inside its thread", dir_spelling(f->pending_do, DIR_FORTRAN),
             ts_node_is_null(w) ? "" : "WHILE ");
    f->pending_do = NULL;
  }
  s->u.loop.name = construct_name(f, n);
  open_loop(f, s);
  lower_block(f, n, 1, ts_node_named_child_count(n), &s->u.loop.body);
  jumps_of(f)->nloops--;
  return s;
}

/* do_loop: [name ':'] do_statement(loop_control_expression: iv '=' lo ',' hi [',' step])
 * body... end */
static IrStmt *lower_do(FortranFe *f, TSNode n)
{
  TSNode head = fe_child_of_type(n, "do_statement");
  TSNode ctl = fe_child_of_type(head, "loop_control_expression");
  if (ts_node_is_null(ctl))
    return lower_do_while(f, n, head);
  IrStmt *s = ir_stmt(IR_S_DO, fe_loc(&f->cx, n));
  TSNode ivn = ts_node_named_child(ctl, 0);
  IrExpr *iv = lower_expr(f, ivn);
  if (!iv)
    return NULL;
  if (iv->kind != IR_E_VAR || !ir_type_is_integer(iv->type)) {
    fe_error(&f->cx, ivn, "the DO variable must be an integer scalar");
    return NULL;
  }
  s->u.loop.iv = iv->u.var;
  s->u.loop.lo = lower_expr(f, ts_node_named_child(ctl, 1));
  s->u.loop.hi = lower_expr(f, ts_node_named_child(ctl, 2));
  if (ts_node_named_child_count(ctl) > 3)
    s->u.loop.step = lower_expr(f, ts_node_named_child(ctl, 3));
  if (!s->u.loop.lo || !s->u.loop.hi || (ts_node_named_child_count(ctl) > 3 && !s->u.loop.step))
    return NULL;
  s->u.loop.lo = ir_convert(s->u.loop.lo, iv->type);
  s->u.loop.hi = ir_convert(s->u.loop.hi, iv->type);
  long step;
  if (s->u.loop.step && (!ir_eval_const(s->u.loop.step, &step) || step == 0)) {
    fe_error(&f->cx, ts_node_named_child(ctl, 3),
             "the step of a DO loop inside a region must be a nonzero integer constant");
    return NULL;
  }
  if (f->pending_do) {
    s->u.loop.advice = f->pending_do;
    f->pending_do = NULL;
  }
  uint32_t count = ts_node_named_child_count(n);
  s->u.loop.name = construct_name(f, n);
  open_loop(f, s);
  lower_block(f, n, 1, count, &s->u.loop.body);
  jumps_of(f)->nloops--;
  Loc where;
  if (assigns_to(&s->u.loop.body, s->u.loop.iv, &where)) {
    diag_at(DIAG_ERROR, where, 1, "the DO variable '%s' is assigned inside its loop",
            s->u.loop.iv->name);
    return NULL;
  }
  return s;
}

static bool assigns_to(const IrStmtList *l, const IrSym *iv, Loc *where)
{
  for (int i = 0; i < l->n; i++) {
    const IrStmt *s = l->v[i];
    if (s->kind == IR_S_ASSIGN && s->u.assign.lhs->kind == IR_E_VAR &&
        s->u.assign.lhs->u.var == iv) {
      *where = s->loc;
      return true;
    }
    if (s->kind == IR_S_DO && (s->u.loop.iv == iv || assigns_to(&s->u.loop.body, iv, where))) {
      *where = s->loc;
      return true;
    }
    if (s->kind == IR_S_IF &&
        (assigns_to(&s->u.cond.then, iv, where) || assigns_to(&s->u.cond.els, iv, where)))
      return true;
  }
  return false;
}

/* The parenthesized logical expression of n (`what` names it in the
 * error when it is not logical). */
static IrExpr *lower_logical(FortranFe *f, TSNode n, const char *what)
{
  TSNode c = fe_child_of_type(n, "parenthesized_expression");
  IrExpr *e = lower_expr(f, c);
  if (e && e->type != IR_T_LOGICAL) {
    fe_error(&f->cx, c, "%s must be logical, not %s", what, ir_type_name(e->type));
    return NULL;
  }
  return e;
}

static IrExpr *lower_condition(FortranFe *f, TSNode n)
{
  return lower_logical(f, n, "the condition of IF");
}

/* Index of the first named child of n with one of the given types, from `from`. */
static uint32_t find_child(TSNode n, uint32_t from, const char *t1, const char *t2, const char *t3)
{
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = from; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (fe_is(c, t1) || (t2 && fe_is(c, t2)) || (t3 && fe_is(c, t3)))
      return i;
  }
  return count;
}

/* Enter construct n (an IF, ELSE IF or DO): false, reported once per
 * outermost construct, when that would nest more than FE_MAX_STMT_DEPTH
 * deep.  Every true is matched by a leave_construct. */
static bool enter_construct(FortranFe *f, TSNode n)
{
  if (f->stmt_depth == FE_MAX_STMT_DEPTH) {
    if (!f->stmt_too_deep)
      diag_at(DIAG_ERROR, fe_loc(&f->cx, n), 1, "statements nested more than %d levels deep in a "
              "region (each ELSE IF counts as one); split or flatten them", FE_MAX_STMT_DEPTH);
    f->stmt_too_deep = true;
    return false;
  }
  f->stmt_depth++;
  return true;
}

static void leave_construct(FortranFe *f)
{
  if (--f->stmt_depth == 0)
    f->stmt_too_deep = false;
}

static IrStmt *lower_if_clauses(FortranFe *f, TSNode n, uint32_t clause);

/* The IF (clause 0) or ELSE IF (clause > 0) of if_statement n and the
 * clauses after it: one construct level more. */
static IrStmt *lower_if_chain(FortranFe *f, TSNode n, uint32_t clause)
{
  if (!enter_construct(f, clause ? ts_node_named_child(n, clause) : n))
    return NULL;
  IrStmt *s = lower_if_clauses(f, n, clause);
  leave_construct(f);
  return s;
}

/* if_statement: 'if' (cond) 'then' stmts elseif_clause* else_clause? end_if_statement
 *             | 'if' (cond) stmt                       (logical IF)
 * elseif_clause: 'else' 'if' (cond) 'then' stmts;  else_clause: 'else' stmts */
static IrStmt *lower_if_clauses(FortranFe *f, TSNode n, uint32_t clause)
{
  IrStmt *s = ir_stmt(IR_S_IF, fe_loc(&f->cx, n));
  TSNode head = clause ? ts_node_named_child(n, clause) : n;
  if (!(s->u.cond.test = lower_condition(f, head)))
    return NULL;
  if (clause)
    lower_block(f, head, 1, ts_node_named_child_count(head), &s->u.cond.then);
  else {
    uint32_t end = find_child(n, 1, "elseif_clause", "else_clause", "end_if_statement");
    lower_block(f, n, 1, end, &s->u.cond.then);
  }
  uint32_t next = find_child(n, clause + 1, "elseif_clause", "else_clause", NULL);
  if (next < ts_node_named_child_count(n)) {
    TSNode c = ts_node_named_child(n, next);
    if (fe_is(c, "elseif_clause")) {
      IrStmt *inner = lower_if_chain(f, n, next);
      if (!inner)
        return NULL;
      inner->loc = fe_loc(&f->cx, c);
      ir_list_push(&s->u.cond.els, inner);
    } else {
      lower_block(f, c, 0, ts_node_named_child_count(c), &s->u.cond.els);
    }
  }
  return s;
}

/* The mask of WHERE or of a masked ELSEWHERE (clause n): logical array
 * syntax; the rank is checked by pass "normalize". */
static IrExpr *lower_mask(FortranFe *f, TSNode n)
{
  return lower_logical(f, n, "the mask of WHERE");
}

/* The ELSEWHERE clauses of where_statement n from child `clause` on, into
 * els: a masked ELSEWHERE is a WHERE of its own, holding the clauses after
 * it in its els. */
static bool lower_elsewhere(FortranFe *f, TSNode n, uint32_t clause, IrStmtList *els)
{
  uint32_t count = ts_node_named_child_count(n);
  uint32_t next = find_child(n, clause + 1, "elsewhere_clause", NULL, NULL);
  TSNode c = ts_node_named_child(n, clause);
  if (ts_node_is_null(fe_child_of_type(c, "parenthesized_expression"))) {
    lower_block(f, c, 0, ts_node_named_child_count(c), els);
    return true;
  }
  IrStmt *w = ir_stmt(IR_S_WHERE, fe_loc(&f->cx, c));
  if (!(w->u.cond.test = lower_mask(f, c)))
    return false;
  lower_block(f, c, 1, ts_node_named_child_count(c), &w->u.cond.then);
  ir_list_push(els, w);
  return next >= count || lower_elsewhere(f, n, next, &w->u.cond.els);
}

/* where_statement: 'where' (mask) assignment            (statement form)
 *                | 'where' (mask) stmts elsewhere_clause* end_where_statement
 * elsewhere_clause: 'elsewhere' [(mask)] stmts */
static IrStmt *lower_where(FortranFe *f, TSNode n)
{
  IrStmt *s = ir_stmt(IR_S_WHERE, fe_loc(&f->cx, n));
  if (!(s->u.cond.test = lower_mask(f, n)))
    return NULL;
  uint32_t count = ts_node_named_child_count(n);
  uint32_t clause = find_child(n, 1, "elsewhere_clause", "end_where_statement", NULL);
  lower_block(f, n, 1, clause, &s->u.cond.then);
  if (clause < count && fe_is(ts_node_named_child(n, clause), "elsewhere_clause") &&
      !lower_elsewhere(f, n, clause, &s->u.cond.els))
    return NULL;
  return s;
}

static IrStmt *lower_keyword(FortranFe *f, TSNode n, bool *skip)
{
  char *kw = fe_text_lower(&f->cx, n);
  if (!strncmp(kw, "cycle", 5))
    return lower_loop_jump(f, n, IR_S_CYCLE);
  if (!strncmp(kw, "exit", 4))
    return lower_loop_jump(f, n, IR_S_EXIT);
  if (!strncmp(kw, "go", 2))
    return lower_goto(f, n);
  if (!strncmp(kw, "return", 6) && f->inlining)
    return lower_return(f, n);
  if (!strncmp(kw, "continue", 8)) {
    *skip = true;
    return NULL;
  }
  fe_error(&f->cx, n, "'%s' is not supported inside a region", kw);
  return NULL;
}

static void handle_region_comment(FortranFe *f, TSNode n, uint32_t *line_skip);

/* An actual argument `a(lo:hi, k)` (call_expression with extent_specifiers):
 * the element where the section starts, with the upper bounds of its ranges
 * in *out (ir.h, IrSection); an omitted bound is the declared one.  NULL
 * (reported) for a stride or an unknown bound. */
static IrExpr *lower_section(FortranFe *f, IrSym *s, TSNode n, TSNode list, IrSection **out)
{
  IrExpr *e = ir_expr_new(IR_E_ELEM, s->type, fe_loc(&f->cx, n));
  IrSection *sec = ir_alloc(sizeof *sec);
  e->u.elem.sym = s;
  uint32_t count = ts_node_named_child_count(list);
  if ((int)count != s->rank) {
    fe_error(&f->cx, n, "'%s' has rank %d but %u subscript%s given", s->name, s->rank, count,
             count == 1 ? " is" : "s are");
    return NULL;
  }
  for (uint32_t i = 0; i < count; i++) {
    TSNode a = ts_node_named_child(list, i);
    IrExpr *lo = NULL, *hi = NULL;
    if (!fe_is(a, "extent_specifier")) {
      lo = lower_expr(f, a);
    } else {
      uint32_t parts = ts_node_named_child_count(a);
      bool lo_given = parts > 0 && fe_text(&f->cx, a)[0] != ':';
      if (parts > 2 || (parts == 2 && !lo_given)) {
        fe_error(&f->cx, a, "array section of '%s' with a stride as an actual argument inside a "
                 "region is not supported; pass a section with stride 1", s->name);
        return NULL;
      }
      lo = lo_given ? lower_expr(f, ts_node_named_child(a, 0)) : s->lo[i];
      hi = parts == 2 ? lower_expr(f, ts_node_named_child(a, 1))
         : parts == 1 && !lo_given ? lower_expr(f, ts_node_named_child(a, 0)) : s->hi[i];
      if (!hi && lo) {
        fe_error(&f->cx, a, "the section of '%s' has no upper bound in dimension %u (assumed "
                 "size); give it explicitly", s->name, i + 1);
        return NULL;
      }
    }
    if (!lo)
      return NULL;
    IrExpr *bad = !ir_type_is_integer(lo->type) ? lo : hi && !ir_type_is_integer(hi->type) ? hi : NULL;
    if (bad) {
      fe_error(&f->cx, a, "subscript of '%s' is %s, not integer", s->name, ir_type_name(bad->type));
      return NULL;
    }
    e->u.elem.sub[e->u.elem.n++] = lo;
    sec->hi[i] = hi;
  }
  *out = sec;
  return e;
}

/* Is actual argument a an array section, `a(lo:hi, k)`? */
static bool is_section(FortranFe *f, TSNode a, IrSym **array)
{
  if (!fe_is(a, "call_expression"))
    return false;
  TSNode list = fe_child_of_type(a, "argument_list");
  *array = lookup(f, fe_text_lower(&f->cx, ts_node_named_child(a, 0)));
  if (ts_node_is_null(list) || !*array || !(*array)->rank)
    return false;
  for (uint32_t i = 0; i < ts_node_named_child_count(list); i++)
    if (fe_is(ts_node_named_child(list, i), "extent_specifier"))
      return true;
  return false;
}

/* subroutine_call: 'call' name [argument_list] — kept as IR_S_CALL for the
 * inliner (transforms/inline.c); whole arrays and sections are allowed as
 * actuals. */
static IrStmt *lower_call(FortranFe *f, TSNode n)
{
  TSNode callee = ts_node_child_by_field_name(n, "subroutine", 10);
  TSNode list = fe_child_of_type(n, "argument_list");
  IrStmt *s = ir_stmt(IR_S_CALL, fe_loc(&f->cx, n));
  s->u.call.name = fe_text_lower(&f->cx, callee);
  IrUseName *renamed = NULL;   /* use m, only: local => procedure */
  HASH_FIND_STR(f->routine->use_names, s->u.call.name, renamed);
  if (renamed && renamed->routine)
    s->u.call.name = renamed->routine;
  CallSite site = { s->u.call.name, f->routine, fe_loc(&f->cx, callee), fe_width(&f->cx, callee) };
  IR_PUSH(f->sites, f->nsites, site);
  uint32_t count = ts_node_is_null(list) ? 0 : ts_node_named_child_count(list);
  for (uint32_t i = 0; i < count; i++) {
    TSNode a = ts_node_named_child(list, i);
    if (fe_is(a, "comment"))
      continue;
    const char *keyword = NULL;
    if (fe_is(a, "keyword_argument")) {
      keyword = fe_text_lower(&f->cx, ts_node_child_by_field_name(a, "name", 4));
      a = ts_node_child_by_field_name(a, "value", 5);
    }
    IrSym *array;
    IrSection *section = NULL;
    f->whole_array_ok = true;
    IrExpr *e = is_section(f, a, &array)
              ? lower_section(f, array, a, fe_child_of_type(a, "argument_list"), &section)
              : lower_expr(f, a);
    f->whole_array_ok = false;
    if (!e)
      return NULL;
    s->u.call.keywords = ir_grow(s->u.call.keywords, sizeof *s->u.call.keywords, s->u.call.nargs);
    s->u.call.keywords[s->u.call.nargs] = keyword;
    if (section && !s->u.call.sections)
      s->u.call.sections = ir_alloc(sizeof *s->u.call.sections * (size_t)(s->u.call.nargs + 1));
    else if (s->u.call.sections)
      s->u.call.sections = ir_grow(s->u.call.sections, sizeof *s->u.call.sections,
                                   s->u.call.nargs);
    if (s->u.call.sections)
      s->u.call.sections[s->u.call.nargs] = section;
    IR_PUSH(s->u.call.args, s->u.call.nargs, e);
  }
  IR_PUSH(f->calls, f->ncalls, s->u.call.name);
  return s;
}

static IrStmt *lower_stmt(FortranFe *f, TSNode n, bool *skip)
{
  const char *type = ts_node_type(n);
  *skip = false;
  if (!strcmp(type, "assignment_statement"))
    return lower_assignment(f, n);
  if (!strcmp(type, "do_loop")) {
    if (!enter_construct(f, n))
      return NULL;
    IrStmt *s = lower_do(f, n);
    leave_construct(f);
    return s;
  }
  if (!strcmp(type, "if_statement"))
    return lower_if_chain(f, n, 0);
  if (!strcmp(type, "where_statement")) {
    if (!enter_construct(f, n))
      return NULL;
    IrStmt *s = lower_where(f, n);
    leave_construct(f);
    return s;
  }
  if (!strcmp(type, "keyword_statement"))
    return lower_keyword(f, n, skip);
  if (!strcmp(type, "subroutine_call"))
    return lower_call(f, n);
  if (!strcmp(type, "end_do_loop_statement") || !strcmp(type, "end_if_statement") ||
      !strcmp(type, "end_where_statement") || !strcmp(type, "statement_label")) {
    *skip = true;
    return NULL;
  }
  /* a kernel thread cannot allocate, do input/output or stop the program:
   * such a statement belongs to the host code around the region */
  static const char *const host_only[] = { "allocate_statement", "deallocate_statement",
    "print_statement", "write_statement", "read_statement", "open_statement",
    "close_statement", "stop_statement", "nullify_statement" };
  for (size_t i = 0; i < sizeof host_only / sizeof *host_only; i++)
    if (!strcmp(type, host_only[i])) {
      fe_error(&f->cx, n, "%s is not supported inside a region; move it before or after the "
               "region", construct_text(type));
      return NULL;
    }
  fe_error(&f->cx, n, "%s is not supported inside a region", construct_text(type));
  return NULL;
}

/* A statement label of the list being lowered: the next statement's. */
static void add_label(FortranFe *f, TSNode label, int pos, FeLabel **v, int *n, int *cap)
{
  FeLabel l = { atol(fe_text(&f->cx, label)), pos, fe_loc(&f->cx, label) };
  IR_APPEND(*v, *n, *cap, l);
}

/* end_do_label_loop_statement: label (continue | end do | an action
 * statement): the label of the loop's last statement, which may be one. */
static IrStmt *lower_labelled_end(FortranFe *f, TSNode n, int pos, FeLabel **v, int *nl, int *cap)
{
  TSNode label = ts_node_child_by_field_name(n, "do_label", 8);
  if (!ts_node_is_null(label))
    add_label(f, label, pos, v, nl, cap);
  for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
    TSNode c = ts_node_named_child(n, i);
    bool skip;
    if (!fe_is(c, "statement_label") && !fe_is(c, "comment"))
      return lower_stmt(f, c, &skip);
  }
  return NULL;
}

/* Lower named children [from, to) of `parent` into `out`; its GOTOs are
 * structured once it is finished (structure_gotos). */
static void lower_block(FortranFe *f, TSNode parent, uint32_t from, uint32_t to, IrStmtList *out)
{
  FeJumps *j = jumps_of(f);
  if (j->depth++ == 0)
    *j = (FeJumps){ .depth = 1 };
  int mark = j->ngotos, nlabels = 0, labels_cap = 0;
  FeLabel *labels = NULL;
  uint32_t skip_to_line = 0;
  for (uint32_t i = from; i < to; i++) {
    TSNode c = ts_node_named_child(parent, i);
    if (fe_is(c, "comment")) {
      if (fe_loc(&f->cx, c).line > (int)skip_to_line)
        handle_region_comment(f, c, &skip_to_line);
      continue;
    }
    if (fe_is(c, "do_statement") || fe_is(c, "parenthesized_expression") ||
        fe_is(c, "block_label_start_expression"))
      continue;
    if (fe_is(c, "statement_label")) {
      add_label(f, c, out->n, &labels, &nlabels, &labels_cap);
      continue;
    }
    if (f->pending_do && !fe_is(c, "do_loop")) {
      fe_error(&f->cx, f->pending_do_node, "'%s' must come right before a DO loop",
               f->pending_do->spelled ? f->pending_do->spelled : "!$stencil do");
      f->pending_do = NULL;
    }
    bool skip;
    int before = j->ngotos;
    IrStmt *s = fe_is(c, "end_do_label_loop_statement")
              ? lower_labelled_end(f, c, out->n, &labels, &nlabels, &labels_cap)
              : lower_stmt(f, c, &skip);
    if (s)
      ir_list_push(out, s);
    for (int k = before; k < j->ngotos; k++)
      j->gotos[k].top = out->n - 1;
    if (!s)
      j->ngotos = before;  /* not lowered (reported): nor are the GOTOs in it */
  }
  structure_gotos(f, out, labels, nlabels, mark);
  if (--j->depth == 0)
    refuse_open_gotos(f);
}

/* A directive comment met while lowering a region: only `do` is allowed. */
static void handle_region_comment(FortranFe *f, TSNode n, uint32_t *line_skip)
{
  Loc loc = fe_loc(&f->cx, n);
  if (!dir_is_directive_line(f->cx.file, loc.line, DIR_FORTRAN))
    return;
  int last;
  Directive *d = read_directive(f, loc.line, &last);
  *line_skip = (uint32_t)last;
  if (!d)
    return;
  if (d->kind == DIR_DO) {
    f->pending_do = d;
    f->pending_do_node = n;
    return;
  }
  if (d->kind == DIR_REGION)
    f->unmatched_regions++;
  /* named as the user wrote it: '!$acc data', '!$acc parallel loop', '!$stencil update' */
  fe_error(&f->cx, n, "'%s' is not allowed inside a region%s", dir_spelling(d, DIR_FORTRAN),
           d->kind == DIR_END_REGION ? " here: it must close the region in the block where it "
                                       "opened"
           : d->kind == DIR_REGION ? ": regions do not nest; end the region before starting "
                                     "another, or remove this directive"
           : "");
}

/* ---- regions and host directives ---------------------------------------- */

static IrRegion *new_region(FortranFe *f, Directive *d, int first_line)
{
  IrRoutine *r = f->routine;
  IrRegion *g = ir_alloc(sizeof *g);
  g->index = ++f->region_count;
  g->name = ir_printf("%s_r%d", r->name, g->index);
  g->launcher = ir_printf("s2s_%s_r%d", r->name, g->index);
  g->dir = d;
  g->first_line = first_line;
  g->routine = r;
  IR_PUSH(r->regions, r->nregions, g);
  return g;
}

/* Is child c an `end region` directive (`!$acc end region`, `end
 * parallel`, ..., or a misspelling of one)?  The region scan stops there
 * and lets the directive parser judge it. */
static bool is_end_directive(FortranFe *f, TSNode c)
{
  return fe_is(c, "comment") && dir_line_ends_region(f->cx.file, fe_loc(&f->cx, c).line, DIR_FORTRAN);
}

/* Does the directive comment c open a region?  Used to skip the body of a
 * region whose directive could not be parsed (its error is reported). */
static bool looks_like_region(FortranFe *f, TSNode c)
{
  return dir_line_opens_region(f->cx.file, fe_loc(&f->cx, c).line, DIR_FORTRAN);
}

/* tree-sitter attaches comments after the last statement of a clause (an
 * ELSE or ELSE IF block, a CASE) to the enclosing construct, not to the
 * clause: in `else / !$stencil region / do ... end do / !$stencil end region
 * / end if` the end comment is a sibling of the else_clause.  Look for it
 * among the comments that follow `block` up to the next statement, climbing
 * out of blocks that end there.  The end comment found is claimed, so the
 * host scan of the enclosing construct does not report it again. */
static bool trailing_end(FortranFe *f, TSNode block, TSNode *out)
{
  for (TSNode n = block; !ts_node_is_null(n) && !fe_is(n, "subroutine") && !fe_is(n, "function") &&
                         !fe_is(n, "program") && !fe_is(n, "translation_unit");
       n = ts_node_parent(n)) {
    for (TSNode c = ts_node_next_named_sibling(n); !ts_node_is_null(c);
         c = ts_node_next_named_sibling(c)) {
      if (!fe_is(c, "comment"))
        return false;
      if (is_end_directive(f, c)) {
        IR_PUSH(f->claimed_ends, f->nclaimed_ends, fe_loc(&f->cx, c).line);
        *out = c;
        return true;
      }
    }
  }
  return false;
}

static bool claimed_end(const FortranFe *f, int line)
{
  for (int i = 0; i < f->nclaimed_ends; i++)
    if (f->claimed_ends[i] == line)
      return true;
  return false;
}

/* A label reference of the host code around a region that names a label
 * inside it (a jump into the region: its statements are no longer there). */
typedef struct IntoRegion {
  FortranFe *f;
  const IrRegion *g;
  TSNode found;
} IntoRegion;

static FeWalk find_jump_into(TSNode n, void *ctx)
{
  IntoRegion *q = ctx;
  FeJumps *j = jumps_of(q->f);
  if (!fe_is(n, "statement_label_reference"))
    return FE_WALK_INTO;
  int line = diag_user_line(fe_loc(&q->f->cx, n));
  if ((line < q->g->first_line || line > q->g->last_line) &&
      label_pos(j->closed, j->nclosed, atol(fe_text(&q->f->cx, n))) >= 0) {
    q->found = n;
    return FE_WALK_STOP;
  }
  return FE_WALK_SKIP;
}

static void refuse_jumps_into(FortranFe *f, TSNode parent, const IrRegion *g)
{
  if (!jumps_of(f)->nclosed)
    return;
  TSNode unit = parent;
  while (!ts_node_is_null(ts_node_parent(unit)) && !fe_is(unit, "subroutine") &&
         !fe_is(unit, "function") && !fe_is(unit, "program"))
    unit = ts_node_parent(unit);
  IntoRegion q = { .f = f, .g = g };
  fe_walk(unit, find_jump_into, &q);
  if (!ts_node_is_null(q.found))
    fe_error(&f->cx, q.found, "a jump to label %s, inside the region at line %d, from outside "
             "it; a jump into a region is not supported", fe_text(&f->cx, q.found),
             g->first_line);
}

/* The region directive starts at child `first` of parent and ends (with its
 * continuation lines) at child i: lower the siblings up to its `end region`.
 * Returns the index of the end comment. */
/* `!$acc region do`, `parallel loop`, `kernels loop`: the region is the
 * DO loop that follows (child i+1), advised by the loop part of d; an
 * `!$acc end parallel loop` after it is understood and not a directive. */
static uint32_t lower_loop_region(FortranFe *f, TSNode parent, uint32_t first, uint32_t i,
                                  Directive *d)
{
  TSNode start = ts_node_named_child(parent, first);
  uint32_t count = ts_node_named_child_count(parent);
  uint32_t at = i + 1;
  while (at < count && fe_is(ts_node_named_child(parent, at), "comment") &&
         !dir_is_directive_line(f->cx.file, fe_loc(&f->cx, ts_node_named_child(parent, at)).line,
                                DIR_FORTRAN))
    at++;
  if (at >= count || !fe_is(ts_node_named_child(parent, at), "do_loop")) {
    fe_error(&f->cx, start, "'%s' must come right before a DO loop", d->spelled);
    return i;
  }
  TSNode loop = ts_node_named_child(parent, at);
  IrRegion *g = new_region(f, d, fe_first_line(&f->cx, start));
  g->last_line = fe_last_line(&f->cx, loop);
  f->region = g;
  f->pending_do = d->loop;
  f->pending_do_node = start;
  lower_block(f, parent, at, at + 1, &g->body);
  refuse_jumps_into(f, parent, g);
  f->pending_do = NULL;
  f->region = NULL;
  return at;
}

static uint32_t lower_region(FortranFe *f, TSNode parent, uint32_t first, uint32_t i, Directive *d)
{
  if (d->loop)
    return lower_loop_region(f, parent, first, i, d);
  TSNode start = ts_node_named_child(parent, first);
  uint32_t count = ts_node_named_child_count(parent);
  uint32_t end = i + 1;
  while (end < count && !is_end_directive(f, ts_node_named_child(parent, end)))
    end++;
  TSNode endn;
  if (end < count)
    endn = ts_node_named_child(parent, end);
  else if (!trailing_end(f, parent, &endn)) {
    if (d->origin != DIR_FROM_STENCIL)
      fe_error(&f->cx, start, "'%s' has no matching end directive ('!$acc end region', "
               "'!$acc end parallel' or '!$acc end kernels') in the same block; add one after "
               "the region's loops, in the routine (and the IF or DO construct) where the region "
               "starts", d->spelled);
    else
      fe_error(&f->cx, start, "'!$stencil region' has no matching '!$stencil end region' in the "
               "same block; add one after the region's loops, in the routine (and the IF or DO "
               "construct) where the region starts");
    f->unmatched_regions++;
    return count;
  }
  int last;
  Directive *ed = read_directive(f, fe_loc(&f->cx, endn).line, &last);
  if (!ed)
    return end;
  if (ed->kind != DIR_END_REGION) {
    /* d is `!$stencil region`, `!$acc region`, `!$acc parallel` or `!$acc kernels` */
    fe_error(&f->cx, endn, "'%s' inside a region; expected '%s' first", dir_spelling(ed, DIR_FORTRAN),
             d->origin == DIR_FROM_STENCIL ? "!$stencil end region"
                                           : ir_printf("!$acc end %s", d->spelled + strlen("!$acc ")));
    return end;
  }
  IrRegion *g = new_region(f, d, fe_first_line(&f->cx, start));
  g->last_line = diag_user_line((Loc){ f->cx.file, last, 1 });
  f->region = g;
  int errors = diag_error_count();
  lower_block(f, parent, i + 1, end, &g->body);
  refuse_jumps_into(f, parent, g);
  if (f->pending_do) {
    fe_error(&f->cx, f->pending_do_node, "'%s' must come right before a DO loop",
             f->pending_do->spelled ? f->pending_do->spelled : "!$stencil do");
    f->pending_do = NULL;
  }
  f->region = NULL;
  if (g->body.n == 0 && diag_error_count() == errors) /* not empty: what it holds was refused */
    fe_error(&f->cx, start, "empty region: there is nothing between 'region' and 'end region'");
  return end;
}


static const char *routine_name(FortranFe *f, TSNode n, TSNode *stmt);

/* The procedures after CONTAINS of a program or routine are not lowered
 * as routines of their own: their directives are read in the host's scope
 * (its names, its data regions).  That is right for data, update, enter
 * and exit data, wait and host_data directives on the host's arrays (a
 * halo exchange in an internal subroutine), so those are kept, and a name
 * the internal procedure declares itself (hiding the host's) is refused at
 * the directive (internal_hides).  A region's loops use the procedure's own
 * indices and bounds: a procedure with a region is refused, once, at its
 * first one, and not scanned further.  Returns whether to scan it. */
static bool internal_procedure_scanned(FortranFe *f, TSNode p)
{
  int first = fe_loc(&f->cx, p).line, last = (int)ts_node_end_point(p).row + 1;
  for (int l = first; l <= last && l <= f->cx.src->nlines; l++) {
    if (!dir_line_opens_region(f->cx.file, l, DIR_FORTRAN))
      continue;
    TSNode stmt;
    const char *name = routine_name(f, p, &stmt);
    diag_at(DIAG_ERROR, (Loc){ f->cx.file, l, 1 }, 1, "a region in the internal procedure '%s' "
            "(after CONTAINS in '%s') is not supported: make '%s' a module procedure or an "
            "external one, with the arrays it uses as arguments or module variables",
            name, f->routine->name, name);
    return false;
  }
  return true;
}

typedef struct NameSearch {
  FortranFe *f;
  const char *name;
  bool found;
} NameSearch;

static FeWalk find_identifier(TSNode n, void *ctx)
{
  NameSearch *ns = ctx;
  if (ns->found)
    return FE_WALK_STOP;
  if (fe_is(n, "identifier") && !strcmp(fe_text_lower(&ns->f->cx, n), ns->name)) {
    ns->found = true;
    return FE_WALK_STOP;
  }
  return FE_WALK_INTO;
}

/* Does internal procedure p name `name` in its statement (a dummy) or its
 * specification part (a declaration)?  Then it hides the host's `name`.
 * Any mention counts (a bound `x(size(t, 1))` too): a directive naming it is
 * refused rather than read in the wrong scope. */
static bool internal_hides(FortranFe *f, TSNode p, const char *name)
{
  NameSearch ns = { f, name, false };
  uint32_t count = ts_node_named_child_count(p);
  for (uint32_t i = 0; i < count && !ns.found; i++) {
    TSNode c = ts_node_named_child(p, i);
    if (i > 0 && !fe_is(c, "comment") && !is_specification(c))
      break;
    fe_walk(c, find_identifier, &ns);
  }
  return ns.found;
}

/* The internal procedure (after CONTAINS of the routine being scanned)
 * that holds node n, or a null node. */
static TSNode internal_procedure_of(FortranFe *f, TSNode n)
{
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (ts_node_eq(p, f->routine_node))
      return (TSNode){ 0 };
    if ((fe_is(p, "subroutine") || fe_is(p, "function")) &&
        fe_is(ts_node_parent(p), "internal_procedures"))
      return p;
  }
  return (TSNode){ 0 };
}

static void add_host_directive(FortranFe *f, Directive *d, TSNode n, int last)
{
  IrHostDirective *h = ir_alloc(sizeof *h);
  h->dir = d;
  h->first_line = fe_first_line(&f->cx, n);
  h->last_line = diag_user_line((Loc){ f->cx.file, last, 1 });
  h->index = ++f->host_dir_count;
  if (d->kind == DIR_DATA) {
    if (f->data_depth == 16)
      fe_error(&f->cx, n, "data regions nested more than 16 deep");
    else
      f->open_data[f->data_depth++] = h;
  } else if (d->kind == DIR_UPDATE && !f->data_depth && !f->loading &&
             !fe_update_after_enter_data(&f->cx, f->routine, d)) {
    fe_warn_update_outside_data(&f->cx, d, n, "routine",
                                d->origin == DIR_FROM_STENCIL ? "!$stencil data ... !$stencil end data"
                                                              : "!$acc data ... !$acc end data");
  } else if (d->kind == DIR_END_DATA) {
    if (!f->data_depth) {
      /* `!$acc end data region` closes `!$acc data region` (PGI) */
      fe_error(&f->cx, n, "'%s' without an open '%s'", dir_spelling(d, DIR_FORTRAN),
               d->spelled ? ir_printf("!$acc %s", d->spelled + strlen("!$acc end "))
                          : "!$stencil data");
      return;
    }
    h->partner = f->open_data[--f->data_depth];
    h->partner->partner = h;
  }
  IR_PUSH(f->routine->host_dirs, f->routine->nhost_dirs, h);
}

/* A directive comment in host code (child i of parent).  Returns the index
 * of the last child it consumed. */
static uint32_t host_directive(FortranFe *f, TSNode parent, uint32_t i)
{
  TSNode n = ts_node_named_child(parent, i);
  int last;
  Directive *d = read_directive(f, fe_loc(&f->cx, n).line, &last);
  uint32_t count = ts_node_named_child_count(parent);
  uint32_t consumed = i;
  /* continuation lines are separate comment nodes: skip them */
  while (consumed + 1 < count && fe_is(ts_node_named_child(parent, consumed + 1), "comment") &&
         fe_loc(&f->cx, ts_node_named_child(parent, consumed + 1)).line <= last)
    consumed++;
  if (!d) {
    /* skip the body of a region we could not read, up to its end */
    if (looks_like_region(f, n))
      while (consumed + 1 < count && !is_end_directive(f, ts_node_named_child(parent, consumed + 1)))
        consumed++;
    return consumed + (consumed + 1 < count && looks_like_region(f, n));
  }
  /* refused at the name; a data or host_data directive is still read (the
   * error stops the translation), so that its end directive finds it open */
  bool hidden = false;
  TSNode internal = internal_procedure_of(f, n);
  for (int k = 0; !ts_node_is_null(internal) && k < d->nclauses; k++)
    for (int m = 0; m < d->clauses[k].nitems; m++) {
      const DirItem *it = &d->clauses[k].items[m];
      if (!internal_hides(f, internal, it->name))
        continue;
      TSNode stmt;
      diag_at(DIAG_ERROR, it->loc, (int)strlen(it->name), "'%s' is declared in the internal "
              "procedure '%s' itself: directives there are read in the scope of '%s', whose "
              "'%s' it hides; pass the array to a module procedure or an external one", it->name,
              routine_name(f, internal, &stmt), f->routine->name, it->name);
      hidden = true;
    }
  if (hidden && d->kind != DIR_DATA && d->kind != DIR_HOST_DATA)
    return consumed;
  if (f->open_host_data && d->kind != DIR_END_HOST_DATA) {
    fe_error(&f->cx, n, "'%s' inside the host_data construct of line %d: there the arrays of "
             "use_device are device addresses; end the host_data before it",
             dir_spelling(d, DIR_FORTRAN), f->open_host_data->first_line);
    f->host_data_refused = true;
  }
  switch (d->kind) {
  case DIR_REGION:
    return lower_region(f, parent, i, consumed, d);
  case DIR_HOST_DATA:
    if (f->open_host_data)
      break;                    /* refused above */
    add_host_directive(f, d, n, last);
    f->open_host_data = f->routine->host_dirs[f->routine->nhost_dirs - 1];
    f->host_data_block = parent;
    break;
  case DIR_END_HOST_DATA:
    if (!f->open_host_data)
      fe_error(&f->cx, n, "'%s' without an open '%s'", dir_spelling(d, DIR_FORTRAN),
               d->origin == DIR_FROM_STENCIL ? "!$stencil host_data" : "!$acc host_data");
    else if (!ts_node_eq(parent, f->host_data_block))
      /* the construct becomes BLOCK ... END BLOCK, which must nest with the IFs and DOs */
      fe_error(&f->cx, n, "'%s' is not in the block of its '%s' (line %d); end the construct "
               "in the same IF or DO block where it starts", dir_spelling(d, DIR_FORTRAN),
               dir_spelling(f->open_host_data->dir, DIR_FORTRAN), f->open_host_data->first_line);
    else {
      add_host_directive(f, d, n, last);
      IrHostDirective *h = f->routine->host_dirs[f->routine->nhost_dirs - 1];
      h->partner = f->open_host_data;
      h->partner->partner = h;
    }
    f->open_host_data = NULL;
    break;
  case DIR_END_REGION:
    if (f->unmatched_regions > 0)
      f->unmatched_regions--;
    else if (!claimed_end(f, fe_loc(&f->cx, n).line))
      fe_error(&f->cx, n, "'%s' without an open '%s' in this block",
               d->spelled ? d->spelled : "!$stencil end region",
               d->spelled ? "!$acc region, parallel or kernels" : "!$stencil region");
    break;
  case DIR_DO:
    fe_error(&f->cx, n, "'%s' outside a region has no effect; put it inside a '%s'",
             d->spelled ? d->spelled : "!$stencil do",
             d->spelled ? "!$acc region, parallel or kernels" : "!$stencil region");
    break;
  case DIR_DATA:
  case DIR_END_DATA:
  case DIR_UPDATE:
  case DIR_ENTER_DATA:
  case DIR_EXIT_DATA:
  case DIR_WAIT:
    add_host_directive(f, d, n, last);
    break;
  }
  return consumed;
}

/* Walk host code looking for directives; regions are lowered where found.
 * The nodes being searched are on an explicit stack, not the C stack: host
 * code is not lowered, so nothing bounds how deep its expressions nest. */
typedef struct HostFrame {
  TSNode parent;
  uint32_t next, count;        /* named children: the next one to look at, how many */
} HostFrame;

static void scan_host(FortranFe *f, TSNode root)
{
  int n = 0, cap = 16;
  HostFrame *stack = xmalloc(sizeof *stack * (size_t)cap);
  stack[n++] = (HostFrame){ root, 0, ts_node_named_child_count(root) };
  while (n) {
    HostFrame *top = &stack[n - 1];
    if (top->next >= top->count) {
      n--;
      continue;
    }
    uint32_t i = top->next++;
    TSNode c = ts_node_named_child(top->parent, i);
    if (fe_is(c, "comment")) {
      if (dir_is_directive_line(f->cx.file, fe_loc(&f->cx, c).line, DIR_FORTRAN))
        top->next = host_directive(f, top->parent, i) + 1;
    } else if ((fe_is(c, "subroutine") || fe_is(c, "function")) &&
               fe_is(top->parent, "internal_procedures") && !internal_procedure_scanned(f, c)) {
      continue;
    } else if (ts_node_named_child_count(c)) {
      if (n == cap)
        stack = xrealloc(stack, sizeof *stack * (size_t)(cap *= 2));
      stack[n++] = (HostFrame){ c, 0, ts_node_named_child_count(c) };
    }
  }
  free(stack);
}

/* ---- routines and modules ----------------------------------------------- */

static const char *routine_name(FortranFe *f, TSNode n, TSNode *stmt)
{
  *stmt = ts_node_named_child(n, 0);
  TSNode name = ts_node_child_by_field_name(*stmt, "name", 4);
  if (ts_node_is_null(name))
    name = fe_child_of_type(*stmt, "name");
  return ts_node_is_null(name) ? "main" : fe_text_lower(&f->cx, name);
}

static void read_dummies(FortranFe *f, TSNode stmt)
{
  TSNode params = ts_node_child_by_field_name(stmt, "parameters", 10);
  if (ts_node_is_null(params))
    return;
  uint32_t count = ts_node_named_child_count(params);
  for (uint32_t i = 0; i < count; i++) {
    TSNode p = ts_node_named_child(params, i);
    const char *name = fe_text_lower(&f->cx, p);
    if (find_local(f, name)) { /* gfortran: "Duplicate symbol in formal argument list" */
      fe_error(&f->cx, p, "'%s' appears twice in the dummy argument list of '%s'", name,
               f->routine->name);
      continue;
    }
    IrSym *s = new_sym(f, &f->routine->symbols, name, p);
    s->is_dummy = true;
    s->dummy_index = f->routine->ndummies;
    IR_PUSH(f->routine->dummies, f->routine->ndummies, s);
  }
}

/* ---- USE ------------------------------------------------------------------ */

/* What a USE changes in the scope being read: a routine's, or a module's
 * specification part's (which its procedures and its users inherit). */
typedef struct UseScope {
  int *nuses;
  IrModule ***uses;
  IrUseName **names;
  int *nmissing;
  IrMissingUse ***missing;
} UseScope;

static UseScope use_scope(FortranFe *f)
{
  if (f->routine) {
    IrRoutine *r = f->routine;
    return (UseScope){ &r->nuses, &r->uses, &r->use_names, &r->nmissing_uses, &r->missing_uses };
  }
  IrModule *m = f->module;
  return (UseScope){ &m->nuses, &m->uses, &m->use_names, &m->nmissing, &m->missing };
}

static void scope_add_module(UseScope *sc, IrModule *m)
{
  for (int i = 0; i < *sc->nuses; i++)
    if ((*sc->uses)[i] == m)
      return;
  IR_PUSH(*sc->uses, *sc->nuses, m);
}

static void scope_add_name(UseScope *sc, const char *name, IrSym *sym, const char *routine)
{
  IrUseName *u = NULL;
  HASH_FIND_STR(*sc->names, name, u);
  if (u)
    return;                  /* the first USE that gives the name wins */
  u = ir_alloc(sizeof *u);
  u->name = ir_strdup(name);
  u->sym = sym;
  u->routine = routine;
  HASH_ADD_KEYPTR(hh, *sc->names, u->name, strlen(u->name), u);
}

static void scope_add_missing(UseScope *sc, IrMissingUse *m)
{
  for (int i = 0; i < *sc->nmissing; i++)
    if ((*sc->missing)[i] == m)
      return;
  IR_PUSH(*sc->missing, *sc->nmissing, m);
}

/* What module m gives to whoever uses it without an ONLY list (or
 * contains its procedures, when `self` is false): its own names (self),
 * those of the modules it uses, of its ONLY lists, and its missing uses. */
static void scope_use_all(UseScope *sc, IrModule *m, bool self)
{
  if (self)
    scope_add_module(sc, m);
  for (int i = 0; i < m->nuses; i++)
    scope_add_module(sc, m->uses[i]);
  for (IrUseName *u = m->use_names; u; u = u->hh.next)
    scope_add_name(sc, u->name, u->sym, u->routine);
  for (int i = 0; i < m->nmissing; i++)
    scope_add_missing(sc, m->missing[i]);
}

/* A procedure of module m (or of one it uses) named `name`: its name, or NULL. */
static const char *module_procedure(const Program *p, const IrModule *m, const char *name)
{
  for (int i = 0; i < p->nroutines; i++)
    if (!strcmp(p->routines[i]->name, name) &&
        p->routines[i]->module && (p->routines[i]->module == m ||
                                   !strcmp(p->routines[i]->module->name, m->name)))
      return p->routines[i]->name;
  IrUseName *u = NULL;
  HASH_FIND_STR(m->use_names, name, u);
  if (u && u->routine)
    return u->routine;
  for (int k = 0; k < m->nuses; k++)
    for (int i = 0; i < p->nroutines; i++)
      if (p->routines[i]->module == m->uses[k] && !strcmp(p->routines[i]->name, name))
        return p->routines[i]->name;
  return NULL;
}

static IrModule *find_module(const Program *p, const char *name)
{
  for (int i = 0; i < p->nmodules; i++)
    if (!strcmp(p->modules[i]->name, name))
      return p->modules[i];
  return NULL;
}

/* The modules the compiler provides: nothing to look for. */
static bool intrinsic_module(const char *name, const char *use_text)
{
  static const char *const known[] = { "iso_c_binding", "iso_fortran_env", "ieee_arithmetic",
                                       "ieee_exceptions", "ieee_features", NULL };
  for (int i = 0; known[i]; i++)
    if (!strcmp(known[i], name))
      return true;
  const char *colons = strstr(use_text, "::");
  const char *intr = strstr(use_text, "intrinsic");
  return intr && colons && intr < colons && !strstr(use_text, "non_intrinsic");
}

static IrModule *load_module(FortranFe *f, const char *name, const char **why);
static bool unit_has_directives(FortranFe *f, TSNode n);
static void lower_module(FortranFe *f, TSNode n);
static void lower_routine(FortranFe *f, TSNode n);

/* The name and the ONLY list (or renames) of a use_statement: the pairs
 * local => remote, in order; *only is set when the list is an ONLY list. */
typedef struct UseItem {
  const char *local, *remote;
} UseItem;

static int use_items(FortranFe *f, TSNode n, UseItem **items, bool *only)
{
  int count = 0;
  *items = NULL;
  *only = false;
  uint32_t nc = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < nc; i++) {
    TSNode c = ts_node_named_child(n, i);
    TSNode list = c;
    uint32_t from = 0, to = 1;
    if (fe_is(c, "included_items")) {
      *only = true;
      to = ts_node_named_child_count(c);
    } else if (!fe_is(c, "use_alias")) {
      continue;
    } else {
      list = n;
      from = i;
      to = i + 1;
    }
    for (uint32_t k = from; k < to; k++) {
      TSNode it = ts_node_named_child(list, k);
      UseItem u;
      if (fe_is(it, "use_alias")) {
        u.local = fe_text_lower(&f->cx, ts_node_named_child(it, 0));
        u.remote = fe_text_lower(&f->cx, ts_node_named_child(it, 1));
      } else if (fe_is(it, "identifier")) {
        u.local = u.remote = fe_text_lower(&f->cx, it);
      } else {
        continue;            /* operator(+), assignment(=): nothing a region names */
      }
      IR_PUSH(*items, count, u);
    }
  }
  return count;
}

/* use_statement: 'use' module_name [, only: names | , renames].  The
 * module is this file's, or read from its summary; its names become
 * visible as the statement says.  A module that is not found is recorded
 * (IrMissingUse), not reported: only a region that needs a name it may
 * provide makes it an error. */
static void read_use(FortranFe *f, TSNode n)
{
  TSNode name = fe_child_of_type(n, "module_name");
  if (ts_node_is_null(name))
    return;
  char *mod = fe_text_lower(&f->cx, name);
  if (intrinsic_module(mod, fe_text_lower(&f->cx, n)))
    return;
  UseItem *items;
  bool only;
  int nitems = use_items(f, n, &items, &only);
  UseScope sc = use_scope(f);
  const char *why = NULL;
  IrModule *m = find_module(f->cx.prog, mod);
  if (!m)
    m = load_module(f, mod, &why);
  if (!m) {
    IrMissingUse *miss = ir_alloc(sizeof *miss);
    miss->module = mod;
    miss->loc = fe_loc(&f->cx, name);
    miss->width = fe_width(&f->cx, name);
    miss->why = why;
    miss->nonly = only ? 0 : -1;
    for (int i = 0; only && i < nitems; i++)
      IR_PUSH(miss->only, miss->nonly, items[i].local);
    scope_add_missing(&sc, miss);
    if (f->routine && !f->routine->unresolved_use_line)
      f->routine->unresolved_use_line = fe_first_line(&f->cx, n);
    return;
  }
  if (!only)
    scope_use_all(&sc, m, true);
  for (int i = 0; i < nitems; i++) {
    IrSym *s = module_lookup(m, items[i].remote);
    const char *proc = s ? NULL : module_procedure(f->cx.prog, m, items[i].remote);
    IrMissingUse *via = s || proc ? NULL : missing_source(m->nmissing, m->missing, items[i].remote);
    if (s || proc) {
      scope_add_name(&sc, items[i].local, s, proc);
    } else if (via && only) {
      /* m would pass it on from a module m did not find: blame that USE,
       * for this name only */
      IrMissingUse *miss = ir_alloc(sizeof *miss);
      *miss = *via;
      miss->nonly = 0;
      miss->only = NULL;
      miss->reported = false;
      IR_PUSH(miss->only, miss->nonly, items[i].local);
      scope_add_missing(&sc, miss);
    }
  }
}

/* The objects a COMMON, EQUIVALENCE, DATA or SAVE statement names: the
 * identifiers outside subscripts, bounds and DATA values (COMMON block
 * names are not identifiers). */
typedef enum StorageKind { STORAGE_COMMON, STORAGE_EQUIVALENCE, STORAGE_DATA, STORAGE_SAVE } StorageKind;

typedef struct StorageNames {
  FortranFe *f;
  StorageKind kind;
  int n;                          /* objects and common blocks named */
} StorageNames;

static FeWalk mark_storage(TSNode n, void *ctx)
{
  StorageNames *st = ctx;
  if (fe_is(n, "argument_list") || fe_is(n, "size") || fe_is(n, "data_value"))
    return FE_WALK_SKIP;
  if (fe_is(n, "common_block"))
    st->n++;                      /* SAVE /blk/: names something, saves not all */
  if (!fe_is(n, "identifier"))
    return FE_WALK_INTO;
  st->n++;
  IrSym *s = find_local(st->f, fe_text_lower(&st->f->cx, n));
  if (s)
    switch (st->kind) {
    case STORAGE_COMMON: s->in_common = true; break;
    case STORAGE_EQUIVALENCE: s->in_equivalence = true; break;
    case STORAGE_DATA: s->in_data = true; break;
    case STORAGE_SAVE: s->save_named = true; break;
    }
  return FE_WALK_SKIP;
}

/* Record on the symbols what a specification statement does with their
 * storage (ir.h: IrSym.in_common ...); a SAVE without a list saves all. */
static void read_storage(FortranFe *f, TSNode n)
{
  static const struct { const char *statement; StorageKind kind; } statements[] = {
    { "common_statement", STORAGE_COMMON }, { "equivalence_statement", STORAGE_EQUIVALENCE },
    { "data_statement", STORAGE_DATA }, { "save_statement", STORAGE_SAVE },
  };
  for (size_t i = 0; i < sizeof statements / sizeof statements[0]; i++)
    if (fe_is(n, statements[i].statement)) {
      StorageNames st = { f, statements[i].kind, 0 };
      fe_walk(n, mark_storage, &st);
      f->routine->saves_all |= st.kind == STORAGE_SAVE && !st.n;
    }
}

/* Give implicitly typed dummies and variables their type once the
 * specification part is read. */
static void apply_implicit_types(FortranFe *f)
{
  for (IrSym *s = f->routine->symbols; s; s = s->hh.next)
    if (s->type == IR_T_VOID && !f->implicit_none && !s->from_missing)
      s->type = implicit_type(s->name);
}

/* A function's result variable, typed by the prefix (`real function f`)
 * if there is one; otherwise its declaration, or implicit typing, will. */
static void declare_result(FortranFe *f, IrRoutine *r, TSNode n, TSNode stmt)
{
  const char *name = function_result_name(f, n);
  IrSym *s = find_local(f, name);
  if (!s)
    s = new_sym(f, &r->symbols, name, stmt);
  TSNode type = ts_node_child_by_field_name(stmt, "type", 4);
  if (!ts_node_is_null(type))
    read_type(f, type, &s->type);
  r->result = s;
}

/* subroutine | function | program: statement, specification part, execution part, end */
static void lower_routine(FortranFe *f, TSNode n)
{
  IrRoutine *r = ir_alloc(sizeof *r);
  TSNode stmt;
  r->name = ir_strdup(routine_name(f, n, &stmt));
  r->loc = fe_loc(&f->cx, n);
  r->is_function = fe_is(n, "function");
  r->module = f->module;
  r->first_line = fe_first_line(&f->cx, n);
  r->last_line = fe_last_line(&f->cx, n);
  r->spec_end_line = fe_last_line(&f->cx, stmt);
  if (f->loading)
    r->defined_elsewhere = f->cx.src->path;
  f->routine = r;
  f->routine_node = n;
  if (r->module) {            /* what the module's USEs give, its procedures see */
    UseScope sc = use_scope(f);
    scope_use_all(&sc, r->module, false);
  }
  f->implicit_none = f->module_implicit_none;
  f->region_count = f->host_dir_count = f->data_depth = 0;
  f->open_host_data = NULL;
  f->host_data_refused = false;
  read_dummies(f, stmt);
  if (r->is_function)
    declare_result(f, r, n, stmt);
  uint32_t count = ts_node_named_child_count(n);
  uint32_t i = 1;
  bool saves_all = false;
  for (; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (fe_is(c, "comment"))
      continue;
    if (!is_specification(c) && !read_stmt_fn(f, c))
      break;
    r->spec_end_line = fe_last_line(&f->cx, c);
    if (fe_is(c, "implicit_statement") && strstr(fe_text_lower(&f->cx, c), "none"))
      f->implicit_none = true;
    if (fe_is(c, "variable_declaration"))
      read_declaration(f, c);
    if (fe_is(c, "use_statement"))
      read_use(f, c);
    if (fe_is(c, "save_statement") || fe_is(c, "data_statement"))
      saves_all = true;   /* conservative: a SAVE or DATA statement marks every local */
  }
  for (IrSym *s = r->symbols; saves_all && s; s = s->hh.next)
    s->is_saved |= !s->is_dummy;
  r->body_start_line = i < count ? fe_first_line(&f->cx, ts_node_named_child(n, i)) : r->last_line;
  apply_implicit_types(f);
  check_stmt_fn_recursion(f);
  r->implicit_none = f->implicit_none;
  for (uint32_t k = 1; k < i; k++)
    read_storage(f, ts_node_named_child(n, k));
  RoutineNode rn = { r, n, f->cx.file, f->loading && unit_has_directives(f, n) };
  IR_PUSH(f->routine_nodes, f->nroutine_nodes, rn);
  if (!f->loading) {          /* another file's regions and host code are its own */
    scan_host(f, n);
    fe_resolve_directives(&f->cx, r);
    for (uint32_t k = i; k < count; k++)
      fe_host_scan(&f->cx, r, ts_node_named_child(n, k));
  }
  if (f->data_depth) {
    const Directive *open = f->open_data[f->data_depth - 1]->dir;
    diag_at(DIAG_ERROR, (Loc){ f->cx.file, f->open_data[f->data_depth - 1]->first_line, 1 }, 1,
            "'%s' is not closed by '%s' in routine '%s'", dir_spelling(open, DIR_FORTRAN),
            open->spelled ? ir_printf("!$acc end %s", open->spelled + strlen("!$acc "))
                          : "!$stencil end data", r->name);
  }
  if (f->open_host_data && !f->host_data_refused)
    diag_at(DIAG_ERROR, f->open_host_data->dir->loc, 1, "'%s' is not closed by '%s' in routine "
            "'%s'", dir_spelling(f->open_host_data->dir, DIR_FORTRAN),
            f->open_host_data->dir->origin == DIR_FROM_STENCIL ? "!$stencil end host_data"
                                                               : "!$acc end host_data", r->name);
  IR_PUSH(f->cx.prog->routines, f->cx.prog->nroutines, r);
  f->routine = NULL;
}

/* The sentinel the file's directives are read in, for messages. */
static const char *file_sentinel(FortranFe *f)
{
  return dir_file_dialect(f->cx.file, DIR_FORTRAN) == DIR_DIALECT_STENCIL ? "!$stencil" : "!$acc";
}

static void lower_module(FortranFe *f, TSNode n)
{
  IrModule *m = ir_alloc(sizeof *m);
  TSNode stmt;
  m->name = ir_strdup(routine_name(f, n, &stmt));
  if (f->loading)
    m->loaded_from = f->cx.src->path;
  f->module = m;
  f->module_node = n;
  f->module_implicit_none = false;
  IR_PUSH(f->cx.prog->modules, f->cx.prog->nmodules, m);
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 1; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (fe_is(c, "implicit_statement") && strstr(fe_text_lower(&f->cx, c), "none"))
      f->module_implicit_none = true;
    else if (fe_is(c, "variable_declaration"))
      read_declaration(f, c);
    else if (fe_is(c, "use_statement"))
      read_use(f, c);
    else if (fe_is(c, "internal_procedures")) {
      uint32_t np = ts_node_named_child_count(c);
      for (uint32_t k = 0; k < np; k++) {
        TSNode p = ts_node_named_child(c, k);
        if (fe_is(p, "subroutine") || fe_is(p, "function"))
          lower_routine(f, p);
      }
    } else if (fe_is(c, "comment") &&
               dir_is_directive_line(f->cx.file, fe_loc(&f->cx, c).line, DIR_FORTRAN)) {
      fe_error(&f->cx, c, "'%s' directives belong inside a routine, not in a module's "
               "specification part", file_sentinel(f));
    }
  }
  f->module = NULL;
  f->module_node = (TSNode){ 0 };
}

static void lower_unit(FortranFe *f, TSNode root)
{
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(root, i);
    if (fe_is(c, "module"))
      lower_module(f, c);
    else if (fe_is(c, "subroutine") || fe_is(c, "function") || fe_is(c, "program"))
      lower_routine(f, c);
    else if (fe_is(c, "comment") &&
             dir_is_directive_line(f->cx.file, fe_loc(&f->cx, c).line, DIR_FORTRAN))
      fe_error(&f->cx, c, "'%s' directives belong inside a routine", file_sentinel(f));
  }
}

/* Does the unit n hold a '!$stencil' line? */
static bool unit_has_directives(FortranFe *f, TSNode n)
{
  int first = fe_loc(&f->cx, n).line;
  int last = (int)ts_node_end_point(n).row + 1;
  for (int l = first; l <= last && l <= f->cx.src->nlines; l++)
    if (dir_is_directive_line(f->cx.file, l, DIR_FORTRAN))
      return true;
  return false;
}

/* Looking for where a syntax error is, inside the first ERROR node (fe_walk). */
typedef struct SyntaxSearch {
  FortranFe *f;
  TSNode top;                          /* the ERROR node searched */
  TSNode at;                           /* what to point at; null while not found */
  bool no_end_do;                      /* at is a DO statement without its END DO */
  bool no_end_if;                      /* at is an IF construct without its END IF */
} SyntaxSearch;

static FeWalk find_inner_error(TSNode n, void *ctx)
{
  SyntaxSearch *s = ctx;
  if (ts_node_eq(n, s->top))
    return FE_WALK_INTO;
  /* `end` alone taken for the END DO: it is the routine's END, the DO has none */
  if (fe_is(n, "end_do_loop_statement") && !strstr(fe_text_lower(&s->f->cx, n), "do")) {
    s->at = ts_node_named_child(ts_node_parent(n), 0);
    s->no_end_do = fe_is(s->at, "do_statement");
    return FE_WALK_STOP;
  }
  /* the same with an IF: `end do` read as `end` (the END IF) and a stray `do` */
  if (fe_is(n, "end_if_statement") && !strstr(fe_text_lower(&s->f->cx, n), "if")) {
    s->at = ts_node_parent(n);
    s->no_end_if = fe_is(s->at, "if_statement");
    return FE_WALK_STOP;
  }
  if (ts_node_is_missing(n) || fe_is(n, "ERROR")) {
    s->at = n;
    return FE_WALK_STOP;
  }
  return FE_WALK_INTO;
}

/* The last DO statement left bare (not in a do_loop) among ERROR's children. */
static TSNode bare_do(TSNode error)
{
  TSNode found = { 0 };
  uint32_t count = ts_node_named_child_count(error);
  for (uint32_t i = 0; i < count; i++)
    if (fe_is(ts_node_named_child(error, i), "do_statement"))
      found = ts_node_named_child(error, i);
  return found;
}

/* Report the first syntax error in unit n.  tree-sitter-fortran wraps a
 * whole routine in one ERROR node when a construct inside it is broken (an
 * END DO missing, a parenthesis left open), and that node starts at the
 * routine's first line; the message points inside it instead: at a DO whose
 * END DO is missing, at the first ERROR or MISSING node within, else at the
 * DO whose loop could not be read. */
static FeWalk find_first_error(TSNode n, void *ctx)
{
  if (ts_node_is_missing(n) || fe_is(n, "ERROR")) {
    *(TSNode *)ctx = n;
    return FE_WALK_STOP;
  }
  return ts_node_has_error(n) ? FE_WALK_INTO : FE_WALK_SKIP;
}

/* The first of ERROR's children that is a bare expression (`a(1)`, `2.0 *
 * a(1)`): what is left of a statement the parser could not read, as in
 * `a(1) = (2.0 * a(1)` with its parenthesis left open.  Null when none. */
static TSNode loose_expression(TSNode error)
{
  uint32_t count = ts_node_named_child_count(error);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(error, i);
    const char *type = ts_node_type(c);
    size_t len = strlen(type);
    if ((len > 11 && !strcmp(type + len - 11, "_expression")) || !strcmp(type, "identifier") ||
        !strcmp(type, "number_literal") || !strcmp(type, "string_literal"))
      return c;
  }
  return (TSNode){ 0 };
}

static bool report_syntax_error(FortranFe *f, TSNode unit)
{
  TSNode n = { 0 };
  fe_walk(unit, find_first_error, &n);
  if (ts_node_is_null(n))
    return false;
  SyntaxSearch s = { .f = f, .top = n };
  if (ts_node_is_missing(n) || !ts_node_named_child_count(n))
    return fe_syntax_errors(&f->cx, n);
  fe_walk(n, find_inner_error, &s);
  if (s.no_end_do) {
    fe_error(&f->cx, s.at, "syntax error: this DO has no END DO");
    return true;
  }
  if (s.no_end_if) {
    fe_error(&f->cx, s.at, "syntax error: this IF has no END IF");
    return true;
  }
  if (!ts_node_is_null(s.at))
    return fe_syntax_errors(&f->cx, s.at);
  TSNode loop = bare_do(n), loose = loose_expression(n);
  if (!ts_node_is_null(loose) &&
      (ts_node_is_null(loop) || ts_node_start_byte(loose) < ts_node_start_byte(loop))) {
    fe_error(&f->cx, loose, "syntax error: the parser cannot read the statement that starts "
             "here");
    return true;
  }
  if (ts_node_is_null(loop))
    return fe_syntax_errors(&f->cx, n);
  fe_error(&f->cx, loop, "syntax error in this DO loop: a statement in it cannot be read, or its "
           "END DO is missing");
  return true;
}

/* A file the parser cannot read is refused wherever the error is, also in a
 * routine without directives: its host text is copied into the output, and a
 * translation that the user's compiler then rejects, or that an error the
 * parser recovered from silently changed, helps nobody. */
static bool check_syntax(FortranFe *f, TSNode root)
{
  bool bad = false;
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(root, i);
    if (fe_is(c, "ERROR") || ts_node_has_error(c))
      bad |= report_syntax_error(f, c);
  }
  return bad;
}

/* Is node c the definition of one of r's statement functions? */
static bool is_stmt_fn_def(FortranFe *f, IrRoutine *r, TSNode c)
{
  if (!fe_is(c, "assignment_statement"))
    return false;
  TSNode lhs = ts_node_child_by_field_name(c, "left", 4);
  if (!fe_is(lhs, "call_expression"))
    return false;
  IrRoutine *saved = f->routine;
  f->routine = r;
  bool found = find_stmt_fn(f, fe_text_lower(&f->cx, ts_node_named_child(lhs, 0))) != NULL;
  f->routine = saved;
  return found;
}

/* The executable part of routine r (CST node n) as IR, for inlining into a
 * region: the same lowering as a region body, so the same constructs are
 * supported and refused.  A final RETURN is allowed. */
static void lower_body(FortranFe *f, IrRoutine *r, TSNode n)
{
  uint32_t count = ts_node_named_child_count(n), first = 1, end;
  while (first < count && (fe_is(ts_node_named_child(n, first), "comment") ||
                           is_specification(ts_node_named_child(n, first)) ||
                           is_stmt_fn_def(f, r, ts_node_named_child(n, first))))
    first++;
  for (end = first; end < count; end++) {
    TSNode c = ts_node_named_child(n, end);
    if (fe_is(c, "internal_procedures") || fe_is(c, "end_subroutine_statement") ||
        fe_is(c, "end_function_statement"))
      break;
  }
  uint32_t last = end;
  while (last > first && fe_is(ts_node_named_child(n, last - 1), "comment"))
    last--;
  if (last > first && fe_is(ts_node_named_child(n, last - 1), "keyword_statement") &&
      !strncmp(fe_text_lower(&f->cx, ts_node_named_child(n, last - 1)), "return", 6))
    end = last - 1;
  IrRegion pseudo = { .name = r->name, .routine = r };
  TSNode procedures = ts_node_parent(n);
  f->routine = r;
  f->implicit_none = r->implicit_none;
  f->module = r->module;
  f->module_node = r->module ? ts_node_parent(procedures) : (TSNode){ 0 };
  f->region = &pseudo;
  f->inlining = true;
  lower_block(f, n, first, end, &r->body);
  if (jumps_of(f)->returns) {
    /* an early RETURN leaves this block, whose end is the routine's */
    IrStmt *b = ir_stmt(IR_S_BLOCK, r->body.n ? r->body.v[0]->loc : r->loc);
    b->u.loop.name = IR_RETURN_NAME;
    b->u.loop.body = r->body;
    r->body = (IrStmtList){ 0, 0, NULL };
    ir_list_push(&r->body, b);
  }
  f->inlining = false;
  f->region = NULL;
  f->module_node = (TSNode){ 0 };
  fe_resolve_directives(&f->cx, r);
  f->routine = NULL;
  r->body_lowered = true;
}

/* ---- summaries of other files ------------------------------------------------ */

static void delete_tree(void *tree)
{
  ts_tree_delete(tree);
}

/* The file a summary came from, as messages name it: relative to the
 * current directory when it is under it. */
static const char *shown_path(const char *origin)
{
  char cwd[4096];
  size_t n;
  if (getcwd(cwd, sizeof cwd) && (n = strlen(cwd)) && !strncmp(origin, cwd, n) && origin[n] == '/')
    return origin + n + 1;
  return origin;
}

/* The unit `name` of a summary (modules.h): its CST node, in the summary's
 * source *file (registered, its lines mapped to the file it summarizes,
 * its tree kept until the arena goes).  A null node when there is no
 * summary, or with *why set when there is one that cannot be used. */
static TSNode read_summary(FeUnitKind kind, const char *name, int *file, const char **why)
{
  size_t len;
  char *path;
  const char *failed;
  char *text = fe_modules_find(kind, name, &len, &path, &failed);
  *why = NULL;
  if (!text) {
    if (failed)
      *why = ir_printf("the file that defines it, '%s', did not translate (see its errors)", failed);
    return (TSNode){ 0 };
  }
  FeSummaryHeader h;
  bool ok = fe_summary_header(text, &h);
  if (!ok || h.version != FE_SUMMARY_VERSION || h.kind != kind || strcmp(h.name, name)) {
    if (h.version && h.version != FE_SUMMARY_VERSION)
      *why = ir_printf("'%s' was written by another version of s2s-cuda (summary format %d, this "
                       "one reads %d); translate or compile '%s' again", path, h.version,
                       FE_SUMMARY_VERSION, shown_path(h.origin));
    else
      *why = ir_printf("'%s' is not the summary s2s-cuda writes for it; translate or compile the "
                       "file that defines it again", path);
    free(text);
    free(path);
    return (TSNode){ 0 };
  }
  *file = diag_add_source(path, text, len);
  const SourceFile *sf = diag_source(*file);
  const char *origin = shown_path(h.origin);
  for (int l = 2; l <= sf->nlines; l++)
    diag_map_line(*file, l, origin, h.line + l - 2);
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_fortran());
  TSTree *tree = ts_parser_parse_string(parser, NULL, sf->text, (uint32_t)sf->len);
  ts_parser_delete(parser);
  ir_arena_on_free(delete_tree, tree);
  TSNode root = ts_tree_root_node(tree);
  FortranFe probe = { .cx = { .file = *file, .src = sf } };
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(root, i), stmt;
    bool fits = kind == FE_UNIT_MODULE ? fe_is(c, "module")
                                       : fe_is(c, "subroutine") || fe_is(c, "function");
    if (fits && !strcmp(routine_name(&probe, c, &stmt), name))
      return c;
  }
  *why = ir_printf("'%s' does not hold it; translate or compile the file that defines it again",
                   sf->path);
  return (TSNode){ 0 };
}

/* A reader of its own for a summary, adding to f's Program; what it keeps
 * for later (routine nodes, arrays of too high a rank) goes to f. */
static void take_from(FortranFe *f, FortranFe *sub)
{
  for (int i = 0; i < sub->nroutine_nodes; i++)
    IR_PUSH(f->routine_nodes, f->nroutine_nodes, sub->routine_nodes[i]);
  for (int i = 0; i < sub->nhigh_rank; i++)
    IR_PUSH(f->high_rank, f->nhigh_rank, sub->high_rank[i]);
}

static IrModule *load_module(FortranFe *f, const char *name, const char **why)
{
  int file;
  TSNode unit = read_summary(FE_UNIT_MODULE, name, &file, why);
  if (ts_node_is_null(unit))
    return NULL;
  FortranFe sub = { .cx = { .file = file, .src = diag_source(file), .prog = f->cx.prog },
                    .loading = true };
  lower_module(&sub, unit);
  take_from(f, &sub);
  return find_module(f->cx.prog, name);
}

/* An external procedure of another file that a region calls (once per name). */
static void load_procedure(FortranFe *f, const char *name)
{
  for (int i = 0; i < f->nsought; i++)
    if (!strcmp(f->sought[i], name))
      return;
  IR_PUSH(f->sought, f->nsought, name);
  int file;
  const char *why;
  TSNode unit = read_summary(FE_UNIT_PROCEDURE, name, &file, &why);
  if (ts_node_is_null(unit))
    return;                  /* the inliner says the call cannot be inlined */
  FortranFe sub = { .cx = { .file = file, .src = diag_source(file), .prog = f->cx.prog },
                    .loading = true };
  lower_routine(&sub, unit);
  take_from(f, &sub);
}

/* ---- bodies of called routines ----------------------------------------------- */

static bool routine_known(const FortranFe *f, const char *name)
{
  for (int i = 0; i < f->nroutine_nodes; i++)
    if (!strcmp(f->routine_nodes[i].r->name, name))
      return true;
  return false;
}

/* A call of a routine that is nowhere, in a routine that uses a module
 * that was not found: the module is what is missing. */
static void blame_missing_calls(FortranFe *f)
{
  for (int i = 0; i < f->nsites; i++) {
    const CallSite *c = &f->sites[i];
    if (routine_known(f, c->name))
      continue;
    IrMissingUse *m = missing_source(c->caller->nmissing_uses, c->caller->missing_uses, c->name);
    if (m)
      diag_missing_use(m, "the region", c->name, false);
  }
}

/* Lower the bodies of the routines that regions call, and of those they
 * call in turn (the list grows while it is walked); a routine that is not
 * in the file nor in a USEd module is looked for as a summary. */
static void lower_called_bodies(FortranFe *f)
{
  for (int c = 0; c < f->ncalls; c++) {
    if (!routine_known(f, f->calls[c]))
      load_procedure(f, f->calls[c]);
    for (int i = 0; i < f->nroutine_nodes; i++) {
      IrRoutine *r = f->routine_nodes[i].r;
      if (strcmp(r->name, f->calls[c]) || r->body_lowered)
        continue;
      if (r->nregions || r->nhost_dirs || f->routine_nodes[i].has_directives) {
        diag_at(DIAG_ERROR, r->loc, 1, "routine '%s' is called inside a region but has "
                "directives of its own; it cannot be inlined", r->name);
        r->body_lowered = true;
        continue;
      }
      FeCtx here = f->cx;     /* lowered with the text of its own source */
      f->cx.file = f->routine_nodes[i].file;
      f->cx.src = diag_source(f->cx.file);
      lower_body(f, r, f->routine_nodes[i].node);
      f->cx.file = here.file;
      f->cx.src = here.src;
    }
  }
  blame_missing_calls(f);
}

bool fe_fortran_check_syntax(int file)
{
  FortranFe f = { 0 };
  f.cx.file = file;
  f.cx.src = diag_source(file);
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_fortran());
  TSTree *tree = ts_parser_parse_string(parser, NULL, f.cx.src->text, (uint32_t)f.cx.src->len);
  f.root = ts_tree_root_node(tree);
  bool bad = check_syntax(&f, f.root);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return !bad;
}

Program *fe_fortran(int file)
{
  FortranFe f = { 0 };
  f.cx.file = file;
  f.cx.src = diag_source(file);
  f.cx.prog = ir_alloc(sizeof *f.cx.prog);
  f.cx.prog->lang = IR_FORTRAN;
  f.cx.prog->file = file;
  f.cx.prog->path = f.cx.src->path;
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_fortran());
  TSTree *tree = ts_parser_parse_string(parser, NULL, f.cx.src->text, (uint32_t)f.cx.src->len);
  TSNode root = ts_tree_root_node(tree);
  int errors = diag_error_count();
  f.root = root;
  if (!check_syntax(&f, root)) {
    lower_unit(&f, root);
    lower_called_bodies(&f);
  }
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return diag_error_count() > errors ? NULL : f.cx.prog;
}
