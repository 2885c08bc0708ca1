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
 *              | 'enter' 'data' (('copyin'|'create') '(' list ')')+
 *              | 'exit' 'data' (('copyout'|'delete') '(' list ')' | 'finalize')+
 *              | 'host_data' 'use_device' '(' names ')' ['if_present'] | 'end' 'host_data'
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
  DIR_REGION, DIR_END_REGION, DIR_DATA, DIR_END_DATA, DIR_DO, DIR_UPDATE,
  DIR_ENTER_DATA, DIR_EXIT_DATA,  /* unpaired data lifetimes (OpenACC's dynamic counts) */
  DIR_WAIT,                       /* the thread's `update host ... async` copies are done */
  DIR_HOST_DATA, DIR_END_HOST_DATA /* host code between them passes device addresses */
} DirKind;

/* Data clauses.  `local` is parsed as DIR_CREATE (the report says "create"). */
typedef enum DirClauseKind {
  DIR_COPYIN, DIR_COPYOUT, DIR_COPY, DIR_CREATE, DIR_PRESENT,
  DIR_UPDATE_HOST, DIR_UPDATE_DEVICE, DIR_PRIVATE,
  DIR_DELETE,          /* exit data: release without copying out */
  DIR_USE_DEVICE       /* host_data: the arrays whose device address the host code uses */
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
  char *text;          /* a list clause as written ("copy(t)"), blanks collapsed; else NULL */
  int nitems;
  DirItem *items;
} DirClause;

/* Which spelling a directive was written in.  The OpenACC and PGI
 * Accelerator directives (`!$acc`, `#pragma acc`) are translated into the
 * same Directive as `!$stencil`, so the passes need not know; the origin
 * and the user's own clauses (DirAccClause) let the report speak of what
 * the user wrote, and make assertions advice that the analysis checks. */
typedef enum DirOrigin { DIR_FROM_STENCIL, DIR_FROM_PGI, DIR_FROM_OPENACC } DirOrigin;

/* Which directive spellings a file is read in (--directives=). */
typedef enum DirDialect {
  DIR_DIALECT_AUTO,     /* !$stencil if the file has any, else !$acc (both models) */
  DIR_DIALECT_STENCIL, DIR_DIALECT_PGI, DIR_DIALECT_OPENACC
} DirDialect;
extern DirDialect dir_dialect_option;

/* What became of one clause of an `!$acc` directive, for the report. */
typedef enum DirAccFate {
  ACC_DECIDED_LATER,    /* the passes decide: data clauses, private, loop schedules */
  ACC_HONOURED, ACC_SUPERSEDED, ACC_IGNORED,
  ACC_NOT_NEEDED        /* it asks for what happens anyway (async on update device) */
} DirAccFate;

typedef enum DirAccRole {
  ACC_ROLE_OTHER,       /* fate fixed when parsed */
  ACC_ROLE_DATA,        /* clauses[clause]: copyin, copy, local, ... */
  ACC_ROLE_PRIVATE,     /* clauses[clause]: private(list) */
  ACC_ROLE_PARALLEL,    /* parallel, gang, worker, vector: run this loop across the grid */
  ACC_ROLE_VECTOR_LEN,  /* vector(n): the block length */
  ACC_ROLE_SEQ, ACC_ROLE_KERNEL, ACC_ROLE_INDEPENDENT,
  ACC_ROLE_ASYNC        /* async[(n)] on update: fate fixed once the update's lists are read */
} DirAccRole;

typedef struct DirAccClause {
  char *text;           /* as written, e.g. "local(qci, work)", "unroll(4)" */
  Loc loc;
  DirAccRole role;
  int clause;           /* ACC_ROLE_DATA, ACC_ROLE_PRIVATE: index in Directive.clauses */
  DirAccFate fate;      /* ACC_DECIDED_LATER unless fixed when parsed */
  const char *why;      /* for a fate fixed when parsed */
} DirAccClause;

