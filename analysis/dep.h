/* dep.h — array accesses of a loop nest and the dependences between them.
 *
 * DepGraph is the one structure that holds the dependence results of a
 * region's loop nest (STYLE.md: isl/PPCG).  Fields:
 *
 *   acc[]   every array reference in the nest, in program order, with the
 *           loops that enclose it (outermost first), whether it writes,
 *           and whether it sits under an IF (a conditional access).
 *   deps[]  one entry per ordered pair of references to the same array of
 *           which at least one writes (a write also pairs with itself):
 *           kind (flow/anti/output by program order), and for each loop
 *           common to both references the dependence distance
 *           (iteration of dst minus iteration of src) when it is a known
 *           constant, or "any" when the tests cannot pin it.  Pairs that
 *           the tests prove independent are not listed.
 *
 * The tests are exact for the subscript shapes weather codes use: ZIV,
 * strong SIV (same coefficient on one index, the constant distance
 * follows), Banerjee's bounds test (weak SIV and MIV with constant loop
 * bounds) and the GCD test for everything else that is affine with
 * constant coefficients.  Subscripts that are not affine, or whose
 * invariant parts differ, give "any" for every loop: the honest answer
 * "unknown".
 */
#ifndef S2S_DEP_H
#define S2S_DEP_H

#include "ir.h"

#define DEP_MAX_DEPTH 16

typedef struct Access {
  IrExpr *ref;              /* IR_E_ELEM */
  IrStmt *stmt;             /* the statement containing it */
  bool write;
  bool conditional;         /* may not run in every iteration of its loops: under an IF
                               inside the nest, after a CYCLE that can skip it, or in a
                               loop that an EXIT can end early */
  const IrStmt *guard;      /* the innermost IF, CYCLE or EXIT that makes it conditional */
  int cond_depth;           /* how many of those there are around it (0: unconditional) */
  int nloops;
  IrStmt *loops[DEP_MAX_DEPTH]; /* enclosing IR_S_DO, outermost first */
} Access;

typedef enum DepKind { DEP_FLOW, DEP_ANTI, DEP_OUTPUT } DepKind;

typedef struct Dep {
  int src, dst;             /* indices into acc[], src first in program order */
  DepKind kind;
  int ncommon;              /* loops enclosing both: acc[src].loops[0..ncommon) */
  bool known[DEP_MAX_DEPTH];/* distance along common loop l is a constant ... */
  long dist[DEP_MAX_DEPTH]; /* ... this one */
  bool affine;              /* false: some subscript was not affine ("unknown") */
} Dep;

typedef struct DepGraph {
  /* input: scalars assigned inside the nest (not loop indices); a subscript
   * that uses one is not region-invariant, so the tests answer "unknown" */
  int nvariant;
  IrSym **variant;
  int nacc;
  Access *acc;              /* xmalloc'd; dep_free releases */
  int ndeps;
  Dep *deps;
} DepGraph;

/* Work done, for S2S_STATS=1 (pipeline.c): access lists collected (walks
 * of the IR: dep_collect, dep_collect_in), dependence graphs built
 * (dep_test, also inside dep_build and dep_within) and pairs of accesses
 * tested (there and dep_pair). */
typedef struct DepStats {
  long collected, graphs, pairs;
} DepStats;
extern DepStats dep_stats;

/* The analyses and transforms keep the loops around a statement in arrays
 * of DEP_MAX_DEPTH: check, before any of them runs, that no loop of `body`
 * is nested deeper; if one is, report it (the first such loop) and return
 * false. */
bool dep_check_depth(IrStmtList *body);

/* Collect the accesses of `body` and test every pair.  g->variant and
 * g->nvariant must be set by the caller; the rest is filled here. */
void dep_build(IrStmtList *body, DepGraph *g);

/* Only collect the accesses of `body` (acc[], as dep_build fills it; no
 * deps): for the questions that need no pair tests, at linear cost. */
void dep_collect(IrStmtList *body, DepGraph *g);

/* The accesses of `body` as if it were the body of `loop` (the outermost
 * of their loops): what dep_collect of that loop gives, less the loop's
 * own bounds. */
void dep_collect_in(IrStmtList *body, IrStmt *loop, DepGraph *g);

/* Test every pair of g->acc (as dep_collect left it, or a part of it) and
 * fill deps[]: dep_build is dep_collect then dep_test. */
void dep_test(DepGraph *g);

/* The dependence between g->acc[ia] and g->acc[ib] (ia first in program
 * order, one of them writes), as dep_build lists it: false if the tests
 * prove them independent. */
bool dep_pair(const DepGraph *g, int ia, int ib, Dep *out);

/* The graph of the accesses of `all` that lie inside `loop`, in their
 * order: every dependence of `all` that loop can carry (dep_crosses) is
 * here, in the same order, at the cost of the loop's own accesses.  The
 * indices in deps[] are into this graph's acc[]. */
void dep_within(const DepGraph *all, const IrStmt *loop, DepGraph *g);

/* The accesses of g grouped by array: a uthash table keyed by the array's
 * symbol, iterated (HASH_ITER) in the order of each array's first access;
 * idx[] lists its accesses in program order.  dep_arrays_free releases. */
typedef struct DepArray {
  const IrSym *sym;
  int n, cap;
  int *idx;                 /* indices into acc[] */
  bool written;             /* one of them writes */
  UT_hash_handle hh;
} DepArray;

DepArray *dep_arrays(const DepGraph *g);
DepArray *dep_array(DepArray *table, const IrSym *sym);   /* NULL: no access */
void dep_arrays_free(DepArray *table);

/* The accesses of `all` to one array, in order (acc[] only): for the
 * questions about that array, which then cost its accesses, not all.
 * by_array is dep_arrays(all). */
void dep_array_graph(const DepGraph *all, DepArray *by_array, const IrSym *sym, DepGraph *g);
void dep_free(DepGraph *g);

/* Index of loop `loop` among the common loops of d, or -1. */
int dep_loop_level(const DepGraph *g, const Dep *d, const IrStmt *loop);

/* Can dependence d relate two different iterations of `loop`?
 * (its distance along the loop is unknown or nonzero) */
bool dep_crosses(const DepGraph *g, const Dep *d, const IrStmt *loop);

const char *dep_kind_name(DepKind k); /* "flow", "anti", "output" */

/* Describe d for messages: "'a' (flow, distance (0,1) along j,k)" */
void dep_describe(const DepGraph *g, const Dep *d, char *buf, size_t size);

/* Print the whole graph (--dump-ir=plan). */
void dep_dump(const DepGraph *g, void *file);

#endif
