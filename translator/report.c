/* report.c — the feedback report (-Minfo), its JSON form (version 2) and
 * SARIF 2.1.0.
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
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct ReportEntry {
  ReportKind kind;
  char *file;    /* the user's file (owned); NULL for a message about no file */
  int line;      /* the user's line; 0 when unknown */
  int col;       /* the column on that line; 0 when unknown */
  char *routine; /* owned; NULL for entries about no routine */
  char *message; /* owned */
  char *format;  /* the printf format the message came from (owned): a kind of message */
  bool from_diag; /* an error, warning or note diag.c printed already */
} ReportEntry;

static ReportEntry *entries;
static int nentries, entries_cap;
static bool werror;       /* warnings are errors (-Werror) */
static int nwarnings;     /* report warnings recorded, dropped ones too */

static const char *kind_name(ReportKind kind) {
  switch (kind) {
  case REPORT_INFO: return "info";
  case REPORT_NOTE: return "note";
  case REPORT_WARNING: return "warning";
  case REPORT_ERROR: return "error";
  }
  S2S_BUG("bad ReportKind %d", (int)kind);
}

static ReportEntry *new_entry(void) {
  if (nentries == entries_cap) {
    entries_cap = entries_cap ? 2 * entries_cap : 32;
    entries = xrealloc(entries, sizeof *entries * (size_t)entries_cap);
  }
  ReportEntry *e = &entries[nentries++];
  memset(e, 0, sizeof *e);
  return e;
}

static void report_vadd(ReportKind kind, const char *routine, const char *file, int line, int col,
                        const char *fmt, va_list ap) {
  ReportEntry *e = new_entry();
  e->kind = kind;
  e->file = xstrdup(file);
  e->line = line > 0 ? line : 0;
  e->col = line > 0 && col > 0 ? col : 0;
  e->routine = routine ? xstrdup(routine) : NULL;
  e->format = xstrdup(fmt);
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap);
  if (n < 0) S2S_BUG("bad report format '%s'", fmt);
  e->message = xmalloc((size_t)n + 1);
  vsnprintf(e->message, (size_t)n + 1, fmt, ap2);
  va_end(ap2);
  if (kind == REPORT_WARNING) nwarnings++;
}

void report_record_diag(DiagKind kind, const char *file, int line, int col, const char *format,
                        const char *message) {
  if (kind == DIAG_INFO) return; /* diag never prints info lines of its own */
  ReportEntry *e = new_entry();
  e->kind = kind == DIAG_ERROR ? REPORT_ERROR : kind == DIAG_WARNING ? REPORT_WARNING : REPORT_NOTE;
  e->file = file ? xstrdup(file) : NULL;
  e->line = file && line > 0 ? line : 0;
  e->col = e->line && col > 0 ? col : 0;
  e->message = xstrdup(message);
  e->format = xstrdup(format);
  e->from_diag = true;
}

int report_count(void) { return nentries; }

void report_set_text(int index, const char *message) {
  if (index < 0 || index >= nentries) S2S_BUG("report_set_text: no line %d", index);
  free(entries[index].message);
  entries[index].message = xstrdup(message);
}

int report_warning_count(void) { return nwarnings; }

void report_set_werror(bool on) { werror = on; }

static void free_entry(ReportEntry *e) {
  free(e->file);
  free(e->routine);
  free(e->message);
  free(e->format);
}

/* Diagnostics diag.c printed stay: only the feedback lines are planned again. */
void report_drop(int from, int to) {
  if (from < 0 || to > nentries || from >= to) return;
  int kept = from;
  for (int i = from; i < to; i++) {
    if (entries[i].from_diag) entries[kept++] = entries[i];
    else free_entry(&entries[i]);
  }
  memmove(&entries[kept], &entries[to], sizeof *entries * (size_t)(nentries - to));
  nentries -= to - kept;
}

void report_add(ReportKind kind, const char *routine, Loc loc, const char *fmt, ...) {
  /* loc is already in the user's terms (report.h): loc.line is the user's
   * line and loc.file names the input it is in. */
  const SourceFile *sf = diag_source(loc.file);
  va_list ap;
  va_start(ap, fmt);
  report_vadd(kind, routine, sf ? sf->path : "s2s-cuda", loc.line, loc.col, fmt, ap);
  va_end(ap);
}

