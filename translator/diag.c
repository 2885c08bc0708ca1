/* diag.c — diagnostics in gcc's form, the source table and the line map.
 *
 * Every input the translator reads is registered here once (diag_add_source)
 * and split into lines, so that any stage holding a Loc can have its message
 * printed with the offending source line and a caret under the column:
 *
 *   kern.f90:12:18: error: unknown clause 'copyinn' in !$stencil region
 *      12 | !$stencil region copyinn(a)
 *         |                  ^~~~~~~
 *
 * The file name and line number in the header and the gutter are the user's
 * (after the line map, so code that went through cpp still points at the
 * user's file); the text shown is the line the parser saw.  Feedback lines
 * (DIAG_INFO) are one line each, `file:line: info: msg`, because editors and
 * people's scripts read them that way (ARCHITECTURE.md section 3).
 *
 * The allocation helpers live here too: they are the other thing every
 * module needs, and like S2S_BUG they end the run with a message.
 */
#include "diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Sources are held by pointer so that a SourceFile* handed out by
 * diag_source stays valid when the table grows. */
static SourceFile **sources;
static int nsources, sources_cap;

/* File names from preprocessor markers, shared by every map_file entry that
 * names them (so the map holds one pointer per line, not one copy). */
static char **interned;
static int ninterned, interned_cap;

static FILE *diag_stream; /* NULL means stderr, which is not a constant */
static int error_count;
static bool werror;           /* -Werror: warnings are errors */
static DiagObserver observer; /* told of every message printed */

static FILE *out(void) { return diag_stream ? diag_stream : stderr; }

/* ---- allocation ---------------------------------------------------------- */

static _Noreturn void out_of_memory(size_t n) {
  fprintf(stderr, "s2s-cuda: fatal error: out of memory (allocating %zu bytes)\n", n);
  abort();
}

void *xmalloc(size_t n) {
  void *p = malloc(n ? n : 1); /* malloc(0) may return NULL legitimately */
  if (!p) out_of_memory(n);
  return p;
}

void *xcalloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size ? size : 1);
  if (!p) out_of_memory(n * size);
  return p;
}

void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n ? n : 1);
  if (!q) out_of_memory(n);
  return q;
}

char *xstrndup(const char *s, size_t n) {
  size_t len = 0;
  while (len < n && s[len]) len++;
  char *p = xmalloc(len + 1);
  memcpy(p, s, len);
  p[len] = '\0';
  return p;
}

char *xstrdup(const char *s) { return xstrndup(s, strlen(s)); }

char *xasprintf(const char *fmt, ...) {
  va_list ap, ap2;
  va_start(ap, fmt);
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n < 0) S2S_BUG("bad format '%s'", fmt);
  char *p = xmalloc((size_t)n + 1);
  vsnprintf(p, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  return p;
}

/* ---- internal errors ----------------------------------------------------- */

/* __FILE__ is what the build passed to the compiler; in a VPATH build that
 * starts with "../".  Drop such prefixes so the message names the file as it
 * is in the repository (translator/ir/ir.c). */
static const char *repo_path(const char *file) {
  for (;;) {
    if (strncmp(file, "./", 2) == 0) file += 2;
    else if (strncmp(file, "../", 3) == 0) file += 3;
    else return file;
  }
}

_Noreturn void s2s_bug(const char *file, int line, const char *fmt, ...) {
  if (diag_stream) fflush(diag_stream); /* keep earlier messages before this one */
  fprintf(stderr, "s2s-cuda: internal error at %s:%d: ", repo_path(file), line);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  abort();
}

/* ---- the source table ---------------------------------------------------- */

/* Record where each line starts.  A final line without '\n' is still a line;
 * a final '\n' does not open an empty one (so `nlines` matches an editor). */
static void split_lines(SourceFile *sf) {
  int n = 0;
  for (size_t i = 0; i < sf->len; i++)
    if (sf->text[i] == '\n') n++;
  if (sf->len > 0 && sf->text[sf->len - 1] != '\n') n++;
  const char **starts = xmalloc(sizeof *starts * (size_t)(n ? n : 1));
  int l = 0;
  for (size_t i = 0; i < sf->len; i++)
    if (i == 0 || sf->text[i - 1] == '\n') starts[l++] = sf->text + i;
  sf->nlines = n;
  sf->line_start = starts;
}

