/* inline.h — calls inside regions replaced by the called routine's body. */
#ifndef S2S_INLINE_H
#define S2S_INLINE_H

#include "ir.h"

/* Inline every call inside every region of p (transforms/inline.c says
 * what is supported).  False when a call could not be inlined (reported). */
bool xf_inline_program(Program *p);

#endif
