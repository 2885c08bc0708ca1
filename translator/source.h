/* source.h — reading an input: the user's bytes, the preprocessor, the line map.
 *
 * An input is registered with diag twice when it goes through cpp: once as
 * the user wrote it (for the host emitter and for messages about the file
 * as a whole, such as fixed form) and once as the preprocessed text the
 * front end parses, whose line map (from cpp's `# N "file"` markers, which
 * are removed from the text) leads every diagnostic back to the user's own
 * file and line.  Without cpp both are the same registered source.
 *
 * The input file is never written.
 */
#ifndef S2S_SOURCE_H
#define S2S_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include "diag.h"
#include "options.h"

typedef struct Source {
  const char *path;   /* as given by the user */
  bool fortran;       /* else C */
  int file;           /* diag source the front end parses */
  int orig_file;      /* diag source holding the user's bytes (== file without cpp) */
  const char *orig;   /* the user's bytes as read, NUL-terminated (owned by diag) */
  size_t orig_len;
  bool preprocessed;  /* cpp ran (asked for, implied by .F90, or #if etc. found in Fortran) */
} Source;

/* Read `in`, refuse fixed-form Fortran, run the preprocessor when asked for
 * (or when a Fortran file holds `#if`/`#define`/`#include` lines and -nocpp
 * was not given) with the -D/-U/-I options of `o`, and register the text.
 * Returns false after printing an error (exit status 1). */
bool source_load(const Options *o, const Input *in, Source *src);

/* The same for an input already in memory: `text` (NUL-terminated, `len`
 * bytes, malloc'ed; diag takes it) stands for the contents of in->path,
 * which is not read.  The fuzzing harnesses (tests/fuzz/) call it with
 * -nocpp and a name that implies no cpp, so that nothing runs outside the
 * process.  A fixed-form in->kind is the caller's to refuse. */
bool source_load_text(const Options *o, const Input *in, char *text, size_t len, Source *src);

/* The line of `text` that shows the file is fixed-form Fortran (a C, c or *
 * comment in column 1, or a continuation mark in column 6), 0 when none
 * does.  Exposed for tests. */
int source_fixed_form_line(const char *text, size_t len);

/* The first line of fixed-form `text` that is a directive (`c$acc`, `C$ACC`,
 * `*$acc`, `!$acc` in column 1, `!$acc` after blanks; `$stencil` likewise),
 * 0 when none is; `sentinel` (when not NULL) gets the sentinel as written.
 * source_fixed_form_has_directive: the same for the file at `path` (true
 * when it cannot be read: the translation says why).  The driver compiles a
 * fixed-form file without directives as it is, and sends one with them to
 * the translation, which refuses it naming the line: an `!$acc` port is
 * never compiled for the CPU without a word. */
int source_fixed_form_directive_line(const char *text, size_t len, char *sentinel, size_t size);
bool source_fixed_form_has_directive(const char *path);

/* Parse a preprocessor line marker (`# 12 "file" 2` or `#line 12 "file"`);
 * sets *line and, when the marker names one, *file (malloc'ed, escapes
 * undone; NULL otherwise).  Returns false if `s` (of `len` bytes, no end of
 * line) is not a marker.  Exposed for tests. */
bool source_parse_marker(const char *s, size_t len, int *line, char **file);

#endif