void report_at(ReportKind kind, const char *routine, Loc parsed, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_vadd(kind, routine, diag_user_file(parsed), diag_user_line(parsed), parsed.col, fmt, ap);
  va_end(ap);
}

void report_add_file(ReportKind kind, const char *routine, const char *file, int line,
                     const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  report_vadd(kind, routine, file, line, 0, fmt, ap);
  va_end(ap);
}

/* ---- kinds of message -------------------------------------------------------------- */

/* Every kind of feedback line the passes write, by the shape of its text
 * ('*' stands for any text): its stable id (what tools key on: the wording
 * may be improved, the id stays), its -Minfo category and what it says.
 * First match wins, so a narrower shape comes before a wider one.
 * Errors, and lines of no shape here, get an id made from their format
 * (message_id). */
static const ReportKindInfo kinds[] = {
  { "accel-reduction", REPORT_CAT_ACCEL, "Generating reduction(*",
    "a scalar reduced across the columns on the GPU" },
  { "accel-data-directive", REPORT_CAT_ACCEL, "Generating *(*): *",
    "a data clause of a data or enter data directive: what it moves when, and the regions "
    "that find its arrays present" },
  { "accel-data-directive", REPORT_CAT_ACCEL, "*(*) on '* exit data': *",
    "a data clause of an exit data directive: what it moves when" },
  { "accel-host-data", REPORT_CAT_ACCEL, "use_device(*) on '* host_data': *",
    "the arrays whose device copies a host_data construct's host code names, and its lines" },
  { "accel-data-clause", REPORT_CAT_ACCEL, "Generating *(*",
    "a data clause: the sub-array moved to or from the device" },
  { "accel-kernel", REPORT_CAT_ACCEL, "Accelerator kernel generated: *",
    "a kernel generated, with its grid and block" },
  { "accel-loop-mapping", REPORT_CAT_ACCEL, "!$stencil do *",
    "how a loop is mapped onto blocks and threads" },
  { "accel-loop-mapping", REPORT_CAT_ACCEL, "#pragma stencil do *",
    "how a loop is mapped onto blocks and threads" },
  { "accel-loop-mapping", REPORT_CAT_ACCEL, "!$acc *", "how a loop is mapped onto blocks and threads" },
  { "accel-loop-mapping", REPORT_CAT_ACCEL, "#pragma acc *",
    "how a loop is mapped onto blocks and threads" },
  { "accel-clause-honoured", REPORT_CAT_ACCEL, "* on '*' honoured*",
    "a clause of an input directive and what it became" },
  { "accel-clause-ignored", REPORT_CAT_ACCEL, "* on '*' ignored*",
    "a clause of an input directive that has no effect here, and why" },
  { "accel-clause-superseded", REPORT_CAT_ACCEL, "* on '*' superseded*",
    "a clause of an input directive whose effect the translator provides itself" },
  { "accel-clause-not-needed", REPORT_CAT_ACCEL, "* on '*' not needed*",
    "a clause of an input directive that asks for what happens anyway" },
  { "accel-wait", REPORT_CAT_ACCEL, "'*' waits for every asynchronous update host*",
    "an input wait directive: what it waits for" },
  { "accel-clause-not-followed", REPORT_CAT_ACCEL, "* on '*' is not followed*",
    "a clause of an input directive that cannot be honoured, and why" },
  { "accel-directive-ignored", REPORT_CAT_ACCEL, "'*' ignored in the kernel*",
    "a directive of another model inside a region, ignored in the kernel" },
  { "accel-delinearize", REPORT_CAT_ACCEL, "Delinearized '*",
    "a linearized subscript read as a multi-dimensional one" },
  { "accel-region-split", REPORT_CAT_ACCEL, "Region split into *",
    "a region made into several kernels" },
  { "accel-kernel-split", REPORT_CAT_ACCEL, "Kernel split before line *",
    "where and why a region is split into kernels" },
  { "accel-module-scalar", REPORT_CAT_ACCEL, "Module variable '*",
    "a module variable the region reads" },
  { "accel-module-array", REPORT_CAT_ACCEL, "Module array '*",
    "a module array the region reads" },
  { "accel-work-array", REPORT_CAT_ACCEL, "Array '*' scalarized*",
    "a work array kept in registers, one value per column" },
  { "accel-work-array", REPORT_CAT_ACCEL, "Array '*' privatized*",
    "a work array kept per column" },
  { "accel-work-array-shared", REPORT_CAT_ACCEL, "Array '*' not kept per thread*",
    "why a work array stays shared by the threads" },
  { "accel-copy-not-copyout", REPORT_CAT_ACCEL, "copy, not copyout, for '*",
    "copy instead of copyout: not every element is surely written" },
  { "accel-clause-mismatch", REPORT_CAT_ACCEL, "copyin(*) but the region writes *",
    "a data clause that loses what the region writes" },
  { "accel-clause-uninitialized", REPORT_CAT_ACCEL, "*(*) but the region reads * never writes *",
    "a data clause that leaves the device copy uninitialized" },
  { "accel-private-ignored", REPORT_CAT_ACCEL, "private(*) is not followed*",
    "a private clause that cannot be honoured" },
  { "accel-advice-ignored", REPORT_CAT_ACCEL, "'*' on loop '*' is not followed*",
    "a loop directive that cannot be honoured" },
  { "accel-variant", REPORT_CAT_ACCEL, "Kernel variants for *",
    "kernel variants for present() of optional arguments" },
  { "accel-variant", REPORT_CAT_ACCEL, "Variant *", "one kernel variant" },
  { "accel-firstprivate", REPORT_CAT_ACCEL, "Scalar '*' is firstprivate*",
    "a scalar each thread starts from the host's value" },
  { "accel-reduction-result", REPORT_CAT_ACCEL, "Scalar '*' is the result of the *",
    "a reduction's result passed to a later kernel" },
  { "accel-fp-mode", REPORT_CAT_ACCEL, "Relaxed floating point*",
    "the fast intrinsics a kernel uses (-Mfprelaxed)" },
  { "accel-fp-mode", REPORT_CAT_ACCEL, "Strict IEEE floating point*",
    "a kernel built for IEEE results (-Kieee)" },
  { "accel-data-advice", REPORT_CAT_ACCEL, "the loop at lines * at every iteration*",
    "a host loop whose regions move the same arrays at every iteration: the data region "
    "that would keep them on the device" },
  { "accel-assumption", REPORT_CAT_ACCEL, "Assumed at run time: *",
    "an assumption the launcher checks" },
  { "accel-resources", REPORT_CAT_ACCEL, "Kernel * (sm_*",
    "registers, memory and occupancy ptxas gave a kernel" },
  { "accel-local-memory", REPORT_CAT_ACCEL, "Kernel * spills registers*",
    "a kernel that spills registers to local memory" },
  { "accel-local-memory", REPORT_CAT_ACCEL, "Kernel * uses * bytes of local memory*",
    "a kernel that uses local memory" },
  { "inline-routine", REPORT_CAT_INLINE, "Routine '*' inlined", "a subroutine call inlined" },
  { "inline-function", REPORT_CAT_INLINE, "Function '*' inlined", "a function reference inlined" },
  { "inline-device-function", REPORT_CAT_INLINE, "* generated as a __device__ function*",
    "a routine kept as a call of a __device__ function" },
  { "inline-call-removed", REPORT_CAT_INLINE, "Call of '*' removed*",
    "a call that does nothing the region needs" },
  { "inline-call", REPORT_CAT_INLINE, "Call of '*': *", "a call of a __device__ subroutine" },
  { "loop-parallel", REPORT_CAT_LOOP, "Loop is parallelizable", "a loop that runs in parallel" },
  { "loop-parallel", REPORT_CAT_LOOP, "Loop '*' is parallel as asserted*",
    "a loop parallel by the user's 'independent'" },
  { "loop-independent-ignored", REPORT_CAT_LOOP, "'independent' on loop '*' is not followed*",
    "an 'independent' the loop cannot honour" },
  { "loop-dependence", REPORT_CAT_LOOP, "Loop carried dependence of *",
    "a dependence that keeps a loop sequential, with its distance" },
  { "loop-sequential", REPORT_CAT_LOOP, "Loop '*' runs sequentially in each thread*",
    "a loop that runs sequentially in each thread, and why" },
  { "loop-not-fused", REPORT_CAT_LOOP, "Loops at lines * not fused*",
    "two loops that could not be fused, and why" },
  { "loop-fused", REPORT_CAT_LOOP, "Loops at lines * fused*", "loops fused into one" },
  { "loop-interchange", REPORT_CAT_LOOP, "Loop interchanged: *", "a loop moved outwards" },
  { "loop-kcache", REPORT_CAT_LOOP, "Loop '*' keeps values in registers*",
    "values kept in registers across iterations" },
  { "loop-tripcount", REPORT_CAT_LOOP, "Loop '*' runs to *", "a loop bounded per column" },
  { "loop-invariant", REPORT_CAT_LOOP, "Scalar '*' holds *", "a scalar invariant in the region" },
  { "loop-array-syntax", REPORT_CAT_LOOP, "Array assignment to * expanded*",
    "array syntax expanded into loops" },
  { "loop-contract", REPORT_CAT_LOOP, "Array '*' contracted*",
    "a work array contracted to fewer elements" },
  { "loop-recompute", REPORT_CAT_LOOP, "Array '*' recomputed*",
    "a stencil field computed where it is read" },
  { "loop-recompute", REPORT_CAT_LOOP, "Array '*' stored, not recomputed*",
    "a stencil field kept stored, and why" },
  { "loop-smem", REPORT_CAT_LOOP, "Array '*' staged in shared memory*",
    "a read-only array read around the thread's point, staged per block in shared memory" },
  { "loop-smem", REPORT_CAT_LOOP, "Array '*' not staged in shared memory*",
    "a stencil input left in global memory, and why" },
  { "loop-smem", REPORT_CAT_LOOP, "Kernel * runs in blocks of * for its shared-memory tiles",
    "the 2-D block shape of a kernel with shared-memory tiles" },
  { "loop-coarsen", REPORT_CAT_LOOP, "Kernel * computes * points of '*' per thread*",
    "a kernel whose threads each compute several consecutive points of the loop on grid axis "
    "y, which share loads (thread coarsening)" },
  { "loop-coarsen", REPORT_CAT_LOOP, "Kernel * not coarsened: *",
    "a kernel whose points would share loads kept at one point per thread, and why" },
};

