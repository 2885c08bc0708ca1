/* modules.h — Fortran modules and procedures across files: summaries.
 *
 * A model is compiled one file at a time, and a routine with a region USEs
 * modules (kinds, constants) and calls procedures (vector helpers) of other
 * files.  So that the front end sees them, every Fortran file s2s-cuda
 * reads leaves, for each module it defines, a summary MODULE.s2smod, and
 * for each procedure outside a module, PROCEDURE.s2sproc: the unit's own
 * source text after preprocessing, under one comment line that names the
 * format, the unit and where it comes from:
 *
 *   ! s2s-cuda summary 1: module kinds, line 3 of /home/u/model/kinds.F90
 *
 * The front end reads a summary with the same grammar and the same code as
 * a unit of its own file (fe_fortran.c), so there is nothing to keep in
 * step between a writer and a reader but that first line.  Summaries go
 * where the compiler puts its .mod files: the -J directory, else the
 * translation's output directory (-o DIR, or the current directory as a
 * compiler); each is written to a temporary file that is then renamed, so
 * that a parallel build (make -j) never reads half of one.
 *
 * A USEd module that is not in the file is looked for as
 *   1. a summary written earlier in this run (an input on the same command
 *      line; main.c orders the inputs so that a module's file comes first);
 *   2. MODULE.s2smod in the -J directory, then (translation mode) in the
 *      -o directory, then in each -I directory in order, then in the
 *      current directory.
 * A call of a procedure that is neither in the file nor in a USEd module
 * is looked for the same way as PROCEDURE.s2sproc.
 */
#ifndef S2S_MODULES_H
#define S2S_MODULES_H

#include <stdbool.h>
#include <stddef.h>

#define FE_SUMMARY_VERSION 1

typedef enum FeUnitKind { FE_UNIT_MODULE, FE_UNIT_PROCEDURE } FeUnitKind;

/* Where to look for summaries: the -J directory (NULL: none) and the other
 * directories, in order (copied): the -o directory, the -I directories.  Without a call: the current directory
 * only. */
void fe_modules_configure(const char *module_dir, const char *const *include_dirs, int ninclude);
/* Forget the configuration and what this run wrote (at exit; tests). */
void fe_modules_reset(void);

/* Input `path` of this run defines the unit (main.c, from fe_scan_source):
 * until a summary of it is written in this run, a file that needs it is
 * told that this input did not translate, rather than given a summary
 * found on disk (which would be stale). */
void fe_modules_expect(FeUnitKind kind, const char *name, const char *path);

/* The translation of input `path` is over: when it failed, the units it
 * was expected to define are reported as such to the files that need them. */
void fe_modules_input_done(const char *path, bool ok);

/* The summary of a unit: its text (malloc'ed, NUL-terminated; length in
 * *len) and the path it was read from (malloc'ed), or NULL when there is
 * none; then *failed_input names the input of this run that defines the
 * unit but did not translate, if any (else NULL). */
char *fe_modules_find(FeUnitKind kind, const char *name, size_t *len, char **path,
                      const char **failed_input);

/* The summary files read from disk and written since the last call, for
 * the dependency file of a compile (-MD): moves them into *read and
 * *written (lists of paths; free with fe_names_free; not lower-cased). */
struct FeNames;
void fe_modules_take_files(struct FeNames *read, struct FeNames *written);

/* The first line of a summary, parsed.  Returns false when `text` does not
 * start with one; *version is set whenever the line names a version. */
typedef struct FeSummaryHeader {
  int version;
  FeUnitKind kind;
  char name[128];
  int line;               /* of the unit's first line in its file */
  char origin[4096];      /* that file (absolute) */
} FeSummaryHeader;
bool fe_summary_header(const char *text, FeSummaryHeader *h);

/* Write the summaries of the modules and procedures that parsed source
 * `file` (a diag source: the text after preprocessing) defines into `dir`,
 * and keep them for the rest of this run.  Returns false after reporting a
 * file that could not be written. */
bool fe_write_summaries(int file, const char *dir, bool verbose);

/* ---- the order of the inputs of one run ------------------------------------ */

/* A list of lower-case names. */
typedef struct FeNames {
  int n, cap;
  char **v;
} FeNames;
void fe_names_free(FeNames *l);

/* What a Fortran source says at a glance (a line scan of the text as the
 * user wrote it, not a parse: enough to order the inputs): the modules it
 * defines and uses, the procedures outside modules it defines, and the
 * names it CALLs. */
typedef struct FeUnits {
  FeNames modules, uses, procedures, calls;
} FeUnits;
void fe_scan_source(const char *text, size_t len, FeUnits *u);
void fe_units_free(FeUnits *u);

/* An order of n inputs in which the file defining a module comes before
 * every file that uses it, and, where that leaves the choice, a file
 * defining a procedure before the files that call it; otherwise the
 * command-line order.  units[i] may be NULL (not Fortran).  Fills
 * order[0..n) with input indices.  A cycle of module uses between inputs
 * is reported (one error, naming the files) and returns false. */
bool fe_order_inputs(int n, const char *const *paths, const FeUnits *const *units, int *order);

#endif
