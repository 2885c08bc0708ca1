/* report.h — the feedback report (-Minfo) and its JSON form.
 *
 * Passes record each decision as it is made: what was generated, which
 * loops are parallel, how loops map to blockIdx/threadIdx, and every
 * refusal with its reason and the clause that would lift it.  The driver
 * prints the collected entries at the end, grouped by routine, in gcc's
 * clickable form (`file:line: info: message`), and writes them as JSON for
 * tools with --report=json FILE.  Wording is part of the user contract
 * (ARCHITECTURE.md section 3): scripts parse these lines.
 */
#ifndef S2S_REPORT_H
#define S2S_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "diag.h"

/* REPORT_ERROR only for the errors diag.c printed (report_record_diag). */
typedef enum ReportKind { REPORT_INFO, REPORT_NOTE, REPORT_WARNING, REPORT_ERROR } ReportKind;

/* -Minfo categories (the same bits as options.h's MINFO_*). */
enum {
  REPORT_CAT_ACCEL = 1u << 0,
  REPORT_CAT_INLINE = 1u << 1,
  REPORT_CAT_LOOP = 1u << 2,
  REPORT_CAT_ALL = REPORT_CAT_ACCEL | REPORT_CAT_INLINE | REPORT_CAT_LOOP,
};

/* A kind of feedback line: its stable id (tools key on it), category, the
 * shape of its text ('*': any text) and what it says (SARIF's rule text). */
typedef struct ReportKindInfo {
  const char *id;
  unsigned category;
  const char *shape;
  const char *what;
} ReportKindInfo;

/* The kind of a feedback line's text, or NULL when it has none of the
 * known shapes (its id is then made from its format). */
const ReportKindInfo *report_kind_of(const char *message);

/* Record a diagnostic diag.c printed (its DiagObserver), so that the JSON
 * and SARIF reports hold every error too.  `file` NULL: about no file. */
void report_record_diag(DiagKind kind, const char *file, int line, int col, const char *format,
                        const char *message);

/* Record one line.  `routine` groups the lines; `loc` gives file and line
 * (after the line map).  Returns nothing; the text is copied. */
void report_add(ReportKind kind, const char *routine, Loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The same for a location in the parsed text (an IR node's loc): the line
 * map gives the user's file and line. */
void report_at(ReportKind kind, const char *routine, Loc parsed, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The same for a place known by the user's file name and line (the
 * resource lines of compiler-driver mode, recorded after the translation's
 * line maps are gone). */
void report_add_file(ReportKind kind, const char *routine, const char *file, int line,
                     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* How many lines have been recorded; and dropping the lines [from, to)
 * (a pass that plans a region again drops what the first planning said). */
int report_count(void);
void report_drop(int from, int to);

/* Replace the text of line `index` (report_count() just before it was
 * recorded; the text is copied): a later pass that changes what an earlier
 * one reported (the grid pass coarsen shrinks).  Its kind, place and format
 * (its kind of message) stay: the new text must have the same shape. */
void report_set_text(int index, const char *message);

/* How many warnings have been recorded (for -Werror: a translation that
 * added one fails). */
int report_warning_count(void);

/* -Werror: warnings print as `error: ... [-Werror]` and are SARIF errors. */
void report_set_werror(bool on);

/* Print the collected lines to `out` grouped by routine:
 *   file.f90: In routine 'name':
 *   file.f90:21: info: Generating copyin(t(its-1:ite+1,kts:kte,jts-1:jte+1))
 * Lines keep the order in which they were recorded within a routine. */
void report_print(FILE *out);

/* The same for the info and note lines of the REPORT_CAT_* `categories`
 * (-Minfo=accel,loop), and every warning; lines carry a column where the
 * pass knew one (`file:line:col: info: ...`).  Diagnostics diag.c printed
 * are not printed again. */
void report_print_selected(FILE *out, unsigned categories);

/* Write every entry, diagnostics included, as JSON format version 2
 * (documented in the man page, section REPORTS):
 *   {"format": "s2s-cuda-report", "version": 2, "tool": {"name", "version"},
 *    "diagnostics": [{"id", "kind", "category", "file", "line", "column",
 *                     "routine", "message", "fields": {...}}, ...]}
 * Returns false if the file cannot be written. */
bool report_write_json(const char *path, const char *version);

/* The same as a SARIF 2.1.0 log: one run, a rule per id, a result per
 * entry with its level and location. */
bool report_write_sarif(const char *path, const char *version);

void report_clear(void);

#endif
