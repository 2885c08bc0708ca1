/* emit.h — the two emitters and the host calls that join them.
 *
 * emit_cuda writes NAME.s2s.cu: one kernel per parallel loop nest of each
 * region, an extern "C" launcher per region (data clauses, grid/block set-up,
 * checked launches), and an extern "C" function per host data/update
 * directive.  While doing so it records, for every directive, the HostCall
 * that must replace it in the host file: the function name, the parameters
 * in order (for a region, the launcher list of its plan), and the user
 * lines it replaces.
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
#include "plan.h"
#include "resources.h"

typedef enum HostCallKind {
  HOST_CALL_REGION,      /* replaces lines first..last (the whole region) */
  HOST_CALL_DATA_BEGIN,  /* replaces the data directive's lines */
  HOST_CALL_DATA_END,    /* Fortran: replaces `end data`; C: inserted after stmt_last_line */
  HOST_CALL_UPDATE,      /* replaces the update (enter data, exit data) directive's lines */
  HOST_CALL_HOST_DATA,   /* replaces `host_data use_device(...)`: the call that looks up the
                            device addresses, then the scope where the arrays' names stand
                            for them (Fortran: BLOCK and ASSOCIATE; C: a { } block) */
  HOST_CALL_HOST_DATA_END, /* no call: closes that scope (Fortran: replaces `end host_data`;
                            C: inserted after stmt_last_line) */
} HostCallKind;

typedef struct HostCall {
  HostCallKind kind;
  IrRoutine *routine;
  char *function;        /* the extern "C" name, e.g. s2s_diffuse_r1 */
  ParamList params;      /* its parameters, in order, as xf_launcher_param (storage.h) passes
                            them: roles PARAM_ARRAY, PARAM_SCALAR, PARAM_HOST_[LU]BOUND */
  int first_line, last_line; /* user lines replaced (DATA_END in C: 0, see stmt_last_line) */
  int stmt_last_line;    /* C data: the call goes after this line */
  const IrVariant *variant; /* a region's kernel variant (ir.h), or NULL: the variants of
                            one region share its lines, and the host tests presence to
                            call the matching one */
  int ndevice;           /* HOST_CALL_HOST_DATA(_END): the arrays of use_device, in order; */
  IrSym **device;        /* the function's last parameter receives their device addresses
                            (void **, Fortran type(c_ptr) :: s2s_device(ndevice)) */
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

/* How emit_cuda_with writes the kernels, and what it tells the driver. */
typedef struct EmitCudaConfig {
  bool relaxed_fp;          /* -Mfprelaxed: single-precision exp, log, log10, power, sin, cos,
                               tan and division in kernels through CUDA's fast intrinsics
                               (__expf, ..., __fdividef), one report line per kernel; the
                               __host__ __device__ functions keep the standard ones */
  int unroll;               /* -Munroll=N: `#pragma unroll N` on the innermost sequential loops of
                               kernels (the loads of later iterations issue while a recurrence
                               of this one completes); 0: none */
  bool strict_fp;           /* -Kieee: every real product in kernels and __device__ functions
                               through __fmul_rn/__dmul_rn (s2s_fmul_rn/s2s_dmul_rn in the
                               __host__ __device__ functions), which nvcc never contracts
                               into an FMA; a banner note and one report line per kernel */
  int user_text_file;       /* 1 + the diag source of the user's bytes when the parsed text
                               was preprocessed (C always is): its comments are gone there,
                               and the kernels carry them from these lines; 0: none */
  bool line_directives;     /* `#line N "user.f90"` before the statements of kernels and
                               __device__ functions, EMIT_LINE_RESTORE after them
                               (emit_text.h resolves both); off: --no-line-directives */
  ResKernelSites *sites;    /* when not NULL: one entry appended per kernel written (name,
                               source line, default block), for the resource report */
} EmitCudaConfig;

/* emit_cuda with a configuration (NULL: IEEE math, no sites, as emit_cuda). */
bool emit_cuda_with(Program *p, FILE *out, HostCalls *calls, const EmitCudaConfig *cfg);

/* Write the host file: the user's original text (`orig`, `len` bytes, as read
 * from p->path, before any preprocessing) with the calls applied. */
bool emit_host(const Program *p, const char *orig, size_t len, const HostCalls *calls, FILE *out);

/* emit_host with line markers when `line_markers` (`#line N "x.c"`, `# N
 * "x.f90"`: at the top and after every edit), so that the host compiler's
 * messages name the user's file and line. */
bool emit_host_with(const Program *p, const char *orig, size_t len, const HostCalls *calls,
                    FILE *out, bool line_markers);

/* The C type of parameter a as a declaration writes it, e.g. "float *",
 * "const int *", "int": the one spelling of a launcher parameter's type,
 * for both the .cu definition and the C prototype of the host file (the
 * Fortran interface block is derived from the same Param). */
const char *emit_param_ctype(const Param *a);

/* Expression x as a kernel writes it, by C's precedence (emit_cuda.c): for
 * the unit tests of the printer.  Malloc'ed. */
char *emit_expr_text(const IrExpr *x);

#endif
