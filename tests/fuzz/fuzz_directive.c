/* fuzz_directive.c — libFuzzer harness for the directive parser.
 *
 * The first byte picks the language (even: Fortran, odd: C); the rest is
 * a source file of which every line the front ends would take for a
 * directive (dir_is_directive_line) is read as one, continuation lines
 * included (dir_read: sentinel, joining, the recursive-descent parser,
 * every message), then printed back (dir_expr_print over every section)
 * and freed, as the front ends do.  The parser never needs the rest of
 * the translator, so this reaches its corners many times faster than
 * fuzz_translate.  Diagnostics go to /dev/null unless S2S_FUZZ_VERBOSE=1.
 *
 * Built and run by tests/fuzz.sh (`make fuzz`).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "directive.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc, (void)argv;
  const char *verbose = getenv("S2S_FUZZ_VERBOSE");
  if (!verbose || strcmp(verbose, "1") != 0) diag_set_stream(fopen("/dev/null", "w"));
  return 0;
}

static void print_expr(const DirExpr *e) {
  char buf[256];
  if (e) dir_expr_print(e, buf, sizeof buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  DirLang lang = data[0] & 1 ? DIR_C : DIR_FORTRAN;
  char *text = xmalloc(size);
  memcpy(text, data + 1, size - 1);
  text[size - 1] = '\0';
  int file = diag_add_source(xstrdup(lang == DIR_C ? "fuzz.c" : "fuzz.f90"), text, size - 1);
  int nlines = diag_source(file)->nlines;
  for (int line = 1; line <= nlines; line++) {
    if (!dir_is_directive_line(file, line, lang)) continue;
    int last = line;
    Directive *d = dir_read(file, line, lang, &last);
    if (last < line || last > nlines) abort(); /* the caller would loop or skip past the end */
    line = last;
    if (!d) continue;
    dir_kind_name(d->kind);
    for (int c = 0; c < d->nclauses; c++) {
      dir_clause_name(d->clauses[c].kind);
      for (int i = 0; i < d->clauses[c].nitems; i++)
        for (int s = 0; s < d->clauses[c].items[i].nsections; s++) {
          const DirSection *sec = &d->clauses[c].items[i].sections[s];
          print_expr(sec->lo);
          print_expr(sec->hi);
          print_expr(sec->len);
        }
    }
    dir_free(d);
  }
  diag_reset();
  return 0;
}
