/* pipeline.h — the passes of one translation, in order (pipeline.c).
 *
 * The table in pipeline.c is the one place that says which passes run and
 * in what order; `s2s-cuda --dump-ir=list` prints it.  A pass works on the
 * whole program, on each region in turn, or on each kernel of a region in
 * turn (as LLVM's module, function and loop pass managers nest).
 */
#ifndef S2S_PIPELINE_H
#define S2S_PIPELINE_H

#include <stdio.h>
#include "emit.h"
#include "ir.h"
#include "options.h"
#include "source.h"

/* What the passes of one input share. */
typedef struct Unit {
  Source src;
  Program *prog;        /* from the front end; arena-owned */
  HostCalls calls;      /* recorded by emit_cuda; arena-owned */
  FILE *cu, *host;      /* the two outputs, in memory (open_memstream) */
  EmitCudaConfig emit;  /* how emit-cuda writes kernels (-Mfprelaxed), and its side table of
                           kernels for compiler-driver mode's resource report */
  char *cu_text, *host_text;
  size_t cu_len, host_len;
} Unit;

/* Is `name` a pass (or "plan", the state after every planning pass)? */
bool pipeline_has_pass(const char *name);

/* The pass names, one per line, in order (--dump-ir=list). */
void pipeline_list(FILE *out);

/* Run every pass on u, printing the IR after the pass named `dump` (NULL:
 * none) on `dump_out`.  Stops after the first pass that reports an error;
 * returns false then. */
bool pipeline_run(Unit *u, const char *dump, FILE *dump_out);

/* Does the loaded source hold a directive line of its spelling (!$stencil,
 * #pragma stencil, or !$acc / #pragma acc)?  A file without one is not
 * translated (main.c writes its module summaries).  On the way, every acc
 * line that is no directive here gets a warning, or a note when the tool
 * understands it and it has no effect (only with `notes`). */
bool pipeline_has_directives(const Source *src, bool notes);

/* One whole translation in memory, as s2s-cuda does it for an input that
 * source_load put in u->src (and u zeroed otherwise): the passes configured
 * from `o` (-Mfprelaxed, -Kieee, -Mnorecompute, ...), then every pass, into
 * u->cu_text and u->host_text; the kernels written are appended to `sites`
 * (NULL: not recorded).  Nothing is written to disk, and no error path ends
 * the process: an error in the input is reported through diag and returns
 * false (the fuzzing harnesses rely on it; only an internal error aborts).
 * The caller frees u->cu_text and u->host_text, then the IR (ir_arena_free). */
bool pipeline_translate(Unit *u, const Options *o, ResKernelSites *sites);

/* Counters for S2S_STATS=1 (tests/bench): wall time per pass and the
 * analyses' work, summed over all inputs; printed by pipeline_stats. */
void pipeline_stats(FILE *out);

#endif
