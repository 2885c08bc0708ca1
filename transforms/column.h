/* column.h — one thread per column: which loop indices can be spread over
 * the grid with every column's statements kept in their original order,
 * and the thread body that results (see column.c for the argument). */
#ifndef S2S_COLUMN_H
#define S2S_COLUMN_H

#include "dep.h"
#include "plan.h"

typedef struct ColumnCtx {
  int file;                 /* for report locations */
  IrLang lang;              /* for the spelling of references in messages */
  const char *routine;      /* for the report */
  IrSym **written;          /* scalars assigned in the region, loop indices included */
  int nwritten;
  IrSym **private_arrays;   /* arrays each thread has its own copy of: they do */
  int nprivate_arrays;      /* not tie columns together */
  const RegionPlan *plan;   /* for why an array is not private (NULL: no reasons) */
  /* The accesses of a statement list as dep_collect gives them (xmalloc'd,
   * dep_free releases), answered from an analysis already made (the
   * region's access list, map.c); NULL: collect them here. */
  void (*accesses)(const void *ctx, const IrStmtList *stmts, DepGraph *out);
  const void *accesses_ctx;
} ColumnCtx;

/* The first write in g to an array not in priv[] whose subscripts do not
 * mention v: every iteration over v stores the same elements, so no
 * `independent` can make those iterations run in parallel.  NULL: none. */
const Access *xf_shared_write(const DepGraph *g, const IrSym *v, IrSym *const *priv, int npriv);

/* Why `independent` on loops over v cannot be followed because of the
 * shared write w (for messages): "every iteration writes dm(k) at line 13,
 * ... it cannot be kept per thread: REASON". */
const char *xf_shared_write_text(const ColumnCtx *cx, const IrSym *v, const Access *w);

/* Can loop index v be a column index of stmts (g: their accesses, as
 * dep_collect or dep_build leaves them)?  If not, *why and *where say
 * why, for the report. */
bool column_index(const ColumnCtx *cx, IrStmtList *stmts, const DepGraph *g, IrSym *v,
                  const char **why, Loc *where);
/* ... and, when it cannot, whether the first reason is a dependence
 * between iterations of v (what a kernel boundary can resolve) rather than
 * the shape of the code. */
bool column_index_why(const ColumnCtx *cx, IrStmtList *stmts, const DepGraph *g, IrSym *v,
                      const char **why, Loc *where, bool *by_dependence);

/* All column indices of stmts (at most 3), outermost loops' first. */
int column_indices(const ColumnCtx *cx, IrStmtList *stmts, IrSym **out);

/* The column indices of a run of statements that grows one statement at a
 * time (split_groups), each question answered in time proportional to the
 * statement it adds, with the answers of column_indices.  A scope holds
 * what the runs of one statement list share (the facts of each
 * statement); it must outlive them.  Runs live in the IR arena. */
typedef struct ColumnScope ColumnScope;
typedef struct ColumnRun ColumnRun;

ColumnScope *column_scope_new(const ColumnCtx *cx);
void column_scope_free(ColumnScope *sc);
ColumnRun *column_run_new(ColumnScope *sc);
void column_run_push(ColumnRun *r, IrStmt *s);

/* column_indices of the run's statements plus `extra` (NULL: none),
 * without adding it. */
int column_run_indices(ColumnRun *r, IrStmt *extra, IrSym **out);

/* How many references of the run have v at unit stride in their fastest
 * dimension (what pick_x compares). */
int column_run_stride1(ColumnRun *r, IrSym *v);

/* Does the run access array a? */
bool column_run_mentions(const ColumnRun *r, const IrSym *a);

/* The range a column index covers: the union of its loops' ranges. */
typedef struct ColumnRange {
  IrSym *iv;
  IrExpr *lo, *hi;          /* first and last value, lo <= hi when the loops run */
} ColumnRange;

/* Fill r->lo/hi for r->iv from the loops over it; returns its first loop. */
IrStmt *column_range(IrStmtList *stmts, ColumnRange *r);

/* The thread body: stmts with every loop over a column index replaced by
 * its body (guarded when its range is not the whole column range). */
void columnize(const ColumnRange *ranges, int nranges, IrStmtList *in, IrStmtList *out);

/* Fuse adjacent sequential loops of a thread body (same index and bounds)
 * where no dependence would run backwards; report each decision. */
void column_fuse(const ColumnCtx *cx, IrStmtList *body);

/* Report the interchanges and fusions that making c the column indices
 * of stmts amounts to. */
void column_report(const ColumnCtx *cx, IrStmtList *stmts, IrSym *const *c, int nc);

/* How statement t updates scalar s as one step of a reduction (plan.h:
 * ReduceOp): `s = s + e`, `s = s - e`, `s = max(s, e)`, `s = min(s, e)`,
 * `if (s < e) s = e` (either way round), with e not mentioning s; a product
 * or a logical operator is named so that refusals can say so.  REDUCE_NONE:
 * not such an update. */
ReduceOp xf_reduction_update(const IrStmt *t, const IrSym *s);

/* "+", "max", "min", "*", "logical": the operator as reports spell it. */
const char *xf_reduce_op_text(ReduceOp op);

/* The reduction plan of scalar s in p (GPU or refused), or NULL. */
const ReductionPlan *xf_reduction_of(const RegionPlan *p, const IrSym *s);

/* The first read in l of one of vars that may come before the variable is
 * assigned (`assigned` are assigned on entry), or NULL. */
IrExpr *xf_first_exposed(IrStmtList *l, IrSym *const *vars, int nvars, IrSym *const *assigned,
                         int nassigned);

#endif
