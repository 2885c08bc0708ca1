/* check_diag.c — unit tests of diagnostics, the source table and the line map.
 *
 * The exact text matters: editors jump on `file:line:col:`, people's scripts
 * read the `info:` lines, and golden tests compare stderr byte for byte.  So
 * most tests here compare the whole output of one call.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

static char *captured;
static size_t captured_len;
static FILE *capture;

static void setup(void) {
  diag_reset();
  captured = NULL;
  capture = open_memstream(&captured, &captured_len);
  diag_set_stream(capture);
}

static void teardown(void) {
  diag_set_stream(NULL);
  fclose(capture);
  free(captured);
  diag_reset();
}

/* What was printed since the last call; the capture starts again empty. */
static const char *take(void) {
  static char last[4096];
  fclose(capture);
  snprintf(last, sizeof last, "%s", captured ? captured : "");
  free(captured);
  captured = NULL;
  capture = open_memstream(&captured, &captured_len);
  diag_set_stream(capture);
  return last;
}

static int add(const char *name, const char *text) {
  return diag_add_source(xstrdup(name), xstrdup(text), strlen(text));
}

static const char *kern =
    "subroutine kern(a)\n"
    "  real a(10)\n"
    "!$stencil region copyinn(a)\n";

START_TEST(test_caret_form) {
  int f = add("kern.f90", kern);
  diag_at(DIAG_ERROR, (Loc){f, 3, 18}, 7, "unknown clause '%s' in !$stencil region", "copyinn");
  ck_assert_str_eq(take(),
                   "kern.f90:3:18: error: unknown clause 'copyinn' in !$stencil region\n"
                   "    3 | !$stencil region copyinn(a)\n"
                   "      |                  ^~~~~~~\n");
  ck_assert_int_eq(diag_error_count(), 1);
}
END_TEST

START_TEST(test_kinds) {
  int f = add("kern.f90", kern);
  diag_at(DIAG_WARNING, (Loc){f, 2, 3}, 4, "w");
  ck_assert_str_eq(take(), "kern.f90:2:3: warning: w\n"
                           "    2 |   real a(10)\n"
                           "      |   ^~~~\n");
  diag_at(DIAG_NOTE, (Loc){f, 1, 1}, 1, "n");
  ck_assert_str_eq(take(), "kern.f90:1:1: note: n\n"
                           "    1 | subroutine kern(a)\n"
                           "      | ^\n");
  ck_assert_int_eq(diag_error_count(), 0); /* only errors count */
}
END_TEST

/* -Werror: a warning is printed and counted as an error. */
START_TEST(test_werror) {
  int f = add("kern.f90", kern);
  diag_set_werror(true);
  diag_at(DIAG_WARNING, (Loc){f, 2, 3}, 4, "w");
  ck_assert_str_eq(take(), "kern.f90:2:3: error: w [-Werror]\n"
                           "    2 |   real a(10)\n"
                           "      |   ^~~~\n");
  diag_plain(DIAG_WARNING, "ignoring '%s'", "-O9");
  ck_assert_str_eq(take(), "s2s-cuda: error: ignoring '-O9' [-Werror]\n");
  ck_assert_int_eq(diag_error_count(), 2);
  diag_at(DIAG_NOTE, (Loc){f, 1, 1}, 1, "n");   /* notes stay notes */
  ck_assert_ptr_nonnull(strstr(take(), "note: n"));
  diag_set_werror(false);
  diag_at(DIAG_WARNING, (Loc){f, 2, 3}, 4, "w");
  ck_assert_ptr_nonnull(strstr(take(), "warning: w\n"));
}
END_TEST

/* The observer (the JSON and SARIF reports) sees each message with the
 * user's file, line and column and the format it came from. */
static char observed[512];
static void observe(DiagKind kind, const char *file, int line, int col, const char *format,
                    const char *message) {
  snprintf(observed, sizeof observed, "%d|%s|%d|%d|%s|%s", (int)kind, file ? file : "(none)", line,
           col, format, message);
}