/* Does `text` have the shape `pattern` ('*': any text, also none)? */
static bool shape_match(const char *pattern, const char *text) {
  for (; *pattern; pattern++, text++) {
    if (*pattern == '*') {
      for (const char *t = text;; t++) {
        if (shape_match(pattern + 1, t)) return true;
        if (!*t) return false;
      }
    }
    if (*pattern != *text) return false;
  }
  return *text == '\0';
}

const ReportKindInfo *report_kind_of(const char *message) {
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (shape_match(kinds[i].shape, message)) return &kinds[i];
  return NULL;
}

/* The id of an entry: its kind's, else one made from its format, which is
 * the same for every message of one kind: `error-` and 8 hex digits of its
 * FNV-1a hash.  Written into buf. */
static const char *entry_id(const ReportEntry *e, char *buf, size_t size) {
  const ReportKindInfo *k = e->from_diag ? NULL : report_kind_of(e->message);
  if (k) return k->id;
  uint32_t h = 2166136261u;
  for (const unsigned char *p = (const unsigned char *)e->format; *p; p++) h = (h ^ *p) * 16777619u;
  snprintf(buf, size, "%s-%08x", kind_name(e->kind), (unsigned)h);
  return buf;
}

static unsigned entry_category(const ReportEntry *e) {
  const ReportKindInfo *k = e->from_diag ? NULL : report_kind_of(e->message);
  return k ? k->category : REPORT_CAT_ACCEL;
}

