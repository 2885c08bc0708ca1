/* inline.h — calls and function references inside regions replaced by the called routine's body. */
#ifndef S2S_INLINE_H
#define S2S_INLINE_H

#include "ir.h"

/* Inline every call inside every region of p, and expand every reference
 * to a function of the program (transforms/inline.c says what is
 * supported).  No region, before or after, may nest loops deeper
 * than the analyses support (dep_check_depth); a call whose loops would
 * make it so is refused.  False when a call could not be inlined or a nest
 * is too deep (reported). */
bool xf_inline_program(Program *p);

#endif