START_TEST(test_observer) {
  int f = add("kern.f90", kern);
  diag_map_line(f, 3, "user.F90", 40);
  diag_set_observer(observe);
  diag_at(DIAG_ERROR, (Loc){f, 3, 18}, 7, "unknown clause '%s'", "copyinn");
  ck_assert_str_eq(observed, "0|user.F90|40|18|unknown clause '%s'|unknown clause 'copyinn'");
  diag_plain(DIAG_NOTE, "no %s", "directives");
  ck_assert_str_eq(observed, "2|(none)|0|0|no %s|no directives");
  diag_set_observer(NULL);
  take();
}
END_TEST

START_TEST(test_info_has_no_caret) {
  int f = add("wsm5.f90", kern);
  diag_at(DIAG_INFO, (Loc){f, 3, 11}, 6, "Generating copyin(%s)", "delz(its:ite,kts:kte,jts:jte)");
  ck_assert_str_eq(take(), "wsm5.f90:3: info: Generating copyin(delz(its:ite,kts:kte,jts:jte))\n");
  diag_at(DIAG_INFO, (Loc){f, 2, 0}, 0, "Loop is parallelizable");
  ck_assert_str_eq(take(), "wsm5.f90:2: info: Loop is parallelizable\n");
}
END_TEST

START_TEST(test_note_without_column) {
  int f = add("wsm5.f90", kern);
  diag_at(DIAG_NOTE, (Loc){f, 2, 0}, 1, "Loop carried dependence of 'qrs' keeps loop k sequential");
  ck_assert_str_eq(take(), "wsm5.f90:2: note: Loop carried dependence of 'qrs' keeps loop k sequential\n");
}
END_TEST

START_TEST(test_tabs_reproduced) {
  int f = add("t.f90", "\tx =\ty + zz\n");
  diag_at(DIAG_ERROR, (Loc){f, 1, 10}, 2, "here");
  ck_assert_str_eq(take(), "t.f90:1:10: error: here\n"
                           "    1 | \tx =\ty + zz\n"
                           "      | \t   \t    ^~\n");
}
END_TEST

START_TEST(test_utf8_before_caret) {
  /* "é" is two bytes but one character: one pad, and one mark under it */
  int f = add("t.f90", "! \xc3\xa9t\xc3\xa9 x\n");
  diag_at(DIAG_ERROR, (Loc){f, 1, 9}, 1, "x");
  diag_at(DIAG_ERROR, (Loc){f, 1, 3}, 5, "word");
  ck_assert_str_eq(take(), "t.f90:1:9: error: x\n"
                           "    1 | ! \xc3\xa9t\xc3\xa9 x\n"
                           "      |       ^\n"
                           "t.f90:1:3: error: word\n"
                           "    1 | ! \xc3\xa9t\xc3\xa9 x\n"
                           "      |   ^~~\n");
}
END_TEST

START_TEST(test_width_clamped_to_line) {
  int f = add("t.c", "abc\n");
  diag_at(DIAG_ERROR, (Loc){f, 1, 2}, 50, "long");
  ck_assert_str_eq(take(), "t.c:1:2: error: long\n"
                           "    1 | abc\n"
                           "      |  ^~\n");
  diag_at(DIAG_ERROR, (Loc){f, 1, 4}, 1, "after the end");
  ck_assert_str_eq(take(), "t.c:1:4: error: after the end\n"
                           "    1 | abc\n"
                           "      |    ^\n");
  diag_at(DIAG_ERROR, (Loc){f, 1, 1}, 0, "zero width is one");
  ck_assert_str_eq(take(), "t.c:1:1: error: zero width is one\n"
                           "    1 | abc\n"
                           "      | ^\n");
}
END_TEST

START_TEST(test_crlf_and_missing_newline) {
  int f = add("w.f90", "a = 1\r\nb = 2\r\nc = 3");
  SourceFile *sf = diag_source(f);
  ck_assert_int_eq(sf->nlines, 3);
  size_t len;
  ck_assert_ptr_nonnull(diag_line(f, 1, &len));
  ck_assert_uint_eq(len, 5);
  ck_assert(strncmp(diag_line(f, 3, &len), "c = 3", 5) == 0);
  ck_assert_uint_eq(len, 5);
  ck_assert_ptr_null(diag_line(f, 4, &len));
  ck_assert_ptr_null(diag_line(f, 0, &len));
  ck_assert_ptr_null(diag_line(f + 1, 1, &len));
  diag_at(DIAG_ERROR, (Loc){f, 2, 5}, 1, "crlf");
  ck_assert_str_eq(take(), "w.f90:2:5: error: crlf\n"
                           "    2 | b = 2\n"
                           "      |     ^\n");
  diag_at(DIAG_ERROR, (Loc){f, 3, 1}, 1, "last");
  ck_assert_str_eq(take(), "w.f90:3:1: error: last\n"
                           "    3 | c = 3\n"
                           "      | ^\n");
}
END_TEST

