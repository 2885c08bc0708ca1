/* frontend.h — the two front ends and what they share.
 *
 * A front end takes a registered source (diag_add_source), parses it with
 * tree-sitter, finds the directives, and lowers each region's statements
 * into the IR (ir.h).  Host code outside regions is not lowered: the host
 * emitter copies it as text.  What a front end must lower, it lowers
 * completely or reports: a construct it does not support inside a region is
 * an error naming the construct and its line, never silently dropped.
 *
 * fe_common.c holds the helpers both front ends use to read the CST.
 * modules.h: the summaries through which the Fortran front end reads the
 * modules and procedures of other files.
 */
#ifndef S2S_FRONTEND_H
#define S2S_FRONTEND_H

#include <tree_sitter/api.h>
#include "ir.h"

/* Parse and lower `file`.  Returns the Program (arena-owned) or NULL when
 * errors were reported. */
Program *fe_fortran(int file);
/* Only the syntax check fe_fortran starts with: false after reporting the
 * first syntax error of each unit (main.c: a file without directives). */
bool fe_fortran_check_syntax(int file);
bool fe_c_check_syntax(int file);
Program *fe_c(int file);

/* Expressions inside a region are lowered recursively, and every later
 * pass walks them recursively too: deeper nesting (a sum of more terms, or
 * more parentheses) is refused where it is lowered, so that no pass can run
 * out of stack.  Real code stays far below it. */
#define FE_MAX_EXPR_DEPTH 1000
/* The same for statements nested inside a region: blocks, loops, IFs, and
 * each ELSE IF of a chain (it nests in the ELSE of the one before). */
#define FE_MAX_STMT_DEPTH 200

/* The kinds of Fortran's defaults (-fdefault-real-8, -fdefault-double-8,
 * -r8; options.h), set once before the passes; the defaults: real(4) and
 * DOUBLE PRECISION real(8).  With default_real8 and not default_double8,
 * DOUBLE PRECISION is real(16), as gfortran makes it: refused where it is
 * met (kernels have no real(16)). */
typedef struct FeConfig {
  bool default_real8;
  bool default_double8;
} FeConfig;
extern FeConfig fe_config;

/* ---- CST helpers (fe_common.c) ------------------------------------------ */

typedef struct FeCtx {
  int file;
  const SourceFile *src;
  Program *prog;
  int nunresolved;
  Directive **unresolved;       /* read in the routine being read; resolved at its end */
} FeCtx;

Loc fe_loc(const FeCtx *cx, TSNode n);
/* Width of node n on its first line, for carets. */
int fe_width(const FeCtx *cx, TSNode n);
/* Text of a node: arena string. */
char *fe_text(const FeCtx *cx, TSNode n);
/* Text of a node lower-cased (Fortran names and keywords): arena string. */
char *fe_text_lower(const FeCtx *cx, TSNode n);
bool fe_is(TSNode n, const char *type);
/* First named child of the given type, or a null node. */
TSNode fe_child_of_type(TSNode n, const char *type);
/* Visit n and the nodes under it in pre-order, with a tree cursor rather
 * than recursion: expressions of user code may nest thousands of levels
 * deep.  fn answers whether to go into the node's children, skip them, or
 * stop the whole walk. */
typedef enum FeWalk { FE_WALK_INTO, FE_WALK_SKIP, FE_WALK_STOP } FeWalk;
void fe_walk(TSNode n, FeWalk (*fn)(TSNode n, void *ctx), void *ctx);
/* Report an error at node n with a caret under it. */
void fe_error(const FeCtx *cx, TSNode n, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Warn, at update directive d (node n), that no data region of its
 * `unit` ("routine", "function") is open around it: a caller's may hold
 * the arrays; when none does, the runtime stops the program naming the
 * array, as OpenACC's update does on absent data.  `fix`: how to open one
 * in the user's language. */
struct Directive;
void fe_warn_update_outside_data(const FeCtx *cx, const struct Directive *d, TSNode n,
                                 const char *unit, const char *fix);
/* Does an `enter data` hold every array of update directive d?  In r, the
 * last enter/exit data naming the array read before d (r->host_dirs are in
 * source order) must be an enter data; an array that r's own directives do
 * not name may be held by an enter data of another routine read before
 * (an init routine's, by the same name).  Control flow is not followed:
 * the warning is advice, the runtime's check at the update is the rule. */
bool fe_update_after_enter_data(const FeCtx *cx, const IrRoutine *r, const struct Directive *d);
/* Report the first syntax error (ERROR or MISSING node) under root, if any.
 * Returns true if one was found. */
bool fe_syntax_errors(const FeCtx *cx, TSNode root);
/* 1-based line of a node's first and last byte in the user's file. */
int fe_first_line(const FeCtx *cx, TSNode n);
int fe_last_line(const FeCtx *cx, TSNode n);

/* ---- what the front end resolves for the passes (fe_common.c) ---------------- */

/* Record in r->host_uses every identifier under n (the executable part of
 * a routine: statements, or a C function body), with its user line and
 * whether it is assigned there (ir.h, IrHostUses).  Fortran names are
 * lower-cased; C preprocessor lines and Fortran keyword-argument names are
 * skipped. */
void fe_host_scan(const FeCtx *cx, IrRoutine *r, TSNode n);

/* Resolve the clause items of d in routine r: each item's symbol, each
 * bound name's symbol and each section bound as IR (directive.h).  Nothing
 * is reported here: the passes that judge the clauses print what does not
 * resolve, in the order they always have. */
void fe_resolve_directive(IrRoutine *r, Directive *d);
/* A directive read while reading a routine: resolved by
 * fe_resolve_directives at the routine's end, when its symbol table is
 * complete (C declares names as it goes; Fortran adds implicitly typed
 * ones while lowering regions). */
void fe_directive_read(FeCtx *cx, Directive *d);
void fe_resolve_directives(FeCtx *cx, IrRoutine *r);

#endif
