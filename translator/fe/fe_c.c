/* fe_c.c — the C front end.
 *
 * Reads the tree-sitter-c CST of one file and builds the Program: a pseudo
 * module (name "") holding the file-scope variables and constants, and one
 * routine per function definition with its parameters and local
 * declarations.  Host code is only searched, never lowered: for
 * declarations (so that a region can name what is visible where it stands)
 * and for `#pragma stencil` directives.  A `region` pragma applies to the
 * `for` loop or `{ }` block right after it; that statement is lowered into
 * IR statements, with C's semantics made explicit: subscripts reversed to
 * fastest-first, `for` loops normalized to counted DO loops (or refused),
 * compound assignments and `++` spelled out, and every usual arithmetic
 * conversion written as an IR_E_CONVERT node.
 *
 * Names follow C's block scoping.  Every declaration binds its name in the
 * scope that declares it (a Binding), hiding outer ones until the scope
 * closes.  A declaration regions cannot use (pointer to pointer, struct,
 * unsigned, a host redeclaration with another type) still binds its name,
 * with the reason, so that using it in a region is reported, and using it
 * in host code costs nothing.  A struct variable or pointer whose type the
 * file declares is such a name, but a region may use its members (`s->u`,
 * `s.w`, `s->nx`): each is a symbol of its own (lower_member).  Host symbols keep their names (the host
 * emitter passes them to launchers by name); a declaration inside a region
 * whose name is taken in the routine gets a fresh one (`t_2`), which only
 * kernel code ever prints.
 *
 * One parser quirk is handled on purpose: tree-sitter-c cannot put a
 * `#pragma` between a loop header and a body without braces, so
 *
 *     for (j = 0; j < n; j++)
 *     #pragma stencil do parallel
 *       for (i = 0; i < n; i++) ...
 *
 * parses as a `for` with an empty (MISSING ';') body followed by the
 * pragma and the inner loop as siblings.  Such a "dangling" body is read
 * from the siblings that follow (Seq.outer), as a C compiler would.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "dep.h"
#include "frontend.h"
#include "report.h"

const TSLanguage *tree_sitter_c(void);

/* The analyses' limit (dep.h), reported here where the user wrote the loop. */
#define MAX_LOOP_DEPTH DEP_MAX_DEPTH
/* Host code is searched for pragmas recursively (scan_node): far deeper
 * than any real code, well within the stack. */
#define MAX_HOST_DEPTH 5000

/* ---- the reader's state -------------------------------------------------- */

typedef struct CStruct CStruct;

/* A C type as far as the IR can hold it.  `bad` names a type it cannot
 * (for messages: "unsigned int", "struct s"); then `t` is meaningless.  A
 * struct type declared in the file also has `strct`: a region reaches its
 * members (`s->u`) though not the struct itself. */
typedef struct CType {
  IrType t;
  const char *bad;
  CStruct *strct;
} CType;

/* One member of a struct type: a symbol template named as the member
 * (its type and shape), or why a region cannot use it. */
typedef struct CMember {
  const char *name;
  IrSym *sym;                     /* NULL: `bad` says why, or it is a struct (strct) */
  const char *bad;
  bool array;                     /* declared as an array (`w[NZ][NY][NX]`), not a pointer */
  CStruct *strct;                 /* a struct of the file (`struct grid g;`, or a pointer to
                                     one: struct_ptr), whose members regions reach in turn */
  bool struct_ptr;
} CMember;

/* A struct type of the translation unit (C is preprocessed: the headers'
 * types are there). */
struct CStruct {
  const char *tag;                /* `struct tag`; NULL when anonymous */
  int nmembers;
  CMember *members;
  CStruct *next;                  /* CFe.structs, latest first */
};

typedef struct Name Name;
typedef struct Scope Scope;

/* One declaration of a name.  Read `sym` when it is set; a typedef name has
 * `is_typedef` and `type`; otherwise `bad` is the whole message to print if
 * a region uses the name. */
typedef struct Binding {
  IrSym *sym;
  bool is_typedef;
  CType type;
  const char *bad;
  /* A struct variable (or pointer to one) of a type of the file: regions
   * use its members.  `distinct`: its array members overlap nothing a
   * region may name otherwise (a restrict pointer to the struct; the host
   * code may point anything into a struct variable). */
  CStruct *strct;
  bool struct_ptr, distinct;
  int line;                       /* of the declaration, for messages */
  Name *name;
  Scope *scope;
  struct Binding *shadowed;       /* the binding this one hides */
  struct Binding *next_in_scope;
} Binding;

struct Name {                     /* every name ever bound; top is the visible binding */
  const char *text;
  Binding *top;
  UT_hash_handle hh;
};

struct Scope {
  Binding *bindings;
  Scope *outer;
};

/* The named children of one node, taken in order (comments skipped).
 * `outer` is where a body the parser left dangling continues. */
typedef struct Seq {
  TSNode parent;
  uint32_t next, count;
  struct Seq *outer;
} Seq;

/* Where a declaration stands; decides where its symbol goes and how strict
 * the reader is (host declarations are only reported when a region uses them). */
typedef enum DeclWhere { DECL_GLOBAL, DECL_PARAM, DECL_HOST, DECL_REGION } DeclWhere;

/* A symbol declared inside a region (kernel-only; may be renamed). */
typedef struct RegionLocal {
  IrSym *sym;
  const char *source_name;        /* as declared; sym->name may differ */
  IrRegion *region;
} RegionLocal;

/* A member of a struct variable used in a region of the routine, as its
 * own symbol (member_sym): the variable's binding and the member's path
 * from it as written (`s->grid->u`). */
typedef struct MemberUse {
  Binding *root;
  const char *path;
  IrSym *sym;
} MemberUse;

/* A struct reached from a variable: `s`, `s->grid`, `s.in`. */
typedef struct StructPath {
  Binding *root;                  /* the variable */
  const char *text;               /* the path as the user writes it, normalized */
  CStruct *strct;
  bool ptr;                       /* reached as a pointer: its members with '->' */
  bool distinct;                  /* its array members overlap nothing else (Binding.distinct) */
} StructPath;

typedef struct CFe {
  FeCtx fe;
  TSNode cast_subst;              /* a misread cast being lowered as its operand (below) */
  IrModule *globals;              /* the pseudo module "" of file-scope declarations */
  IrRoutine *routine;             /* function being read, NULL at file scope */
  TSNode function;                /* its function_definition */
  Name *names;                    /* uthash by text */
  Scope *scope;                   /* innermost open scope */
  IrRegion *region;               /* region being lowered, NULL in host code */
  IrRegion *struct_refused;       /* the region whose struct member use was reported */
  int nlocals;
  RegionLocal *locals;            /* of the routine being read */
  int nmember_uses;
  MemberUse *member_uses;         /* of the routine being read */
  CStruct *structs;               /* struct types declared so far, latest first */
  struct { IrSym *iv; int line; } loops[MAX_LOOP_DEPTH]; /* open loops of the region */
  int nloops;
  int nhost_dirs;
  int data_depth;                 /* data directives whose unit is being scanned */
  IrHostDirective *open_host_data; /* the host_data whose unit is being scanned, or NULL */
  TSNode extent;                  /* the node reaching furthest among those taken (see seq_take) */
  uint32_t extent_end;
  int expr_depth;                 /* lower_expr calls open (FE_MAX_EXPR_DEPTH) */
  bool expr_too_deep;             /* reported for the expression being lowered */
  int host_depth;                 /* scan_node calls open (MAX_HOST_DEPTH) */
  bool host_too_deep;             /* reported (once per file) */
  int stmt_depth;                 /* lower_stmt calls open (FE_MAX_STMT_DEPTH) */
  bool stmt_too_deep;             /* reported for the outermost statement being lowered */
  bool quiet;                     /* record the first error in quiet_msg instead of printing */
  const char *quiet_msg;
} CFe;

static IrExpr *lower_expr(CFe *c, TSNode n);
static void lower_stmt(CFe *c, TSNode n, Seq *rest, Directive *advice, IrStmtList *out);
static bool lower_unit(CFe *c, Seq *seq, IrStmtList *out);
static void scan_node(CFe *c, TSNode n, Seq *rest);

/* ---- diagnostics ---------------------------------------------------------- */

static void verror(CFe *c, Loc loc, int width, const char *fmt, va_list ap)
{
  if (!c->quiet) {
    diag_vat(DIAG_ERROR, loc, width, fmt, ap);
    return;
  }
  if (c->quiet_msg)
    return;
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  char *msg = ir_alloc((size_t)n + 1);
  vsnprintf(msg, (size_t)n + 1, fmt, ap);
  c->quiet_msg = msg;
}

__attribute__((format(printf, 3, 4)))
static void err(CFe *c, TSNode n, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  verror(c, fe_loc(&c->fe, n), fe_width(&c->fe, n), fmt, ap);
  va_end(ap);
}

__attribute__((format(printf, 4, 5)))
static void err_at(CFe *c, Loc loc, int width, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  verror(c, loc, width, fmt, ap);
  va_end(ap);
}

static int line_of(CFe *c, TSNode n)
{
  return fe_first_line(&c->fe, n);
}

/* "<what> not supported inside a stencil region (line N)"; `what` carries
 * its own verb ("'while' loops are"). */
static void unsupported(CFe *c, TSNode n, const char *what)
{
  err(c, n, "%s not supported inside a stencil region (line %d)", what, line_of(c, n));
}

/* ---- CST helpers ------------------------------------------------------------ */

/* A field of n; a null node when n itself is null (malformed input leaves
 * holes in the tree, and tree-sitter does not accept null nodes). */
static TSNode field(TSNode n, const char *name)
{
  if (ts_node_is_null(n))
    return n;
  return ts_node_child_by_field_name(n, name, (uint32_t)strlen(name));
}

static const char *op_text(TSNode n)
{
  return ts_node_type(field(n, "operator"));
}

/* The first named child that is not a comment. */
static TSNode first_named(TSNode n)
{
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode k = ts_node_named_child(n, i);
    if (!fe_is(k, "comment"))
      return k;
  }
  return (TSNode){ 0 };
}

/* A loop or if body the parser left empty because a pragma came first
 * (see the file comment): a zero-width expression_statement. */
static bool is_dangling(TSNode n)
{
  return fe_is(n, "expression_statement") && ts_node_start_byte(n) == ts_node_end_byte(n);
}

static bool is_pragma(CFe *c, TSNode n)
{
  if (!fe_is(n, "preproc_call"))
    return false;
  const char *d = fe_text(&c->fe, field(n, "directive"));
  d += strspn(d + 1, " \t") + 1;
  return strcmp(d, "pragma") == 0;
}

static int parsed_line(TSNode n)
{
  return (int)ts_node_start_point(n).row + 1;
}

static bool is_stencil_pragma(CFe *c, TSNode n)
{
  return is_pragma(c, n) && dir_is_directive_line(c->fe.file, parsed_line(n), DIR_C);
}

/* `#pragma omp ...`, an OpenMP directive. */
static bool is_omp_pragma(CFe *c, TSNode n)
{
  size_t len;
  const char *l = diag_line(c->fe.file, parsed_line(n), &len);
  const char *end = l ? l + len : NULL;
  if (!l)
    return false;
  l += strspn(l, " \t#");
  if (end - l < 6 || strncmp(l, "pragma", 6) != 0)
    return false;
  l += 6;
  l += strspn(l, " \t");
  return end - l >= 3 && strncmp(l, "omp", 3) == 0 && (end - l == 3 || l[3] == ' ' || l[3] == '\t');
}

/* The pragma's text as written, trailing blanks dropped: for messages. */
static const char *pragma_text(CFe *c, TSNode n)
{
  size_t len;
  const char *l = diag_line(c->fe.file, parsed_line(n), &len);
  size_t skip = strspn(l, " \t");
  while (len > skip && (l[len - 1] == ' ' || l[len - 1] == '\t' || l[len - 1] == '\r'))
    len--;
  return ir_strndup(l + skip, len - skip);
}

/* The user's OpenMP loop pragma on a region's loop: the GPU mapping
 * replaces it in the kernel; the region's own code in the host file (the
 * host pass: fallback and autocompare) keeps it with the loop. */
static void note_omp_pragma(CFe *c, TSNode n)
{
  if (!c->quiet)
    report_at(REPORT_NOTE, c->routine->name, fe_loc(&c->fe, n), "'%s' ignored in the kernel: "
              "the region's loops are mapped onto the GPU instead (the host pass keeps it)",
              pragma_text(c, n));
}

static void free_directive(void *d)
{
  dir_free(d);
}

/* Read the `#pragma stencil` directive at node n (NULL: reported); the
 * arena owns it from then on.  *last_line: its last user line. */
static Directive *read_directive(CFe *c, TSNode n, int *last_line)
{
  /* After cpp, read the pragma from the user's own lines (cpp expands no
   * macro in an unknown pragma, but joins its '\' continuations into one
   * line): the directive's locations are then the user's columns. */
  int file = c->fe.file, line = parsed_line(n), last;
  int user_line, user = diag_source(file)->map_file ?
                            diag_user_source((Loc){ file, line, 1 }, &user_line) : -1;
  if (user >= 0 && dir_is_directive_line(user, user_line, DIR_C))
    file = user, line = user_line;
  Directive *d = dir_read(file, line, DIR_C, &last);
  if (last_line)
    *last_line = diag_user_line((Loc){ file, last, 1 });
  if (d) {
    ir_arena_on_free(free_directive, d);
    fe_directive_read(&c->fe, d);
  }
  return d;
}

/* How to name a statement node in a message: singular ("a 'while' loop")
 * and as a subject of "not supported" ("'while' loops are"). */
static const struct { const char *type, *one, *many; } statement_names[] = {
  { "while_statement", "a 'while' loop", "'while' loops are" },
  { "do_statement", "a 'do'-'while' loop", "'do'-'while' loops are" },
  { "switch_statement", "a 'switch' statement", "'switch' statements are" },
  { "goto_statement", "a 'goto' statement", "'goto' statements are" },
  { "return_statement", "a 'return' statement", "'return' statements are" },
  { "labeled_statement", "a labeled statement", "labels are" },
  { "case_statement", "a 'case' label", "'case' labels are" },
  { "declaration", "a declaration", "declarations here are" },
  { "type_definition", "a typedef", "typedefs are" },
  { "if_statement", "an 'if' statement", "these 'if' statements are" },
  { "expression_statement", "an expression statement", "these statements are" },
  { "for_statement", "a 'for' loop", "these 'for' loops are" },
  { "compound_statement", "a '{ }' block", "these blocks are" },
  { "break_statement", "'break'", "'break' here is" },
  { "continue_statement", "'continue'", "'continue' here is" },
  { "attributed_statement", "a statement with attributes", "statement attributes are" },
  { "seh_try_statement", "a '__try' statement", "'__try' statements are" },
};

static const char *describe(TSNode n, bool many)
{
  const char *type = ts_node_type(n);
  for (size_t i = 0; i < sizeof statement_names / sizeof *statement_names; i++)
    if (strcmp(type, statement_names[i].type) == 0)
      return many ? statement_names[i].many : statement_names[i].one;
  if (strncmp(type, "preproc_", 8) == 0)
    return many ? "preprocessor directives are" : "a preprocessor directive";
  return many ? ir_printf("'%s' statements are", type) : ir_printf("a '%s'", type);
}

/* ---- sequences of statements ------------------------------------------------ */

static Seq seq_of(TSNode parent, Seq *outer)
{
  return (Seq){ parent, 0, ts_node_named_child_count(parent), outer };
}

