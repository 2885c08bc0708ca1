/* present.h — present() of optional dummies: deciding it, and the kernel
 * variants of a region that tests it. */
#ifndef S2S_PRESENT_H
#define S2S_PRESENT_H

#include "ir.h"

/* How many optional dummies one region may test with present(): one
 * kernel variant per combination of present and absent, so 2^3 at most. */
enum { XF_MAX_PRESENCE_TESTS = 3 };

/* Whether optional dummy `dummy` is present: 1, 0, or -1 when the caller
 * does not know. */
typedef int (*XfPresence)(const IrSym *dummy, void *ctx);

/* The value of logical expression e made of present() tests, .not.,
 * .and., .or., .eqv., .neqv. and logical constants, with presence decided
 * by `decide`: 1, 0, or -1 when it depends on anything else (an undecided
 * test, a variable, a comparison).  Short-circuit: `.false. .and. x` is 0
 * whatever x is. */
int xf_fold_presence(const IrExpr *e, XfPresence decide, void *ctx);

/* Pass "present": each region whose body tests present() of optional
 * dummies of its own routine becomes 2^n regions (n of those dummies, at
 * most XF_MAX_PRESENCE_TESTS), <routine>_r<N>_v1 .. _v<2^n>, in that order
 * in the routine's region list: each a copy of the body with the tests
 * decided, the untaken branches dropped, and the data clauses that name an
 * absent dummy left out (IrRegion.variant says which combination).  Refused
 * (reported) with more dummies, or when a variant would still use a dummy
 * it takes as absent.  False on a refusal. */
bool xf_present_variants(Program *p);

/* "qr present and qs absent": the combination variant v stands for (arena
 * text). */
const char *xf_variant_text(const IrVariant *v);

/* The report's line for the variants of a region (v: any of them):
 * "Kernel variants for present(qs): 2 (qs present, qs absent)". */
const char *xf_variants_summary(const IrVariant *v);

#endif
