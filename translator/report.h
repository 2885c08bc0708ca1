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

typedef enum ReportKind { REPORT_INFO, REPORT_NOTE, REPORT_WARNING } ReportKind;

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

/* Print the collected lines to `out` grouped by routine:
 *   file.f90: In routine 'name':
 *   file.f90:21: info: Generating copyin(t(its-1:ite+1,kts:kte,jts-1:jte+1))
 * Lines keep the order in which they were recorded within a routine. */
void report_print(FILE *out);

/* Write the entries as a JSON array of
 *   {"file":..,"line":..,"routine":..,"kind":"info"|"note"|"warning","message":..}
 * Returns false if the file cannot be written. */
bool report_write_json(const char *path);

void report_clear(void);

#endif
