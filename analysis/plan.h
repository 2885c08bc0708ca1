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
 *   module_vars[] module variables the region uses, and how each reaches the
 *               kernels (by value, constant memory, data clause, privatized).
 *
 * The storage pass (transforms/storage.c, after the mapping) then decides
 * where each array lives (ArrayPlan.storage), which privatized arrays each
 * kernel keeps per thread, and the ordered parameter lists of the kernels
 * (KernelPlan.params) and of the region's launcher (RegionPlan.launcher);
 * the emitters print those lists and decide nothing about them.
 */
#ifndef S2S_PLAN_H
#define S2S_PLAN_H

#include "dep.h"
#include "ir.h"

/* Where an array lives while the region runs. */
typedef enum ArrayStorage {
  ARRAY_DEVICE,         /* a device copy made by its data clause; kernels get its address */
  ARRAY_REGISTER,       /* privatized with no dimension left: one variable per thread */
  ARRAY_THREAD_LOCAL,   /* privatized, few elements known at translation time: an array
                           per thread (registers or local memory) */
  ARRAY_SCRATCH_SLICE,  /* privatized, size known at run time (or too big for a thread):
                           an interleaved slice per thread of device scratch memory */
  ARRAY_CONSTANT,       /* a small read-only module array (ArrayPlan.constant_memory): a
                           __constant__ copy of the whole array, written before the launches */
} ArrayStorage;

/* What one parameter of a kernel or of a host-callable function carries. */
typedef enum ParamRole {
  PARAM_ARRAY,          /* an array's elements: the device copy (kernel), the user's array (host) */
  PARAM_SCRATCH_BASE,   /* kernel: the scratch memory holding a privatized array's slices */
  PARAM_LOWER_BOUND,    /* kernel: declared lower bound of dimension `dim` of array `sym` */
  PARAM_EXTENT,         /* kernel: declared extent of dimension `dim` (every one but the last) */
  PARAM_SCALAR,         /* a scalar the region reads and never writes */
  PARAM_FIRSTPRIVATE,   /* kernel: the host's value of a private scalar that starts from it */
  PARAM_TRIP,           /* kernel: trip count along grid axis `dim` (0 = x, 1 = y, 2 = z) */
  PARAM_REDUCTION,      /* a scalar reduced on the GPU (ReductionPlan): kernel, the device
                           accumulator its threads combine into; launcher, the user's
                           scalar by reference, read for the starting value and written back */
  PARAM_HOST_LBOUND,    /* host, Fortran: lbound(array, dim+1); `sym` is the front end's
                           hidden scalar for that bound (IrSym.bound_of names the array) */
  PARAM_HOST_UBOUND,    /* host, Fortran: ubound(array, dim+1), likewise */
  PARAM_BOX_LOWER,      /* kernel: the lower end of dimension `dim` of the box of array
                           `sym` (its elements on the device), for a tile's load (smem.c) */
  PARAM_BOX_UPPER,      /* kernel: the upper end, likewise */
} ParamRole;

/* One parameter, with how it is passed. */
typedef struct Param {
  ParamRole role;
  IrSym *sym;           /* the array or scalar; NULL for PARAM_TRIP */
  int dim;              /* bounds, extents: 0-based dimension in IR order; PARAM_TRIP: axis */
  const char *ctype;    /* C type of the value, or of the elements pointed to ("double", "long") */
  bool by_reference;    /* an address is passed */
  bool read_only;       /* by_reference: the callee never writes through it (const) */
  bool no_alias;        /* kernel address that no other parameter aliases (__restrict__) */
} Param;

/* Parameters in calling order (arena memory). */
typedef struct ParamList {
  int n, cap;
  Param *v;
} ParamList;

typedef struct ArrayPlan {
  IrSym *sym;
  DirClauseKind clause;      /* DIR_COPYIN .. DIR_PRESENT */
  bool user_clause;          /* written by the user (else inferred) */
  int clause_line;           /* user line of the clause or of the region */
  bool read, written;
  const char *clause_warning; /* a user clause that contradicts the code, or NULL */
  const char *clause_superseded; /* an `!$acc` copyout made copy: why, or NULL */
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
  /* A module array the region only reads, whose whole shape is known at
   * translation time and small, and whose every subscript is the same for
   * every thread as far as the accesses pass can tell (an_module_data_place):
   * copied whole to constant memory, with no data clause.  constant_bytes:
   * its size. */
  bool constant_memory;
  long constant_bytes;
  bool constant_demoted;     /* the storage pass found a thread reading its own element (a
                                subscript follows a loop on the grid): a data clause after all */
  ArrayStorage storage;      /* decided by the storage pass */
} ArrayPlan;

/* How a module variable the region uses reaches the kernels (Fortran;
 * an_module_data_place decides, analysis/access.h). */
typedef enum ModulePlace {
  MODULE_BY_VALUE,      /* a scalar the region only reads: a kernel parameter, by value */
  MODULE_CONSTANT,      /* a small read-only array read alike by every thread: __constant__ */
  MODULE_DATA_CLAUSE,   /* an array moved by its data clause, like any array */
  MODULE_REFUSED,       /* a scalar written in the region: an error at the write.  Not
                           privatized: any routine of the program may read it after the
                           region, which with a copy per thread would see the old value */
} ModulePlace;

typedef struct ModuleVarPlan {
  IrSym *sym;
  const char *module;        /* the module's name, or NULL when no module of the program
                                lists the symbol */
  ModulePlace place;
} ModuleVarPlan;

/* A named constant (PARAMETER, C const scalar) the generated code declares
 * by its name rather than folding its value: `name` is the C++ name the
 * emitter prints (the user's, unless another symbol of the region has it). */
