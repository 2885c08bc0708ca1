/* transforms.h — the passes between the front ends and the emitters.
 *
 * xf_plan_program runs, for every region of the program, the inlining of
 * called routines (inline.h), the analyses (analysis/), the restructuring
 * into column kernels (column.h) and the mapping of loops to the CUDA grid
 * (map.c): it decides which
 * loop nests become kernels, which loops are parallel, which loop goes to
 * threadIdx.x, the block shape, the data clause of every array and its
 * sub-array, and which scalars are private; last, the storage pass
 * (storage.h) decides where each array lives and the parameter lists.
 * The result hangs off IrRegion.analysis as a RegionPlan (analysis/plan.h).  Every decision and
 * refusal is recorded in the feedback report.  Returns false when a region
 * cannot be translated (an error has been reported: the driver writes no
 * output).
 */
#ifndef S2S_TRANSFORMS_H
#define S2S_TRANSFORMS_H

#include "ir.h"

bool xf_plan_program(Program *p);

/* --dump-ir=plan: the IR, then per region its plan and dependence graph. */
void xf_dump_plan(const Program *p, void *file);

#endif