static const char *category_name(unsigned cat) {
  return cat == REPORT_CAT_INLINE ? "inline" : cat == REPORT_CAT_LOOP ? "loop" : "accel";
}

/* ---- printing ---------------------------------------------------------------------- */

static bool same_str(const char *a, const char *b) {
  return a == b || (a && b && strcmp(a, b) == 0);
}

/* Entries e and f belong to the same group: same file, same routine. */
static bool same_group(const ReportEntry *e, const ReportEntry *f) {
  return same_str(e->file, f->file) && same_str(e->routine, f->routine);
}

/* `file:line:col: kind: message`; a warning under -Werror is an error. */
static void print_entry(FILE *out, const ReportEntry *e) {
  bool as_error = werror && e->kind == REPORT_WARNING;
  fputs(e->file ? e->file : "s2s-cuda", out);
  if (e->line > 0) fprintf(out, ":%d", e->line);
  if (e->line > 0 && e->col > 0) fprintf(out, ":%d", e->col);
  fprintf(out, ": %s: %s%s\n", as_error ? "error" : kind_name(e->kind), e->message,
          as_error ? " [-Werror]" : "");
}

/* Is e printed: a warning always; an info or note line when its category
 * is asked for; never what diag.c printed already. */
static bool shown(const ReportEntry *e, unsigned categories) {
  if (e->from_diag) return false;
  if (e->kind == REPORT_WARNING || e->kind == REPORT_ERROR) return true;
  return (entry_category(e) & categories) != 0;
}

