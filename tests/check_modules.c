/* check_modules.c — unit tests of modules across files (translator/fe/modules.c)
 * and of the module-directory options: the line scan that orders a run's
 * inputs, the order itself (tables of inputs and the order wanted), the
 * summary header, and -J / -module.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "modules.h"
#include "options.h"

/* ---- the line scan ------------------------------------------------------------- */

static bool has(const FeNames *l, const char *name) {
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->v[i], name)) return true;
  return false;
}

START_TEST(test_scan) {
  static const char src[] =
      "! module notme\n"
      "module Kinds   ! the kinds\n"
      "  use, intrinsic :: iso_fortran_env\n"
      "  use consts, only: cp\n"
      "  interface\n"
      "    module procedure foo\n"
      "  end interface\n"
      "contains\n"
      "  subroutine inside(x)\n"
      "    call helper(x)\n"
      "  end subroutine inside\n"
      "end module kinds\n"
      "real(kind=8) function outer(x)\n"
      "  use :: other\n"
      "  if (x > 0) call vrec(y, x, n)\n"
      "end function outer\n"
      "pure subroutine vsqrt(y, x)\n"
      "end\n"
      "#include \"x.h\"\n";
  FeUnits u = { 0 };
  fe_scan_source(src, strlen(src), &u);
  ck_assert_int_eq(u.modules.n, 1);
  ck_assert(has(&u.modules, "kinds"));
  ck_assert(has(&u.uses, "consts") && has(&u.uses, "other"));
  ck_assert(!has(&u.uses, "iso_fortran_env"));
  ck_assert_int_eq(u.procedures.n, 2); /* inside is a module procedure */
  ck_assert(has(&u.procedures, "outer") && has(&u.procedures, "vsqrt"));
  ck_assert(has(&u.calls, "helper") && has(&u.calls, "vrec"));
  fe_units_free(&u);
}
END_TEST

/* ---- the order of the inputs ------------------------------------------------------ */

typedef struct OrderCase {
  const char *name;
  const char *src[4];     /* the inputs' texts (NULL: not Fortran) */
  int n;
  int want[4];            /* the order wanted; want[0] == -1: a cycle */
} OrderCase;

static const OrderCase order_cases[] = {
  { "independent inputs keep their order",
    { "subroutine a\nend\n", "subroutine b\nend\n", "subroutine c\nend\n" }, 3, { 0, 1, 2 } },
  { "a module before its user",
    { "subroutine r\n use m\nend\n", "module m\nend module m\n" }, 2, { 1, 0 } },
  { "a chain given in reverse",
    { "subroutine r\n use c\nend\n", "module c\n use k\nend module c\n", "module k\nend module k\n" },
    3, { 2, 1, 0 } },
  { "a procedure before its caller",
    { "subroutine r\n call vrec(y)\nend\n", "subroutine vrec(y)\nend subroutine\n" }, 2, { 1, 0 } },
  { "calls both ways are allowed: modules only decide",
    { "module m\nend module\nsubroutine a\n call b\nend\n", "subroutine b\n use m\n call a\nend\n" },
    2, { 0, 1 } },
  { "a module used in its own file does not order",
    { "module m\nend module m\nsubroutine r\n use m\nend\n", "subroutine s\nend\n" }, 2, { 0, 1 } },
  { "not Fortran: left where it is",
    { NULL, "subroutine r\n use m\nend\n", "module m\nend module\n" }, 3, { 0, 2, 1 } },
  { "a cycle of modules",
    { "module a\n use b\nend module\n", "module b\n use a\nend module\n" }, 2, { -1 } },
};

START_TEST(test_order) {
  const OrderCase *c = &order_cases[_i];
  FeUnits units[4];
  memset(units, 0, sizeof units);
  const FeUnits *refs[4];
  const char *paths[4] = { "a.f90", "b.f90", "c.f90", "d.f90" };
  for (int i = 0; i < c->n; i++) {
    refs[i] = c->src[i] ? &units[i] : NULL;
    if (c->src[i]) fe_scan_source(c->src[i], strlen(c->src[i]), &units[i]);
  }
  char *msgs = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&msgs, &len);
  diag_set_stream(f);
  int order[4];
  bool ok = fe_order_inputs(c->n, paths, refs, order);
  fclose(f);
  diag_set_stream(stderr);
  if (c->want[0] < 0) {
    ck_assert_msg(!ok, "%s: no cycle found", c->name);
    ck_assert_msg(strstr(msgs, "cycle ('a.f90' uses module 'b' of 'b.f90', 'b.f90' uses module 'a' "
                               "of 'a.f90')"), "%s: %s", c->name, msgs);
  } else {
    ck_assert_msg(ok, "%s: %s", c->name, msgs);
    for (int i = 0; i < c->n; i++)
      ck_assert_msg(order[i] == c->want[i], "%s: position %d holds input %d, not %d", c->name, i,
                    order[i], c->want[i]);
  }
  free(msgs);
  for (int i = 0; i < c->n; i++) fe_units_free(&units[i]);
  diag_reset();
}
END_TEST