static bool seq_more(Seq *s)
{
  while (s->next < s->count && fe_is(ts_node_named_child(s->parent, s->next), "comment"))
    s->next++;
  return s->next < s->count;
}

/* Take the next item.  Remembers the furthest-reaching node taken, so that
 * a region or data pragma knows where the code it applies to ends. */
static bool seq_take(CFe *c, Seq *s, TSNode *out)
{
  if (!seq_more(s))
    return false;
  *out = ts_node_named_child(s->parent, s->next++);
  if (ts_node_end_byte(*out) > c->extent_end) {
    c->extent_end = ts_node_end_byte(*out);
    c->extent = *out;
  }
  return true;
}

/* The sequence a dangling body continues in: the nearest one with items left. */
static Seq *seq_for_dangling(Seq *s)
{
  while (s && !seq_more(s))
    s = s->outer;
  return s;
}

/* Extent tracking around a construct: start, then end returns the node
 * reaching furthest among those taken since start. */
typedef struct Extent { TSNode node; uint32_t end; } Extent;

static Extent extent_start(CFe *c)
{
  Extent saved = { c->extent, c->extent_end };
  c->extent = (TSNode){ 0 };
  c->extent_end = 0;
  return saved;
}

static TSNode extent_end(CFe *c, Extent saved)
{
  TSNode mine = c->extent;
  if (saved.end > c->extent_end) {
    c->extent = saved.node;
    c->extent_end = saved.end;
  }
  return mine;
}

/* ---- scopes ------------------------------------------------------------------- */

static void scope_push(CFe *c)
{
  Scope *s = ir_alloc(sizeof *s);
  s->outer = c->scope;
  c->scope = s;
}

static void scope_pop(CFe *c)
{
  for (Binding *b = c->scope->bindings; b; b = b->next_in_scope)
    b->name->top = b->shadowed;
  c->scope = c->scope->outer;
}

static Binding *visible(CFe *c, const char *text)
{
  Name *nm;
  HASH_FIND_STR(c->names, text, nm);
  return nm ? nm->top : NULL;
}

/* Bind `text` in the innermost scope.  A second declaration in the same
 * scope (`extern double x[]; double x[10];`) replaces the first binding. */
static Binding *bind(CFe *c, const char *text, TSNode at)
{
  Name *nm;
  HASH_FIND_STR(c->names, text, nm);
  if (!nm) {
    nm = ir_alloc(sizeof *nm);
    nm->text = ir_strdup(text);
    HASH_ADD_KEYPTR(hh, c->names, nm->text, strlen(nm->text), nm);
  }
  Binding *b;
  if (nm->top && nm->top->scope == c->scope) {
    b = nm->top;
    *b = (Binding){ .name = nm, .scope = c->scope, .shadowed = b->shadowed,
                    .next_in_scope = b->next_in_scope };
  } else {
    b = ir_alloc(sizeof *b);
    b->name = nm;
    b->scope = c->scope;
    b->shadowed = nm->top;
    b->next_in_scope = c->scope->bindings;
    c->scope->bindings = b;
    nm->top = b;
  }
  b->line = line_of(c, at);
  return b;
}

/* Bind a name regions cannot use; `why` is the message to print if one
 * does ("" when the declaration was reported already). */
static Binding *bind_bad(CFe *c, const char *text, TSNode at, const char *why)
{
  Binding *b = bind(c, text, at);
  b->bad = *why ? ir_printf("%s (declared at line %d)", why, b->line) : why;
  return b;
}

/* What to add to a message about a name that may be a macro: nothing
 * after cpp (it would have been expanded), the way to expand it under
 * -nocpp. */
static const char *macro_hint(CFe *c, const char *name)
{
  if (diag_source(c->fe.file)->map_file)
    return "";
  return ir_printf("; if '%s' is a macro, run without -nocpp", name);
}

/* The symbol a region names with identifier `id`, or NULL (reported). */
static IrSym *lookup(CFe *c, TSNode id)
{
  char *text = fe_text(&c->fe, id);
  Binding *b = visible(c, text);
  if (!b) {
    err(c, id, "'%s' is not declared%s", text, macro_hint(c, text));
    return NULL;
  }
  if (b->is_typedef) {
    err(c, id, "'%s' is a type name, not a variable", text);
    return NULL;
  }
  if (!b->sym) {
    if (*b->bad)                  /* "": its declaration was reported already */
      err(c, id, "%s", b->bad);
    return NULL;
  }
  return b->sym;
}

/* ---- symbols ------------------------------------------------------------------ */

static IrSym *new_sym(CFe *c, const char *name, CType type, TSNode at)
{
  IrSym *s = ir_alloc(sizeof *s);
  s->name = ir_strdup(name);
  s->type = type.t;
  s->dummy_index = -1;
  s->loc = fe_loc(&c->fe, at);
  return s;
}

static void table_add(IrSym **table, IrSym *s)
{
  HASH_ADD_KEYPTR(hh, *table, s->name, strlen(s->name), s);
}

static IrSym *table_find(IrSym *table, const char *name)
{
  IrSym *s;
  HASH_FIND_STR(table, name, s);
  return s;
}

static RegionLocal *region_local(CFe *c, const IrSym *s)
{
  for (int i = 0; i < c->nlocals; i++)
    if (c->locals[i].sym == s)
      return &c->locals[i];
  return NULL;
}

/* Does `word` occur as an identifier in the text of the current function? */
static bool word_in_function(CFe *c, const char *word)
{
  const char *text = c->fe.src->text;
  uint32_t from = ts_node_start_byte(c->function), to = ts_node_end_byte(c->function);
  size_t len = strlen(word);
  for (const char *p = text + from; p + len <= text + to; p++) {
    if (strncmp(p, word, len) != 0)
      continue;
    bool left = p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '_');
    bool right = !(isalnum((unsigned char)p[len]) || p[len] == '_');
    if (left && right)
      return true;
  }
  return false;
}

/* A name for a kernel-only symbol that nothing else in the routine, its
 * module or the function's text uses: name_2, name_3, ... */
static char *fresh_name(CFe *c, const char *name)
{
  for (int k = 2;; k++) {
    char *cand = ir_printf("%s_%d", name, k);
    if (!table_find(c->routine->symbols, cand) && !table_find(c->globals->symbols, cand) &&
        !word_in_function(c, cand))
      return cand;
  }
}

static bool same_declaration(const IrSym *a, const IrSym *b)
{
  if (a->type != b->type || a->rank != b->rank || a->kind != b->kind ||
      a->is_pointer != b->is_pointer || !ir_expr_equal(a->init, b->init))
    return false;
  for (int d = 0; d < a->rank; d++)
    if (!ir_expr_equal(a->lo[d], b->lo[d]) || !ir_expr_equal(a->hi[d], b->hi[d]))
      return false;
  return true;
}

/* A host-code (or parameter) symbol of the routine: names are kept, since
 * the host emitter passes them to launchers.  A same-named earlier
 * declaration is reused when identical; one with another type makes the
 * name unusable in regions (bound as bad).  A kernel-only symbol in the way
 * is renamed. */
static void install_host(CFe *c, IrSym *s, TSNode at)
{
  IrSym *old = table_find(c->routine->symbols, s->name);
  if (old && region_local(c, old)) {
    HASH_DEL(c->routine->symbols, old);
    if (!old->source_name)
      old->source_name = old->name;
    old->name = fresh_name(c, old->name);
    table_add(&c->routine->symbols, old);
    old = NULL;
  }
  if (!old) {
    table_add(&c->routine->symbols, s);
    bind(c, s->name, at)->sym = s;
  } else if (same_declaration(old, s) && !s->is_dummy) {
    bind(c, s->name, at)->sym = old;
  } else {
    Binding *b = bind(c, s->name, at);
    b->bad = ir_printf("s2s-cuda does not support shadowed name '%s' around a region (declared at "
                  "line %d, and at line %d with another type or shape)", s->name,
                  diag_user_line(old->loc), b->line);
  }
}

/* A scalar variable of this region declared under the same name and type
 * whose scope has closed (two sibling loops each declaring `int i`). */
static IrSym *reusable_local(CFe *c, const IrSym *s)
{
  if (s->rank || s->kind != IR_SYM_VAR)
    return NULL;
  Binding *b = visible(c, s->name);
  for (int i = 0; i < c->nlocals; i++) {
    IrSym *old = c->locals[i].sym;
    if (c->locals[i].region == c->region && strcmp(c->locals[i].source_name, s->name) == 0 &&
        !old->rank && old->type == s->type && old->kind == IR_SYM_VAR && !(b && b->sym == old))
      return old;
  }
  return NULL;
}

/* A symbol declared inside a region: reuse a closed one of this region
 * (reusable_local), else take the name if free, else a fresh one. */
static IrSym *install_region_local(CFe *c, IrSym *s, TSNode at)
{
  s->region_local = true;
  IrSym *old = reusable_local(c, s);
  if (old) {
    bind(c, s->name, at)->sym = old;
    return old;
  }
  char *name = s->name;
  if (table_find(c->routine->symbols, name)) {
    s->name = fresh_name(c, name);
    s->source_name = name;
  }
  table_add(&c->routine->symbols, s);
  IR_PUSH(c->locals, c->nlocals, ((RegionLocal){ s, name, c->region }));
  bind(c, name, at)->sym = s;
  return s;
}

static void install_global(CFe *c, IrSym *s, TSNode at)
{
  IrSym *old = table_find(c->globals->symbols, s->name);
  s->is_module = true;
  if (!old) {
    table_add(&c->globals->symbols, s);
    bind(c, s->name, at)->sym = s;
    return;
  }
  /* a tentative or extern declaration completed later: `extern double x[]; double x[10];` */
  if (old->type == s->type && old->rank == s->rank && old->kind == s->kind) {
    for (int d = 0; d < s->rank; d++)
      if (!old->hi[d])
        old->hi[d] = s->hi[d];
    bind(c, s->name, at)->sym = old;
    return;
  }
  bind_bad(c, s->name, at, ir_printf("s2s-cuda does not support '%s' declared twice with different "
                                "types (also at line %d)", s->name, diag_user_line(old->loc)));
}

/* ---- types ---------------------------------------------------------------------- */

static CType type_ok(IrType t)
{
  return (CType){ t, NULL, NULL };
}

static CType type_bad(const char *what)
{
  return (CType){ IR_T_VOID, what, NULL };
}

static CType primitive_type(const char *text)
{
  static const struct { const char *name; IrType t; } names[] = {
    { "int", IR_T_INT }, { "int32_t", IR_T_INT }, { "int64_t", IR_T_INT8 },
    { "ptrdiff_t", IR_T_INT8 }, { "ssize_t", IR_T_INT8 }, { "intptr_t", IR_T_INT8 },
    /* sizes and indices: held as a signed 64-bit integer, exact for every
     * value below 2^63; C's wrap-around below 0 is not modelled (a region
     * relying on it, such as `i >= 0` to end a downward size_t loop, loops
     * forever in C) */
    { "size_t", IR_T_INT8 },
    { "float", IR_T_REAL4 }, { "double", IR_T_REAL8 },
  };
  for (size_t i = 0; i < sizeof names / sizeof *names; i++)
    if (strcmp(text, names[i].name) == 0)
      return type_ok(names[i].t);
  return type_bad(ir_strdup(text));
}

/* sized_type_specifier := ('signed' | 'unsigned' | 'long' | 'short')+ primitive_type? */
static CType sized_type(CFe *c, TSNode n)
{
  char *text = fe_text(&c->fe, n);
  int longs = 0;
  bool ok = true, real = false;
  for (char *w = strtok(text, " \t\n"); w; w = strtok(NULL, " \t\n")) {
    if (strcmp(w, "long") == 0)
      longs++;
    else if (strcmp(w, "double") == 0)
      real = true;
    else if (strcmp(w, "int") != 0 && strcmp(w, "signed") != 0)
      ok = false;                 /* unsigned, short, char */
  }
  if (!ok || real)
    return type_bad(fe_text(&c->fe, n));
  return type_ok(longs ? IR_T_INT8 : IR_T_INT);
}

static CStruct *read_struct(CFe *c, TSNode n);

/* type := primitive_type | sized_type_specifier | type_identifier
 *       | struct_specifier | union_specifier | enum_specifier | ... */
static CType read_type(CFe *c, TSNode n)
{
  if (fe_is(n, "struct_specifier") || fe_is(n, "union_specifier")) {
    /* named by keyword and tag in messages, not by the text of its body */
    TSNode tag = field(n, "name");
    const char *kw = fe_is(n, "union_specifier") ? "union" : "struct";
    CType t = type_bad(ts_node_is_null(tag) ? kw : ir_printf("%s %s", kw, fe_text(&c->fe, tag)));
    if (!fe_is(n, "union_specifier"))
      t.strct = read_struct(c, n);
    return t;
  }
  if (fe_is(n, "primitive_type"))
    return primitive_type(fe_text(&c->fe, n));
  if (fe_is(n, "sized_type_specifier"))
    return sized_type(c, n);
  if (fe_is(n, "enum_specifier"))
    return type_ok(IR_T_INT);
  if (fe_is(n, "type_identifier")) {
    Binding *b = visible(c, fe_text(&c->fe, n));
    if (b && b->is_typedef && b->type.strct)
      return (CType){ b->type.t, fe_text(&c->fe, n), b->type.strct };   /* named as written */
    if (b && b->is_typedef)
      return b->type;
  }
  return type_bad(fe_text(&c->fe, n));
}

/* Is there a `const` among the qualifiers of a declaration (not of a pointer)? */
static bool has_qualifier(CFe *c, TSNode decl, const char *type, const char *word)
{
  uint32_t count = ts_node_named_child_count(decl);
  for (uint32_t i = 0; i < count; i++) {
    TSNode k = ts_node_named_child(decl, i);
    if (fe_is(k, type) && strcmp(fe_text(&c->fe, k), word) == 0)
      return true;
  }
  return false;
}

/* ---- declarators ----------------------------------------------------------------- */

/* A declarator taken apart.  Derivations are listed from the outermost
 * node inwards, which in C is from the base type towards the name: for
 * `A[n][m][l]` that is [l] [m] [n], fastest first, the IR's order. */
typedef struct Declarator {
  TSNode name;                          /* identifier; null for an abstract declarator */
  TSNode value;                         /* initializer, or null */
  int nderiv;
  struct { char kind; TSNode size; bool restrict_; } deriv[IR_MAX_RANK + 1];
                                        /* '[' with size (or null), '*'; `restrict` qualified */
  bool too_deep, is_function;
} Declarator;

/* Does a pointer or array declarator carry `restrict` (`*restrict p`, `A[restrict n]`)? */
static bool has_restrict(const char *src, TSNode n)
{
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode k = ts_node_named_child(n, i);
    if (!fe_is(k, "type_qualifier"))
      continue;
    uint32_t from = ts_node_start_byte(k), to = ts_node_end_byte(k);
    if (strstr(ir_strndup(src + from, to - from), "restrict"))
      return true;
  }
  return false;
}

/* declarator := identifier | init_declarator | array_declarator | pointer_declarator
 *             | parenthesized_declarator | function_declarator | abstract_* */
