/* build_driver.h — compiler-driver mode: translate, compile, link.
 *
 *   s2s-cuda -c x.f90 [-o x.o]      x.o holds the host code and the kernels
 *   s2s-cuda x.f90 y.c -o prog      translate, compile and link with the runtime
 *   s2s-cuda a.o b.o -o prog        link objects made by s2s-cuda -c
 *
 * Each source with directives is translated into a private work directory
 * ($TMPDIR/s2s-XXXXXX, removed at the end unless --keep); its host file is
 * compiled with $S2S_FC or $S2S_CC (else $FC or $CC) and its .cu with nvcc (or, with --emulate or
 * when there is no nvcc, with $CXX -DS2S_EMULATE); `ld -r` joins the two
 * objects into one, so that one source still makes one object, as a
 * Makefile expects.  A source without directives is compiled as it is.
 * The program is linked by the host Fortran compiler when any input is
 * Fortran (a Fortran source, or an object that references the gfortran
 * runtime), else by the C one, with the runtime library of the chosen mode.
 *
 * Every command is run without a shell (posix_spawn) and printed with -v;
 * the first failing one stops the build with exit status 1.
 */
#ifndef S2S_BUILD_DRIVER_H
#define S2S_BUILD_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include "options.h"
#include "resources.h"

/* The compilers used when FC, CC and CXX are not set (config.h has the
 * configured ones; these fallbacks let the file compile on its own). */
#ifndef S2S_DEFAULT_FC
#define S2S_DEFAULT_FC "gfortran"
#endif
#ifndef S2S_DEFAULT_CC
#define S2S_DEFAULT_CC "gcc"
#endif
#ifndef S2S_DEFAULT_CXX
#define S2S_DEFAULT_CXX "g++"
#endif

/* What translating one input produced. */
typedef struct Translated {
  char *host_path;    /* NAME.s2s.EXT in the output directory, or NULL: no directives */
  char *cu_path;      /* NAME.s2s.cu, or NULL */
  bool preprocessed;  /* the input needed cpp: compile the host file with -cpp too */
  ResKernelSites kernels; /* the kernels of cu_path with their source lines and default
                          blocks (emit_cuda), for the resource report; free with
                          res_sites_free */
} Translated;

/* Translate `in` into directory `outdir` (main.c).  Returns 0, or 1 after
 * errors in the input were reported.  The paths in *out are malloc'ed. */
typedef int (*TranslateFn)(const Options *o, const Input *in, const char *outdir, Translated *out);

/* The order in which to translate or build the inputs of `o` (malloc'ed,
 * o->ninputs indices): the file of a module before the files that use it
 * (modules.h, fe_order_inputs), else the command line's.  NULL after a
 * cycle was reported. */
int *build_input_order(const Options *o);

/* Run the build described by `o` (o->driver is set).  Returns the exit status. */
int build_driver(const Options *o, TranslateFn translate);

/* Run argv[0] with argv (NULL-terminated), found on PATH, without a shell.
 * With `echo`, print the command on stderr first, quoted so that it can be
 * pasted into a shell.  When `output` is not NULL, the command's standard
 * output is captured into *output (malloc'ed, NUL-terminated, length in
 * *output_len); its standard error always goes to ours.  Returns the exit
 * status, 128 + N when killed by signal N, or -1 when the command could not
 * be started (then the reason has been printed). */
int build_run(char *const argv[], bool echo, char **output, size_t *output_len);

/* The same, capturing the command's standard error (its standard output
 * goes to ours). */
int build_run_stderr(char *const argv[], bool echo, char **err, size_t *err_len);

/* Split an environment variable's value into words at blanks (CC="gcc -m64")
 * and append them to `l`; when the variable is unset or empty append the
 * words of `fallback` instead.  A variable naming s2s-cuda itself is ignored
 * (FC=s2s-cuda in a Makefile must not make the driver call itself). */
void build_tool_words(ArgList *l, const char *env, const char *fallback);

#endif
