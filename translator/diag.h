/* diag.h — source locations, diagnostics and the line map.
 *
 * Every message the translator prints about the user's input goes through
 * here, so that all of them share one form (gcc's `file:line:col: kind: msg`
 * followed by the source line and a caret) and so that messages about code
 * that went through the C preprocessor still name the user's own file and
 * line.  Diagnostics are collected, not fatal on the first: the driver asks
 * diag_error_count() between stages and stops before writing any output.
 */
#ifndef S2S_DIAG_H
#define S2S_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* A position in a source buffer: 1-based line and column in the text the
 * parser saw.  `file` is an index into the SourceFile table kept by diag.c;
 * diag maps (file, line) to the user's own file and line through the line
 * map before printing. */
typedef struct Loc {
  int file;
  int line;
  int col;
} Loc;

/* One input as the parser sees it: the (possibly preprocessed) text, plus a
 * map from each of its lines back to the user's file and line. */
typedef struct SourceFile {
  char *path;        /* the path the user gave (owned) */
  char *text;        /* NUL-terminated text the front end parses (owned) */
  size_t len;
  int nlines;
  const char **line_start; /* line_start[l-1] points at line l in text (owned array) */
  /* line map: for each parsed line, the user's file name and line.  NULL when
   * the text is the user's file itself (no preprocessing). */
  const char **map_file;   /* owned array of interned names */
  int *map_line;           /* owned */
  int dir_dialect;         /* directive.c: the file's directive spelling + 1; 0 until decided */
} SourceFile;

typedef enum DiagKind { DIAG_ERROR, DIAG_WARNING, DIAG_NOTE, DIAG_INFO } DiagKind;

/* Register a source file; diag takes ownership of `path` and `text`.
 * Returns its index for Loc.file. */
int diag_add_source(char *path, char *text, size_t len);
SourceFile *diag_source(int file);

/* The text of parsed line `line` of `file` without its end of line ("\n" or
 * "\r\n"); its length in *len.  NULL when there is no such line. */
const char *diag_line(int file, int line, size_t *len);

/* Record that parsed line `line` of `file` comes from `orig_file`:`orig_line`
 * (from a `# N "file"` preprocessor marker).  Lines not mentioned map to
 * themselves. */
void diag_map_line(int file, int line, const char *orig_file, int orig_line);

/* The user's file name and line for a location (after the line map). */
const char *diag_user_file(Loc loc);
int diag_user_line(Loc loc);

/* The registered source holding the user's own bytes of the file that
 * parsed location `loc` comes from (the input itself before cpp), with
 * the line there in *line; -1 when none is registered (an included
 * header).  For text that cpp changes but must be read as written: a
 * `#pragma` continued with '\' is one joined line in cpp's output. */
int diag_user_source(Loc loc, int *line);

/* Print `file:line:col: kind: message`, the source line and a caret of
 * `width` characters (at least 1) under the column.  Errors are counted. */
void diag_at(DiagKind kind, Loc loc, int width, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void diag_vat(DiagKind kind, Loc loc, int width, const char *fmt, va_list ap);

/* A message with no location (`s2s-cuda: error: ...`). */
void diag_plain(DiagKind kind, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

int diag_error_count(void);

/* -Werror: warnings are printed and counted as errors (`... [-Werror]`). */
void diag_set_werror(bool on);

/* A function told of every message printed (after the line map: the
 * user's file, NULL for a message about no file, line and column, 0 when
 * unknown), with the format it came from: the kind of message.  The
 * report keeps them for --report=json and --report=sarif. */
typedef void (*DiagObserver)(DiagKind kind, const char *file, int line, int col,
                             const char *format, const char *message);
void diag_set_observer(DiagObserver fn);
void diag_reset(void); /* forget all sources and counts (unit tests) */

/* Where diagnostics go; stderr unless a test redirects them. */
void diag_set_stream(void *file /* FILE* */);

/* Internal errors: name the translator's own file and line, then abort. */
#define S2S_BUG(...) s2s_bug(__FILE__, __LINE__, __VA_ARGS__)
_Noreturn void s2s_bug(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Allocation that never returns NULL (aborts with a message instead). */
void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