static Declarator read_declarator(const char *src, TSNode n)
{
  Declarator d = { 0 };
  while (!ts_node_is_null(n)) {
    const char *t = ts_node_type(n);
    if (strcmp(t, "identifier") == 0 || strcmp(t, "field_identifier") == 0) {
      d.name = n;
      break;
    }
    if (strcmp(t, "init_declarator") == 0) {
      d.value = field(n, "value");
    } else if (strcmp(t, "function_declarator") == 0) {
      d.is_function = true;
    } else if (strstr(t, "array_declarator") || strstr(t, "pointer_declarator")) {
      if (d.nderiv > IR_MAX_RANK) {
        d.too_deep = true;
      } else {
        d.deriv[d.nderiv].kind = strstr(t, "array") ? '[' : '*';
        d.deriv[d.nderiv].size = strstr(t, "array") ? field(n, "size") : (TSNode){ 0 };
        d.deriv[d.nderiv++].restrict_ = has_restrict(src, n);
      }
    } else if (strcmp(t, "parenthesized_declarator") != 0 &&
               strcmp(t, "abstract_parenthesized_declarator") != 0 &&
               strcmp(t, "attributed_declarator") != 0) {
      break;
    }
    TSNode inner = field(n, "declarator");
    n = ts_node_is_null(inner) ? first_named(n) : inner;
    while (!ts_node_is_null(n) && fe_is(n, "type_qualifier"))
      n = ts_node_next_named_sibling(n);
  }
  return d;
}

/* The n-th declarator child of a declaration, or a null node. */
static TSNode declarator_child(TSNode decl, uint32_t *i)
{
  uint32_t count = ts_node_child_count(decl);
  for (; *i < count; (*i)++) {
    const char *f = ts_node_field_name_for_child(decl, *i);
    if (f && strcmp(f, "declarator") == 0)
      return ts_node_child(decl, (*i)++);
  }
  return (TSNode){ 0 };
}

/* Lower `n` with errors recorded, not printed (host code: a problem only
 * matters if a region uses the result).  NULL with *why set on failure. */
static IrExpr *lower_quietly(CFe *c, TSNode n, const char **why)
{
  bool was_quiet = c->quiet;
  const char *was_msg = c->quiet_msg;
  c->quiet = true;
  c->quiet_msg = NULL;
  IrExpr *e = lower_expr(c, n);
  *why = c->quiet_msg;
  if (*why)
    e = NULL;
  c->quiet = was_quiet;
  c->quiet_msg = was_msg;
  return e;
}

static IrExpr *add_const(IrExpr *e, long k);
static IrExpr *conv(IrExpr *e, IrType t);

/* hi of a dimension declared with `size` elements: size - 1. */
static const char *read_size(CFe *c, TSNode size, DeclWhere where, IrExpr **hi)
{
  const char *why = NULL;
  IrExpr *e = where == DECL_REGION ? lower_expr(c, size) : lower_quietly(c, size, &why);
  if (!e)
    return why ? why : "";
  long v;
  if (!ir_type_is_integer(e->type))
    return "its size is not an integer";
  if (where == DECL_REGION && !ir_eval_const(e, &v)) {
    err(c, size, "arrays declared inside a stencil region need a constant size (line %d)",
        line_of(c, size));
    return "";
  }
  *hi = add_const(e, -1);
  return NULL;
}

/* Give s the shape of declarator d: rank, and for each dimension fastest
 * first lo = 0 and hi = size-1, or NULL where unknown (`[]`, a pointer).
 * Returns NULL, or why a region cannot use the symbol ("" when reported). */
static const char *read_shape(CFe *c, const Declarator *d, IrSym *s, DeclWhere where)
{
  int k = d->nderiv;
  if (d->too_deep || k > IR_MAX_RANK)
    return ir_printf("'%s' has more than %d dimensions", s->name, IR_MAX_RANK);
  for (int i = 0; i < k; i++) {
    bool slowest = i == k - 1;
    s->lo[i] = ir_int(0, s->loc);
    if (d->deriv[i].kind == '*') {
      if (!slowest)
        return ir_printf("'%s' is %s", s->name, d->deriv[i + 1].kind == '*' ? "a pointer to pointer"
                                                                        : "an array of pointers");
      if (where == DECL_REGION)
        return ir_printf("'%s' is a pointer; declare arrays inside a region with a constant size",
                    s->name);
      s->is_pointer = k == 1;
      s->is_restrict = d->deriv[i].restrict_;
    } else if (ts_node_is_null(d->deriv[i].size)) {
      if (!slowest || where == DECL_REGION)
        return ir_printf("'%s' has a dimension of unknown size", s->name);
      s->is_restrict = d->deriv[i].restrict_;
    } else {
      s->is_restrict = slowest && d->deriv[i].restrict_;
      const char *why = read_size(c, d->deriv[i].size, where, &s->hi[i]);
      if (why)
        return *why ? ir_printf("the size of '%s' cannot be read (%s)", s->name, why) : why;
    }
  }
  s->rank = k;
  return NULL;
}

/* Literals, named constants, and operators over them. */
static bool is_constant(const IrExpr *e)
{
  switch (e->kind) {
  case IR_E_INT:
  case IR_E_REAL:
  case IR_E_LOGICAL: return true;
  case IR_E_VAR: return e->u.var->kind == IR_SYM_PARAM;
  case IR_E_UNARY: return is_constant(e->u.unary.arg);
  case IR_E_BINARY: return is_constant(e->u.binary.lhs) && is_constant(e->u.binary.rhs);
  case IR_E_CONVERT: return is_constant(e->u.operand);
  case IR_E_COND:
    return is_constant(e->u.cond.test) && is_constant(e->u.cond.then) &&
           is_constant(e->u.cond.els);
  default: return false;
  }
}

/* `const T x = <constant>;` makes x a named constant (IR_SYM_PARAM). */
static void read_constant(CFe *c, IrSym *s, TSNode value)
{
  const char *why;
  IrExpr *e = lower_quietly(c, value, &why);
  if (e && is_constant(e)) {
    s->kind = IR_SYM_PARAM;
    s->init = conv(e, s->type);
  }
}

/* Declare one declarator of a declaration with base type `type`.  Returns
 * the symbol, or NULL when the name is bound as unusable (or reported). */
static IrSym *declare(CFe *c, TSNode decl, CType type, const Declarator *d, DeclWhere where)
{
  char *name = fe_text(&c->fe, d->name);
  if (type.bad) {
    const char *why = ir_printf("'%s' has type '%s', which s2s-cuda does not support inside a "
                           "stencil region", name, type.bad);
    if (where == DECL_REGION)
      err(c, decl, "%s (line %d)", why, line_of(c, decl));
    Binding *b = bind_bad(c, name, d->name, where == DECL_REGION ? "" : why);
    bool ptr = d->nderiv == 1 && d->deriv[0].kind == '*';
    if (type.strct && where != DECL_REGION && (d->nderiv == 0 || ptr)) {
      b->strct = type.strct;
      b->struct_ptr = ptr;
      b->distinct = ptr && d->deriv[0].restrict_;
    }
    return NULL;
  }
  IrSym *s = new_sym(c, name, type, d->name);
  const char *why = read_shape(c, d, s, where);
  if (why) {
    if (where == DECL_REGION && *why)
      err(c, d->name, "%s (line %d)", why, line_of(c, d->name));
    bind_bad(c, name, d->name, where == DECL_REGION ? "" :
             ir_printf("%s, so it cannot be used inside a stencil region", why));
    return NULL;
  }
  if (!ts_node_is_null(d->value) && !s->rank && has_qualifier(c, decl, "type_qualifier", "const"))
    read_constant(c, s, d->value);
  switch (where) {
  case DECL_GLOBAL: install_global(c, s, d->name); break;
  case DECL_PARAM:
  case DECL_HOST: install_host(c, s, d->name); break;
  case DECL_REGION: return install_region_local(c, s, d->name);
  }
  return s;
}

/* struct_specifier := 'struct' name? body: field_declaration_list?
 * field_declaration := type declarator (',' declarator)* ';'
 * A body defines the type (its members read as symbol templates, named as
 * the member); `struct tag` alone names the latest one defined.  NULL: a
 * type whose body is not in the file. */
static CStruct *read_struct(CFe *c, TSNode n)
{
  TSNode name = field(n, "name"), body = field(n, "body");
  const char *tag = ts_node_is_null(name) ? NULL : fe_text(&c->fe, name);
  if (ts_node_is_null(body)) {
    for (CStruct *st = c->structs; st && tag; st = st->next)
      if (st->tag && strcmp(st->tag, tag) == 0)
        return st;
    return NULL;
  }
  CStruct *st = ir_alloc(sizeof *st);
  st->tag = tag;
  st->next = c->structs;          /* known from here: `struct node *next;` inside it */
  c->structs = st;
  uint32_t count = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < count; i++) {
    TSNode fd = ts_node_named_child(body, i);
    if (!fe_is(fd, "field_declaration"))
      continue;
    CType type = read_type(c, field(fd, "type"));
    uint32_t k = 0;
    for (TSNode dn = declarator_child(fd, &k); !ts_node_is_null(dn);
         dn = declarator_child(fd, &k)) {
      Declarator d = read_declarator(c->fe.src->text, dn);
      if (ts_node_is_null(d.name))
        continue;
      CMember m = { .name = fe_text(&c->fe, d.name) };
      bool ptr = d.nderiv == 1 && d.deriv[0].kind == '*';
      if (type.strct && (d.nderiv == 0 || ptr)) {
        m.strct = type.strct;
        m.struct_ptr = ptr;
      }
      if (d.is_function) {
        m.bad = ir_printf("member '%s' is a function pointer, which s2s-cuda does not support "
                          "inside a stencil region", m.name);
      } else if (type.bad) {
        m.bad = ir_printf("member '%s' has type '%s'%s, which s2s-cuda does not support inside a "
                          "stencil region", m.name, type.bad,
                          d.nderiv ? " (or a pointer to it)" : "");
      } else {
        IrSym *sym = new_sym(c, m.name, type, d.name);
        const char *why = read_shape(c, &d, sym, DECL_GLOBAL);
        if (why)
          m.bad = *why ? why : ir_printf("the declaration of member '%s' cannot be read", m.name);
        else
          m.sym = sym;
        m.array = sym->rank && d.deriv[d.nderiv - 1].kind == '[';
      }
      IR_PUSH(st->members, st->nmembers, m);
    }
  }
  return st;
}

/* enum_specifier := 'enum' name? enumerator_list?  ; enumerator := name ('=' value)? */
static void declare_enumerators(CFe *c, TSNode spec, DeclWhere where)
{
  TSNode list = field(spec, "body");
  if (ts_node_is_null(list))
    return;
  long next = 0;
  bool known = true;
  uint32_t count = ts_node_named_child_count(list);
  for (uint32_t i = 0; i < count; i++) {
    TSNode en = ts_node_named_child(list, i);
    if (!fe_is(en, "enumerator"))
      continue;
    TSNode name = field(en, "name"), value = field(en, "value");
    const char *why = NULL;
    if (!ts_node_is_null(value)) {
      IrExpr *e = lower_quietly(c, value, &why);
      known = e && ir_eval_const(e, &next);
    }
    IrSym *s = new_sym(c, fe_text(&c->fe, name), type_ok(IR_T_INT), name);
    if (!known) {
      bind_bad(c, s->name, name, ir_printf("the value of enumerator '%s' cannot be read", s->name));
      continue;
    }
    s->kind = IR_SYM_PARAM;
    s->init = ir_int(next++, s->loc);
    if (where == DECL_GLOBAL)
      install_global(c, s, name);
    else
      install_host(c, s, name);
  }
}

/* declaration := storage_class_specifier* type_qualifier* type: T declarator (',' declarator)* ';'
 * (file scope, a function's host code, or a region).  Returns nothing; a
 * region declaration appends the assignments of its initializers to `out`. */
static void declare_all(CFe *c, TSNode decl, DeclWhere where, IrStmtList *out)
{
  TSNode type_node = field(decl, "type");
  if (fe_is(type_node, "enum_specifier"))
    declare_enumerators(c, type_node, where);
  CType type = read_type(c, type_node);
  uint32_t i = 0;
  for (TSNode dn = declarator_child(decl, &i); !ts_node_is_null(dn); dn = declarator_child(decl, &i)) {
    Declarator d = read_declarator(c->fe.src->text, dn);
    if (d.is_function || ts_node_is_null(d.name))
      continue;                   /* a prototype */
    IrSym *s = declare(c, decl, type, &d, where);
    if (where != DECL_REGION || !s || ts_node_is_null(d.value) || s->kind == IR_SYM_PARAM)
      continue;
    if (s->rank) {
      err(c, d.value, "initializers of arrays are not supported inside a stencil region (line %d)",
          line_of(c, d.value));
      continue;
    }
    IrExpr *rhs = lower_expr(c, d.value);
    if (!rhs)
      continue;
    IrStmt *st = ir_stmt(IR_S_ASSIGN, fe_loc(&c->fe, dn));
    st->u.assign.lhs = ir_var(s, fe_loc(&c->fe, d.name));
    st->u.assign.rhs = conv(rhs, s->type);
    ir_list_push(out, st);
  }
}

/* type_definition := 'typedef' type declarator: type_identifier ';'
 * Only typedefs of arithmetic types are remembered as such. */
static void define_types(CFe *c, TSNode n)
{
  CType type = read_type(c, field(n, "type"));
  uint32_t i = 0;
  for (TSNode dn = declarator_child(n, &i); !ts_node_is_null(dn); dn = declarator_child(n, &i)) {
    if (!fe_is(dn, "type_identifier"))
      continue;                   /* pointer and array typedefs: the name stays unknown */
    Binding *b = bind(c, fe_text(&c->fe, dn), dn);
    b->is_typedef = true;
    b->type = type;
  }
}

/* ---- expressions ---------------------------------------------------------------------- */

static IrExpr *real_lit(const char *text, IrType type, Loc loc)
{
  IrExpr *e = ir_expr_new(IR_E_REAL, type, loc);
  e->u.real = text;
  return e;
}

/* The literal 0 or 1 of type t, as C would write it. */
static IrExpr *typed_lit(long v, IrType t, Loc loc)
{
  if (ir_type_is_real(t))
    return real_lit(v ? "1.0" : "0.0", t, loc);
  IrExpr *e = ir_int(v, loc);
  e->type = t == IR_T_INT8 ? IR_T_INT8 : IR_T_INT;
  return e;
}

static IrExpr *unary(IrOp op, IrExpr *arg, IrType t, Loc loc)
{
  IrExpr *e = ir_expr_new(IR_E_UNARY, t, loc);
  e->u.unary.op = op;
  e->u.unary.arg = arg;
  return e;
}

/* ir_convert, except that an integer literal converted to another integer
 * type is that literal retyped, and a non-negative one converted to a real
 * type is written as a real literal (`x > 0` reads `x > 0.0`, not
 * `x > (double)0`); the value is the same. */
static IrExpr *conv(IrExpr *e, IrType t)
{
  if (e->kind == IR_E_INT && ir_type_is_integer(t) &&
      (t == IR_T_INT8 || (e->u.ival >= INT_MIN && e->u.ival <= INT_MAX))) {
    IrExpr *r = ir_int(e->u.ival, e->loc);
    r->type = t;
    return r;
  }
  if (e->kind != IR_E_INT || !ir_type_is_real(t) || e->u.ival < 0)
    return ir_convert(e, t);
  return real_lit(ir_printf("%ld.0", e->u.ival), t, e->loc);
}

/* C's usual arithmetic conversions, written out: both operands converted
 * to the common type (a comparison's int result counts as int). */
static IrExpr *arith(IrOp op, IrExpr *a, IrExpr *b, Loc loc)
{
  IrType t = ir_promote(a->type, b->type);
  return ir_binary(op, conv(a, t), conv(b, t), loc);
}

/* A scalar used as a truth value: `x` becomes `x != 0`. */
static IrExpr *truth(IrExpr *e)
{
  if (e->type == IR_T_LOGICAL)
    return e;
  return ir_binary(IR_OP_NE, e, typed_lit(0, e->type, e->loc), e->loc);
}

