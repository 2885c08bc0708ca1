/* plan.h — everything the emitter needs to know about one region.
 *
 * RegionPlan is filled by xf_plan_program (transforms/map.c) from the
 * analyses (access.c: what each array and scalar is used for, the boxes
 * touched, the data clauses; dep.c: which loops carry dependences) and the
 * mapping decisions.  The CUDA emitter only reads it.
 *
 *   kernels[]   one per top-level loop nest of the region, in order; each
 *               maps up to three perfectly nested, dependence-free loops to
 *               the grid (mapped[0] outermost); the loops inside run
 *               sequentially in each thread.
 *   arrays[]    every array the region touches, with its data clause
 *               (written by the user or inferred) and the box (sub-array)
 *               to move, as host-evaluable IR expressions.
 *   inputs[]    scalars read by the region and never written in it: passed
 *               to the kernels by value (also those needed by array bounds).
 *   privates[]  scalars written in the region: each thread has its own.
 *   params[]    named constants the region uses.
 */
#ifndef S2S_PLAN_H
#define S2S_PLAN_H

#include "dep.h"
#include "ir.h"

typedef struct ArrayPlan {
  IrSym *sym;
  DirClauseKind clause;      /* DIR_COPYIN .. DIR_PRESENT */
  bool user_clause;          /* written by the user (else inferred) */
  int clause_line;           /* user line of the clause or of the region */
  bool read, written;
  const char *clause_warning; /* a user clause that contradicts the code, or NULL */
  const char *copy_reason;   /* inferred copy of an array the region does not read: why
                                not copyout (some element of the box may stay unwritten) */
  IrExpr *box_lo[IR_MAX_RANK], *box_hi[IR_MAX_RANK]; /* sub-array, IR order */
  /* Privatization: a local work array the host never uses, whose every read
   * is preceded in the same column by a write of that element, may live in
   * each thread (no data clause at all).  `privatizable` is the analysis'
   * answer; `privatized` the mapping's decision, with the dimensions of the
   * column indices dropped (column_dim[d]: 1 if dimension d is indexed by a
   * column index and so not stored per thread). */
  bool privatizable, privatized;
  const char *not_private_why; /* a written array not privatized: the reason, for messages */
  bool column_dim[IR_MAX_RANK];
  long private_elems;        /* elements per thread when constant, else -1 */
} ArrayPlan;

typedef struct KernelPlan {
  char *name;                /* <routine>_r<N>_k<M> */
  IrStmt *nest;              /* outermost loop of the nest */
  int nmapped;
  IrStmt *mapped[3];         /* outermost first */
  int axis[3];               /* grid axis of each mapped loop: 0 = x, 1 = y, 2 = z */
  int block[3];              /* threads per block along x, y, z */
  IrStmtList *body;          /* statements inside the innermost mapped loop */
  int nfirstprivate;
  IrSym **firstprivate;      /* privates that start from the host's value */
} KernelPlan;

typedef struct RegionPlan {
  int nkernels;
  KernelPlan *kernels;
  int narrays, arrays_cap;
  ArrayPlan *arrays;
  int ninputs;
  IrSym **inputs;
  int nprivates;
  IrSym **privates;
  int nparams;
  IrSym **params;
} RegionPlan;

/* access.c: fill arrays/inputs/privates/params of `plan` from the region's
 * body and clauses.  False on errors (reported). */
bool an_region_accesses(const Program *prog, IrRegion *g, RegionPlan *plan);

/* access.c: the feedback lines for the data clauses (and privatized
 * arrays), once the mapping has decided which arrays are privatized. */
void an_report_arrays(const Program *prog, IrRegion *g, const RegionPlan *plan);

/* The first line in [from, to] of the host text that mentions
 * `name` (a whole word; comments and directive lines skipped), or 0.  With
 * stop_at_assignment, a mention that assigns the name (`name =`) ends the
 * search with 0: the old value is dead there. */
int an_host_mention(const Program *p, int from, int to, const char *name, bool stop_at_assignment);

/* access.c: the box of array `a` for a user clause item, or from the
 * accesses.  Also used for data/update directives on the host. */
bool an_item_box(IrRoutine *r, IrSym *a, const DirItem *item, IrLang lang, IrExpr **lo, IrExpr **hi);

/* access.c: print a box like `t(its-1:ite+1,kts:kte)` or `a[0:n]`. */
void an_box_text(const IrSym *a, IrExpr *const *lo, IrExpr *const *hi, IrLang lang, char *buf,
                 size_t size);

/* A reference as the user wrote it: `b(i,j-1)` or `b[j-1][i]` (arena). */
const char *an_ref_text(const IrExpr *ref, IrLang lang);

/* Print an IR expression as source text (Fortran or C spelling), folded
 * where it is affine. */
void an_expr_text(const IrExpr *e, IrLang lang, char *buf, size_t size);

/* Print hi - lo + 1, folded: the number of elements from lo to hi. */
void an_extent_text(const IrExpr *lo, const IrExpr *hi, char *buf, size_t size);

#endif
