/* tripcount.h — sub-stepping loops to a per-column count (pass "tripcount",
 * transforms/tripcount.c). */
#ifndef S2S_TRIPCOUNT_H
#define S2S_TRIPCOUNT_H

#include "ir.h"

/* In every region of p, rewrite each loop `do n = 1, mstepmax` whose body
 * runs only under `n <= mstep(i)` in loops over i, after mstepmax was
 * computed as the maximum of mstep over those columns, into
 * `do i / do n = 1, mstep(i)`, when that is legal; report each.  Never
 * fails: what is not rewritten is left as it was. */
bool xf_per_column_tripcounts(Program *p);

#endif
