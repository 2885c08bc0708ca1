/* main.c — the s2s-cuda driver: options, then the pass pipeline per input.
 *
 * translate() below loads an input (cpp, line map), runs the pass table
 * (pipeline.c: parse, inline, then per region accesses and group, per
 * kernel columnize, fuse and map, then emit-cuda and emit-host; `--dump-ir=
 * list` prints it, --dump-ir=NAME the IR after pass NAME) and writes
 * NAME.s2s.EXT and NAME.s2s.cu, or nothing.
 *
 * Errors stop the pipeline after the pass that reported them.
 *
 * Outputs are built in memory and written only when the input produced no
 * error, each to a temporary file in the output directory that is then
 * renamed, so an interrupted or failed run never leaves a partial or stale
 * mixture of outputs.  Compiler-driver mode (build_driver.h) calls the same
 * translate() for each source, with its work directory as output directory.
 *
 * A Fortran input that translates without error also leaves a summary of
 * each module and each procedure outside a module it defines (modules.h),
 * in the -J directory, else the output directory (the current directory as
 * a compiler), whether or not it has directives: the files that USE the
 * module or call the procedure read it.  Several inputs are translated in
 * an order where the file of a module comes before the files that use it
 * (build_input_order).
 *
 * Exit status: 0 success, 1 errors in an input (or a failed build step),
 * 2 usage errors.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* POSIX.1-2008 and realpath, also when built outside the Makefile */
#endif
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "build_driver.h"
#include "diag.h"
#include "directive.h"
#include "emit.h"
#include "frontend.h"
#include "ir.h"
#include "modules.h"
#include "options.h"
#include "report.h"
#include "source.h"
#include "pipeline.h"
#include "emit_text.h"
#include "transforms.h"

/* ---- output names ---------------------------------------------------------- */

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/* The host file keeps the input's extension when it is one its compiler
 * reads as free form (x.F90 -> x.s2s.F90, still preprocessed by gfortran);
 * .F (fixed form to gfortran) becomes .F90; anything else .f90 or .c. */
static const char *host_extension(const Input *in, bool preprocessed) {
  static const char *const kept[] = { "f90", "f95", "f03", "f08", "F90", "F95", "F03", "F08", "c" };
  const char *base = base_name(in->path);
  const char *dot = strrchr(base, '.');
  const char *ext = dot && dot != base ? dot + 1 : "";
  bool c = in->kind == INPUT_C;
  for (size_t i = 0; i < sizeof kept / sizeof *kept; i++)
    if (strcmp(ext, kept[i]) == 0 && (strcmp(ext, "c") == 0) == c) return ext;
  return c ? "c" : preprocessed ? "F90" : "f90";
}

/* NAME.s2s.EXT and NAME.s2s.cu in `outdir` (malloc'ed). */
static void output_names(const Input *in, const char *outdir, bool preprocessed, char **host,
                         char **cu) {
  const char *base = base_name(in->path);
  const char *dot = strrchr(base, '.');
  int stem = dot && dot != base ? (int)(dot - base) : (int)strlen(base);
  const char *sep = strcmp(outdir, ".") == 0 ? "" : "/";
  const char *dir = strcmp(outdir, ".") == 0 ? "" : outdir;
  *host = xasprintf("%s%s%.*s.s2s.%s", dir, sep, stem, base, host_extension(in, preprocessed));
  *cu = xasprintf("%s%s%.*s.s2s.cu", dir, sep, stem, base);
}

/* Would writing `out` replace one of the inputs? */
static bool overwrites_input(const Options *o, const char *out) {
  struct stat so, si;
  if (stat(out, &so) != 0) return false;
  for (int i = 0; i < o->ninputs; i++)
    if (stat(o->inputs[i].path, &si) == 0 && si.st_dev == so.st_dev && si.st_ino == so.st_ino) {
      diag_plain(DIAG_ERROR, "refusing to write '%s': it is the input '%s'", out, o->inputs[i].path);
      return true;
    }
  return false;
}

/* ---- writing ----------------------------------------------------------------- */

typedef struct Pending {
  char *path;  /* final name */
  char *tmp;   /* written, not yet renamed */
} Pending;

/* Write `data` to a new temporary file next to `path`. */
static bool write_temp(Pending *w, const char *data, size_t len) {
  w->tmp = xasprintf("%s.tmpXXXXXX", w->path);
  int fd = mkstemp(w->tmp);
  if (fd < 0) {
    int err = errno;
    diag_plain(DIAG_ERROR, "cannot write '%s': %s%s", w->path, strerror(err),
               err == EACCES || err == EROFS || err == EPERM
                   ? "; give -o a directory you can write" : "");
    free(w->tmp);
    w->tmp = NULL;
    return false;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask); /* as a plain open() would have made it, not mkstemp's 0600 */
  FILE *f = fdopen(fd, "wb");
  bool ok = f && fwrite(data, 1, len, f) == len;
  int err = errno;
  ok = (f ? fclose(f) == 0 : (close(fd), false)) && ok;
  if (!ok) {
    diag_plain(DIAG_ERROR, "cannot write '%s': %s", w->path, strerror(err ? err : errno));
    unlink(w->tmp);
    free(w->tmp);
    w->tmp = NULL;
  }
  return ok;
}

