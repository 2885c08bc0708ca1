/* fuzz_translate.c — libFuzzer harness for the whole translator.
 *
 * Each input is taken as the contents of a Fortran file (fuzz.f90), or of
 * a C file (fuzz.c) when built with -DFUZZ_C, and goes through what
 * `s2s-cuda FILE` does with it, in memory: the source registered as read
 * from disk (source_load_text, no preprocessor: no process is started),
 * then, when it holds a directive, every pass of the pipeline with the
 * outputs kept in memory (pipeline_translate), else the syntax check a
 * file without directives gets (main.c).  Nothing is written.  Then everything the
 * run allocated is released, as at the end of the real process, so that
 * LeakSanitizer sees a leak as a leak.
 *
 * Errors in the input are the expected outcome of most inputs and are only
 * counted (diagnostics go to /dev/null unless S2S_FUZZ_VERBOSE=1, to keep
 * the fuzzer fast); what the fuzzer hunts is a crash, an internal error
 * (S2S_BUG aborts), a sanitizer report, a leak or a hang.
 *
 * Built and run by tests/fuzz.sh (`make fuzz`).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "frontend.h"
#include "ir.h"
#include "modules.h"
#include "options.h"
#include "pipeline.h"
#include "report.h"
#include "resources.h"
#include "source.h"

#ifdef FUZZ_C
#define FUZZ_PATH "fuzz.c"
#define FUZZ_KIND INPUT_C
#else
#define FUZZ_PATH "fuzz.f90"
#define FUZZ_KIND INPUT_FORTRAN
#endif

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  const char *verbose = getenv("S2S_FUZZ_VERBOSE");
  if (!verbose || strcmp(verbose, "1") != 0) diag_set_stream(fopen("/dev/null", "w"));
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Options o;
  memset(&o, 0, sizeof o);
  o.nocpp = true; /* a `#include` line must not start the preprocessor */
  Input in = { .path = FUZZ_PATH, .kind = FUZZ_KIND, .cpp = false };
  char *text = xmalloc(size + 1);
  memcpy(text, data, size);
  text[size] = '\0';

  Unit u;
  memset(&u, 0, sizeof u);
  if (source_load_text(&o, &in, text, size, &u.src)) {
    if (pipeline_has_directives(&u.src, false)) {
      ResKernelSites sites = { 0 };
      pipeline_translate(&u, &o, &sites);
      res_sites_free(&sites);
      free(u.cu_text);
      free(u.host_text);
    } else if (u.src.fortran) {
      fe_fortran_check_syntax(u.src.file);
    } else {
      fe_c_check_syntax(u.src.file);
    }
  }
  ir_arena_free();
  fe_modules_reset();
  report_clear();
  diag_reset();
  return 0;
}
