/* storage.h — where each array of a region lives, and what its kernels and
 * its launcher are passed (see storage.c). */
#ifndef S2S_STORAGE_H
#define S2S_STORAGE_H

#include "plan.h"

/* A privatized array with more elements per thread than this lives in
 * device scratch memory rather than in the thread (registers or local
 * memory would spill). */
#define XF_THREAD_LOCAL_MAX_ELEMS 256

/* The storage pass: fill ArrayPlan.storage of every array of region g, and
 * each kernel's private_arrays and params, and the region's launcher
 * parameters, from the RegionPlan the mapping left in g->analysis.  A
 * region without a plan is left alone. */
void xf_plan_storage(const Program *p, IrRegion *g);

/* Where array a lives, from its privatization (privatized, column_dim,
 * private_elems). */
ArrayStorage xf_array_storage(const ArrayPlan *a);

/* The launcher ABI: parameter s of a host-callable function (a region's
 * launcher, a data or update function) in role PARAM_ARRAY or PARAM_SCALAR,
 * as the .cu definition and the host's interface block or prototype both
 * declare it.  Fortran passes everything by reference (scalars read only);
 * C passes arrays as the address of their first element and scalars by
 * value.  A front end's hidden bound scalar (IrSym.bound_of) becomes
 * PARAM_HOST_LBOUND or PARAM_HOST_UBOUND, a C int. */
Param xf_launcher_param(IrLang lang, ParamRole role, IrSym *s);

/* Append xf_launcher_param(lang, role, s) to l unless s is already in it. */
void xf_launcher_add(ParamList *l, IrLang lang, ParamRole role, IrSym *s);

/* For the dump after the storage pass: each array's storage, then the
 * parameters of each kernel and of the launcher, one per line.  Prints
 * nothing for a region the pass has not seen.  `file` is a FILE *. */
void xf_dump_storage(const IrRegion *g, void *file);

#endif