/* e + k for integer e, folded where e is a literal or ends in one. */
static IrExpr *add_const(IrExpr *e, long k)
{
  if (k == 0)
    return e;
  if (e->kind == IR_E_INT) {
    IrExpr *r = typed_lit(0, e->type, e->loc);
    r->u.ival = e->u.ival + k;
    return r;
  }
  if (e->kind == IR_E_BINARY && (e->u.binary.op == IR_OP_ADD || e->u.binary.op == IR_OP_SUB) &&
      e->u.binary.rhs->kind == IR_E_INT) {
    long v = e->u.binary.op == IR_OP_ADD ? e->u.binary.rhs->u.ival : -e->u.binary.rhs->u.ival;
    v += k;
    if (v == 0)
      return e->u.binary.lhs;
    IrExpr *r = typed_lit(0, e->u.binary.rhs->type, e->u.binary.rhs->loc);
    r->u.ival = v < 0 ? -v : v;
    return ir_binary(v < 0 ? IR_OP_SUB : IR_OP_ADD, e->u.binary.lhs, r, e->loc);
  }
  IrExpr *r = typed_lit(0, e->type, e->loc);
  r->u.ival = k < 0 ? -k : k;
  return ir_binary(k < 0 ? IR_OP_SUB : IR_OP_ADD, e, r, e->loc);
}

/* number_literal: 42, 42L, 0x2a, 0.25, 1e-3, 1.5f (and -3: the grammar
 * folds a sign into the literal). */
static IrExpr *lower_integer(CFe *c, TSNode n, const char *p)
{
  errno = 0;
  char *end;
  unsigned long long v = strtoull(p, &end, 0);
  int longs = 0;
  for (; *end; end++) {
    if (*end == 'l' || *end == 'L') {
      longs++;
    } else if (*end == 'u' || *end == 'U') {
      unsupported(c, n, "unsigned literals are");
      return NULL;
    } else {
      err(c, n, "cannot read the integer literal '%s'", fe_text(&c->fe, n));
      return NULL;
    }
  }
  bool decimal = p[0] != '0' || p[1] == '\0';
  if (errno == ERANGE || v > LONG_MAX || (!decimal && !longs && v > INT_MAX)) {
    err(c, n, "integer literal '%s' does not fit a signed %s (line %d)", fe_text(&c->fe, n),
        decimal ? "long" : "int", line_of(c, n));
    return NULL;
  }
  IrExpr *e = ir_int((long)v, fe_loc(&c->fe, n));
  e->type = longs || v > INT_MAX ? IR_T_INT8 : IR_T_INT;
  return e;
}

static IrExpr *lower_real(CFe *c, TSNode n, const char *p)
{
  size_t len = strlen(p);
  IrType t = IR_T_REAL8;
  if (p[len - 1] == 'f' || p[len - 1] == 'F') {
    t = IR_T_REAL4;
    len--;
  } else if (p[len - 1] == 'l' || p[len - 1] == 'L') {
    unsupported(c, n, "'long double' literals are");
    return NULL;
  }
  return real_lit(ir_strndup(p, len), t, fe_loc(&c->fe, n));
}

static IrExpr *lower_number(CFe *c, TSNode n)
{
  const char *p = fe_text(&c->fe, n);
  bool negative = *p == '-';
  if (*p == '-' || *p == '+')
    p += 1 + strspn(p + 1, " \t");
  bool hex = p[0] == '0' && (p[1] == 'x' || p[1] == 'X');
  if (hex && strpbrk(p, ".pP")) {
    unsupported(c, n, "hexadecimal floating literals are");
    return NULL;
  }
  bool real = !hex && strpbrk(p, ".eE");
  IrExpr *e = real ? lower_real(c, n, p) : lower_integer(c, n, p);
  if (!e || !negative)
    return e;
  if (e->kind == IR_E_INT) {
    e->u.ival = -e->u.ival;
    return e;
  }
  return unary(IR_OP_NEG, e, e->type, e->loc);
}

/* identifier: a scalar variable or named constant */
static IrExpr *lower_ident(CFe *c, TSNode n)
{
  IrSym *s = lookup(c, n);
  if (!s)
    return NULL;
  if (s->rank) {
    err(c, n, "array '%s' cannot be used without subscripts inside a stencil region (line %d)",
        s->name, line_of(c, n));
    return NULL;
  }
  return ir_var(s, fe_loc(&c->fe, n));
}

/* An integer subscript (a comparison counts as int). */
static IrExpr *lower_index(CFe *c, TSNode n)
{
  IrExpr *e = lower_expr(c, n);
  if (!e)
    return NULL;
  if (ir_type_is_real(e->type)) {
    err(c, n, "array subscript is not an integer (line %d)", line_of(c, n));
    return NULL;
  }
  return ir_convert(e, e->type == IR_T_LOGICAL ? IR_T_INT : e->type);
}

static IrSym *lower_member(CFe *c, TSNode n);

/* A scalar member read in a region (`s->nx`): a scalar the host passes. */
static IrExpr *lower_member_value(CFe *c, TSNode n)
{
  IrSym *s = lower_member(c, n);
  if (!s)
    return NULL;
  if (s->rank) {
    err(c, n, "array '%s' cannot be used without subscripts inside a stencil region (line %d)",
        s->source_name, line_of(c, n));
    return NULL;
  }
  return ir_var(s, fe_loc(&c->fe, n));
}

/* subscript_expression := argument '[' index ']'
 * `A[i][j][k]` nests as ((A[i])[j])[k]: walking down from the outer node
 * meets k, j, i — fastest first, the IR's order. */
/* Struct members a region cannot use give one error per region (every
 * use is the same mistake): false when this region's is reported already. */
static bool first_struct_error(CFe *c)
{
  if (c->region && c->struct_refused == c->region)
    return false;
  c->struct_refused = c->region;
  return true;
}

/* The symbol standing for member m of the struct at path b (the user's
 * `base->m` or `base.m`) in the routine: one per access path, so that
 * every region of the routine names the same array.  Its name is
 * synthesized (`s_u`, `s_grid_u`), its source_name is the user's spelling,
 * which the host passes to the launcher: the member is read where the
 * region starts, like a parameter. */
static IrSym *member_sym(CFe *c, const StructPath *b, const CMember *m, TSNode at)
{
  const char *path = ir_printf("%s%s%s", b->text, b->ptr ? "->" : ".", m->name);
  for (int i = 0; i < c->nmember_uses; i++)
    if (c->member_uses[i].root == b->root && strcmp(c->member_uses[i].path, path) == 0)
      return c->member_uses[i].sym;
  IrSym *s = ir_alloc(sizeof *s);
  *s = *m->sym;
  memset(&s->hh, 0, sizeof s->hh);
  s->name = ir_strdup(path);
  for (char *w = s->name, *r = s->name; ; r++) {  /* `s->grid->u` -> `s_grid_u` */
    if (*r == '-' && r[1] == '>')
      r++;
    *w++ = *r == '>' || *r == '.' ? '_' : *r;
    if (!*r)
      break;
  }
  if (table_find(c->routine->symbols, s->name) || table_find(c->globals->symbols, s->name) ||
      word_in_function(c, s->name))
    s->name = fresh_name(c, s->name);
  s->source_name = path;
  s->member_base = b->text;
  s->member_array = m->array;
  s->loc = fe_loc(&c->fe, at);
  /* a pointer member is restrict only as declared in the struct (restrict
   * on `s` covers the struct, not what its members point to); an array
   * member lies inside the struct */
  s->is_restrict = s->rank && (m->array ? b->distinct : m->sym->is_restrict);
  table_add(&c->routine->symbols, s);
  IR_PUSH(c->member_uses, c->nmember_uses, ((MemberUse){ b->root, path, s }));
  return s;
}

/* The member `field` of the struct at path b, at field_expression n
 * (`arrow`: written with '->'); NULL when refused (reported). */
static const CMember *find_member(CFe *c, const StructPath *b, TSNode n, bool arrow)
{
  const char *text = fe_text(&c->fe, n), *member = fe_text(&c->fe, field(n, "field"));
  if (arrow != b->ptr) {
    if (first_struct_error(c))
      err(c, n, "'%s' is %s struct: write '%s%s%s' (line %d)", b->text,
          b->ptr ? "a pointer to a" : "a", b->text, b->ptr ? "->" : ".", member, line_of(c, n));
    return NULL;
  }
  for (int i = 0; i < b->strct->nmembers; i++)
    if (strcmp(b->strct->members[i].name, member) == 0)
      return &b->strct->members[i];
  if (first_struct_error(c))
    err(c, n, "'%s': the struct has no member '%s' (line %d)", text, member, line_of(c, n));
  return NULL;
}

/* The struct that expression n names: a struct variable or pointer, or a
 * member of one that is a struct or a pointer to one (`s->grid`).  False
 * when refused (reported once per region). */
static bool struct_path(CFe *c, TSNode n, TSNode use, StructPath *out)
{
  while (fe_is(n, "parenthesized_expression"))
    n = first_named(n);
  if (fe_is(n, "field_expression")) {
    StructPath inner;
    if (!struct_path(c, field(n, "argument"), use, &inner))
      return false;
    bool arrow = strcmp(op_text(n), "->") == 0;
    const CMember *m = find_member(c, &inner, n, arrow);
    if (!m)
      return false;
    if (!m->strct) {
      if (first_struct_error(c))
        err(c, use, "'%s' is not a struct or a pointer to one, so '%s' cannot be read (line %d)",
            fe_text(&c->fe, n), fe_text(&c->fe, use), line_of(c, use));
      return false;
    }
    *out = (StructPath){ inner.root, ir_printf("%s%s%s", inner.text, arrow ? "->" : ".", m->name),
                         m->strct, m->struct_ptr,
                         /* a struct inside a distinct one is distinct; one a member points to
                          * may be anywhere */
                         !m->struct_ptr && inner.distinct };
    return true;
  }
  const char *text = fe_text(&c->fe, use), *member = fe_text(&c->fe, field(use, "field"));
  if (!fe_is(n, "identifier")) {
    if (first_struct_error(c))
      err(c, use, "'%s' is not supported inside a stencil region (line %d): only members of a "
          "named struct variable or pointer ('s.%s', 's->%s') are", text, line_of(c, use),
          member, member);
    return false;
  }
  const char *name = fe_text(&c->fe, n);
  Binding *b = visible(c, name);
  if (!b || !b->strct) {
    if (!first_struct_error(c))
      return false;
    if (b && b->bad && !*b->bad)
      return false;               /* its declaration was reported */
    if (b && b->bad && b->line && strstr(b->bad, "has type 'struct"))
      err(c, use, "the members of '%s' cannot be read: its struct type is not defined in this file "
          "(line %d)%s", name, line_of(c, use), diag_source(c->fe.file)->map_file ? "" :
          "; with -nocpp the headers that declare it are not read");
    else if (b && b->bad)
      err(c, n, "%s", b->bad);
    else if (!b)
      err(c, n, "'%s' is not declared%s", name, macro_hint(c, name));
    else
      err(c, use, "'%s' is not a struct or a pointer to one (line %d)", name, line_of(c, use));
    return false;
  }
  *out = (StructPath){ b, name, b->strct, b->struct_ptr, b->distinct };
  return true;
}

/* field_expression := argument ('.' | '->') field
 * `s->u`, `s.w`, `s->nx`, `s->grid->u`: a member of a struct variable or
 * pointer named in the routine (or of a struct its members reach), as its
 * own symbol (member_sym).  NULL when refused (reported once per region). */
static IrSym *lower_member(CFe *c, TSNode n)
{
  StructPath b;
  if (!struct_path(c, field(n, "argument"), n, &b))
    return NULL;
  const CMember *m = find_member(c, &b, n, strcmp(op_text(n), "->") == 0);
  if (!m)
    return NULL;
  if (!m->sym) {
    if (first_struct_error(c)) {
      if (m->strct)
        err(c, n, "'%s' is a struct: a region uses its members, not the struct itself (line %d)",
            fe_text(&c->fe, n), line_of(c, n));
      else
        err(c, n, "'%s': %s (line %d)", fe_text(&c->fe, n), m->bad, line_of(c, n));
    }
    return NULL;
  }
  return member_sym(c, &b, m, n);
}

static IrExpr *lower_subscript(CFe *c, TSNode n)
{
  IrExpr *sub[IR_MAX_RANK];
  int count = 0;
  bool ok = true;
  TSNode at = n;
  for (; fe_is(at, "subscript_expression"); at = field(at, "argument")) {
    if (count == IR_MAX_RANK) {
      err(c, n, "more than %d subscripts (line %d)", IR_MAX_RANK, line_of(c, n));
      return NULL;
    }
    sub[count] = lower_index(c, field(at, "index"));
    ok &= sub[count++] != NULL;
  }
  while (fe_is(at, "parenthesized_expression"))
    at = first_named(at);
  bool member = fe_is(at, "field_expression");   /* `s->u[k][j][i]` */
  if (!member && !fe_is(at, "identifier")) {
    unsupported(c, at, "subscripts of anything but a named array are");
    return NULL;
  }
  IrSym *s = member ? lower_member(c, at) : lookup(c, at);
  if (!s || !ok)
    return NULL;
  const char *name = ir_sym_user_name(s);
  if (s->rank == 0) {
    err(c, at, "'%s' is not an array (line %d)", name, line_of(c, at));
    return NULL;
  }
  if (count != s->rank) {
    if (s->is_pointer)
      err(c, n, "pointer '%s' must be used with exactly one subscript inside a stencil region, "
          "as in %s[i*m + j] (line %d)", name, name, line_of(c, n));
    else
      err(c, n, "'%s' has %d dimension%s but %d subscript%s here (line %d)", name, s->rank,
          s->rank == 1 ? "" : "s", count, count == 1 ? "" : "s", line_of(c, n));
    return NULL;
  }
  IrExpr *e = ir_expr_new(IR_E_ELEM, s->type, fe_loc(&c->fe, n));
  e->u.elem.sym = s;
  e->u.elem.n = count;
  memcpy(e->u.elem.sub, sub, sizeof *sub * (size_t)count);
  return e;
}

/* unary_expression := ('-' | '+' | '!' | '~') argument */
static IrExpr *lower_unary(CFe *c, TSNode n)
{
  const char *op = op_text(n);
  if (strcmp(op, "~") == 0) {
    unsupported(c, n, "bitwise operator '~' is");
    return NULL;
  }
  IrExpr *a = lower_expr(c, field(n, "argument"));
  if (!a)
    return NULL;
  Loc loc = fe_loc(&c->fe, n);
  if (strcmp(op, "!") == 0)
    return unary(IR_OP_NOT, truth(a), IR_T_LOGICAL, loc);
  IrType t = ir_promote(a->type, IR_T_INT);
  a = ir_convert(a, t);
  return strcmp(op, "-") == 0 ? unary(IR_OP_NEG, a, t, loc) : a;
}