/* Groups come out in the order their first entry was recorded; within a
 * group, entries keep their order.  Quadratic in the number of groups, which
 * is the number of routines with regions: small. */
void report_print_selected(FILE *out, unsigned categories) {
  bool *done = xcalloc((size_t)(nentries ? nentries : 1), sizeof *done);
  for (int i = 0; i < nentries; i++) {
    if (done[i] || !shown(&entries[i], categories)) continue;
    const ReportEntry *first = &entries[i];
    if (first->routine) fprintf(out, "%s: In routine '%s':\n", first->file, first->routine);
    for (int j = i; j < nentries; j++) {
      if (done[j] || !same_group(first, &entries[j]) || !shown(&entries[j], categories)) continue;
      print_entry(out, &entries[j]);
      done[j] = true;
    }
  }
  free(done);
  fflush(out);
}

void report_print(FILE *out) { report_print_selected(out, REPORT_CAT_ALL); }

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

/* ---- structured fields ------------------------------------------------------------- */

/* The fields of a message of a known kind, taken from its text (the text
 * is the contract; these are the same facts for tools that should not
 * parse it), written as `, "key": value` pairs. */

/* The text after `from` up to the parenthesis or bracket that closes the
 * one just before `from` ("copyin(a(1:n))" from after "copyin(": "a(1:n)"). */
static char *up_to_close(const char *from) {
  int depth = 1;
  const char *p = from;
  for (; *p && depth; p++) {
    if (*p == '(' || *p == '[') depth++;
    else if (*p == ')' || *p == ']') depth--;
  }
  return xstrndup(from, (size_t)(p - from - (depth ? 0 : 1)));
}

static void json_field(FILE *out, const char *key, const char *value, size_t n) {
  char *v = xstrndup(value, n);
  fprintf(out, ", \"%s\": ", key);
  json_string(out, v);
  free(v);
}

/* The text between the first `open` at or after s and the next `close`. */
static bool between(const char *s, const char *open, const char *close, const char **at,
                    size_t *n) {
  const char *a = strstr(s, open);
  if (!a) return false;
  a += strlen(open);
  const char *b = strstr(a, close);
  if (!b) return false;
  *at = a;
  *n = (size_t)(b - a);
  return true;
}

/* The names quoted in s ('j', 'i') as a JSON array. */
static void json_quoted_names(FILE *out, const char *key, const char *s) {
  fprintf(out, ", \"%s\": [", key);
  int n = 0;
  for (const char *p = strchr(s, '\''); p; p = strchr(p, '\'')) {
    const char *q = strchr(p + 1, '\'');
    if (!q) break;
    char *name = xstrndup(p + 1, (size_t)(q - p - 1));
    fputs(n++ ? ", " : "", out);
    json_string(out, name);
    free(name);
    p = q + 1;
  }
  fputc(']', out);
}

/* A list split at top-level commas (or C's [..][..] bounds) as a JSON array. */
static void json_split(FILE *out, const char *key, const char *s, bool brackets) {
  fprintf(out, ", \"%s\": [", key);
  int n = 0, depth = 0;
  const char *start = s + (brackets && *s == '[');
  for (const char *p = start;; p++) {
    bool end = !*p || (!brackets && depth == 0 && *p == ',') ||
               (brackets && depth == 0 && *p == ']');
    if (end) {
      char *item = xstrndup(start, (size_t)(p - start));
      fputs(n++ ? ", " : "", out);
      json_string(out, item);
      free(item);
      if (!*p) break;
      if (brackets && p[1] != '[') break;
      start = p + 1 + brackets;
      p += brackets;
      continue;
    }
    if (*p == '(' || *p == '[') depth++;
    else if (*p == ')' || *p == ']') depth--;
  }
  fputc(']', out);
}