static bool write_outputs(Pending *w, int n, char **data, size_t *len) {
  bool ok = true;
  for (int i = 0; i < n && ok; i++) ok = write_temp(&w[i], data[i], len[i]);
  for (int i = 0; i < n && ok; i++) {
    if (rename(w[i].tmp, w[i].path) != 0) {
      diag_plain(DIAG_ERROR, "cannot write '%s': %s", w[i].path, strerror(errno));
      ok = false;
    }
  }
  for (int i = 0; i < n; i++) {
    if (w[i].tmp && !ok) unlink(w[i].tmp);
    free(w[i].tmp);
  }
  return ok;
}

/* ---- the pipeline -------------------------------------------------------------- */

/* Where module and procedure summaries go: beside the compiler's .mod files. */
static const char *summary_dir(const Options *o, const char *outdir) {
  if (o->module_dir) return o->module_dir;
  return o->driver ? "." : outdir;
}

/* The .cu as written: lines wrapped near EMIT_WRAP_WIDTH, then its #line
 * directives resolved (emit_text.h); the restore directives name the .cu
 * by the path it is written to, which is how a build from this directory
 * (and the driver, in its work directory) compiles it. */
static void finish_cu(const Options *o, const char *cu_path, char **text, size_t *len) {
  size_t n;
  char *wrapped = emit_wrap_text(*text, *len, EMIT_WRAP_WIDTH, &n);
  char *name = emit_c_string_body(cu_path);
  free(*text);
  *text = emit_line_directives(wrapped, n, !o->no_line_directives, name, len);
  free(name);
  free(wrapped);
}

/* Translate one input into `outdir`: load it, run the passes, and write
 * both outputs only if no pass reported an error.  Returns 0, or 1 when an
 * error was reported; res->host_path/cu_path are set only when outputs
 * were written (a file without directives has none). */
static int translate(const Options *o, const Input *in, const char *outdir, Translated *res) {
  memset(res, 0, sizeof *res);
  Unit u = { 0 };
  if (!source_load(o, in, &u.src)) {
    fe_modules_input_done(in->path, false);
    return 1;
  }
  res->preprocessed = u.src.preprocessed;
  /* notes as for "nothing to translate": not in a quiet driver-mode build */
  if (!pipeline_has_directives(&u.src, !o->driver || o->minfo)) {
    /* Asked to translate a file, s2s-cuda refuses one it cannot read even
     * when there is nothing to translate: the module and procedure
     * summaries it leaves would be read from a broken parse.  As a compiler
     * it leaves that judgement to the host compiler, which sees the file
     * next and says what is wrong in its own words (write_unit skips a
     * unit that does not parse). */
    if (!o->driver && !(u.src.fortran ? fe_fortran_check_syntax(u.src.file)
                                       : fe_c_check_syntax(u.src.file))) {
      fe_modules_input_done(in->path, false);
      return 1;
    }
    if (!o->driver || o->minfo)
      diag_plain(DIAG_NOTE, "no %s directives in '%s'; nothing to translate",
                 u.src.fortran ? "!$stencil or !$acc" : "#pragma stencil or #pragma acc",
                 in->path);
    bool ok = !u.src.fortran || fe_write_summaries(u.src.file, summary_dir(o, outdir), o->verbose);
    fe_modules_input_done(in->path, ok);
    return ok ? 0 : 1;
  }
  char *names[2];
  output_names(in, outdir, u.src.preprocessed, &names[0], &names[1]);
  bool ok = !overwrites_input(o, names[0]) && !overwrites_input(o, names[1]);
  int warnings = report_warning_count();
  ok = ok && pipeline_translate(&u, o, &res->kernels);
  if (ok && o->werror && report_warning_count() > warnings) ok = false; /* printed at the end */
  if (ok) finish_cu(o, names[1], &u.cu_text, &u.cu_len);
  if (ok) {
    Pending w[2] = { { names[0], NULL }, { names[1], NULL } };
    char *data[2] = { u.host_text, u.cu_text };
    size_t len[2] = { u.host_len, u.cu_len };
    ok = write_outputs(w, 2, data, len);
  }
  if (ok && o->verbose) fprintf(stderr, "s2s-cuda: wrote %s and %s\n", names[0], names[1]);
  if (ok && u.src.fortran) ok = fe_write_summaries(u.src.file, summary_dir(o, outdir), o->verbose);
  fe_modules_input_done(in->path, ok);
  if (ok) res->host_path = names[0], res->cu_path = names[1];
  else free(names[0]), free(names[1]), res_sites_free(&res->kernels);
  free(u.host_text);
  free(u.cu_text);
  ir_arena_free();
  return ok ? 0 : 1;
}

/* ---- translation mode ------------------------------------------------------------- */

/* Two inputs whose outputs have the same names (x.f90 and x.c both make
 * x.s2s.cu; a/x.f90 and b/x.f90 both make x.s2s.f90). */