/* binary_expression := left operator right */
static IrExpr *lower_binary(CFe *c, TSNode n)
{
  enum { ARITH, INTEGER, COMPARE, LOGIC };
  static const struct { const char *text; IrOp op; int kind; } ops[] = {
    { "+", IR_OP_ADD, ARITH }, { "-", IR_OP_SUB, ARITH }, { "*", IR_OP_MUL, ARITH },
    { "/", IR_OP_DIV, ARITH }, { "%", IR_OP_MOD_C, INTEGER },
    { "<", IR_OP_LT, COMPARE }, { "<=", IR_OP_LE, COMPARE }, { ">", IR_OP_GT, COMPARE },
    { ">=", IR_OP_GE, COMPARE }, { "==", IR_OP_EQ, COMPARE }, { "!=", IR_OP_NE, COMPARE },
    { "&&", IR_OP_AND, LOGIC }, { "||", IR_OP_OR, LOGIC },
  };
  const char *text = op_text(n);
  size_t k = 0;
  while (k < sizeof ops / sizeof *ops && strcmp(ops[k].text, text) != 0)
    k++;
  if (k == sizeof ops / sizeof *ops) {
    unsupported(c, n, ir_printf("bitwise operator '%s' is", text));
    return NULL;
  }
  IrExpr *a = lower_expr(c, field(n, "left"));
  IrExpr *b = lower_expr(c, field(n, "right"));
  if (!a || !b)
    return NULL;
  Loc loc = fe_loc(&c->fe, n);
  if (ops[k].kind == LOGIC)
    return ir_binary(ops[k].op, truth(a), truth(b), loc);
  if (ops[k].kind == INTEGER && (ir_type_is_real(a->type) || ir_type_is_real(b->type))) {
    err(c, n, "'%%' needs integer operands; use fmod() for reals (line %d)", line_of(c, n));
    return NULL;
  }
  return arith(ops[k].op, a, b, loc);
}

/* conditional_expression := condition '?' consequence ':' alternative */
static IrExpr *lower_conditional(CFe *c, TSNode n)
{
  TSNode then_node = field(n, "consequence");
  if (ts_node_is_null(then_node)) {
    unsupported(c, n, "'a ?: b' is");
    return NULL;
  }
  IrExpr *test = lower_expr(c, field(n, "condition"));
  IrExpr *a = lower_expr(c, then_node);
  IrExpr *b = lower_expr(c, field(n, "alternative"));
  if (!test || !a || !b)
    return NULL;
  IrType t = ir_promote(a->type, b->type);
  IrExpr *e = ir_expr_new(IR_E_COND, t, fe_loc(&c->fe, n));
  e->u.cond.test = truth(test);
  e->u.cond.then = conv(a, t);
  e->u.cond.els = conv(b, t);
  return e;
}

/* cast_expression := '(' type: type_descriptor ')' value
 * type_descriptor := type_qualifier* type declarator: abstract_declarator? */
/* C's grammar cannot tell `(i) + x` (a sum; index macros expand to it)
 * from a cast of +x to a type named i; tree-sitter reads a cast.  A cast
 * to a name that is a variable, of `+v`, `-v` or `*v`, is that misreading.
 * Its operator is the cast's operand's: `(i) * v` is a product where it
 * stands, but `(i) + v * w`, parsed as (cast(i, +v)) * w, is i + (v * w),
 * so a sum or difference is found from the top of the chain of *, / and %
 * whose leftmost operand it is (misread_sum).  The operand: `v`. */
static bool misread_cast(CFe *c, TSNode n, char op)
{
  if (!fe_is(n, "cast_expression"))
    return false;
  TSNode desc = field(n, "type"), value = field(n, "value");
  TSNode type = field(desc, "type");
  if (!ts_node_is_null(field(desc, "declarator")) || !fe_is(type, "type_identifier"))
    return false;
  Binding *b = visible(c, fe_text(&c->fe, type));
  if (!b || b->is_typedef)
    return false;
  const char *vop = fe_is(value, "unary_expression") || fe_is(value, "pointer_expression")
                        ? op_text(value) : "";
  return vop[0] == op && vop[1] == '\0';
}

/* Is n the top of a chain of *, / and % whose leftmost operand is a
 * misread `(i) + v` or `(i) - v`?  *leaf: that cast. */
static bool misread_sum(CFe *c, TSNode n, TSNode *leaf)
{
  TSNode m = n;
  while (fe_is(m, "binary_expression") && strchr("*/%", op_text(m)[0]) && !op_text(m)[1])
    m = field(m, "left");
  if (ts_node_eq(m, c->cast_subst) || !(misread_cast(c, m, '+') || misread_cast(c, m, '-')))
    return false;
  *leaf = m;
  return true;
}

/* i + n, n the chain with the misread cast replaced by its operand. */
static IrExpr *lower_misread_sum(CFe *c, TSNode n, TSNode leaf)
{
  TSNode var = field(field(leaf, "type"), "type");
  char op = op_text(field(leaf, "value"))[0];
  IrExpr *i = lower_ident(c, var);
  TSNode saved = c->cast_subst;
  c->cast_subst = leaf;
  IrExpr *rest = lower_expr(c, n);
  c->cast_subst = saved;
  if (!i || !rest)
    return NULL;
  return arith(op == '+' ? IR_OP_ADD : IR_OP_SUB, i, rest, fe_loc(&c->fe, n));
}

static IrExpr *lower_cast(CFe *c, TSNode n)
{
  if (ts_node_eq(n, c->cast_subst))  /* the misread cast's operand v */
    return lower_expr(c, field(field(n, "value"), "argument"));
  if (misread_cast(c, n, '*')) {
    TSNode var = field(field(n, "type"), "type");
    IrExpr *i = lower_ident(c, var);
    IrExpr *v = lower_expr(c, field(field(n, "value"), "argument"));
    return i && v ? arith(IR_OP_MUL, i, v, fe_loc(&c->fe, n)) : NULL;
  }
  if (misread_cast(c, n, '+') || misread_cast(c, n, '-')) {
    err(c, n, "'%s' reads as a cast to '%s' in C's grammar here; drop the parentheses around "
        "'%s' (line %d)", fe_text(&c->fe, n), fe_text(&c->fe, field(field(n, "type"), "type")),
        fe_text(&c->fe, field(field(n, "type"), "type")), line_of(c, n));
    return NULL;
  }
  TSNode desc = field(n, "type");
  CType t = read_type(c, field(desc, "type"));
  if (t.bad || !ts_node_is_null(field(desc, "declarator"))) {
    unsupported(c, desc, ir_printf("casts to '%s' are", fe_text(&c->fe, desc)));
    return NULL;
  }
  IrExpr *e = lower_expr(c, field(n, "value"));
  return e ? conv(e, t.t) : NULL;
}

/* The math functions a region may call: the double version converts its
 * arguments to double and returns double (C semantics), the f version
 * works in float. */
#define MATH(name, fn, nargs) { #name, fn, nargs, IR_T_REAL8 }, { #name "f", fn, nargs, IR_T_REAL4 }
static const struct { const char *name; IrIntrinsic fn; int nargs; IrType type; } intrinsics[] = {
  MATH(sqrt, IR_FN_SQRT, 1), MATH(exp, IR_FN_EXP, 1), MATH(log, IR_FN_LOG, 1),
  MATH(log10, IR_FN_LOG10, 1), MATH(sin, IR_FN_SIN, 1), MATH(cos, IR_FN_COS, 1),
  MATH(tan, IR_FN_TAN, 1), MATH(atan, IR_FN_ATAN, 1), MATH(tanh, IR_FN_TANH, 1),
  MATH(fabs, IR_FN_ABS, 1), MATH(floor, IR_FN_FLOOR, 1), MATH(ceil, IR_FN_CEILING, 1),
  MATH(fmin, IR_FN_MIN, 2), MATH(fmax, IR_FN_MAX, 2), MATH(pow, IR_FN_POW, 2),
  MATH(fmod, IR_FN_MOD, 2), MATH(copysign, IR_FN_SIGN, 2),
  { "abs", IR_FN_ABS, 1, IR_T_INT }, { "labs", IR_FN_ABS, 1, IR_T_INT8 },
  { "llabs", IR_FN_ABS, 1, IR_T_INT8 },
};
#undef MATH

/* A call a region cannot make (n: the call_expression): what to do about it.
 * Input/output, memory management and exit belong to the host code around
 * the region; any other function would need inlining, which the C front
 * end does not do. */
static void call_error(CFe *c, TSNode n)
{
  static const char *const host_only[] = { "printf", "fprintf", "puts", "fputs", "putchar",
    "scanf", "fscanf", "fopen", "fclose", "fread", "fwrite", "malloc", "calloc", "realloc",
    "free", "exit", "abort", "assert" };
  TSNode fn = field(n, "function");
  const char *name = fe_text(&c->fe, fn);
  for (size_t i = 0; i < sizeof host_only / sizeof *host_only; i++)
    if (!strcmp(name, host_only[i])) {
      err(c, fn, "call to '%s' is not supported inside a stencil region (line %d): a kernel "
          "thread cannot do input/output, allocate or stop the program; move it before or "
          "after the region", name, line_of(c, n));
      return;
    }
  err(c, fn, "call to '%s' is not supported inside a stencil region (line %d): only math "
      "functions such as sqrt, exp, pow and fmax can be called; write what '%s' computes into "
      "the loop%s", name, line_of(c, n), name, macro_hint(c, name));
}

/* call_expression := function: identifier arguments: argument_list */
static IrExpr *lower_call(CFe *c, TSNode n)
{
  TSNode fn = field(n, "function");
  const char *name = fe_text(&c->fe, fn);
  size_t k = 0;
  while (k < sizeof intrinsics / sizeof *intrinsics && strcmp(intrinsics[k].name, name) != 0)
    k++;
  if (!fe_is(fn, "identifier") || k == sizeof intrinsics / sizeof *intrinsics) {
    call_error(c, n);
    return NULL;
  }
  TSNode args = field(n, "arguments");
  int nargs = (int)ts_node_named_child_count(args);
  if (nargs != intrinsics[k].nargs) {
    err(c, n, "'%s' takes %d argument%s, not %d (line %d)", name, intrinsics[k].nargs,
        intrinsics[k].nargs == 1 ? "" : "s", nargs, line_of(c, n));
    return NULL;
  }
  IrExpr *e = ir_expr_new(IR_E_CALL, intrinsics[k].type, fe_loc(&c->fe, n));
  e->u.call.fn = intrinsics[k].fn;
  e->u.call.n = nargs;
  e->u.call.args = ir_alloc(sizeof *e->u.call.args * (size_t)nargs);
  for (int i = 0; i < nargs; i++) {
    IrExpr *a = lower_expr(c, ts_node_named_child(args, (uint32_t)i));
    if (!a)
      return NULL;
    e->u.call.args[i] = conv(a, e->type);
  }
  return e;
}

/* Expressions a region cannot hold, with what to call them. */
static const struct { const char *type, *what; } unsupported_exprs[] = {
  { "assignment_expression", "assignments inside expressions are" },
  { "update_expression", "'++' and '--' inside expressions are" },
  { "sizeof_expression", "'sizeof' is" },
  { "alignof_expression", "'_Alignof' is" },
  { "comma_expression", "comma expressions are" },
  { "string_literal", "strings are" },
  { "concatenated_string", "strings are" },
  { "char_literal", "character literals are" },
  { "compound_literal_expression", "compound literals are" },
  { "null", "NULL is" },
  { "generic_expression", "'_Generic' is" },
  { "gnu_asm_expression", "inline assembly is" },
  { "initializer_list", "initializer lists are" },
};

static IrExpr *lower_expr_node(CFe *c, TSNode n)
{
  const char *t = ts_node_type(n);
  TSNode leaf;
  if (misread_sum(c, n, &leaf))
    return lower_misread_sum(c, n, leaf);
  if (strcmp(t, "identifier") == 0)
    return lower_ident(c, n);
  if (strcmp(t, "number_literal") == 0)
    return lower_number(c, n);
  if (strcmp(t, "subscript_expression") == 0)
    return lower_subscript(c, n);
  if (strcmp(t, "unary_expression") == 0)
    return lower_unary(c, n);
  if (strcmp(t, "binary_expression") == 0)
    return lower_binary(c, n);
  if (strcmp(t, "parenthesized_expression") == 0)
    return lower_expr(c, first_named(n));
  if (strcmp(t, "conditional_expression") == 0)
    return lower_conditional(c, n);
  if (strcmp(t, "cast_expression") == 0)
    return lower_cast(c, n);
  if (strcmp(t, "call_expression") == 0)
    return lower_call(c, n);
  if (strcmp(t, "true") == 0 || strcmp(t, "false") == 0) {
    IrExpr *e = ir_expr_new(IR_E_LOGICAL, IR_T_LOGICAL, fe_loc(&c->fe, n));
    e->u.ival = t[0] == 't';
    return e;
  }
  if (strcmp(t, "pointer_expression") == 0) {
    unsupported(c, n, strcmp(op_text(n), "&") == 0 ? "addresses ('&x') are"
                                                    : "pointer dereferences ('*p') are");
    return NULL;
  }
  if (strcmp(t, "field_expression") == 0)
    return lower_member_value(c, n);
  for (size_t i = 0; i < sizeof unsupported_exprs / sizeof *unsupported_exprs; i++)
    if (strcmp(t, unsupported_exprs[i].type) == 0) {
      unsupported(c, n, unsupported_exprs[i].what);
      return NULL;
    }
  unsupported(c, n, ir_printf("this expression ('%s') is", t));
  return NULL;
}

/* Lower expression n, at most FE_MAX_EXPR_DEPTH levels deep.  One error
 * per expression: the operands beside a too deep one may be too deep too. */
static IrExpr *lower_expr(CFe *c, TSNode n)
{
  if (c->expr_depth == FE_MAX_EXPR_DEPTH) {
    if (!c->expr_too_deep)
      err_at(c, fe_loc(&c->fe, n), 1, "expression nested more than %d levels deep; split it into "
             "several statements (line %d)", FE_MAX_EXPR_DEPTH, line_of(c, n));
    c->expr_too_deep = true;
    return NULL;
  }
  c->expr_depth++;
  IrExpr *e = lower_expr_node(c, n);
  if (--c->expr_depth == 0)
    c->expr_too_deep = false;
  return e;
}

/* ---- statements in a region ------------------------------------------------------------ */

static void push(IrStmtList *out, IrStmt *s)
{
  if (s)
    ir_list_push(out, s);
}

/* Is s the variable of an open loop?  Then assigning it is an error. */
static bool assigns_loop_variable(CFe *c, const IrExpr *lhs, TSNode at)
{
  if (lhs->kind != IR_E_VAR)
    return false;
  for (int i = c->nloops - 1; i >= 0; i--)
    if (c->loops[i].iv == lhs->u.var) {
      err(c, at, "the loop variable '%s' of the 'for' loop at line %d is assigned inside the "
          "loop (line %d)", fe_text(&c->fe, at), c->loops[i].line, line_of(c, at));
      return true;
    }
  return false;
}

/* lvalue := identifier (a scalar variable) | subscript_expression */
static IrExpr *lower_lvalue(CFe *c, TSNode n)
{
  while (fe_is(n, "parenthesized_expression"))
    n = first_named(n);
  if (fe_is(n, "subscript_expression"))
    return lower_subscript(c, n);
  if (fe_is(n, "field_expression")) {
    /* the kernel gets the member's value where the region starts; writing
     * it back would need the struct's layout on the device */
    IrSym *m = lower_member(c, n);
    if (m)
      err(c, n, m->rank ? "'%s' is assigned inside the stencil region (line %d): the region "
          "uses the array it points to where the region starts; assign it before the region"
          : "'%s' is assigned inside the stencil region (line %d): writes to struct members are "
          "not supported inside a region; assign a local variable and copy it into '%s' after "
          "the region", m->source_name, line_of(c, n), m->source_name);
    return NULL;
  }
  if (fe_is(n, "identifier")) {
    Binding *b = visible(c, fe_text(&c->fe, n));
    if (b && b->strct && !b->sym) {
      err(c, n, "the struct %s '%s' is assigned inside the stencil region (line %d): the "
          "region reads its members where it starts; assign it before the region",
          b->struct_ptr ? "pointer" : "variable", fe_text(&c->fe, n), line_of(c, n));
      return NULL;
    }
  }
  if (!fe_is(n, "identifier")) {
    unsupported(c, n, ir_printf("assignments to '%s' are", fe_text(&c->fe, n)));
    return NULL;
  }
  IrExpr *e = lower_ident(c, n);
  if (e && e->u.var->kind == IR_SYM_PARAM) {
    err(c, n, "'%s' is a constant and cannot be assigned (line %d)", e->u.var->name,
        line_of(c, n));
    return NULL;
  }
  if (e && assigns_loop_variable(c, e, n))
    return NULL;
  return e;
}