/* "Generating copyin(t(its-1:ite+1,kts:kte)) (inferred)", C "a[0:n][0:m]". */
static void fields_data_clause(FILE *out, const char *m) {
  const char *clause = m + strlen("Generating ");
  const char *open = strchr(clause, '(');
  json_field(out, "clause", clause, (size_t)(open - clause));
  char *item = up_to_close(open + 1);
  size_t name = strcspn(item, "([");
  json_field(out, "array", item, name);
  if (item[name] == '(') {
    char *bounds = up_to_close(item + name + 1);
    json_split(out, "bounds", bounds, false);
    free(bounds);
  } else if (item[name] == '[') {
    json_split(out, "bounds", item + name, true);
  }
  fprintf(out, ", \"inferred\": %s", strstr(m, ") (inferred)") ? "true" : "false");
  free(item);
}

static void fields_of(FILE *out, const char *id, const char *m) {
  const char *at;
  size_t n;
  if (!strcmp(id, "accel-data-clause")) {
    fields_data_clause(out, m);
  } else if (!strcmp(id, "accel-reduction") && between(m, "reduction(", ":", &at, &n)) {
    fputs(", \"clause\": \"reduction\"", out);
    json_field(out, "operator", at, n);
    if (between(at, ":", ")", &at, &n)) json_field(out, "variable", at, n);
    const char *over = strstr(m, " over loop");
    const char *colon = over ? strchr(over, ':') : NULL;
    if (over) {
      char *loops = xstrndup(over, colon ? (size_t)(colon - over) : strlen(over));
      json_quoted_names(out, "loops", loops);
      free(loops);
    }
  } else if (!strcmp(id, "accel-kernel")) {
    const char *k = m + strlen("Accelerator kernel generated: ");
    json_field(out, "kernel", k, strcspn(k, " "));
    if (between(m, " grid [", "]", &at, &n)) json_field(out, "grid", at, n);
    if (between(m, " block [", "]", &at, &n)) json_field(out, "block", at, n);
  } else if (!strcmp(id, "accel-loop-mapping")) {
    /* "!$stencil do SCHEDULE ! HARDWARE", also #pragma and !$acc loop/do */
    bool c = m[0] == '#';
    const char *sched = strstr(m, " do ");
    const char *loop = strstr(m, " loop ");
    if (!sched || (loop && loop < sched)) sched = loop;
    sched = sched ? strchr(sched + 1, ' ') + 1 : m;
    const char *hw = strstr(sched, c ? " // " : " ! ");
    json_field(out, "schedule", sched, hw ? (size_t)(hw - sched) : strlen(sched));
    if (hw) json_field(out, "hardware", hw + (c ? 4 : 3), strlen(hw + (c ? 4 : 3)));
  } else if (!strcmp(id, "loop-dependence")) {
    if (between(m, "dependence of '", "'", &at, &n)) json_field(out, "array", at, n);
    if (between(m, "(", " dependence,", &at, &n)) json_field(out, "dependence", at, n);
    if (between(m, "distance ", " along ", &at, &n)) {
      json_field(out, "distance", at, n);
      char *d = xstrndup(at + (*at == '('), n - (*at == '(') - (n && at[n - 1] == ')'));
      json_split(out, "distance_vector", d, false);
      free(d);
    }
    if (between(m, " along ", ")", &at, &n)) {
      char *along = xstrndup(at, n);
      json_split(out, "along", along, false);
      free(along);
    }
    if (between(m, "keeps loop '", "'", &at, &n)) json_field(out, "loop", at, n);
  } else if (!strcmp(id, "accel-clause-mismatch") || !strcmp(id, "accel-clause-uninitialized")) {
    json_field(out, "clause", m, strcspn(m, "("));
    if (between(m, "(", ")", &at, &n)) json_field(out, "array", at, n);
  } else if (!strcmp(id, "accel-private-ignored")) {
    fputs(", \"clause\": \"private\"", out);
    if (between(m, "(", ")", &at, &n)) json_field(out, "array", at, n);
  } else if (!strcmp(id, "accel-resources") || !strcmp(id, "accel-local-memory")) {
    const char *k = m + strlen("Kernel ");
    json_field(out, "kernel", k, strcspn(k, " "));
  } else if (!strcmp(id, "loop-interchange")) {
    const char *l = m + strlen("Loop interchanged: ");
    json_field(out, "loop", l, strcspn(l, " "));
    if (between(m, " moved outside ", " ", &at, &n)) json_field(out, "moved_past", at, n);
  } else if (!strncmp(id, "inline-", 7) && between(m, "'", "'", &at, &n)) {
    json_field(out, "callee", at, n);
  } else if (!strncmp(m, "Loop '", 6) && between(m, "Loop '", "'", &at, &n)) {
    json_field(out, "loop", at, n);
  } else if (!strcmp(id, "accel-delinearize") && between(m, "'", "'", &at, &n)) {
    json_field(out, "array", at, n);
  } else if (!strncmp(id, "accel-clause-", 13) && strstr(m, " on '")) {
    json_field(out, "clause", m, (size_t)(strstr(m, " on '") - m));
    if (between(m, " on '", "'", &at, &n)) json_field(out, "directive", at, n);
  } else if ((!strncmp(m, "Array '", 7) || !strncmp(m, "Module array '", 14) ||
              !strncmp(m, "copy, not copyout, for '", 24)) && between(m, "'", "'", &at, &n)) {
    json_field(out, "array", at, n);
  } else if ((!strncmp(m, "Scalar '", 8) || !strncmp(m, "Module variable '", 17)) &&
             between(m, "'", "'", &at, &n)) {
    json_field(out, "variable", at, n);
  }
}