START_TEST(test_line_counts) {
  ck_assert_int_eq(diag_source(add("e", ""))->nlines, 0);
  ck_assert_int_eq(diag_source(add("n", "\n"))->nlines, 1);
  ck_assert_int_eq(diag_source(add("x", "x"))->nlines, 1);
  ck_assert_int_eq(diag_source(add("xy", "x\n\ny\n"))->nlines, 3);
  size_t len = 99;
  ck_assert_ptr_nonnull(diag_line(3, 2, &len));
  ck_assert_uint_eq(len, 0);
  ck_assert_ptr_null(diag_source(-1));
}
END_TEST

START_TEST(test_line_map) {
  /* parsed text from cpp: line 3 is the user's wsm5.F line 120 */
  int f = add("wsm5.i", "# 118 \"wsm5.F\"\n\n  x = y +\n");
  diag_map_line(f, 3, "wsm5.F", 120);
  Loc loc = {f, 3, 9};
  ck_assert_str_eq(diag_user_file(loc), "wsm5.F");
  ck_assert_int_eq(diag_user_line(loc), 120);
  Loc other = {f, 2, 1};
  ck_assert_str_eq(diag_user_file(other), "wsm5.i"); /* lines not mapped keep their own place */
  ck_assert_int_eq(diag_user_line(other), 2);
  diag_at(DIAG_ERROR, loc, 1, "expected an operand");
  ck_assert_str_eq(take(), "wsm5.F:120:9: error: expected an operand\n"
                           "  120 |   x = y +\n"
                           "      |         ^\n");
  diag_at(DIAG_INFO, loc, 1, "Generating copy(x)");
  ck_assert_str_eq(take(), "wsm5.F:120: info: Generating copy(x)\n");
  diag_map_line(f, 99, "wsm5.F", 1); /* a marker after the last line is ignored */
}
END_TEST

START_TEST(test_line_map_interns_names) {
  int f = add("a.i", "1\n2\n3\n");
  char name[16];
  strcpy(name, "inc.h");
  diag_map_line(f, 1, name, 7);
  strcpy(name, "zzz.h"); /* the map keeps its own copy */
  diag_map_line(f, 2, "inc.h", 8);
  ck_assert_str_eq(diag_user_file((Loc){f, 1, 1}), "inc.h");
  ck_assert_ptr_eq(diag_user_file((Loc){f, 1, 1}), diag_user_file((Loc){f, 2, 1}));
  ck_assert_int_eq(diag_user_line((Loc){f, 3, 1}), 3);
}
END_TEST

START_TEST(test_gutter_widens) {
  int f = add("big.f90", "x\n");
  diag_map_line(f, 1, "big.f90", 123456);
  diag_at(DIAG_ERROR, (Loc){f, 1, 1}, 1, "m");
  ck_assert_str_eq(take(), "big.f90:123456:1: error: m\n"
                           "123456 | x\n"
                           "       | ^\n");
}
END_TEST

START_TEST(test_line_without_column_or_source) {
  int f = add("t.f90", "x\n");
  diag_at(DIAG_ERROR, (Loc){f, 1, 0}, 1, "whole line");
  ck_assert_str_eq(take(), "t.f90:1: error: whole line\n");
  diag_at(DIAG_ERROR, (Loc){f, 7, 3}, 1, "past the end");
  ck_assert_str_eq(take(), "t.f90:7:3: error: past the end\n");
  diag_at(DIAG_ERROR, (Loc){f, 0, 0}, 1, "the file");
  ck_assert_str_eq(take(), "t.f90: error: the file\n");
  diag_at(DIAG_WARNING, (Loc){-1, 3, 4}, 1, "nowhere");
  ck_assert_str_eq(take(), "s2s-cuda: warning: nowhere\n");
}
END_TEST