/* Is lvalue n a struct variable or pointer, or a member of one? */
static bool assigns_struct(CFe *c, TSNode n)
{
  while (fe_is(n, "parenthesized_expression"))
    n = first_named(n);
  if (fe_is(n, "field_expression"))
    return true;
  Binding *b = fe_is(n, "identifier") ? visible(c, fe_text(&c->fe, n)) : NULL;
  return b && b->strct && !b->sym;
}

static IrStmt *assign(IrExpr *lhs, IrExpr *rhs, Loc loc)
{
  IrStmt *s = ir_stmt(IR_S_ASSIGN, loc);
  s->u.assign.lhs = lhs;
  s->u.assign.rhs = conv(rhs, lhs->type);
  return s;
}

/* assignment_expression := left ('=' | '+=' | '-=' | '*=' | '/=' | '%=') right
 * `a op= b` becomes `a = a op b`, converted back to a's type. */
static IrStmt *lower_assignment(CFe *c, TSNode n, Loc loc)
{
  static const struct { const char *text; IrOp op; } ops[] = {
    { "+=", IR_OP_ADD }, { "-=", IR_OP_SUB }, { "*=", IR_OP_MUL }, { "/=", IR_OP_DIV },
    { "%=", IR_OP_MOD_C },
  };
  const char *text = op_text(n);
  TSNode left = field(n, "left");
  IrExpr *lhs = lower_lvalue(c, left);
  if (!lhs && assigns_struct(c, left))
    return NULL;        /* its right side (`f = g`, `s->u = p`) is part of the same mistake */
  IrExpr *rhs = lower_expr(c, field(n, "right"));
  if (!lhs || !rhs)
    return NULL;
  if (strcmp(text, "=") == 0)
    return assign(lhs, rhs, loc);
  for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
    if (strcmp(text, ops[k].text) != 0)
      continue;
    if (ops[k].op == IR_OP_MOD_C && (ir_type_is_real(lhs->type) || ir_type_is_real(rhs->type))) {
      err(c, n, "'%%=' needs integer operands (line %d)", line_of(c, n));
      return NULL;
    }
    return assign(lhs, arith(ops[k].op, lower_expr(c, left), rhs, fe_loc(&c->fe, n)), loc);
  }
  unsupported(c, n, ir_printf("operator '%s' is", text));
  return NULL;
}

/* update_expression := argument ('++' | '--') | ('++' | '--') argument */
static IrStmt *lower_increment(CFe *c, TSNode n, Loc loc)
{
  TSNode arg = field(n, "argument");
  IrExpr *lhs = lower_lvalue(c, arg);
  if (!lhs)
    return NULL;
  IrOp op = strcmp(op_text(n), "++") == 0 ? IR_OP_ADD : IR_OP_SUB;
  IrExpr *one = typed_lit(1, lhs->type, fe_loc(&c->fe, n));
  return assign(lhs, arith(op, lower_expr(c, arg), one, fe_loc(&c->fe, n)), loc);
}

/* expression_statement := expression? ';' */
static IrStmt *lower_expression_statement(CFe *c, TSNode n)
{
  TSNode e = first_named(n);
  if (ts_node_is_null(e))
    return NULL;                  /* `;` */
  Loc loc = fe_loc(&c->fe, n);
  if (fe_is(e, "assignment_expression"))
    return lower_assignment(c, e, loc);
  if (fe_is(e, "update_expression"))
    return lower_increment(c, e, loc);
  if (fe_is(e, "call_expression")) {
    call_error(c, e);
    return NULL;
  }
  if (fe_is(e, "comma_expression"))
    unsupported(c, e, "comma expressions are");
  else
    err(c, e, "this statement has no effect; only assignments, '++' and '--' are supported as "
        "expression statements inside a stencil region (line %d)", line_of(c, e));
  return NULL;
}

/* A body: a statement, or (dangling) the unit that follows in `rest`. */
static void lower_body(CFe *c, TSNode body, Seq *rest, IrStmtList *out)
{
  if (!is_dangling(body)) {
    lower_stmt(c, body, rest, NULL, out);
    return;
  }
  Seq *s = seq_for_dangling(rest);
  if (!s || !lower_unit(c, s, out))
    err(c, body, "expected a statement here");
}

/* if_statement := 'if' condition: parenthesized_expression consequence: statement
 *                 alternative: else_clause('else' statement)? */
static IrStmt *lower_if(CFe *c, TSNode n, Seq *rest)
{
  IrExpr *test = lower_expr(c, field(n, "condition"));
  IrStmt *s = ir_stmt(IR_S_IF, fe_loc(&c->fe, n));
  lower_body(c, field(n, "consequence"), rest, &s->u.cond.then);
  TSNode alt = field(n, "alternative");
  if (!ts_node_is_null(alt))
    lower_body(c, fe_is(alt, "else_clause") ? first_named(alt) : alt, rest, &s->u.cond.els);
  if (!test)
    return NULL;
  s->u.cond.test = truth(test);
  return s;
}

/* ---- for loops ---------------------------------------------------------------------------- */

/* What a `for` header says, once read. */
typedef struct LoopHeader {
  IrSym *iv;
  const char *name;             /* of iv, as the user wrote it */
  IrExpr *lo, *bound;
  const char *cmp;              /* "<", "<=", ">", ">=" with iv on the left */
  long step;
} LoopHeader;

/* initializer := 'i' '=' lo | declaration('int' 'i' '=' lo) */
static bool read_loop_init(CFe *c, TSNode init, LoopHeader *h)
{
  TSNode value;
  if (fe_is(init, "declaration")) {
    uint32_t i = 0;
    TSNode dn = declarator_child(init, &i);
    Declarator d = read_declarator(c->fe.src->text, dn);
    if (!ts_node_is_null(declarator_child(init, &i)) || ts_node_is_null(d.name) || d.nderiv ||
        ts_node_is_null(d.value))
      goto bad;
    CType t = read_type(c, field(init, "type"));
    if (t.bad || !ir_type_is_integer(t.t)) {
      err(c, init, "the variable of a 'for' loop must be an int or long (line %d)",
          line_of(c, init));
      bind_bad(c, fe_text(&c->fe, d.name), d.name, "");
      return false;
    }
    IrSym *s = new_sym(c, fe_text(&c->fe, d.name), t, d.name);
    h->iv = install_region_local(c, s, d.name);
    h->name = fe_text(&c->fe, d.name);
    value = d.value;
  } else if (fe_is(init, "assignment_expression") && strcmp(op_text(init), "=") == 0 &&
             fe_is(field(init, "left"), "identifier")) {
    IrExpr *v = lower_ident(c, field(init, "left"));
    if (!v)
      return false;
    h->iv = v->u.var;
    h->name = fe_text(&c->fe, field(init, "left"));
    if (h->iv->kind != IR_SYM_VAR || !ir_type_is_integer(h->iv->type)) {
      err(c, init, "the variable of a 'for' loop must be an integer variable; '%s' is not "
          "(line %d)", h->name, line_of(c, init));
      return false;
    }
    value = field(init, "right");
  } else {
    goto bad;
  }
  for (int i = 0; i < c->nloops; i++)
    if (c->loops[i].iv == h->iv) {
      err(c, init, "'%s' is already the variable of the enclosing loop at line %d (line %d)",
          h->name, c->loops[i].line, line_of(c, init));
      return false;
    }
  h->lo = lower_expr(c, value);
  if (!h->lo)
    return false;
  h->lo = conv(h->lo, h->iv->type);
  return true;
bad:
  err(c, init, "a 'for' loop inside a stencil region must start with 'i = lo' or 'int i = lo' "
      "(line %d)", line_of(c, init));
  return false;
}

static bool names_iv(CFe *c, TSNode n, const LoopHeader *h)
{
  if (!fe_is(n, "identifier"))
    return false;
  Binding *b = visible(c, fe_text(&c->fe, n));
  return b && b->sym == h->iv;
}

/* A constant integer step. */
static bool read_step_value(CFe *c, TSNode n, long sign, LoopHeader *h)
{
  IrExpr *e = lower_expr(c, n);
  if (!e)
    return false;
  if (!ir_type_is_integer(e->type) || !ir_eval_const(e, &h->step)) {
    err(c, n, "the step '%s' of a 'for' loop inside a stencil region must be an integer "
        "constant (line %d)", fe_text(&c->fe, n), line_of(c, n));
    return false;
  }
  h->step *= sign;
  return true;
}

/* update := i++ | ++i | i-- | --i | i += c | i -= c | i = i + c | i = c + i | i = i - c */
static bool read_loop_step(CFe *c, TSNode up, LoopHeader *h)
{
  if (fe_is(up, "update_expression") && names_iv(c, field(up, "argument"), h)) {
    h->step = strcmp(op_text(up), "++") == 0 ? 1 : -1;
    return true;
  }
  if (fe_is(up, "assignment_expression") && names_iv(c, field(up, "left"), h)) {
    const char *op = op_text(up);
    TSNode right = field(up, "right");
    if (strcmp(op, "+=") == 0 || strcmp(op, "-=") == 0)
      return read_step_value(c, right, op[0] == '+' ? 1 : -1, h);
    while (fe_is(right, "parenthesized_expression"))
      right = first_named(right);
    if (strcmp(op, "=") == 0 && fe_is(right, "binary_expression")) {
      const char *bop = op_text(right);
      TSNode l = field(right, "left"), r = field(right, "right");
      if ((strcmp(bop, "+") == 0 || strcmp(bop, "-") == 0) && names_iv(c, l, h))
        return read_step_value(c, r, bop[0] == '+' ? 1 : -1, h);
      if (strcmp(bop, "+") == 0 && names_iv(c, r, h))
        return read_step_value(c, l, 1, h);
    }
  }
  err(c, up, "the update of a 'for' loop inside a stencil region must be %s++, %s--, "
      "%s += c or %s -= c with c an integer constant (line %d)", h->name, h->name,
      h->name, h->name, line_of(c, up));
  return false;
}

/* condition := i ('<' | '<=' | '>' | '>=' | '!=') bound
 *            | bound ('>' | '>=' | '<' | '<=' | '!=') i */
static bool read_loop_condition(CFe *c, TSNode cond, LoopHeader *h)
{
  while (fe_is(cond, "parenthesized_expression"))
    cond = first_named(cond);
  static const char *const cmps[] = { "<", "<=", ">", ">=", "!=" };
  static const char *const flipped[] = { ">", ">=", "<", "<=", "!=" };
  if (fe_is(cond, "binary_expression")) {
    const char *op = op_text(cond);
    TSNode l = field(cond, "left"), r = field(cond, "right");
    for (int k = 0; k < 5; k++) {
      if (strcmp(op, cmps[k]) != 0)
        continue;
      bool left = names_iv(c, l, h), right = names_iv(c, r, h);
      if (left == right)
        break;
      h->cmp = left ? cmps[k] : flipped[k];
      TSNode bn = left ? r : l;
      h->bound = lower_expr(c, bn);
      if (!h->bound)
        return false;
      if (ir_expr_mentions(h->bound, h->iv))
        break;
      if (ir_type_is_real(h->bound->type)) {
        err(c, bn, "the bound of a 'for' loop inside a stencil region must be an integer "
            "(line %d)", line_of(c, bn));
        return false;
      }
      h->bound = conv(h->bound, h->iv->type);
      return true;
    }
  }
  err(c, cond, "the condition of a 'for' loop inside a stencil region must compare '%s' with "
      "<, <=, >, >= or != to a bound that does not depend on it (line %d)", h->name,
      line_of(c, cond));
  return false;
}

/* Fortran DO bounds from the C condition: i < b  ->  hi = b-1 (counting
 * up), i > b  ->  hi = b+1 (counting down); <= and >= keep b. */
static bool loop_hi(CFe *c, TSNode n, LoopHeader *h, IrExpr **hi)
{
  if (strcmp(h->cmp, "!=") == 0) {
    /* i != b stepping by 1 stops where i < b (or i > b counting down)
     * would, whenever the loop ends at all; a longer step may jump over b */
    if (h->step != 1 && h->step != -1) {
      err(c, n, "the 'for' loop at line %d tests '%s != ...' but steps by %ld: it ends only if "
          "the step lands on the bound; write the condition with < or >", line_of(c, n),
          h->name, h->step);
      return false;
    }
    h->cmp = h->step > 0 ? "<" : ">";
  }
  bool up = h->cmp[0] == '<';
  if (up != (h->step > 0)) {
    err(c, n, "the 'for' loop at line %d counts %s but its condition '%s %s ...' needs it to "
        "count %s", line_of(c, n), h->step > 0 ? "up" : "down", h->name, h->cmp,
        up ? "up" : "down");
    return false;
  }
  *hi = h->cmp[1] ? h->bound : add_const(h->bound, up ? -1 : 1);
  return true;
}

/* The first statement of l (nested) assigning s or an element of s. */
static IrStmt *find_assignment(const IrStmtList *l, const IrSym *s)
{
  for (int i = 0; i < l->n; i++) {
    IrStmt *st = l->v[i], *found = NULL;
    switch (st->kind) {
    case IR_S_ASSIGN: {
      const IrExpr *lhs = st->u.assign.lhs;
      if ((lhs->kind == IR_E_VAR ? lhs->u.var : lhs->u.elem.sym) == s)
        return st;
      break;
    }
    case IR_S_DO: found = find_assignment(&st->u.loop.body, s); break;
    case IR_S_IF:
      found = find_assignment(&st->u.cond.then, s);
      if (!found)
        found = find_assignment(&st->u.cond.els, s);
      break;
    default: break;
    }
    if (found)
      return found;
  }
  return NULL;
}

typedef struct BoundCheck { const IrStmtList *body; IrSym *culprit; IrStmt *where; } BoundCheck;

static void check_bound_var(IrExpr *e, IrStmt *in, void *ctx)
{
  BoundCheck *b = ctx;
  (void)in;
  IrSym *s = e->kind == IR_E_VAR ? e->u.var : e->kind == IR_E_ELEM ? e->u.elem.sym : NULL;
  if (!s || b->culprit)
    return;
  b->where = find_assignment(b->body, s);
  if (b->where)
    b->culprit = s;
}

/* C re-evaluates the condition every iteration; a DO loop fixes its trip
 * count at entry.  They agree when the body leaves the bound alone. */
static bool bound_is_fixed(CFe *c, TSNode n, IrExpr *bound, const IrStmtList *body)
{
  BoundCheck b = { body, NULL, NULL };
  ir_walk_expr(bound, NULL, check_bound_var, &b);
  if (!b.culprit)
    return true;
  err(c, n, "the condition of the 'for' loop at line %d reads '%s', which the loop assigns at "
      "line %d; s2s-cuda needs loop bounds that do not change inside the loop",
      line_of(c, n), b.culprit->name, diag_user_line(b.where->loc));
  return false;
}

/* for_statement := 'for' '(' initializer ';' condition ';' update ')' body
 * lowered to IR_S_DO iv = lo, hi, step (Fortran trip count semantics). */
