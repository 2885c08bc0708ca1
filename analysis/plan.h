/* plan.h — everything the passes decide about one region, and what the
 * emitter reads.
 *
 * RegionPlan hangs off IrRegion.analysis.  The region passes of the
 * driver's pass table (translator/main.c; transforms/transforms.h) fill it
 * in order, each the fields marked with its name below: "accesses" (the
 * access list, data clauses, scalars), "group" (kernels and privatized
 * arrays), then per kernel "columnize", "fuse" and "map".  Analyses are
 * computed once and kept here; later passes query them.
 *
 *   kernels[]   in order; each maps up to three loops to the grid
 *               (mapped[0] outermost): the synthetic loops over its column
 *               indices around the thread body, or the perfectly nested,
 *               dependence-free outer loops of a single nest; the loops
 *               inside run sequentially in each thread.
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
  /* pass "group": the region's statements this kernel runs, in order, and
   * the loop indices whose iterations become threads (column indices,
   * column.c), 0 for a plain loop nest (mapped by its perfectly nested
   * dependence-free outer loops) */
  IrStmtList stmts;
  int ncolumns;
  IrSym *columns[3];
  bool has_loops;            /* stmts contain a loop */
  const char *split_note;    /* why the region splits before this kernel, or NULL */
  Loc split_at;
  DepGraph acc;              /* the accesses of stmts (dep_collect order); dependences
                                (acc.deps) are tested on first need: kernel_deps() */
  bool deps_tested;
  /* pass "columnize": the range of each column index, the first loop over
   * it, and the thread body (stmts with the column loops replaced by their
   * bodies); pass "fuse" fuses loops inside it */
  IrExpr *column_lo[3], *column_hi[3];
  IrStmt *column_loop[3];
  IrStmtList thread;
  /* pass "map" */
  IrStmt *nest;              /* outermost loop of the kernel */
  int nmapped;
  IrStmt *mapped[3];         /* outermost first */
  int axis[3];               /* grid axis of each mapped loop: 0 = x, 1 = y, 2 = z */
  int block[3];              /* threads per block along x, y, z */
  IrStmtList *body;          /* statements inside the innermost mapped loop */
  int nfirstprivate;
  IrSym **firstprivate;      /* privates that start from the host's value */
} KernelPlan;

typedef struct RegionPlan {
  /* pass "accesses": every array reference of the region body, in program
   * order, collected once (dep_collect); stmt_first[i] is the first access
   * of body statement i (stmt_first[body.n] == acc.nacc), so the accesses of
   * a run of body statements are a slice.  slices_exact is false when a
   * CYCLE or EXIT outside every loop of the region makes a slice differ
   * from collecting the run alone (then runs are collected). */
  DepGraph acc;
  int *stmt_first;
  struct BodyStmt *owner;    /* statement -> index of the body statement it lies in */
  bool slices_exact;
  /* pass "group": the arrays privatized per thread (ArrayPlan.privatized) */
  int nprivate_arrays;
  IrSym **private_arrays;
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

#endif