/* ---- JSON, format version 2 ------------------------------------------------------ */

static void json_fields(FILE *out, const ReportEntry *e, const char *id) {
  char *text = NULL;
  size_t len = 0;
  FILE *buf = open_memstream(&text, &len);
  if (!buf) S2S_BUG("open_memstream failed");
  if (!e->from_diag) fields_of(buf, id, e->message);
  fclose(buf);
  fprintf(out, "{%s}", len > 2 ? text + 2 : ""); /* without the first ", " */
  free(text);
}

static void json_entry(FILE *out, const ReportEntry *e) {
  char buf[32];
  const char *id = entry_id(e, buf, sizeof buf);
  fputs("    {\"id\": ", out);
  json_string(out, id);
  fprintf(out, ", \"kind\": \"%s\", \"category\": ",
          werror && e->kind == REPORT_WARNING ? "error" : kind_name(e->kind));
  json_string(out, e->from_diag ? NULL : category_name(entry_category(e)));
  fputs(", \"file\": ", out);
  json_string(out, e->file);
  fprintf(out, ", \"line\": %d, \"column\": %d, \"routine\": ", e->line, e->col);
  json_string(out, e->routine);
  fputs(", \"message\": ", out);
  json_string(out, e->message);
  fputs(", \"fields\": ", out);
  json_fields(out, e, id);
  fputc('}', out);
}

static FILE *open_report(const char *path) {
  return strcmp(path, "-") == 0 ? stdout : fopen(path, "w");
}

static bool close_report(FILE *out, const char *path) {
  bool ok = !ferror(out);
  if (strcmp(path, "-") == 0) return fflush(out) == 0 && ok;
  return fclose(out) == 0 && ok;
}

/* One diagnostic per line, so that the file also reads well and diffs
 * well.  `path` "-" means standard output. */
bool report_write_json(const char *path, const char *version) {
  FILE *out = open_report(path);
  if (!out) return false;
  fputs("{\"format\": \"s2s-cuda-report\", \"version\": 2,\n \"tool\": {\"name\": \"s2s-cuda\", "
        "\"version\": ", out);
  json_string(out, version);
  fputs("},\n \"diagnostics\": [", out);
  for (int i = 0; i < nentries; i++) {
    fputs(i ? ",\n" : "\n", out);
    json_entry(out, &entries[i]);
  }
  fputs(nentries ? "\n ]}\n" : "]}\n", out);
  return close_report(out, path);
}

/* ---- SARIF 2.1.0 ------------------------------------------------------------------- */

/* A file name as a relative URI reference: bytes other than unreserved
 * characters and '/' percent-encoded. */
static void json_uri(FILE *out, const char *path) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
    if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
        strchr("-._~/", *p))
      fputc(*p, out);
    else
      fprintf(out, "%%%02X", *p);
  }
  fputc('"', out);
}