static IrStmt *lower_for(CFe *c, TSNode n, Seq *rest, Directive *advice)
{
  TSNode init = field(n, "initializer"), cond = field(n, "condition"), up = field(n, "update");
  if (ts_node_is_null(init) || ts_node_is_null(cond) || ts_node_is_null(up)) {
    err(c, n, "a 'for' loop inside a stencil region needs an initialization, a condition and an "
        "update (line %d)", line_of(c, n));
    return NULL;
  }
  if (c->nloops == MAX_LOOP_DEPTH) {
    err(c, n, "loop nest deeper than %d levels in a region is not supported (line %d)",
        MAX_LOOP_DEPTH, line_of(c, n));
    return NULL;
  }
  scope_push(c);
  LoopHeader h = { 0 };
  IrExpr *hi = NULL;
  bool ok = read_loop_init(c, init, &h) && read_loop_step(c, up, &h) &&
            read_loop_condition(c, cond, &h) && loop_hi(c, n, &h, &hi);
  IrStmt *s = ir_stmt(IR_S_DO, fe_loc(&c->fe, n));
  c->loops[c->nloops].iv = h.iv;          /* NULL if the header was refused */
  c->loops[c->nloops++].line = line_of(c, n);
  Extent saved = extent_start(c);
  lower_body(c, field(n, "body"), rest, &s->u.loop.body);   /* for its errors, at least */
  TSNode last = extent_end(c, saved);
  c->nloops--;
  scope_pop(c);
  if (!ok || !bound_is_fixed(c, n, hi, &s->u.loop.body))
    return NULL;
  if (ts_node_is_null(last) || ts_node_end_byte(last) < ts_node_end_byte(n))
    last = n;
  TSPoint end = ts_node_end_point(last);
  s->u.loop.end_loc = (Loc){ c->fe.file, (int)end.row + 1, (int)end.column };
  s->u.loop.iv = h.iv;
  s->u.loop.lo = h.lo;
  s->u.loop.hi = hi;
  s->u.loop.advice = advice;
  if (h.step != 1) {
    s->u.loop.step = typed_lit(0, h.iv->type, fe_loc(&c->fe, up));
    s->u.loop.step->u.ival = h.step;
  }
  return s;
}

/* ---- statement dispatch ------------------------------------------------------------------- */

/* compound_statement := '{' (pragma* statement)* '}' — flattened into out. */
static void lower_block(CFe *c, TSNode n, IrStmtList *out)
{
  scope_push(c);
  Seq seq = seq_of(n, NULL);
  while (seq_more(&seq))
    lower_unit(c, &seq, out);
  scope_pop(c);
}

static IrStmt *lower_jump(CFe *c, TSNode n, IrStmtKind kind)
{
  if (c->nloops == 0) {
    err(c, n, "'%s' outside a loop of the stencil region (line %d)",
        kind == IR_S_EXIT ? "break" : "continue", line_of(c, n));
    return NULL;
  }
  return ir_stmt(kind, fe_loc(&c->fe, n));
}

/* statement: one of the kinds below; anything else is refused by name. */
static void lower_stmt_node(CFe *c, TSNode n, Seq *rest, Directive *advice, IrStmtList *out)
{
  const char *t = ts_node_type(n);
  if (advice && strcmp(t, "for_statement") != 0) {
    err(c, n, "'%s' must be followed by a 'for' loop, not %s (line %d)", dir_spelling(advice, DIR_C),
        describe(n, false), line_of(c, n));
    advice = NULL;
  }
  if (strcmp(t, "compound_statement") == 0)
    lower_block(c, n, out);
  else if (strcmp(t, "expression_statement") == 0)
    push(out, lower_expression_statement(c, n));
  else if (strcmp(t, "for_statement") == 0)
    push(out, lower_for(c, n, rest, advice));
  else if (strcmp(t, "if_statement") == 0)
    push(out, lower_if(c, n, rest));
  else if (strcmp(t, "declaration") == 0) {
    if (has_qualifier(c, n, "storage_class_specifier", "static") ||
        has_qualifier(c, n, "storage_class_specifier", "extern"))
      unsupported(c, n, "'static' and 'extern' declarations are");
    else
      declare_all(c, n, DECL_REGION, out);
  } else if (strcmp(t, "break_statement") == 0)
    push(out, lower_jump(c, n, IR_S_EXIT));
  else if (strcmp(t, "continue_statement") == 0)
    push(out, lower_jump(c, n, IR_S_CYCLE));
  else if (strncmp(t, "preproc_", 8) == 0)
    err(c, n, "preprocessor directives are not supported inside a stencil region (line %d)%s",
        line_of(c, n), diag_source(c->fe.file)->map_file ? "" : "; run without -nocpp");
  else
    unsupported(c, n, describe(n, true));
}

/* Lower statement n, at most FE_MAX_STMT_DEPTH statements deep (a block
 * counts, and so does each `else if`).  One error per outermost statement. */
static void lower_stmt(CFe *c, TSNode n, Seq *rest, Directive *advice, IrStmtList *out)
{
  if (c->stmt_depth == FE_MAX_STMT_DEPTH) {
    if (!c->stmt_too_deep)
      err_at(c, fe_loc(&c->fe, n), 1, "statements nested more than %d levels deep in a region "
             "(each block and each 'else if' counts as one); split or flatten them (line %d)",
             FE_MAX_STMT_DEPTH, line_of(c, n));
    c->stmt_too_deep = true;
    return;
  }
  c->stmt_depth++;
  lower_stmt_node(c, n, rest, advice, out);
  if (--c->stmt_depth == 0)
    c->stmt_too_deep = false;
}

/* A pragma met inside a region: `do` advises the next loop (set *advice);
 * other stencil directives are errors; other pragmas are ignored with a
 * warning. */
static void region_pragma(CFe *c, TSNode n, Directive **advice)
{
  if (!is_stencil_pragma(c, n) && is_omp_pragma(c, n)) {
    note_omp_pragma(c, n);
    return;
  }
  if (!is_stencil_pragma(c, n)) {
    bool understood;  /* an inert `#pragma acc`: the driver has said so already */
    const char *why;
    int width;
    if (!c->quiet && !dir_acc_inert_line(c->fe.file, parsed_line(n), DIR_C, &understood, &why,
                                         &width))
      diag_at(DIAG_WARNING, fe_loc(&c->fe, n), fe_width(&c->fe, n),
              "ignoring this pragma inside a stencil region");
    return;
  }
  Directive *d = read_directive(c, n, NULL);
  if (!d)
    return;
  /* named as the user wrote it: '#pragma acc data', '#pragma stencil update' */
  if (d->kind == DIR_DO && *advice)
    err(c, n, "two loop directives before one loop: '%s' after '%s' (line %d)",
        dir_spelling(d, DIR_C), dir_spelling(*advice, DIR_C), line_of(c, n));
  else if (d->kind == DIR_DO)
    *advice = d;
  else if (d->kind == DIR_REGION)
    err(c, n, "%s regions cannot be nested: this one is inside the region starting at line %d",
        d->origin == DIR_FROM_STENCIL ? "stencil" : "compute", c->region->first_line);
  else
    err(c, n, "'%s' is not allowed inside a %sregion (line %d)", dir_spelling(d, DIR_C),
        d->origin == DIR_FROM_STENCIL ? "stencil " : "", line_of(c, n));
}

/* unit := pragma* statement — lowered into out.  False when the sequence
 * ended before a statement. */
static bool lower_unit(CFe *c, Seq *seq, IrStmtList *out)
{
  Directive *advice = NULL;
  TSNode n, advice_node = { 0 };
  while (seq_take(c, seq, &n)) {
    if (fe_is(n, "preproc_call") && is_pragma(c, n)) {
      Directive *before = advice;
      region_pragma(c, n, &advice);
      if (advice != before)
        advice_node = n;
      continue;
    }
    lower_stmt(c, n, seq, advice, out);
    return true;
  }
  if (advice)
    err(c, advice_node, "'%s' must be followed by a 'for' loop", dir_spelling(advice, DIR_C));
  return false;
}

/* ---- regions and host directives ---------------------------------------------------------- */

/* Code after the end of a region's or data's statement on its last line
 * would be replaced with it: refuse it (comments are fine).  `what`: the
 * directive as written. */
static void check_ends_line(CFe *c, TSNode stmt, const char *what)
{
  const char *text = c->fe.src->text;
  uint32_t at = ts_node_end_byte(stmt);
  TSPoint end = ts_node_end_point(stmt);
  uint32_t p = at;
  for (;;) {
    while (text[p] == ' ' || text[p] == '\t' || text[p] == '\r')
      p++;
    if (text[p] == '\0' || text[p] == '\n' || (text[p] == '/' && text[p + 1] == '/'))
      return;
    if (text[p] == '/' && text[p + 1] == '*') {
      const char *close = strstr(text + p + 2, "*/");
      const char *nl = strchr(text + p + 2, '\n');
      if (close && (!nl || close < nl)) {
        p = (uint32_t)(close - text) + 2;
        continue;
      }
    }
    break;
  }
  uint32_t w = 0;
  while (text[p + w] && text[p + w] != '\n')
    w++;
  Loc loc = { c->fe.file, (int)end.row + 1, (int)(end.column + (p - at)) + 1 };
  err_at(c, loc, (int)w, "the statement after '%s' must end its line: move this code to the next "
         "line (line %d)", what, diag_user_line(loc));
}

static IrRegion *new_region(CFe *c, Directive *d, TSNode pragma)
{
  IrRoutine *r = c->routine;
  IrRegion *g = ir_alloc(sizeof *g);
  g->index = r->nregions + 1;
  g->name = ir_printf("%s_r%d", r->name, g->index);
  g->launcher = ir_printf("s2s_%s_r%d", r->name, g->index);
  g->dir = d;
  g->first_line = fe_first_line(&c->fe, pragma);
  g->routine = r;
  IR_PUSH(r->regions, r->nregions, g);
  return g;
}

/* `#pragma stencil region` pragma* statement: the statement (a for loop or
 * a block, with `do` pragmas before it) is lowered into the region. */
static void lower_region(CFe *c, TSNode pragma, Directive *d, Seq *seq)
{
  IrRegion *g = new_region(c, d, pragma);
  /* OpenMP pragmas right above the region are the loop's: they go with it
   * (left in the host file, they would stand before the launcher's call,
   * which an OpenMP compiler refuses), like one between the region pragma
   * and its loop */
  for (TSNode p = ts_node_prev_named_sibling(pragma);
       !ts_node_is_null(p) && is_pragma(c, p) && is_omp_pragma(c, p) &&
       fe_last_line(&c->fe, p) + 1 == g->first_line;
       p = ts_node_prev_named_sibling(p)) {
    g->first_line = fe_first_line(&c->fe, p);
    note_omp_pragma(c, p);
  }
  Extent saved = extent_start(c);
  Directive *advice = d->loop; /* `#pragma acc parallel loop`: the loop's part */
  TSNode n;
  c->region = g;
  bool found = false;
  while (!found && seq_take(c, seq, &n)) {
    if (fe_is(n, "preproc_call") && is_pragma(c, n))
      region_pragma(c, n, &advice);
    else
      found = true;
  }
  if (!found) {
    err(c, pragma, "'%s' must be followed by a 'for' loop or a '{ }' block", dir_spelling(d, DIR_C));
  } else if (!fe_is(n, "for_statement") && !fe_is(n, "compound_statement")) {
    err(c, n, "'%s' must be followed by a 'for' loop or a '{ }' block, not %s (line %d)",
        dir_spelling(d, DIR_C), describe(n, false), line_of(c, n));
  } else {
    lower_stmt(c, n, seq, advice, &g->body);
  }
  TSNode last = extent_end(c, saved);
  g->last_line = found ? fe_last_line(&c->fe, last) : g->first_line;
  if (found)
    check_ends_line(c, last, dir_spelling(d, DIR_C));
  c->region = NULL;
  c->nloops = 0;
}

static IrHostDirective *add_host_directive(CFe *c, Directive *d, TSNode pragma, int last_line)
{
  IrHostDirective *h = ir_alloc(sizeof *h);
  h->dir = d;
  h->first_line = fe_first_line(&c->fe, pragma);
  h->last_line = last_line;
  h->index = ++c->nhost_dirs;
  IR_PUSH(c->routine->host_dirs, c->routine->nhost_dirs, h);
  return h;
}

static bool host_unit(CFe *c, Seq *seq, const char *owner, TSNode owner_node);



/* `#pragma stencil data` or `host_data` unit: the unit it applies to is
 * scanned, and its extent recorded for the end call.  A data unit may hold
 * regions; in a host_data unit the arrays of use_device are device
 * addresses, and no directive may be inside it (refused_in_host_data). */
static void host_data(CFe *c, TSNode pragma, Directive *d, int last_line, Seq *seq)
{
  IrHostDirective *h = add_host_directive(c, d, pragma, last_line);
  Extent saved = extent_start(c);
  if (d->kind == DIR_HOST_DATA)
    c->open_host_data = h;
  else
    c->data_depth++;
  bool found = host_unit(c, seq, dir_spelling(d, DIR_C), pragma);
  if (d->kind == DIR_HOST_DATA)
    c->open_host_data = NULL;
  else
    c->data_depth--;
  TSNode last = extent_end(c, saved);
  if (!found) {
    err(c, pragma, "'%s' must be followed by a statement or a '{ }' block", dir_spelling(d, DIR_C));
    return;
  }
  h->stmt_last_line = fe_last_line(&c->fe, last);
  check_ends_line(c, last, dir_spelling(d, DIR_C));
}

/* A directive inside a host_data unit: refused, since there the arrays of
 * use_device are device addresses (a region's launcher would look them up
 * as host arrays). */
static bool refused_in_host_data(CFe *c, TSNode n, const Directive *d)
{
  if (!c->open_host_data)
    return false;
  err(c, n, "'%s' inside the host_data construct of line %d: there the arrays of use_device are "
      "device addresses; put it after the statement that host_data applies to",
      dir_spelling(d, DIR_C), c->open_host_data->first_line);
  return true;
}

/* A `#pragma stencil` directive d (at n, ending on user line `last`) in
 * host code.  `in_body` is the statement whose braces-less body this
 * pragma stands in (a null node in a block). */
static void host_directive(CFe *c, TSNode n, Directive *d, int last, Seq *seq, TSNode in_body)
{
  bool braces = ts_node_is_null(in_body);
  switch (d->kind) {
  case DIR_REGION:
    lower_region(c, n, d, seq);
    return;
  case DIR_DATA:
  case DIR_UPDATE:
  case DIR_ENTER_DATA:
  case DIR_EXIT_DATA:
  case DIR_WAIT:
  case DIR_HOST_DATA:
    if (!braces)
      err(c, n, "'%s' cannot be the body of the statement at line %d: put the body in braces",
          dir_spelling(d, DIR_C), line_of(c, in_body));
    else if (d->kind == DIR_DATA || d->kind == DIR_HOST_DATA)
      host_data(c, n, d, last, seq);
    else {
      if (d->kind == DIR_UPDATE && !c->data_depth && !c->quiet &&
          !fe_update_after_enter_data(&c->fe, c->routine, d))
        fe_warn_update_outside_data(&c->fe, d, n, "function",
                                    d->origin == DIR_FROM_STENCIL ? "'#pragma stencil data'"
                                                                  : "'#pragma acc data'");
      add_host_directive(c, d, n, last);
    }
    return;
  case DIR_DO:
    if (d->origin == DIR_FROM_STENCIL)
      err(c, n, "'#pragma stencil do' outside a stencil region has no effect; put it inside a "
          "'#pragma stencil region' (line %d)", line_of(c, n));
    else
      err(c, n, "'%s' outside a compute region has no effect; put it inside a '#pragma acc "
          "region, parallel or kernels' (line %d)", dir_spelling(d, DIR_C), line_of(c, n));
    return;
  case DIR_END_REGION:
  case DIR_END_DATA:
  case DIR_END_HOST_DATA:
    err(c, n, "'#pragma stencil %s' does not exist in C: '#pragma stencil %s' applies to the "
        "statement or '{ }' block that follows it (line %d)", dir_kind_name(d->kind),
        d->kind == DIR_END_REGION ? "region" : d->kind == DIR_END_DATA ? "data" : "host_data",
        line_of(c, n));
    return;
  }
}