START_TEST(test_plain) {
  diag_plain(DIAG_ERROR, "no input files");
  diag_plain(DIAG_WARNING, "ignoring '%s'", "-O9");
  ck_assert_str_eq(take(), "s2s-cuda: error: no input files\n"
                           "s2s-cuda: warning: ignoring '-O9'\n");
  ck_assert_int_eq(diag_error_count(), 1);
}
END_TEST

static void via_va(Loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vat(DIAG_ERROR, loc, 1, fmt, ap);
  va_end(ap);
}

START_TEST(test_vat_and_reset) {
  int f = add("t.f90", "x\n");
  via_va((Loc){f, 1, 1}, "%d %s", 42, "things");
  ck_assert(strncmp(take(), "t.f90:1:1: error: 42 things\n", 28) == 0);
  ck_assert_int_eq(diag_error_count(), 1);
  diag_reset();
  ck_assert_int_eq(diag_error_count(), 0);
  ck_assert_ptr_null(diag_source(f));
  ck_assert_int_eq(add("again.f90", "y\n"), 0); /* indices start over */
  diag_at(DIAG_ERROR, (Loc){0, 1, 1}, 1, "still captured");
  ck_assert_str_eq(take(), "again.f90:1:1: error: still captured\n"
                           "    1 | y\n"
                           "      | ^\n");
}
END_TEST

START_TEST(test_source_pointer_stable) {
  int f = add("first", "a\n");
  SourceFile *sf = diag_source(f);
  for (int i = 0; i < 100; i++) add("more", "b\n");
  ck_assert_ptr_eq(diag_source(f), sf);
  ck_assert_str_eq(sf->path, "first");
}
END_TEST

START_TEST(test_alloc_helpers) {
  char *s = xasprintf("%s(%d:%d)", "a", 1, 10);
  ck_assert_str_eq(s, "a(1:10)");
  free(s);
  s = xstrndup("abcdef", 3);
  ck_assert_str_eq(s, "abc");
  free(s);
  s = xstrndup("ab", 10);
  ck_assert_str_eq(s, "ab");
  free(s);
  s = xstrdup("");
  ck_assert_str_eq(s, "");
  free(s);
  int *z = xcalloc(4, sizeof *z);
  ck_assert_int_eq(z[0] | z[1] | z[2] | z[3], 0);
  z = xrealloc(z, 100 * sizeof *z);
  free(z);
  free(xmalloc(0));
}
END_TEST

START_TEST(test_bug_aborts) {
  S2S_BUG("impossible IR kind %d", 99);
}
END_TEST

static Suite *diag_suite(void) {
  Suite *s = suite_create("diag");
  TCase *tc = tcase_create("print");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_test(tc, test_caret_form);
  tcase_add_test(tc, test_kinds);
  tcase_add_test(tc, test_werror);
  tcase_add_test(tc, test_observer);
  tcase_add_test(tc, test_info_has_no_caret);
  tcase_add_test(tc, test_note_without_column);
  tcase_add_test(tc, test_tabs_reproduced);
  tcase_add_test(tc, test_utf8_before_caret);
  tcase_add_test(tc, test_width_clamped_to_line);
  tcase_add_test(tc, test_crlf_and_missing_newline);
  tcase_add_test(tc, test_line_counts);
  tcase_add_test(tc, test_line_map);
  tcase_add_test(tc, test_line_map_interns_names);
  tcase_add_test(tc, test_gutter_widens);
  tcase_add_test(tc, test_line_without_column_or_source);
  tcase_add_test(tc, test_plain);
  tcase_add_test(tc, test_vat_and_reset);
  tcase_add_test(tc, test_source_pointer_stable);
  tcase_add_test(tc, test_alloc_helpers);
  suite_add_tcase(s, tc);
  TCase *bug = tcase_create("bug");
  tcase_add_checked_fixture(bug, setup, teardown);
  tcase_add_test_raise_signal(bug, test_bug_aborts, SIGABRT);
  suite_add_tcase(s, bug);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(diag_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
