/* transforms.h — the passes between the front ends and the emitters.
 *
 * The pass table (translator/pipeline.c) runs them in order; this
 * header is their interface.  After the program passes that expand array
 * syntax into loops (normalize.h) and inline calls (inline.h), the region
 * passes plan each region in turn, filling its
 * RegionPlan (analysis/plan.h, hung off IrRegion.analysis):
 *
 *   accesses   data clauses, boxes, private scalars, privatizable arrays,
 *              and the region's access list, kept for the later passes
 *              (analysis/access.c)
 *   group      the kernels (runs of the region's statements; column.c says
 *              which loop indices can be spread over the grid for each)
 *              and the arrays privatized per thread, settled together
 *   recompute  a producer nest of a work array left in device memory
 *              inlined into the nests that read it at neighbouring points,
 *              where legal and cheap; then accesses and group again
 *              (recompute.c)
 *
 * then, for each kernel in turn, the kernel passes:
 *
 *   columnize  the thread body: the loops over column indices replaced by
 *              their bodies (column.c)
 *   fuse       adjacent sequential loops of the thread body fused where
 *              legal (column.c)
 *   contract   work arrays kept per thread that one loop uses a level at a
 *              time become scalars (contract.c)
 *   map        the loops on the grid, the block shape, firstprivate
 *              scalars; or the refusal, naming the dependence (map.c)
 *   kcache     values a sequential loop reads at neighbouring iterations
 *              kept in registers: recurrences and windows along k (kcache.c)
 *   smem       read-only arrays read at several constant offsets around the
 *              thread's (i, j) staged per block in shared memory (smem.c)
 *   coarsen    each thread computes several consecutive iterations of the
 *              loop on grid axis y, which share loads (coarsen.c)
 *
 * and last the region pass "storage" (storage.h): where each array lives
 * and the parameter lists of the kernels and the launcher.
 *
 * Every decision and refusal is recorded in the feedback report.  A pass
 * returns false when the region cannot be translated (an error has been
 * reported): its remaining passes are skipped, the other regions are still
 * planned, and the driver writes no output.
 */
#ifndef S2S_TRANSFORMS_H
#define S2S_TRANSFORMS_H

#include <stdio.h>
#include "ir.h"

/* Which optional transforms run (command-line options, set once before
 * the passes; S2S_RECOMPUTE=0 and S2S_KCACHE=0 in the environment turn
 * them off too). */
typedef struct XfConfig {
  bool recompute;      /* pass "recompute" (-Mnorecompute: off) */
  bool kcache;         /* pass "kcache" (-Mnokcache: off) */
  bool smem;           /* pass "smem" (-Msmem or S2S_SMEM=1: on; off by default, S2S_SMEM=0 too) */
  bool contract;       /* pass "contract" (-Mnocontract: off) */
  int coarsen;         /* pass "coarsen": 0 the cost rule decides (the default), 1 off
                          (-Mnocoarsen), N > 1 N points per thread wherever legal
                          (-Mcoarsen=N); S2S_COARSEN=0|N in the environment overrides */
  bool assume_no_alias;/* -Msafeptr: C pointer and array parameters never overlap */
} XfConfig;
extern XfConfig xf_config;

/* May C parameter or struct member s be taken not to overlap any other
 * array: declared restrict (an array member of a restrict struct pointer
 * counts), or -Msafeptr given?  (Fortran dummies
 * never alias by the language rules; callers check the language.) */
bool xf_c_no_alias(const IrSym *s);

/* Every planning pass of the table (those between parse and emit-cuda),
 * on a parsed program: what the unit tests call.  Defined in
 * translator/pipeline.c, with the table. */
bool xf_plan_program(Program *p);

bool xf_pass_accesses(Program *p, IrRegion *g);
bool xf_pass_group(Program *p, IrRegion *g);
/* Work arrays the group pass left in device memory, of a stencil program,
 * computed where they are read instead; the region planned again when one
 * was (recompute.c). */
bool xf_pass_recompute(Program *p, IrRegion *g);

/* Kernel passes: `kernel` indexes the kernels the group pass made. */
int xf_kernel_count(const IrRegion *g);
bool xf_pass_columnize(Program *p, IrRegion *g, int kernel);
bool xf_pass_fuse(Program *p, IrRegion *g, int kernel);
/* Declare scalar s at the top of kernel k, with `note` as its comment (the
 * scalars passes contract and kcache introduce; amortized O(1)). */
struct KernelPlan;
/* Pass "advice" (advice.c): a note for each innermost host loop that runs
 * regions, with the data region that would keep their arrays on the
 * device across its iterations. */
void xf_advise_data(Program *p);
/* One report line per data clause of an `!$acc` / `#pragma acc` data,
 * enter data, exit data or update directive: what it moves, where, and
 * which regions of the routine find its arrays present. */
void xf_report_host_clauses(Program *p);

void xf_kernel_local(struct KernelPlan *k, IrSym *s, const char *note);

/* A work array kept per thread that one loop uses a level at a time made a
 * scalar (contract.c). */
bool xf_pass_contract(Program *p, IrRegion *g, int kernel);
bool xf_pass_map(Program *p, IrRegion *g, int kernel);
/* Values a sequential loop of a thread reads at neighbouring iterations
 * kept in registers (kcache.c). */
bool xf_pass_kcache(Program *p, IrRegion *g, int kernel);
/* Read-only arrays read around the thread's point staged in shared memory
 * per block (smem.c). */
bool xf_pass_smem(Program *p, IrRegion *g, int kernel);
/* Several consecutive iterations of the loop on grid axis y computed by
 * each thread, so that the loads they share issue once (coarsen.c). */
bool xf_pass_coarsen(Program *p, IrRegion *g, int kernel);
/* The grid of kernel k as the report prints it ("(ite-its+1)/128 x
 * jte-jts+1"), its y extent divided by k->coarsen (map.c). */
struct KernelPlan;
void xf_grid_text(const struct KernelPlan *k, char *text, size_t size);
/* The report's "Accelerator kernel generated" line of kernel k (pass map's)
 * again, with the grid it has now: pass coarsen's divided y extent (map.c). */
void xf_report_kernel_grid(const struct KernelPlan *k);
/* Bytes of tile t for a block of bx x by x bz threads: S2S_TILE_BYTES of
 * rt/s2s_rt.h, which the launcher and the kernel use. */
struct SmemTile;
long xf_tile_bytes(const struct SmemTile *t, int bx, int by, int bz);

/* --dump-ir=NAME after a region pass: the region's IR and the plan state
 * (arrays and their storage, scalars, kernels so far); kernel >= 0: after a
 * kernel pass, that kernel only (its statements, thread body, mapping). */
void xf_dump_region(const Program *p, const IrRegion *g, int kernel, FILE *f);

/* Collect g's access list again (plan->acc), after a pass that changed the
 * region's statements (Pass.invalidates in pipeline.c). */
void xf_recompute_accesses(Program *p, IrRegion *g);

#endif