int diag_add_source(char *path, char *text, size_t len) {
  if (nsources == sources_cap) {
    sources_cap = sources_cap ? 2 * sources_cap : 8;
    sources = xrealloc(sources, sizeof *sources * (size_t)sources_cap);
  }
  SourceFile *sf = xcalloc(1, sizeof *sf);
  sf->path = path;
  sf->text = text;
  sf->len = len;
  split_lines(sf);
  sources[nsources] = sf;
  return nsources++;
}

SourceFile *diag_source(int file) {
  return file >= 0 && file < nsources ? sources[file] : NULL;
}

int diag_user_source(Loc loc, int *line) {
  const char *path = diag_user_file(loc);
  *line = diag_user_line(loc);
  for (int i = nsources - 1; i >= 0; i--)
    if (!sources[i]->map_file && strcmp(sources[i]->path, path) == 0)
      return *line <= sources[i]->nlines ? i : -1;
  return -1;
}

const char *diag_line(int file, int line, size_t *len) {
  SourceFile *sf = diag_source(file);
  if (!sf || line < 1 || line > sf->nlines) return NULL;
  const char *s = sf->line_start[line - 1];
  const char *end = line < sf->nlines ? sf->line_start[line] : sf->text + sf->len;
  if (end > s && end[-1] == '\n') end--;
  if (end > s && end[-1] == '\r') end--;
  *len = (size_t)(end - s);
  return s;
}

/* ---- the line map -------------------------------------------------------- */

static const char *intern(const char *name) {
  for (int i = 0; i < ninterned; i++)
    if (strcmp(interned[i], name) == 0) return interned[i];
  if (ninterned == interned_cap) {
    interned_cap = interned_cap ? 2 * interned_cap : 8;
    interned = xrealloc(interned, sizeof *interned * (size_t)interned_cap);
  }
  return interned[ninterned++] = xstrdup(name);
}

/* The map is created on first use, every line mapping to itself, so that
 * files that never went through cpp cost nothing. */
static void ensure_map(SourceFile *sf) {
  if (sf->map_file) return;
  size_t n = (size_t)(sf->nlines ? sf->nlines : 1);
  sf->map_file = xmalloc(sizeof *sf->map_file * n);
  sf->map_line = xmalloc(sizeof *sf->map_line * n);
  for (int l = 0; l < sf->nlines; l++) {
    sf->map_file[l] = sf->path;
    sf->map_line[l] = l + 1;
  }
}

void diag_map_line(int file, int line, const char *orig_file, int orig_line) {
  SourceFile *sf = diag_source(file);
  if (!sf) S2S_BUG("diag_map_line: no source %d", file);
  if (line < 1 || line > sf->nlines) return; /* a marker after the last line */
  ensure_map(sf);
  sf->map_file[line - 1] = intern(orig_file);
  sf->map_line[line - 1] = orig_line;
}

static bool mapped(const SourceFile *sf, int line) {
  return sf->map_file && line >= 1 && line <= sf->nlines;
}

const char *diag_user_file(Loc loc) {
  SourceFile *sf = diag_source(loc.file);
  if (!sf) return "s2s-cuda";
  return mapped(sf, loc.line) ? sf->map_file[loc.line - 1] : sf->path;
}

int diag_user_line(Loc loc) {
  SourceFile *sf = diag_source(loc.file);
  return sf && mapped(sf, loc.line) ? sf->map_line[loc.line - 1] : loc.line;
}

/* ---- printing ------------------------------------------------------------ */

static const char *kind_name(DiagKind kind) {
  switch (kind) {
  case DIAG_ERROR: return "error";
  case DIAG_WARNING: return "warning";
  case DIAG_NOTE: return "note";
  case DIAG_INFO: return "info";
  }
  S2S_BUG("bad DiagKind %d", (int)kind);
}

/* `file:line:col: kind: ` — parts that are unknown (0) are left out, and
 * info lines never carry a column: they are about a line, not a token. */
static void print_header(FILE *f, DiagKind kind, Loc loc) {
  fputs(diag_user_file(loc), f);
  if (diag_source(loc.file) && loc.line > 0) {
    fprintf(f, ":%d", diag_user_line(loc));
    if (loc.col > 0 && kind != DIAG_INFO) fprintf(f, ":%d", loc.col);
  }
  fprintf(f, ": %s: ", kind_name(kind));
}

static int digits(int n) {
  int d = 1;
  while (n >= 10) n /= 10, d++;
  return d;
}

