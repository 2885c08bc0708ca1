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

#endif