typedef struct Directive {
  DirKind kind;
  Loc loc;             /* of the sentinel (`!$stencil` / `#pragma`) */
  /* DIR_DO advice and assertions */
  bool parallel, seq, kernel, independent;
  int vector;          /* 0 when not given */
  bool finalize;       /* DIR_EXIT_DATA: drop every dynamic reference, not one */
  bool if_present;     /* DIR_HOST_DATA: an array not present keeps its host address */
  /* DIR_UPDATE: `async`: the host does not wait for `update host`; a later
   * `wait` directive (DIR_WAIT) does */
  bool async;
  /* DIR_WAIT from `!$acc wait(list)`: "(list)" as written, for the report
   * (NULL: none); every wait waits for all of the thread's queued updates */
  char *queues;
  /* data clauses (region, data, update) and private(list) for do */
  int nclauses;
  DirClause *clauses;
  /* the routine whose names the items were resolved in (NULL: not yet).
   * A `do` directive of a routine that regions call keeps the callee's
   * symbols when its loop is inlined into the caller. */
  struct IrRoutine *scope;
  /* `!$acc` / `#pragma acc` input (origin != DIR_FROM_STENCIL) */
  DirOrigin origin;
  const char *spelled;  /* the construct as written: "!$acc region", "#pragma acc parallel loop" */
  int nacc;
  DirAccClause *acc;
  struct Directive *loop; /* `region do`, `parallel loop`, `kernels loop`: the loop's part;
                             the region is that one loop (Fortran: no end directive) */
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

/* Does the line text s (len bytes, no line end) start with a sentinel of
 * either spelling: `!$stencil` or `!$acc` (Fortran), `#pragma stencil` or
 * `#pragma acc` (C)?  Text only: no registered file, no dialect decided
 * (the host file's copy of a region's lines drops them all). */
bool dir_has_sentinel(const char *s, size_t len, DirLang lang);

/* Read the directive that starts on `line` of registered source `file`,
 * joining continuations (Fortran: trailing `&` then the next line's
 * `!$stencil` sentinel, with an optional leading `&`; C: backslash-newline),
 * and parse it with dir_parse.  *last_line is set to the directive's last
 * line even on error (so the caller can skip it).  NULL on error (already
 * reported). */
Directive *dir_read(int file, int line, DirLang lang, int *last_line);

/* The directive spelling of source `file` (decided once per file: the
 * --directives option, else whether the file has any !$stencil line). */
DirDialect dir_file_dialect(int file, DirLang lang);

/* An `!$acc` / `#pragma acc` line that is no directive of the file's
 * dialect: the tool understands it and it has no effect (`routine seq`,
 * `init`, ...), or it does not.  Returns false for other lines; else *what
 * is the construct as written and *why says why it has no effect (a note
 * when *understood, else a warning). */
bool dir_acc_inert_line(int file, int line, DirLang lang, bool *understood, const char **why,
                        int *width);

/* Text of directive line `line` after the sentinel and blanks (NULL when
 * it is no directive line); whether it ends a region (`end region`, OpenACC
 * `end parallel`/`end kernels`, tolerant of misspellings of `region` for
 * error recovery); whether it looks like it opens one. */
const char *dir_line_text(int file, int line, DirLang lang);
bool dir_line_ends_region(int file, int line, DirLang lang);
bool dir_line_opens_region(int file, int line, DirLang lang);

/* The sentinel of a directive as the user wrote it ("!$stencil", "!$acc",
 * "#pragma stencil", "#pragma acc"), for messages. */
const char *dir_sentinel(const Directive *d, DirLang lang);

/* The construct as the user wrote it, for messages: "!$acc data",
 * "#pragma acc parallel loop", "!$stencil update", "#pragma stencil wait". */
const char *dir_spelling(const Directive *d, DirLang lang);

const char *dir_clause_name(DirClauseKind k); /* "copyin", ... */
const char *dir_kind_name(DirKind k);         /* "region", "end region", ... */

/* Print a bound expression in the directive's own syntax (for reports). */
void dir_expr_print(const DirExpr *e, char *buf, size_t size);

#endif
