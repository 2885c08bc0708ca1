/* delinearize.h — flat C arrays indexed as multi-dimensional ones.
 *
 * C codes often keep a 3-D field in a flat array behind an index macro:
 * `flux[((k)*nj + (j))*ni + (i)]` or `u[i + ni*(j + nj*k)]`.  Such a
 * subscript is one polynomial in the loop indices whose coefficients are
 * products of loop-invariant extents; the dependence tests, the column
 * detection and the data clauses all want the access as flux[k][j][i] of a
 * [][nj][ni] array instead.  Pass "delinearize" (C only, before any
 * analysis) recovers that form, the way LLVM's delinearization does:
 *
 *   1. the candidate extents are the loop-invariant operands of the
 *      products in the array's subscripts that multiply something varying
 *      (`nj` and `ni` above; a product of invariants such as `nj*ni`
 *      counts as its factors; constants only where no subscript has a
 *      symbolic one);
 *   2. for an order of (some of) the candidates, fastest first, every
 *      subscript is divided by the extents in turn as a polynomial:
 *      P = r0 + E0*(r1 + E1*(r2 + ...)), which is an identity, so the
 *      flat element is the same;
 *   3. the order is taken only when every remainder r_d provably lies in
 *      [0, E_d-1] over the loops around its reference (the ranges nest):
 *      then distinct index tuples are distinct elements and the analyses
 *      may reason per dimension.  Else the array is left flat, with a note
 *      saying why, and the analyses see the flat subscripts as before.
 *
 * All the references of an array in all the regions of its routine share
 * one shape (the IrSym is the routine's), so the array becomes rank m+1
 * with lo 0, hi E_d-1 and an unknown slowest extent, exactly as a
 * parameter `float (*flux)[nj][ni]` would be; the kernels index the same
 * flat memory.  A data clause keeps naming the flat range
 * (`copyin(flux[0:nk*nj*ni])`): it is read as whole steps of the slowest
 * index (dl_flat_item_box).
 */
#ifndef S2S_DELINEARIZE_H
#define S2S_DELINEARIZE_H

#include <stdbool.h>
#include <stddef.h>
#include "ir.h"

/* Pass "delinearize": every rank-1 C array of unknown size (a pointer or
 * `[]` parameter, a pointer variable) used in a region with linearized
 * subscripts.  Records an info line per array delinearized and a note per
 * array refused; never fails (returns true). */
bool xf_delinearize_program(Program *p);

/* The decision for one array of one routine, for the unit tests and the
 * pass: delinearize `sym` if its references in the regions of r allow it.
 * Returns true when it was rewritten; false with *why (an arena string,
 * NULL when the subscripts are not linearized at all) otherwise. */
bool dl_delinearize_array(IrRoutine *r, IrSym *sym, const char **why);

/* The box lo..hi of a delinearized array as the flat range the user
 * indexes, `flux[0:nk*nj*ni]`, when the box spans every faster dimension
 * whole (it then is one contiguous range); false otherwise (print the box
 * per dimension). */
bool dl_flat_box_text(const IrSym *a, IrExpr *const *lo, IrExpr *const *hi, char *buf,
                      size_t size);

/* The shape of a delinearized array as C declares it: "[][nj][ni]". */
void dl_shape_text(const IrSym *a, char *buf, size_t size);

/* A clause's flat range `a[start:len]` of a delinearized array as its
 * box: every faster dimension whole, the slowest from start/P for len/P
 * steps (P the product of the faster extents).  False with *why when start
 * or len is not provably a multiple of P. */
bool dl_flat_item_box(const IrSym *a, const IrExpr *start, const IrExpr *len, IrExpr **lo,
                      IrExpr **hi, const char **why);

#endif
