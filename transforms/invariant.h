/* invariant.h — scalars that hold one value throughout a region (pass
 * "invariant", transforms/invariant.c). */
#ifndef S2S_INVARIANT_H
#define S2S_INVARIANT_H

#include "ir.h"

/* In every region of p, replace the reads of each scalar that holds one
 * region-invariant value wherever it is read (`l = ite`, `nlev = ite -
 * its + 1`) by that value, and report it.  Never fails. */
bool xf_region_invariants(Program *p);

#endif
