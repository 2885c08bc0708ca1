/* directive.h — the !$stencil / #pragma stencil directive language.
 *
 * The directive parser reads the text of one directive (continuations already
 * joined) and produces a Directive: its construct, its clauses and their list
 * items with sub-array bounds.  It knows nothing about the program around the
 * directive; the front ends attach directives to statements and the passes
 * interpret them.  Grammar (ARCHITECTURE.md section 2), keywords
 * case-insensitive:
 *
 *   directive := 'region' clause* | 'end' 'region'
 *              | 'data' clause* | 'end' 'data'
 *              | 'do' do-clause* | 'update' ('host' | 'device') '(' list ')' ...
 *   clause    := ('copyin'|'copyout'|'copy'|'create'|'local'|'present') '(' list ')'
 *   do-clause := 'parallel' | 'seq' | 'kernel' | 'independent'
 *              | 'vector' '(' int ')' | 'private' '(' names ')'
 *   list      := item (',' item)*
 *   item      := name                                  a whole array
 *              | name '(' section (',' section)* ')'   Fortran: lo:hi, :, lo:, :hi, expr
 *              | name ('[' expr ':' expr ']')+         C: start:length as OpenACC
 *   expr      := integer arithmetic on names and integer literals (+ - * / parens)
 *
 * Also accepted: `endregion`/`enddata` as one word; commas between clauses;
 * C `a[:n]` for `a[0:n]` (OpenACC); trailing comments (Fortran `!`, C `//`
 * and block comments).  Rejected with a message: `end region`/`end data` in
 * C (there a region is the statement or block after the pragma), `seq` with
 * parallel/vector/independent, vector lengths outside 1..1024, the same
 * array in two data clauses of one directive.
 */
#ifndef S2S_DIRECTIVE_H
#define S2S_DIRECTIVE_H

#include <stdbool.h>
#include "diag.h"

typedef enum DirLang { DIR_FORTRAN, DIR_C } DirLang;

/* The IR (ir.h) that the front end resolves clause items to, once it knows
 * the routine holding the directive (fe_resolve_directive).  The directive
 * parser leaves these fields NULL. */
struct IrSym;
struct IrExpr;
struct IrRoutine;

typedef enum DirKind {
  DIR_REGION, DIR_END_REGION, DIR_DATA, DIR_END_DATA, DIR_DO, DIR_UPDATE
} DirKind;

/* Data clauses.  `local` is parsed as DIR_CREATE (the report says "create"). */
typedef enum DirClauseKind {
  DIR_COPYIN, DIR_COPYOUT, DIR_COPY, DIR_CREATE, DIR_PRESENT,
  DIR_UPDATE_HOST, DIR_UPDATE_DEVICE, DIR_PRIVATE
} DirClauseKind;

/* Bounds nested deeper (parentheses, signs, or a left-deep chain of
 * operators) are refused with a message: the parser and every reader of a
 * DirExpr recurse. */
#define DIR_MAX_EXPR_DEPTH 1000

/* A bound expression inside a list item.  Read u.X only where kind says so:
 * DIR_E_NAME->name  DIR_E_INT->ival  DIR_E_BINARY->bin (op is one of + - * /)
 * DIR_E_NEG->operand. */
typedef enum DirExprKind { DIR_E_NAME, DIR_E_INT, DIR_E_BINARY, DIR_E_NEG } DirExprKind;
typedef struct DirExpr DirExpr;
struct DirExpr {
  DirExprKind kind;
  Loc loc;
  int depth;             /* levels of the tree from here down (1: a leaf), at most
                            DIR_MAX_EXPR_DEPTH: every reader recurses over it */
  union {
    struct { char *name;                           /* lower-cased for Fortran */
             struct IrSym *sym; };                 /* resolved: the routine's symbol
                                                      of that name, or NULL */
    long ival;
    struct { char op; DirExpr *lhs, *rhs; } bin;
    DirExpr *operand;
  } u;
};

/* One dimension of a sub-array as written.  Fortran `a(lo:hi)`: lo/hi NULL
 * when omitted (`:`, `lo:`, `:hi`); a single index `a(k)` has is_index set
 * and lo == hi.  C `a[start:length]`: lo = start, len = length. */
typedef struct DirSection {
  DirExpr *lo, *hi, *len;
  bool is_index;
  /* resolved: lo, hi, len as IR; NULL where not written, or where a name
   * in it is not an integer scalar of the routine */
  struct IrExpr *lo_ir, *hi_ir, *len_ir;
} DirSection;

#define DIR_MAX_RANK 7

typedef struct DirItem {
  char *name;          /* lower-cased for Fortran, as written for C */
  Loc loc;             /* of the name */
  int nsections;       /* 0: the whole array */
  DirSection sections[DIR_MAX_RANK]; /* in the order written */
  struct IrSym *sym;   /* resolved: the routine's symbol named `name`, or NULL */
} DirItem;

typedef struct DirClause {
  DirClauseKind kind;
  Loc loc;             /* of the clause keyword */
  int nitems;
  DirItem *items;
} DirClause;

typedef struct Directive {
  DirKind kind;
  Loc loc;             /* of the sentinel (`!$stencil` / `#pragma`) */
  /* DIR_DO advice and assertions */
  bool parallel, seq, kernel, independent;
  int vector;          /* 0 when not given */
  /* data clauses (region, data, update) and private(list) for do */
  int nclauses;
  DirClause *clauses;
  /* the routine whose names the items were resolved in (NULL: not yet).
   * A `do` directive of a routine that regions call keeps the callee's
   * symbols when its loop is inlined into the caller. */
  struct IrRoutine *scope;
} Directive;

/* Parse the directive text `text` (what follows the sentinel `!$stencil` or
 * `#pragma stencil`, continuation lines already joined with the `&` and the
 * next sentinel removed).  `loc` is the location of text[0]; columns in
 * messages are computed from it, and `colmap`, when not NULL, gives for
 * every byte of `text` its column in the source line (needed once
 * continuation lines are joined; then `linemap` gives the line).  On error,
 * prints a diagnostic with a caret and returns NULL.  The result is
 * allocated with xmalloc; free it with dir_free. */
Directive *dir_parse(const char *text, Loc loc, const int *linemap, const int *colmap,
                     DirLang lang);
void dir_free(Directive *d);

/* Is source line `line` of `file` a directive line?  Fortran: after blanks,
 * `!$stencil` (any case) followed by a blank, end of line or '&'.  C: after
 * blanks, `#`, blanks, `pragma`, blanks, `stencil`. */
bool dir_is_directive_line(int file, int line, DirLang lang);

/* Read the directive that starts on `line` of registered source `file`,
 * joining continuations (Fortran: trailing `&` then the next line's
 * `!$stencil` sentinel, with an optional leading `&`; C: backslash-newline),
 * and parse it with dir_parse.  *last_line is set to the directive's last
 * line even on error (so the caller can skip it).  NULL on error (already
 * reported). */
Directive *dir_read(int file, int line, DirLang lang, int *last_line);

const char *dir_clause_name(DirClauseKind k); /* "copyin", ... */
const char *dir_kind_name(DirKind k);         /* "region", "end region", ... */

/* Print a bound expression in the directive's own syntax (for reports). */
void dir_expr_print(const DirExpr *e, char *buf, size_t size);

#endif