typedef struct NamedConst {
  IrSym *sym;
  const char *name;
} NamedConst;

/* How a statement updates a scalar (xf_reduction_update, column.h).  The
 * first three are combined on the GPU; the others only name what a
 * refusal is about. */
typedef enum ReduceOp {
  REDUCE_NONE,          /* not an update of the scalar by itself */
  REDUCE_SUM,           /* s = s + e, s = e + s, s = s - e */
  REDUCE_MAX,           /* s = max(s, e...), if (s < e) s = e */
  REDUCE_MIN,           /* s = min(s, e...), if (s > e) s = e */
  REDUCE_PRODUCT,       /* s = s * e: refused */
  REDUCE_LOGICAL,       /* s = s .and. e, s = s .or. e: refused */
} ReduceOp;

/* A scalar accumulated over the loops of the region (pass "accesses",
 * plan_reductions in map.c).  `gpu`: every assignment to it is an update
 * with one operator (+, max or min) inside loops, or one initial value
 * `s = e0` at the top of the region before them, with e0 computed from
 * values the launcher has; and it is read only by those updates and by
 * statements of the region after the last of them.  Then each thread keeps
 * a partial result, the partials are combined on the GPU into a device
 * accumulator that starts from e0 (the init statement leaves the region
 * body) or from the host's value, and the result goes back to the host
 * scalar; statements that read it later run in a kernel of their own,
 * passed the result by value (through the host).  Otherwise `why_not` says
 * why, for the refusal that the scalar then meets (column.c). */
typedef struct ReductionPlan {
  IrSym *sym;
  ReduceOp op;
  bool gpu;
  const char *why_not;       /* !gpu: the reason, for messages */
  Loc why_at;
  IrStmt *init;              /* the initial assignment, removed from the region, or NULL */
  IrStmt **updates;          /* the update statements (assignments, or IFs of the IF form) */
  int nupdates;
  bool read_after;           /* statements of the region read the result */
  int first_read_line;       /* the first of them */
  int kernel;                /* pass "map": the last kernel that updates it (-1: none yet) */
} ReductionPlan;

/* Pass "smem" (transforms/smem.c): a read-only array whose every read in
 * the kernel is A(.., ix + cx, .., iy + cy, ..) with ix, iy the loop indices
 * on grid axes x and y, cx, cy constants, and the other subscripts the same
 * in every read and for every thread of a z slice of the block.  Each block
 * loads the (bx + xhi - xlo) x (by + yhi - ylo) elements its threads read
 * per z slice into shared memory; the reads take them from there. */
typedef struct SmemTile {
  IrSym *sym;
  int dx, dy;                /* the dimensions subscripted by ix and iy */
  IrSym *ix, *iy;
  long xlo, xhi, ylo, yhi;   /* the range of cx and of cy */
  IrExpr *first;             /* one read: its other subscripts are the load's */
  int nreads;
  IrExpr **reads;            /* every read (IR_E_ELEM nodes of the thread body) */
  long *cx, *cy;             /* parallel to reads: the offsets */
  int noffsets;              /* distinct (cx, cy) */
} SmemTile;

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
  bool block_fixed;          /* the user chose it (vector(n)): S2S_TUNE leaves it */
  IrStmtList *body;          /* statements inside the innermost mapped loop */
  int nfirstprivate;
  IrSym **firstprivate;      /* privates that start from the host's value (or, for a
                                reduction's result, from the value the launcher got back) */
  int nreductions;
  ReductionPlan **reductions; /* pass "map": the GPU reductions this kernel updates */
  /* Decided by the storage pass: */
  int nprivate_arrays;
  ArrayPlan **private_arrays; /* privatized arrays the body uses, in region order */
  ParamList params;          /* the __global__ function's parameters, in order */
  /* passes "contract" and "kcache": the scalars they introduced (of the
   * routine, with no host variable), declared at the top of the kernel */
  int nlocals, locals_cap;
  IrSym **locals;
  const char **local_notes;  /* parallel to locals: what each is (a comment where declared) */
  /* pass "smem": the arrays staged in shared memory */
  int ntiles;
  SmemTile *tiles;
  /* pass "coarsen": points of the loop on grid axis y that each thread
   * computes, one after the other (0 or 1: one; the grid's y extent is the
   * trip count divided by it, rounded up) */
  int coarsen;
  /* pass "map": report_count() at its "Accelerator kernel generated" line,
   * which pass coarsen rewrites with the grid the launcher uses */
  int report_line;
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
  const IrStmt *lost_scalar_at; /* pass "group": a statement that must start a kernel that a
                                   scalar assigned before it would not reach (reported once) */
  int narrays, arrays_cap;
  ArrayPlan *arrays;
  int ninputs;
  IrSym **inputs;
  int nprivates;
  IrSym **privates;
  int nparams;
  IrSym **params;
  /* pass "accesses": the scalars updated like reductions, GPU ones and
   * refused ones (ReductionPlan) */
  int nreductions;
  ReductionPlan *reductions;
  /* pass "accesses" (Fortran): the module variables the region uses (not
   * the hidden bound scalars of module allocatables), in the order of
   * first use, with where each goes */
  int nmodule_vars;
  ModuleVarPlan *module_vars;
  /* Decided by the storage pass: the named constants of params and those
   * their values use, each after the ones it uses (the order of the
   * declarations), with their C++ names. */
  int nconsts;
  NamedConst *consts;
  /* Decided by the storage pass: the parameters of the region's extern "C"
   * launcher, the ABI both the .cu definition and the host's interface block
   * or prototype declare. */
  bool storage_planned;
  ParamList launcher;
} RegionPlan;

#endif
