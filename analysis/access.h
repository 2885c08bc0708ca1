/* access.h — what a region does with each array and scalar (access.c).
 *
 * an_region_accesses fills the data side of a RegionPlan (plan.h): every
 * array the region touches with its data clause (the user's, or inferred
 * from what the region reads and writes and what the host does with it
 * before and after), the box to move, which work arrays could be
 * privatized, the scalars passed by value, the private scalars and the
 * named constants.  The text helpers print boxes, references and
 * expressions as the user writes them, for messages and the report.
 */
#ifndef S2S_ACCESS_H
#define S2S_ACCESS_H

#include "plan.h"

/* Constant memory for module arrays: at most this many bytes per array,
 * and per generated file (CUDA gives 64 KiB in all). */
#define AN_CONSTANT_ARRAY_MAX_BYTES 4096L
#define AN_CONSTANT_FILE_MAX_BYTES (32L * 1024)

/* What the place of one module variable in a region depends on. */
typedef struct ModuleDataFacts {
  bool is_array;
  bool written;             /* the region assigns it (an element, for an array) */
  /* scalars (for the wording of the refusal of a write) */
  bool read_before_write;   /* a read in the region may come before every assignment */
  bool host_reads_after;    /* the routine's code after the region reads it */
  /* arrays */
  bool user_clause;         /* a data clause of the region names it */
  bool uniform;             /* every subscript is the same for every thread: literals,
                               named constants, scalars the region does not assign,
                               indices of enclosing loops with constant bounds */
  long bytes;               /* its whole size when its bounds are constants, else -1 */
  long constant_left;       /* bytes of constant memory the file has not used yet */
} ModuleDataFacts;

/* The rule, one decision per module variable:
 *   scalar read only                          -> by value (a kernel parameter is
 *                                                 already in the constant bank)
 *   scalar written                            -> refused (an error at the write):
 *                                                 never privatized, since any routine,
 *                                                 in any file, may read it after the
 *                                                 region and a copy per thread would
 *                                                 leave it at its old value
 *   array read only, no data clause, uniform
 *     subscripts, constant shape of at most
 *     AN_CONSTANT_ARRAY_MAX_BYTES that fits
 *     what the file has left                  -> constant memory
 *   any other array                           -> its data clause (copied back when
 *                                                 written, as any array) */
ModulePlace an_module_data_place(const ModuleDataFacts *f);

/* fill arrays/inputs/privates/params of `plan` from the region's
 * body and clauses, and keep the region's access list in plan->acc.  False on errors (reported). */
bool an_region_accesses(const Program *prog, IrRegion *g, RegionPlan *plan);

/* the feedback lines for the data clauses (and privatized
 * arrays), once the mapping has decided which arrays are privatized. */
void an_report_arrays(const Program *prog, IrRegion *g, const RegionPlan *plan);

/* The feedback lines of the module variables of region g, once the
 * storage pass has settled which arrays stay in constant memory (one it
 * demoted gets its "Generating" line here). */
void an_report_module_data(const Program *prog, IrRegion *g, const RegionPlan *plan);

/* The first line in [from, to] where routine r's host code mentions
 * `name` (as its front end's host scan recorded it: ir.h, IrHostUses), or
 * 0.  With stop_at_assignment, a first mention that assigns the name
 * (`name = ...`) answers 0: the old value is dead there. */
int an_host_use(const IrRoutine *r, const char *name, int from, int to, bool stop_at_assignment);

/* Could the host use array a's values outside region g?  Dummies and
 * module variables: yes (the caller, other routines).  Locals: if the
 * routine's executable part mentions it outside g, or the declarations let
 * the values outlive the call or alias them (SAVE, COMMON, EQUIVALENCE,
 * DATA, an initializer).  C: always yes. */
bool an_host_uses_array(const Program *prog, const IrRegion *g, const IrSym *a);

/* Does a `!$stencil do private(...)` of region g name array s (the user's
 * word that every column stores what it reads of s first)? */
bool an_user_private(IrRegion *g, const IrSym *s);

/* the box of array `a` for a user clause item, or from the
 * accesses.  Also used for data/update directives on the host. */
bool an_item_box(IrRoutine *r, IrSym *a, const DirItem *item, IrLang lang, IrExpr **lo, IrExpr **hi);

/* print a box like `t(its-1:ite+1,kts:kte)` or `a[0:n]`. */
void an_box_text(const IrSym *a, IrExpr *const *lo, IrExpr *const *hi, IrLang lang, char *buf,
                 size_t size);

/* A reference as the user wrote it: `b(i,j-1)` or `b[j-1][i]` (arena). */
const char *an_ref_text(const IrExpr *ref, IrLang lang);

/* Print an IR expression as source text (Fortran or C spelling), folded
 * where it is affine. */
void an_expr_text(const IrExpr *e, IrLang lang, char *buf, size_t size);

/* Print hi - lo + 1, folded: the number of elements from lo to hi. */
void an_extent_text(const IrExpr *lo, const IrExpr *hi, char *buf, size_t size);

/* The array that clause item `item` of a directive in routine r names, or
 * NULL after one error: an array declared with a name of a module that was
 * not found is blamed on that USE. */
IrSym *an_clause_array(IrRoutine *r, const DirItem *item, DirClauseKind kind);

#endif