/* SARIF levels: error, warning, note (info lines are notes too). */
static const char *sarif_level(const ReportEntry *e) {
  if (e->kind == REPORT_ERROR || (werror && e->kind == REPORT_WARNING)) return "error";
  return e->kind == REPORT_WARNING ? "warning" : "note";
}

/* The description of a rule: its kind's, else its format with each
 * conversion shown as "...". */
static char *rule_text(const ReportEntry *e) {
  const ReportKindInfo *k = e->from_diag ? NULL : report_kind_of(e->message);
  if (k) return xstrdup(k->what);
  char *t = xmalloc(strlen(e->format) * 3 + 1), *q = t;
  for (const char *p = e->format; *p; p++) {
    if (*p != '%') {
      *q++ = *p;
      continue;
    }
    if (p[1] == '%') {
      *q++ = '%', p++;
      continue;
    }
    p += strspn(p + 1, "-+ #0123456789.*hlLzjt");
    if (!*p || !p[1]) break;
    p++;
    memcpy(q, "...", 3), q += 3;
  }
  *q = '\0';
  return t;
}

bool report_write_sarif(const char *path, const char *version) {
  FILE *out = open_report(path);
  if (!out) return false;
  /* the rules: one per id, in the order of first use */
  char (*ids)[32] = xcalloc((size_t)(nentries ? nentries : 1), sizeof *ids);
  int *rule_of = xcalloc((size_t)(nentries ? nentries : 1), sizeof *rule_of);
  int nrules = 0;
  fputs("{\"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n \"version\": "
        "\"2.1.0\",\n \"runs\": [{\"tool\": {\"driver\": {\"name\": \"s2s-cuda\", \"version\": ",
        out);
  json_string(out, version);
  fputs(", \"rules\": [", out);
  for (int i = 0; i < nentries; i++) {
    char buf[32];
    const char *id = entry_id(&entries[i], buf, sizeof buf);
    int r = 0;
    while (r < nrules && strcmp(ids[r], id)) r++;
    rule_of[i] = r;
    if (r < nrules) continue;
    snprintf(ids[nrules++], sizeof ids[0], "%s", id);
    char *text = rule_text(&entries[i]);
    fputs(r ? ",\n   " : "\n   ", out);
    fputs("{\"id\": ", out);
    json_string(out, id);
    fputs(", \"shortDescription\": {\"text\": ", out);
    json_string(out, text);
    fprintf(out, "}, \"properties\": {\"category\": ");
    json_string(out, entries[i].from_diag ? NULL : category_name(entry_category(&entries[i])));
    fputs("}}", out);
    free(text);
  }
  fputs("]}},\n  \"results\": [", out);
  for (int i = 0; i < nentries; i++) {
    const ReportEntry *e = &entries[i];
    fputs(i ? ",\n   " : "\n   ", out);
    fputs("{\"ruleId\": ", out);
    json_string(out, ids[rule_of[i]]);
    fprintf(out, ", \"ruleIndex\": %d, \"level\": \"%s\", \"message\": {\"text\": ", rule_of[i],
            sarif_level(e));
    json_string(out, e->message);
    fputc('}', out);
    if (e->file && e->line > 0) {
      fputs(", \"locations\": [{\"physicalLocation\": {\"artifactLocation\": {\"uri\": ", out);
      json_uri(out, e->file);
      fprintf(out, "}, \"region\": {\"startLine\": %d", e->line);
      if (e->col > 0) fprintf(out, ", \"startColumn\": %d", e->col);
      fputs("}}}]", out);
    }
    fprintf(out, ", \"properties\": {\"kind\": \"%s\", \"routine\": ", kind_name(e->kind));
    json_string(out, e->routine);
    fputs(", \"fields\": ", out);
    json_fields(out, e, ids[rule_of[i]]);
    fputs("}}", out);
  }
  fputs(nentries ? "\n  ]}]}\n" : "]}]}\n", out);
  free(ids);
  free(rule_of);
  return close_report(out, path);
}

void report_clear(void) {
  for (int i = 0; i < nentries; i++) free_entry(&entries[i]);
  free(entries);
  entries = NULL;
  nentries = entries_cap = 0;
  nwarnings = 0;
}
