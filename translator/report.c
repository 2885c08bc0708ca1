/* report.c — the feedback report (-Minfo) and its JSON form.
 *
 * Passes call report_add as they decide; nothing is printed until the
 * driver asks, so that the lines of one routine come out together even when
 * several passes interleave their notes:
 *
 *   wsm5.f90: In routine 'wsm52d':
 *   wsm5.f90:266: info: Generating copyin(delz(its:ite,kts:kte,jts:jte))
 *   wsm5.f90:412: note: Loop carried dependence of 'qrs' ...
 *
 * The Loc a pass hands over is already the user's (file index of the input,
 * user line: passes map parsed lines with diag_user_line first, as they
 * must for region and directive lines, which the IR keeps as user lines).
 * An entry keeps its own copies of the file name and line, so the report
 * survives diag_reset and the IR arena being freed between input files.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* POSIX.1-2008 and realpath, also when built outside the Makefile */
#endif
#include "report.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

typedef struct ReportEntry {
  ReportKind kind;
  char *file;    /* the user's file (owned) */
  int line;      /* the user's line; 0 when unknown */
  char *routine; /* owned; NULL for entries about no routine */
  char *message; /* owned */
} ReportEntry;

static ReportEntry *entries;
static int nentries, entries_cap;

static const char *kind_name(ReportKind kind) {
  switch (kind) {
  case REPORT_INFO: return "info";
  case REPORT_NOTE: return "note";
  case REPORT_WARNING: return "warning";
  }
  S2S_BUG("bad ReportKind %d", (int)kind);
}

static void report_vadd(ReportKind kind, const char *routine, const char *file, int line,
                        const char *fmt, va_list ap) {
  if (nentries == entries_cap) {
    entries_cap = entries_cap ? 2 * entries_cap : 32;
    entries = xrealloc(entries, sizeof *entries * (size_t)entries_cap);
  }
  ReportEntry *e = &entries[nentries++];
  e->kind = kind;
  e->file = xstrdup(file);
  e->line = line > 0 ? line : 0;
  e->routine = routine ? xstrdup(routine) : NULL;
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n < 0) S2S_BUG("bad report format '%s'", fmt);
  e->message = xmalloc((size_t)n + 1);
  vsnprintf(e->message, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
}

int report_count(void) { return nentries; }

void report_drop(int from, int to) {
  if (from < 0 || to > nentries || from >= to) return;
  for (int i = from; i < to; i++) {
    free(entries[i].file);
    free(entries[i].routine);
    free(entries[i].message);
  }
  memmove(&entries[from], &entries[to], sizeof *entries * (size_t)(nentries - to));
  nentries -= to - from;
}

void report_add(ReportKind kind, const char *routine, Loc loc, const char *fmt, ...) {
  /* loc is already in the user's terms (report.h): loc.line is the user's
   * line and loc.file names the input it is in. */
  const SourceFile *sf = diag_source(loc.file);
  va_list ap;
  va_start(ap, fmt);
  report_vadd(kind, routine, sf ? sf->path : "s2s-cuda", loc.line, fmt, ap);
  va_end(ap);
}

void report_at(ReportKind kind, const char *routine, Loc parsed, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_vadd(kind, routine, diag_user_file(parsed), diag_user_line(parsed), fmt, ap);
  va_end(ap);
}

void report_add_file(ReportKind kind, const char *routine, const char *file, int line,
                     const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_vadd(kind, routine, file, line, fmt, ap);
  va_end(ap);
}