/* unit := pragma* statement in host code (a `data` target or a body the
 * parser left dangling).  `owner`: the data directive as written, or
 * "body".  False when nothing followed. */
static bool host_unit(CFe *c, Seq *seq, const char *owner, TSNode owner_node)
{
  TSNode n;
  bool dangling = strcmp(owner, "body") == 0;
  while (seq_take(c, seq, &n)) {
    if (!fe_is(n, "preproc_call") || !is_pragma(c, n)) {
      if (!dangling && fe_is(n, "declaration"))
        err(c, n, "'%s' must be followed by a statement or a '{ }' block, not a declaration "
            "(line %d)", owner, line_of(c, n));
      scan_node(c, n, seq);
      return true;
    }
    if (!is_stencil_pragma(c, n))
      continue;
    int last;
    Directive *d = read_directive(c, n, &last);
    if (!d || refused_in_host_data(c, n, d))
      continue;
    if (d->kind == DIR_REGION) {
      lower_region(c, n, d, seq);
      return true;
    }
    if (d->kind == DIR_DATA && !dangling) {
      host_data(c, n, d, last, seq);
      return true;
    }
    if ((d->kind == DIR_UPDATE || d->kind == DIR_ENTER_DATA || d->kind == DIR_EXIT_DATA ||
         d->kind == DIR_WAIT || d->kind == DIR_HOST_DATA) && !dangling)
      err(c, n, "'%s' must be followed by a statement or a '{ }' block, not '%s' (line %d)", owner,
          dir_spelling(d, DIR_C), line_of(c, n));
    else
      host_directive(c, n, d, last, seq, dangling ? owner_node : (TSNode){ 0 });
  }
  return false;
}

/* Items of a host sequence: pragmas, dangling bodies, statements. */
static void scan_items(CFe *c, Seq *seq)
{
  TSNode n;
  while (seq_take(c, seq, &n)) {
    if (fe_is(n, "preproc_call") && is_pragma(c, n)) {
      int last;
      Directive *d = is_stencil_pragma(c, n) ? read_directive(c, n, &last) : NULL;
      if (d && !refused_in_host_data(c, n, d))
        host_directive(c, n, d, last, seq, (TSNode){ 0 });
    } else if (is_dangling(n)) {
      Seq *s = seq_for_dangling(seq->outer);
      if (s)
        host_unit(c, s, "body", ts_node_parent(n));
    } else {
      scan_node(c, n, seq);
    }
  }
}

static void scan_node_inside(CFe *c, TSNode n, Seq *rest);

/* Search host statement n, at most MAX_HOST_DEPTH statements deep. */
static void scan_node(CFe *c, TSNode n, Seq *rest)
{
  if (c->host_depth == MAX_HOST_DEPTH) {
    if (!c->host_too_deep)
      err_at(c, fe_loc(&c->fe, n), 1, "statements nested more than %d levels deep (each block "
             "and each 'else if' counts as one); s2s-cuda cannot search them for directives "
             "(line %d)", MAX_HOST_DEPTH, line_of(c, n));
    c->host_too_deep = true;
    return;
  }
  c->host_depth++;
  scan_node_inside(c, n, rest);
  c->host_depth--;
}

/* Host code is searched, not lowered: declarations are recorded, pragmas
 * handled, and statements that can hold others searched in turn. */
static void scan_node_inside(CFe *c, TSNode n, Seq *rest)
{
  const char *t = ts_node_type(n);
  if (strcmp(t, "declaration") == 0) {
    declare_all(c, n, DECL_HOST, NULL);
  } else if (strcmp(t, "type_definition") == 0) {
    define_types(c, n);
  } else if (strcmp(t, "compound_statement") == 0 || strcmp(t, "for_statement") == 0) {
    scope_push(c);
    Seq seq = seq_of(n, t[0] == 'f' ? rest : NULL);
    scan_items(c, &seq);
    scope_pop(c);
  } else if (strstr(t, "_statement") || strcmp(t, "else_clause") == 0 ||
             (strncmp(t, "preproc_", 8) == 0 && strcmp(t, "preproc_call") != 0)) {
    Seq seq = seq_of(n, rest);
    scan_items(c, &seq);
  }
}

/* ---- functions and the translation unit -------------------------------------------------- */

/* parameter_list := '(' (parameter_declaration | variadic_parameter)* ')'
 * parameter_declaration := type_qualifier* type declarator? */
static void read_parameters(CFe *c, TSNode list)
{
  uint32_t count = ts_node_named_child_count(list);
  for (uint32_t i = 0; i < count; i++) {
    TSNode p = ts_node_named_child(list, i);
    if (!fe_is(p, "parameter_declaration"))
      continue;
    Declarator d = read_declarator(c->fe.src->text, field(p, "declarator"));
    if (ts_node_is_null(d.name))
      continue;                   /* `void`, or an unnamed parameter */
    const char *name = fe_text(&c->fe, d.name);
    bool twice = false;
    for (int k = 0; k < c->routine->ndummies && !twice; k++)
      twice = strcmp(c->routine->dummies[k]->name, name) == 0;
    if (twice) {                  /* gcc: "redefinition of parameter" */
      err(c, d.name, "parameter '%s' appears twice in the parameter list of '%s'", name,
          c->routine->name);
      continue;
    }
    IrSym *s = declare(c, p, read_type(c, field(p, "type")), &d, DECL_PARAM);
    if (!s)
      continue;
    s->is_dummy = true;
    s->dummy_index = (int)i;
    s->by_value = s->rank == 0;
    IR_PUSH(c->routine->dummies, c->routine->ndummies, s);
  }
}

/* The function_declarator under a function definition's declarator
 * (`double *f(...)` puts it under a pointer_declarator). */
static TSNode function_declarator(TSNode n, bool *returns_pointer)
{
  while (!ts_node_is_null(n) && !fe_is(n, "function_declarator")) {
    if (fe_is(n, "pointer_declarator"))
      *returns_pointer = true;
    TSNode inner = field(n, "declarator");
    n = ts_node_is_null(inner) ? first_named(n) : inner;
  }
  return n;
}

/* The first line of a function body holding a statement (not a declaration). */
static int body_start(CFe *c, TSNode body)
{
  uint32_t count = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < count; i++) {
    TSNode k = ts_node_named_child(body, i);
    if (!fe_is(k, "comment") && !fe_is(k, "declaration") && !fe_is(k, "type_definition"))
      return fe_first_line(&c->fe, k);
  }
  return fe_last_line(&c->fe, body);
}

/* function_definition := storage_class_specifier* type declarator: function_declarator body */
static void read_function(CFe *c, TSNode fn)
{
  bool returns_pointer = false;
  TSNode decl = function_declarator(field(fn, "declarator"), &returns_pointer);
  if (ts_node_is_null(decl)) {
    fe_error(&c->fe, fn, "this function definition has no parameter list that s2s-cuda can read");
    return;
  }
  TSNode name = field(decl, "declarator");
  while (!ts_node_is_null(name) && !fe_is(name, "identifier"))
    name = first_named(name);
  if (ts_node_is_null(name))
    return;
  IrRoutine *r = ir_alloc(sizeof *r);
  r->name = fe_text(&c->fe, name);
  r->loc = fe_loc(&c->fe, fn);
  TSNode type = field(fn, "type");
  r->is_function = returns_pointer || !(fe_is(type, "primitive_type") &&
                                        strcmp(fe_text(&c->fe, type), "void") == 0);
  r->module = c->globals;
  r->first_line = fe_first_line(&c->fe, fn);
  r->last_line = fe_last_line(&c->fe, fn);
  r->spec_end_line = r->first_line;
  TSNode body = field(fn, "body");
  r->body_start_line = body_start(c, body);
  c->routine = r;
  c->function = fn;
  c->nhost_dirs = 0;
  c->nlocals = 0;
  c->locals = NULL;
  c->nmember_uses = 0;
  c->member_uses = NULL;
  scope_push(c);
  read_parameters(c, field(decl, "parameters"));
  scan_node(c, body, NULL);
  scope_pop(c);
  fe_resolve_directives(&c->fe, r);
  fe_host_scan(&c->fe, r, body);
  IR_PUSH(c->fe.prog->routines, c->fe.prog->nroutines, r);
  c->routine = NULL;
}

/* translation_unit := (function_definition | declaration | type_definition
 *                      | enum_specifier ';' | preproc_* | ...)* */
static void read_items(CFe *c, TSNode parent)
{
  uint32_t count = ts_node_named_child_count(parent);
  for (uint32_t i = 0; i < count; i++) {
    TSNode n = ts_node_named_child(parent, i);
    const char *t = ts_node_type(n);
    if (strcmp(t, "function_definition") == 0)
      read_function(c, n);
    else if (strcmp(t, "declaration") == 0)
      declare_all(c, n, DECL_GLOBAL, NULL);
    else if (strcmp(t, "type_definition") == 0)
      define_types(c, n);
    else if (strcmp(t, "enum_specifier") == 0)
      declare_enumerators(c, n, DECL_GLOBAL);
    else if (strcmp(t, "struct_specifier") == 0)
      read_struct(c, n);
    else if (is_stencil_pragma(c, n))
      err(c, n, "'%s' belongs inside a function, before the statement it applies to",
          dir_file_dialect(c->fe.file, DIR_C) == DIR_DIALECT_STENCIL ? "#pragma stencil"
                                                                     : "#pragma acc");
    else if (strncmp(t, "preproc_", 8) == 0)
      read_items(c, n);           /* #if / #ifdef groups */
  }
}

/* ---- syntax errors ------------------------------------------------------------------------ */

/* The byte after `at`, skipping blanks and comments. */
static char next_code_char(const char *text, uint32_t at)
{
  for (;;) {
    while (isspace((unsigned char)text[at]))
      at++;
    if (text[at] == '/' && text[at + 1] == '/') {
      while (text[at] && text[at] != '\n')
        at++;
    } else if (text[at] == '/' && text[at + 1] == '*') {
      const char *close = strstr(text + at + 2, "*/");
      if (!close)
        return '\0';
      at = (uint32_t)(close - text) + 2;
    } else {
      return text[at];
    }
  }
}

/* The MISSING ';' of a body left dangling before a pragma is no error. */
static bool is_excused(CFe *c, TSNode n)
{
  return ts_node_is_missing(n) && is_dangling(ts_node_parent(n)) &&
         next_code_char(c->fe.src->text, ts_node_start_byte(n)) == '#';
}

/* After an excused dangling `if` body, tree-sitter reads a following
 * `else x = 1;` as a declaration of type "else", with no error node. */
static bool is_stray_else(CFe *c, TSNode n)
{
  return fe_is(n, "type_identifier") && strcmp(fe_text(&c->fe, n), "else") == 0;
}

/* Looking for the first syntax error under a node (fe_walk: the host code
 * searched may nest deeper than recursion could follow). */
typedef struct SyntaxSearch {
  CFe *c;
  TSNode found;
} SyntaxSearch;

static FeWalk find_syntax_error(TSNode n, void *ctx)
{
  SyntaxSearch *s = ctx;
  if ((ts_node_is_missing(n) && !is_excused(s->c, n)) || fe_is(n, "ERROR") ||
      is_stray_else(s->c, n)) {
    s->found = n;
    return FE_WALK_STOP;
  }
  if (!ts_node_has_error(n) && !fe_is(n, "declaration") && !fe_is(n, "compound_statement") &&
      !fe_is(n, "function_definition") && !strstr(ts_node_type(n), "_statement") &&
      !fe_is(n, "else_clause") && strncmp(ts_node_type(n), "preproc_", 8) != 0)
    return FE_WALK_SKIP;
  return FE_WALK_INTO;
}

/* The column of a Fortran directive sentinel that starts `line`, or 0: a
 * user who wrote `!$stencil region` in a C file learns the C spelling. */
static int fortran_sentinel_col(CFe *c, int line)
{
  size_t len;
  const char *s = diag_line(c->fe.file, line, &len);
  size_t i = 0;
  while (s && i < len && (s[i] == ' ' || s[i] == '\t'))
    i++;
  return s && len - i >= 9 && strncasecmp(s + i, "!$stencil", 9) == 0 ? (int)i + 1 : 0;
}

/* A file the parser cannot read is refused wherever the error is, as in
 * Fortran (fe_fortran.c, check_syntax): an error outside the functions
 * with directives can still change how the parser reads them (an open
 * brace swallows what follows), and outputs from a broken parse help
 * nobody.  The first error of each top-level item is reported; same
 * messages as fe_syntax_errors, which cannot know about dangling bodies. */
static bool check_syntax(CFe *c, TSNode root)
{
  bool bad = false;
  uint32_t count = ts_node_child_count(root);
  for (uint32_t i = 0; i < count; i++) {
    TSNode item = ts_node_child(root, i);
    SyntaxSearch search = { .c = c };
    fe_walk(item, find_syntax_error, &search);
    TSNode at = search.found;
    if (ts_node_is_null(at))
      continue;
    int sentinel_col = fortran_sentinel_col(c, fe_loc(&c->fe, at).line);
    if (sentinel_col)
      diag_at(DIAG_ERROR, (Loc){ c->fe.file, fe_loc(&c->fe, at).line, sentinel_col }, 9,
              "syntax error: '!$stencil' is the Fortran form of the directive; in C write "
              "'#pragma stencil'");
    else if (is_stray_else(c, at))
      err(c, at, "syntax error: 'else' cannot follow here; a body that starts with a '#pragma' "
          "needs braces");
    else if (ts_node_is_missing(at))
      err(c, at, "syntax error: expected '%s' here", ts_node_type(at));
    else
      err(c, at, "syntax error: the parser cannot read this %s",
          ts_node_named_child_count(at) ? "construct" : "token");
    bad = true;
  }
  return bad;
}

/* ---- entry -------------------------------------------------------------------------------- */

bool fe_c_check_syntax(int file)
{
  CFe c = { 0 };
  c.fe.file = file;
  c.fe.src = diag_source(file);
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_c());
  TSTree *tree = ts_parser_parse_string(parser, NULL, c.fe.src->text, (uint32_t)c.fe.src->len);
  bool bad = check_syntax(&c, ts_tree_root_node(tree));
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return !bad;
}

Program *fe_c(int file)
{
  CFe c = { 0 };
  c.fe.file = file;
  c.fe.src = diag_source(file);
  if (!c.fe.src)
    S2S_BUG("fe_c: no source %d", file);
  Program *p = c.fe.prog = ir_alloc(sizeof *p);
  p->lang = IR_C;
  p->file = file;
  p->path = c.fe.src->path;
  c.globals = ir_alloc(sizeof *c.globals);
  c.globals->name = ir_strdup("");
  IR_PUSH(p->modules, p->nmodules, c.globals);
  scope_push(&c);

  int errors = diag_error_count();
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_c());
  TSTree *tree = ts_parser_parse_string(parser, NULL, c.fe.src->text, (uint32_t)c.fe.src->len);
  TSNode root = ts_tree_root_node(tree);
  if (!check_syntax(&c, root))
    read_items(&c, root);
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  HASH_CLEAR(hh, c.names);
  return diag_error_count() > errors ? NULL : p;
}
