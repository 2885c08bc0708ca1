/* verify.h — the IR's invariants, checked between passes.
 *
 * Every pass relies on what the passes before it guarantee: each node
 * carries the location its messages point at, an array element has one
 * subscript per dimension, no array syntax is left once it is expanded into
 * loops, no call is left in a region once inlining ran,
 * a DO loop's index changes only through its loop, every symbol an
 * expression names is one its routine can see, and the plan's fields agree
 * with each other and with the IR.  ir_verify checks all of these after a
 * pass, so that a pass that breaks one is caught where it did so, not
 * several passes later as a wrong kernel.
 *
 * The driver calls it after every pass in debug and sanitizer builds
 * (configure defines S2S_VERIFY_IR) and when S2S_VERIFY_IR=1 is set in the
 * environment.  It reads the IR only: it prints nothing and changes nothing.
 */
#ifndef S2S_VERIFY_H
#define S2S_VERIFY_H

#include <stddef.h>
#include "ir.h"

/* How far the pipeline has come: each stage adds invariants to the ones
 * before it. */
typedef enum IrStage {
  IR_STAGE_PARSED,   /* after the front end: locations, ranks, loops, scopes */
  IR_STAGE_NORMALIZED, /* after pass "normalize": also no array syntax (sections, WHERE,
                          reductions) anywhere */
  IR_STAGE_INLINED,  /* after inlining: also no IR_S_CALL inside a region */
  IR_STAGE_PLANNED,  /* after planning: also every region's RegionPlan (plan.h) */
} IrStage;

/* Check p's invariants for `stage`.  Returns the number of violations; the
 * first one is described in why (NUL-terminated, truncated to `size`
 * bytes; left untouched when there is none) as
 * "file:line:col: loop index 'i' is assigned inside its loop". */
int ir_verify(const Program *p, IrStage stage, char *why, size_t size);

#endif