static bool outputs_collide(const Options *o, const char *outdir) {
  int n = o->ninputs;
  char **host = xcalloc((size_t)n, sizeof *host), **cu = xcalloc((size_t)n, sizeof *cu);
  bool clash = false;
  for (int i = 0; i < n; i++) output_names(&o->inputs[i], outdir, o->inputs[i].cpp, &host[i], &cu[i]);
  for (int i = 0; i < n && !clash; i++)
    for (int j = 0; j < i && !clash; j++)
      if (strcmp(cu[i], cu[j]) == 0 || strcmp(host[i], host[j]) == 0) {
        diag_plain(DIAG_ERROR, "'%s' and '%s' would both be translated to '%s'; translate them "
                   "separately, with different -o directories", o->inputs[j].path, o->inputs[i].path,
                   strcmp(cu[i], cu[j]) == 0 ? cu[i] : host[i]);
        clash = true;
      }
  for (int i = 0; i < n; i++) free(host[i]), free(cu[i]);
  free(host);
  free(cu);
  return clash;
}

/* -o DIR: created when missing (one level, like mkdir). */
static bool prepare_outdir(const char *dir) {
  struct stat st;
  if (stat(dir, &st) == 0) {
    if (S_ISDIR(st.st_mode)) return true;
    diag_plain(DIAG_ERROR, "'%s' is not a directory: -o names the directory the translations "
               "go to (created when missing); name another, or leave -o out for the current "
               "directory", dir);
    return false;
  }
  if (mkdir(dir, 0777) == 0) return true;
  int err = errno;
  diag_plain(DIAG_ERROR, "cannot create the output directory '%s': %s%s", dir, strerror(err),
             err == ENOENT ? " (only its last part is created; create the ones above it first)"
                           : "");
  return false;
}

static int translate_all(const Options *o) {
  char *outdir = xstrdup(o->output ? o->output : ".");
  size_t n = strlen(outdir);
  while (n > 1 && outdir[n - 1] == '/') outdir[--n] = '\0';
  if (!prepare_outdir(outdir) || outputs_collide(o, outdir)) {
    free(outdir);
    return 1;
  }
  int *order = build_input_order(o);
  if (!order) {
    free(outdir);
    return 1;
  }
  /* After a failed input the others are still translated, so that one run
   * shows every error (as a compiler does). */
  int status = 0;
  for (int k = 0; k < o->ninputs; k++) {
    Translated res;
    if (translate(o, &o->inputs[order[k]], outdir, &res) != 0) status = 1;
    free(res.host_path);
    free(res.cu_path);
    res_sites_free(&res.kernels);
  }
  free(order);
  free(outdir);
  return status;
}

/* Summaries of USEd modules are looked for in -J, then (translation) in the
 * output directory, where a translation with the same -o left them, then in
 * each -I directory. */
static void configure_modules(const Options *o) {
  const char **dirs = xcalloc((size_t)o->cpp_args.n + 2, sizeof *dirs);
  int n = 0;
  if (!o->driver && o->output) dirs[n++] = o->output;
  for (int i = 0; i < o->cpp_args.n; i++)
    if (strncmp(o->cpp_args.v[i], "-I", 2) == 0) dirs[n++] = o->cpp_args.v[i] + 2;
  fe_modules_configure(o->module_dir, dirs, n);
  free(dirs);
}

int main(int argc, char **argv) {
  Options o;
  switch (options_parse(&o, argc, argv, stdout, stderr)) {
  case OPTIONS_EXIT: options_free(&o); return 0;
  case OPTIONS_USAGE: options_free(&o); return S2S_EXIT_USAGE;
  case OPTIONS_OK: break;
  }
  configure_modules(&o);
  diag_set_observer(report_record_diag);   /* the JSON and SARIF reports hold errors too */
  diag_set_werror(o.werror);
  report_set_werror(o.werror);
  int warnings = report_warning_count();
  int status = o.driver ? build_driver(&o, translate) : translate_all(&o);
  if (o.werror && report_warning_count() > warnings) status = 1;
  fe_modules_reset();
  /* warnings print without -Minfo; info and note lines by its categories */
  _Static_assert((unsigned)MINFO_ACCEL == (unsigned)REPORT_CAT_ACCEL &&
                 (unsigned)MINFO_INLINE == (unsigned)REPORT_CAT_INLINE &&
                 (unsigned)MINFO_LOOP == (unsigned)REPORT_CAT_LOOP, "-Minfo categories");
  report_print_selected(stderr, o.minfo_categories);
  if (getenv("S2S_STATS") && *getenv("S2S_STATS") && strcmp(getenv("S2S_STATS"), "0"))
    pipeline_stats(stderr);
  if (o.report_json && !report_write_json(o.report_json, options_version())) {
    diag_plain(DIAG_ERROR, "cannot write the report '%s': %s", o.report_json, strerror(errno));
    status = 1;
  }
  if (o.report_sarif && !report_write_sarif(o.report_sarif, options_version())) {
    diag_plain(DIAG_ERROR, "cannot write the report '%s': %s", o.report_sarif, strerror(errno));
    status = 1;
  }
  report_clear();
  options_free(&o);
  diag_reset();
  return status;
}
