/* normalize.h — Fortran array syntax expanded into loops (pass "normalize"),
 * and the two decisions it rests on, exposed for the unit tests. */
#ifndef S2S_NORMALIZE_H
#define S2S_NORMALIZE_H

#include "ir.h"

/* Pass "normalize": in every region and every routine body the front end
 * lowered (the callees of inlining), replace each array assignment, WHERE
 * and reduction over array syntax by DO loops, IF statements and scalar
 * temporaries, so that no later pass sees an IR_E_SECTION, an IR_S_WHERE
 * or a reduction intrinsic.  What cannot be expanded with a proven result
 * (extents not provably equal, overlap of the left side with the right in
 * no safe loop order, array-valued function references, ...) is refused
 * with the reason.  False on a refusal (reported). */
bool xf_normalize_program(Program *p);

/* Do triplets a and b provably select as many elements?  Both strides
 * must be constants: the extents are then compared as constants, or as
 * the same affine distance hi-lo under the same stride. */
bool xf_same_extent(const IrTriplet *a, const IrTriplet *b);

/* The order the loops of an array assignment must run in so that the read
 * `ref` of the array its left side `lhs` (an IR_E_SECTION) writes sees
 * only values from before the assignment (Fortran evaluates the whole
 * right side first).  The loops are the ranges of lhs, fastest first, the
 * last one outermost. */
typedef enum XfOrder {
  XF_ORDER_ANY,          /* the read never sees a stored element: any order */
  XF_ORDER_ASCENDING,    /* loop `loop` must run upwards through the section */
  XF_ORDER_DESCENDING,   /* ... downwards */
  XF_ORDER_UNKNOWN,      /* no order is proven safe: refuse */
} XfOrder;

/* ref: an IR_E_SECTION or IR_E_ELEM of lhs's array, conformable with lhs.
 * *loop is set for ASCENDING and DESCENDING. */
XfOrder xf_read_order(const IrExpr *lhs, const IrExpr *ref, int *loop);

#endif