static bool same_str(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

/* Entries e and f belong to the same group: same file, same routine. */
static bool same_group(const ReportEntry *e, const ReportEntry *f) {
  return strcmp(e->file, f->file) == 0 && same_str(e->routine, f->routine);
}

static void print_entry(FILE *out, const ReportEntry *e) {
  if (e->line > 0) fprintf(out, "%s:%d: %s: %s\n", e->file, e->line, kind_name(e->kind), e->message);
  else fprintf(out, "%s: %s: %s\n", e->file, kind_name(e->kind), e->message);
}

/* Groups come out in the order their first entry was recorded; within a
 * group, entries keep their order.  Quadratic in the number of groups, which
 * is the number of routines with regions: small. */
void report_print(FILE *out) {
  bool *done = xcalloc((size_t)(nentries ? nentries : 1), sizeof *done);
  for (int i = 0; i < nentries; i++) {
    if (done[i]) continue;
    const ReportEntry *first = &entries[i];
    if (first->routine) fprintf(out, "%s: In routine '%s':\n", first->file, first->routine);
    for (int j = i; j < nentries; j++) {
      if (done[j] || !same_group(first, &entries[j])) continue;
      print_entry(out, &entries[j]);
      done[j] = true;
    }
  }
  free(done);
  fflush(out);
}

/* ---- JSON ------------------------------------------------------------------ */

/* Length of the valid UTF-8 sequence at s (1..4), or 0 if it is not one. */
static int utf8_length(const unsigned char *s) {
  int n;
  unsigned min;
  unsigned c = s[0];
  if (c < 0x80) return 1;
  if ((c & 0xE0) == 0xC0) n = 2, c &= 0x1F, min = 0x80;
  else if ((c & 0xF0) == 0xE0) n = 3, c &= 0x0F, min = 0x800;
  else if ((c & 0xF8) == 0xF0) n = 4, c &= 0x07, min = 0x10000;
  else return 0;
  for (int i = 1; i < n; i++) {
    if ((s[i] & 0xC0) != 0x80) return 0;
    c = (c << 6) | (s[i] & 0x3F);
  }
  if (c < min || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF)) return 0;
  return n;
}

/* A JSON string: quotes, backslashes and control characters escaped; bytes
 * that are not valid UTF-8 (a Latin-1 comment, say) become U+FFFD so the
 * document always parses. */
static void json_string(FILE *out, const char *str) {
  if (!str) {
    fputs("null", out);
    return;
  }
  const unsigned char *s = (const unsigned char *)str;
  fputc('"', out);
  while (*s) {
    unsigned char c = *s;
    int n;
    if (c == '"' || c == '\\') fprintf(out, "\\%c", c), n = 1;
    else if (c == '\n') fputs("\\n", out), n = 1;
    else if (c == '\r') fputs("\\r", out), n = 1;
    else if (c == '\t') fputs("\\t", out), n = 1;
    else if (c == '\b') fputs("\\b", out), n = 1;
    else if (c == '\f') fputs("\\f", out), n = 1;
    else if (c < 0x20 || c == 0x7F) fprintf(out, "\\u%04x", c), n = 1;
    else if ((n = utf8_length(s)) > 0) fwrite(s, 1, (size_t)n, out);
    else fputs("\\ufffd", out), n = 1;
    s += n;
  }
  fputc('"', out);
}

static void json_entry(FILE *out, const ReportEntry *e) {
  fputs("  {\"file\": ", out);
  json_string(out, e->file);
  fprintf(out, ", \"line\": %d, \"routine\": ", e->line);
  json_string(out, e->routine);
  fprintf(out, ", \"kind\": \"%s\", \"message\": ", kind_name(e->kind));
  json_string(out, e->message);
  fputc('}', out);
}

/* One entry per line, so that the file also reads well and diffs well.
 * `path` "-" means standard output. */
bool report_write_json(const char *path) {
  bool to_stdout = strcmp(path, "-") == 0;
  FILE *out = to_stdout ? stdout : fopen(path, "w");
  if (!out) return false;
  fputc('[', out);
  for (int i = 0; i < nentries; i++) {
    fputs(i ? ",\n" : "\n", out);
    json_entry(out, &entries[i]);
  }
  fputs(nentries ? "\n]\n" : "]\n", out);
  bool ok = !ferror(out);
  if (to_stdout) ok = fflush(out) == 0 && ok;
  else ok = fclose(out) == 0 && ok;
  return ok;
}

void report_clear(void) {
  for (int i = 0; i < nentries; i++) {
    free(entries[i].file);
    free(entries[i].routine);
    free(entries[i].message);
  }
  free(entries);
  entries = NULL;
  nentries = entries_cap = 0;
}
