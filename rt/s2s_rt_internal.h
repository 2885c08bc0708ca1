/* s2s_rt_internal.h — what the runtime's source files share (not
 * installed: generated code sees only s2s_rt.h). */
#ifndef S2S_RT_INTERNAL_H
#define S2S_RT_INTERNAL_H

#include <stdio.h>
#include "s2s_rt.h"

/* dim3 from its parts, in C as in C++. */
static inline dim3 dim3_of(unsigned x, unsigned y, unsigned z) {
  dim3 d;
  d.x = x;
  d.y = y;
  d.z = z;
  return d;
}

/* The device the runtime uses, as its name (s2s_rt.c; the runtime is
 * initialised by then: s2s_block_shape runs after the region's data). */
const char *s2s_rt_device_label(void);

/* The name of the kernel the calling thread launches next at (r, line),
 * for the race check's reports (s2s_rt.c; s2s_block_shape tells it). */
void s2s_rt_kernel_name(const S2sRegion *r, int line, const char *kernel);

/* The default number of copy threads of a process that may run on `cpus`
 * of the node's `online` CPUs, one of `local_ranks` MPI ranks of the node
 * (s2s_rt.c; a function of its own for the tests). */
int s2s_copy_threads_default(long online, long cpus, int local_ranks);

/* Block-shape tuning (s2s_tune.c): is this thread's kernel launch a timed
 * trial; its device time once it ends; the report lines of a kernel. */
int s2s_tune_timing(void);
void s2s_tune_record(double us);
void s2s_tune_report(FILE *out, const S2sRegion *r, int line);

/* The host pass (s2s_compare.c): arm one for region r (the runtime
 * initialised; host_fallback: no device is used) and say whether the
 * device runs the region; does an autocompare capture hold the array whose
 * host address is `host` (its copy back is skipped). */
int s2s_pass_arm(S2sRegion *r, int host_fallback);

/* Print "s2s-cuda runtime: error: MESSAGE in WHERE REGION (FILE:LINE)" (the
 * location left out when r is NULL), then `hint` as a note, and exit 1
 * (s2s_rt.c). */
_Noreturn void s2s_rt_fail_hint(const S2sRegion *r, int line, const char *where,
                                const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Is the user's source `file` C (.c, .h)?  Then boxes and elements are
 * written as C writes them, slowest dimension first (s2s_rt.c). */
int s2s_rt_is_c_file(const char *file);
int s2s_pass_holds(const void *host);

/* Is autocompare on (S2S_AUTOCOMPARE=1)?  (s2s_compare.c) */
int s2s_autocompare_enabled(void);

#endif