/* ---- the summary header ------------------------------------------------------------- */

START_TEST(test_header) {
  FeSummaryHeader h;
  ck_assert(fe_summary_header("! s2s-cuda summary 1: module kinds, line 3 of /a b/kinds.F90\nmodule kinds\n", &h));
  ck_assert_int_eq(h.version, 1);
  ck_assert_int_eq(h.kind, FE_UNIT_MODULE);
  ck_assert_str_eq(h.name, "kinds");
  ck_assert_int_eq(h.line, 3);
  ck_assert_str_eq(h.origin, "/a b/kinds.F90");
  ck_assert(fe_summary_header("! s2s-cuda summary 1: procedure vrec, line 10 of /x.f90\n", &h));
  ck_assert_int_eq(h.kind, FE_UNIT_PROCEDURE);
  ck_assert(!fe_summary_header("! s2s-cuda summary 7: thing vrec, line 10 of /x.f90\n", &h));
  ck_assert(!fe_summary_header("module kinds\n", &h));
  ck_assert_int_eq(h.version, 0);
  /* another version is recognized as one, so that the message can say so */
  fe_summary_header("! s2s-cuda summary 99: module m, line 1 of /m.f90\n", &h);
  ck_assert_int_eq(h.version, 99);
}
END_TEST

/* ---- -J and -module ---------------------------------------------------------------------- */

static OptionsResult parse_args(Options *o, const char *const *args, char **err) {
  char *argv[16];
  int argc = 0;
  argv[argc++] = "s2s-cuda";
  for (; *args; args++) argv[argc++] = (char *)*args;
  size_t len;
  FILE *e = open_memstream(err, &len), *out = fopen("/dev/null", "w");
  OptionsResult r = options_parse(o, argc, argv, out, e);
  fclose(e);
  fclose(out);
  return r;
}

START_TEST(test_module_dir_options) {
  static const struct {
    const char *args[6];
    OptionsResult result;
    const char *dir;        /* module_dir wanted, or the error's text */
  } cases[] = {
    { { "-J", "mods", "x.f90" }, OPTIONS_OK, "mods" },
    { { "-Jmods", "x.f90" }, OPTIONS_OK, "mods" },
    { { "-module", "mods", "x.f90" }, OPTIONS_OK, "mods" },
    { { "-J", "a", "-J", "a", "x.f90" }, OPTIONS_OK, "a" },
    { { "-J", "a", "-module", "b", "x.f90" }, OPTIONS_USAGE, "two module directories" },
    { { "x.f90", "-module" }, OPTIONS_USAGE, "missing argument to '-module'" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    Options o;
    char *err = NULL;
    ck_assert_int_eq(parse_args(&o, cases[i].args, &err), cases[i].result);
    if (cases[i].result == OPTIONS_OK) {
      ck_assert_str_eq(o.module_dir, cases[i].dir);
      /* for the host compiler, as gfortran spells it (build_driver.c respells it) */
      bool found = false;
      for (int k = 0; k < o.compiler_args.n; k++) found |= !strncmp(o.compiler_args.v[k], "-J", 2);
      ck_assert(found);
    } else {
      ck_assert_msg(strstr(err, cases[i].dir), "case %zu: %s", i, err);
    }
    free(err);
    options_free(&o);
  }
}
END_TEST

int main(void) {
  Suite *s = suite_create("modules");
  TCase *tc = tcase_create("core");
  tcase_add_test(tc, test_scan);
  tcase_add_loop_test(tc, test_order, 0, (int)(sizeof order_cases / sizeof *order_cases));
  tcase_add_test(tc, test_header);
  tcase_add_test(tc, test_module_dir_options);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
