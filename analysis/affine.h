/* affine.h — affine forms of integer expressions.
 *
 * A subscript such as `i-1`, `2*k+kts` or `i*m + j` (C linearized) is read
 * as   c + sum_t coef_t * var_t [* scale_t]
 * where each var is an integer scalar (a loop index or a region-invariant
 * scalar) and scale, when present, is a second integer scalar the term is
 * multiplied by (the symbolic row length of a linearized subscript).
 * Anything else (products of two loop indices, division, array elements,
 * function calls) is not affine: aff_build returns false and the analyses
 * answer "unknown".
 */
#ifndef S2S_AFFINE_H
#define S2S_AFFINE_H

#include "ir.h"

#define AFF_MAX_TERMS 8

typedef struct AffTerm {
  IrSym *var;
  IrSym *scale;   /* NULL: a constant coefficient only */
  long coef;
} AffTerm;

typedef struct Affine {
  int n;
  AffTerm t[AFF_MAX_TERMS];
  long c;
} Affine;

/* Read e as an affine form.  PARAMETERs with integer values count as
 * constants.  Returns false when e is not affine. */
bool aff_build(const IrExpr *e, Affine *out);

/* Add coef*var[*scale] to a, merging with an equal term.  False when a
 * has no room for another term. */
bool aff_add_term(Affine *a, IrSym *var, IrSym *scale, long coef);

/* The term of `var` in a (NULL if none). */
const AffTerm *aff_term(const Affine *a, const IrSym *var);

/* Are the two forms equal except for their constants? */
bool aff_same_terms(const Affine *a, const Affine *b);

/* Write a as C or Fortran source text, e.g. "i-1", "2*k+kts". */
void aff_print(const Affine *a, char *buf, size_t size);

/* out = a - b (terms that cancel are dropped). */
void aff_sub(const Affine *a, const Affine *b, Affine *out);

/* a += factor * b.  False when a has no room for b's terms. */
bool aff_combine(Affine *a, const Affine *b, long factor);

/* The coefficient of v in a (0 when absent); false when v appears in a
 * product term (as var or scale of a scaled term). */
bool aff_coef(const Affine *a, const IrSym *v, long *coef);

/* a with its term in v replaced by that multiple of `by`. */
bool aff_replace(Affine *a, IrSym *v, const Affine *by);

#endif
