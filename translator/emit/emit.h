/* emit.h — the two emitters and the host calls that join them.
 *
 * emit_cuda writes NAME.s2s.cu: one kernel per parallel loop nest of each
 * region, an extern "C" launcher per region (data clauses, grid/block set-up,
 * checked launches), and an extern "C" function per host data/update
 * directive.  While doing so it records, for every directive, the HostCall
 * that must replace it in the host file: the function name, the arguments in
 * order, and the user lines it replaces.
 *
 * emit_host then writes NAME.s2s.f90 / NAME.s2s.c: the user's file byte for
 * byte, except that each directive's lines are replaced by its call, and
 * each routine that has calls gets the interface block (Fortran, after its
 * specification part) or prototypes (C, before the function) it needs.
 */
#ifndef S2S_EMIT_H
#define S2S_EMIT_H

#include <stdio.h>
#include "ir.h"

/* One argument of a generated host-callable function. */
typedef enum HostArgKind {
  HOST_ARG_ARRAY,     /* the array itself (Fortran: by reference; C: its address) */
  HOST_ARG_SCALAR,    /* a scalar (Fortran: by reference; C: by value) */
  HOST_ARG_LBOUND,    /* Fortran lbound(sym, dim+1) of a deferred/assumed-shape array */
  HOST_ARG_UBOUND,    /* Fortran ubound(sym, dim+1) */
} HostArgKind;

typedef struct HostArg {
  HostArgKind kind;
  IrSym *sym;
  int dim;            /* LBOUND/UBOUND: 0-based dimension in IR order (fastest first);
                         for C this is already reversed, so Fortran-only */
} HostArg;

typedef enum HostCallKind {
  HOST_CALL_REGION,      /* replaces lines first..last (the whole region) */
  HOST_CALL_DATA_BEGIN,  /* replaces the data directive's lines */
  HOST_CALL_DATA_END,    /* Fortran: replaces `end data`; C: inserted after stmt_last_line */
  HOST_CALL_UPDATE,      /* replaces the update directive's lines */
} HostCallKind;

typedef struct HostCall {
  HostCallKind kind;
  IrRoutine *routine;
  char *function;        /* the extern "C" name, e.g. s2s_diffuse_r1 */
  int nargs, args_cap;
  HostArg *args;
  int first_line, last_line; /* user lines replaced (DATA_END in C: 0, see stmt_last_line) */
  int stmt_last_line;    /* C data: the call goes after this line */
} HostCall;

typedef struct HostCalls {
  int n;
  HostCall **v;
} HostCalls;

/* Write the .cu for program p to `out` (the user's file name is p->path),
 * appending to `calls` the host calls it defines.  Returns false (after
 * reporting) if something could not be translated; then no output file may
 * be kept. */
bool emit_cuda(Program *p, FILE *out, HostCalls *calls);

/* Write the host file: the user's original text (`orig`, `len` bytes, as read
 * from p->path, before any preprocessing) with the calls applied. */
bool emit_host(const Program *p, const char *orig, size_t len, const HostCalls *calls, FILE *out);

/* The C type of a host argument as the launcher declares it, e.g.
 * "float *" / "const int *" (Fortran) or "void *" / "int" (C). */
const char *emit_host_arg_ctype(const Program *p, const HostArg *a);

#endif