/* Pad the caret line up to column `col`.  Tabs are copied so that the caret
 * lines up however the terminal expands them; the continuation bytes of a
 * UTF-8 character take no room, so a multi-byte character counts once. */
static void print_caret_padding(FILE *f, const char *s, size_t len, int col) {
  for (int i = 0; i < col - 1; i++) {
    unsigned char c = (size_t)i < len ? (unsigned char)s[i] : ' ';
    if (c == '\t') fputc('\t', f);
    else if ((c & 0xC0) != 0x80) fputc(' ', f);
  }
}

/* `^` then `~` under the `width` bytes from `col`.  The underline never runs
 * past the end of the line (a token that continues on the next line is
 * underlined up to the line's end), and like the padding it gives a
 * multi-byte UTF-8 character one mark, not one per byte. */
static void print_underline(FILE *f, const char *s, size_t len, int col, int width) {
  fputc('^', f);
  for (size_t i = (size_t)col; i < len && i < (size_t)(col - 1 + width); i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80) fputc('~', f);
}

static void print_source_line(FILE *f, Loc loc, int width) {
  size_t len;
  const char *s = diag_line(loc.file, loc.line, &len);
  if (!s) return;
  int uline = diag_user_line(loc);
  int gutter = digits(uline) > 5 ? digits(uline) : 5; /* gcc widens it, never narrows */
  fprintf(f, "%*d | %.*s\n", gutter, uline, (int)len, s);
  fprintf(f, "%*s | ", gutter, "");
  print_caret_padding(f, s, len, loc.col);
  print_underline(f, s, len, loc.col, width);
  fputc('\n', f);
}

/* The message text, for the observer. */
static char *format_message(const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) S2S_BUG("bad format '%s'", fmt);
  char *m = xmalloc((size_t)n + 1);
  vsnprintf(m, (size_t)n + 1, fmt, ap);
  return m;
}

void diag_vat(DiagKind kind, Loc loc, int width, const char *fmt, va_list ap) {
  FILE *f = out();
  bool promoted = werror && kind == DIAG_WARNING;
  if (promoted) kind = DIAG_ERROR;
  char *msg = format_message(fmt, ap);
  print_header(f, kind, loc);
  fprintf(f, "%s%s\n", msg, promoted ? " [-Werror]" : "");
  if (kind != DIAG_INFO && loc.col > 0) print_source_line(f, loc, width);
  if (kind == DIAG_ERROR) error_count++;
  if (observer) {
    bool known = diag_source(loc.file) && loc.line > 0;
    observer(kind, known ? diag_user_file(loc) : NULL, known ? diag_user_line(loc) : 0,
             known ? loc.col : 0, fmt, msg);
  }
  free(msg);
}

void diag_at(DiagKind kind, Loc loc, int width, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vat(kind, loc, width, fmt, ap);
  va_end(ap);
}

void diag_plain(DiagKind kind, const char *fmt, ...) {
  FILE *f = out();
  bool promoted = werror && kind == DIAG_WARNING;
  if (promoted) kind = DIAG_ERROR;
  va_list ap;
  va_start(ap, fmt);
  char *msg = format_message(fmt, ap);
  va_end(ap);
  fprintf(f, "s2s-cuda: %s: %s%s\n", kind_name(kind), msg, promoted ? " [-Werror]" : "");
  if (kind == DIAG_ERROR) error_count++;
  if (observer) observer(kind, NULL, 0, 0, fmt, msg);
  free(msg);
}

int diag_error_count(void) { return error_count; }

void diag_set_werror(bool on) { werror = on; }

void diag_set_observer(DiagObserver fn) { observer = fn; }

void diag_set_stream(void *file) { diag_stream = file; }

static void free_source(SourceFile *sf) {
  free(sf->path);
  free(sf->text);
  free(sf->line_start);
  free(sf->map_file);
  free(sf->map_line);
  free(sf);
}

/* The stream is left as it is: a test that redirected it keeps it. */
void diag_reset(void) {
  for (int i = 0; i < nsources; i++) free_source(sources[i]);
  free(sources);
  sources = NULL;
  nsources = sources_cap = 0;
  for (int i = 0; i < ninterned; i++) free(interned[i]);
  free(interned);
  interned = NULL;
  ninterned = interned_cap = 0;
  error_count = 0;
  werror = false;
}
