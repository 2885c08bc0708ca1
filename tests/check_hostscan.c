/* check_hostscan.c — what the front ends record for the passes: the host
 * uses of each name (fe_host_scan, queried through an_host_use), the
 * storage attributes of the Fortran specification part (COMMON,
 * EQUIVALENCE, SAVE, DATA, initializers), and the directive clause items
 * resolved to symbols and IR bounds (fe_resolve_directive).
 *
 * Table-driven: each case is a small routine and, for one name, the uses
 * written as "LINE" (reads) or "LINE=" (assigns) in source order, or the
 * storage flags, or the resolved bounds as ir_dump prints them.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "frontend.h"

/* ---- helpers ------------------------------------------------------------- */

static char *captured;
static size_t captured_len;
static FILE *capture;

static void setup(void)
{
  diag_reset();
  captured = NULL;
  capture = open_memstream(&captured, &captured_len);
  diag_set_stream(capture);
}

static void teardown(void)
{
  diag_set_stream(NULL);
  fclose(capture);
  free(captured);
  ir_arena_free();
  diag_reset();
}

/* The first routine of `text` (t.f90 or t.c), read by its front end. */
static IrRoutine *routine_of(IrLang lang, const char *text)
{
  int file = diag_add_source(xstrdup(lang == IR_FORTRAN ? "t.f90" : "t.c"), xstrdup(text),
                             strlen(text));
  Program *p = lang == IR_FORTRAN ? fe_fortran(file) : fe_c(file);
  fflush(capture);
  ck_assert_msg(p && p->nroutines, "front end failed:\n%s", captured ? captured : "");
  return p->routines[0];
}

/* The recorded uses of `name` as "4= 6 9" (arena string); "" when none. */
static const char *uses_text(const IrRoutine *r, const char *name)
{
  IrHostUses *u;
  HASH_FIND_STR(r->host_uses, name, u);
  char buf[512] = "";
  size_t n = 0;
  for (int i = 0; u && i < u->n && n < sizeof buf; i++)
    n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%d%s", i ? " " : "", u->v[i].line,
                          u->v[i].assigns ? "=" : "");
  return ir_strdup(buf);
}

/* An expression as ir_dump prints it (arena string); "-" for NULL. */
static const char *expr_text(const IrExpr *e)
{
  if (!e)
    return "-";
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ir_dump_expr(e, f);
  fclose(f);
  const char *s = ir_strdup(buf);
  free(buf);
  return s;
}

/* ---- host uses -------------------------------------------------------------- */

static const char fortran_uses[] =
    "subroutine s(n, a)\n"                       /* 1 */
    "  integer :: n, i\n"                        /* 2 */
    "  real :: a(n), t, t2\n"                    /* 3 */
    "  t = 0.            ! t and t2 here\n"      /* 4 */
    "  print *, 't = ', t2\n"                    /* 5 */
    "  call f(n=t, &\n"                          /* 6 */
    "     t2)\n"                                 /* 7 */
    "  do i = 1, n\n"                            /* 8 */
    "    a(i) = t + t2\n"                        /* 9 */
    "  end do\n"                                 /* 10 */
    "  T2 = t2 + 1\n"                            /* 11 */
    "  x%t = 1\n"                                /* 12 */
    "end subroutine s\n";                        /* 13 */

static const char c_uses[] =
    "void f(int n, double *a)\n"                 /* 1 */
    "{\n"                                        /* 2 */
    "  double s = 0, s2;\n"                      /* 3 */
    "  // s in a comment\n"                      /* 4 */
    "  s2 = s;\n"                                /* 5 */
    "  s += 1;\n"                                /* 6 */
    "#pragma stencil data copy(a[0:n])\n"        /* 7 */
    "  { a[0] = s; }\n"                          /* 8 */
    "  printf(\"s = %f\\n\", s2);\n"             /* 9 */
    "  if (s == s2) s2 = 1;\n"                   /* 10 */
    "}\n";                                       /* 11 */

static const struct {
  IrLang lang;
  const char *text, *name, *uses;
} use_cases[] = {
  /* a comment, a string, a keyword name and a component do not count;
   * `t` is not found in `t2`; the assignment is the first mention of line 4 */
  { IR_FORTRAN, fortran_uses, "t", "4= 6 9" },
  /* a continuation line counts on its own line; names are lower-cased */
  { IR_FORTRAN, fortran_uses, "t2", "5 7 9 11= 11" },
  { IR_FORTRAN, fortran_uses, "i", "8= 9" },       /* the DO variable is assigned */
  { IR_FORTRAN, fortran_uses, "n", "8" },          /* not in `n=t`, not in declarations */
  { IR_FORTRAN, fortran_uses, "a", "9" },          /* an element assigned reads the array */
  { IR_C, c_uses, "s", "3= 5 6 8 10" },            /* `+=` and `==` read */
  { IR_C, c_uses, "s2", "3 5= 9 10 10=" },
  { IR_C, c_uses, "n", "" },                       /* pragma lines are directives, not code */
  { IR_C, c_uses, "a", "8" },
};

START_TEST(test_host_uses)
{
  IrRoutine *r = routine_of(use_cases[_i].lang, use_cases[_i].text);
  ck_assert_str_eq(uses_text(r, use_cases[_i].name), use_cases[_i].uses);
}
END_TEST

/* The first-use query the analyses ask, on the routines above. */
static const struct {
  IrLang lang;
  const char *text, *name;
  int from, to;
  bool stop_at_assignment;
  int line;
} query_cases[] = {
  { IR_FORTRAN, fortran_uses, "t", 5, 13, true, 6 },
  { IR_FORTRAN, fortran_uses, "t", 1, 13, true, 0 },       /* assigned first: old value dead */
  { IR_FORTRAN, fortran_uses, "t", 1, 13, false, 4 },
  { IR_FORTRAN, fortran_uses, "t2", 10, 13, true, 0 },
  { IR_FORTRAN, fortran_uses, "t2", 10, 13, false, 11 },
  { IR_FORTRAN, fortran_uses, "t", 10, 13, false, 0 },     /* `x%t` is not t */
  { IR_FORTRAN, fortran_uses, "zz", 1, 13, false, 0 },
  { IR_C, c_uses, "s2", 9, 11, true, 9 },
  { IR_C, c_uses, "s", 4, 5, false, 5 },
  { IR_C, c_uses, "n", 1, 11, false, 0 },
};

START_TEST(test_host_use_query)
{
  IrRoutine *r = routine_of(query_cases[_i].lang, query_cases[_i].text);
  ck_assert_int_eq(an_host_use(r, query_cases[_i].name, query_cases[_i].from, query_cases[_i].to,
                               query_cases[_i].stop_at_assignment),
                   query_cases[_i].line);
}
END_TEST

/* ---- storage attributes ---------------------------------------------------- */

static const char storage[] =
    "subroutine s(n)\n"
    "  integer :: n\n"
    "  real :: w(10), x = 1.0, c(5), e(5), d(3), sv(2), q, t, t2\n"
    "  real, save :: sa(3)\n"
    "  real, parameter :: p = 2.0\n"
    "  common /blk/ c, q(n)\n"
    "  equivalence (e(1), d(1))\n"
    "  data d /3*0./\n"
    "  save sv  ! t2\n"
    "  t = 0\n"
    "end subroutine s\n";

static const char save_all[] =
    "subroutine s(n)\n  integer :: n\n  real :: w(10)\n  save\n  w(1) = 0\nend subroutine s\n";

static const char save_block[] =
    "subroutine s(n)\n  integer :: n\n  real :: w(10), c(2)\n  common /b/ c\n  save /b/\n"
    "  w(1) = 0\nend subroutine s\n";

static const char *storage_text(const IrRoutine *r, const char *name)
{
  const IrSym *s = ir_lookup(r, name);
  ck_assert_msg(s != NULL, "no symbol %s", name);
  char buf[128];
  snprintf(buf, sizeof buf, "%s%s%s%s%s%s", r->saves_all ? "all " : "",
           s->in_common ? "common " : "", s->in_equivalence ? "equivalence " : "",
           s->in_data ? "data " : "", s->save_named ? "save " : "",
           s->has_initializer ? "init " : "");
  return ir_strdup(buf);
}

static const struct {
  const char *text, *name, *flags;
} storage_cases[] = {
  { storage, "w", "" },
  { storage, "x", "init " },
  { storage, "p", "" },                     /* a PARAMETER's value is no initializer */
  { storage, "c", "common " },
  { storage, "q", "common " },              /* dimensioned in the COMMON statement */
  { storage, "n", "" },                     /* a bound in COMMON is not in it */
  { storage, "e", "equivalence " },
  { storage, "d", "equivalence data " },
  { storage, "sv", "save " },
  { storage, "sa", "save " },
  { storage, "t", "" },
  { storage, "t2", "" },                    /* named in a comment only */
  { save_all, "w", "all " },
  { save_block, "w", "" },                  /* SAVE /b/ saves the block, not every local */
  { save_block, "c", "common " },
};

START_TEST(test_storage)
{
  IrRoutine *r = routine_of(IR_FORTRAN, storage_cases[_i].text);
  ck_assert_str_eq(storage_text(r, storage_cases[_i].name), storage_cases[_i].flags);
}
END_TEST

/* ---- clause items ----------------------------------------------------------- */

static const char fortran_clauses[] =
    "subroutine s(n, m, a, b)\n"
    "  integer :: n, m, i\n"
    "  real :: a(n, m), b(n), r\n"
    "!$stencil region copyin(a(2:n-1, m)) copy(b(1:r), zz)\n"
    "!$stencil do private(r)\n"
    "  do i = 1, n\n"
    "    r = a(i, 1)\n"
    "    b(i) = r\n"
    "  end do\n"
    "!$stencil end region\n"
    "!$stencil update host(b(-n:k))\n"
    "end subroutine s\n";

static const char c_clauses[] =
    "void f(int n, double *a)\n"
    "{\n"
    "#pragma stencil region copy(a[1:n-2])\n"
    "  for (int i = 1; i < n - 1; i++)\n"
    "    a[i] = 0;\n"
    "}\n";

/* Item `item` of clause `clause` of the directive: its symbol's name ("-":
 * unresolved) and its sections as "lo:hi" or "lo+len" in IR. */
static const char *item_text(const Directive *d, int clause, int item)
{
  const DirItem *it = &d->clauses[clause].items[item];
  char buf[512];
  size_t n = (size_t)snprintf(buf, sizeof buf, "%s", it->sym ? it->sym->name : "-");
  for (int k = 0; k < it->nsections && n < sizeof buf; k++) {
    const DirSection *s = &it->sections[k];
    n += (size_t)snprintf(buf + n, sizeof buf - n, " %s%s%s", expr_text(s->lo_ir),
                          s->len ? "+" : ":", expr_text(s->len ? s->len_ir : s->hi_ir));
  }
  return ir_strdup(buf);
}

START_TEST(test_fortran_clauses)
{
  IrRoutine *r = routine_of(IR_FORTRAN, fortran_clauses);
  const Directive *region = r->regions[0]->dir;
  ck_assert_ptr_eq(region->scope, r);
  ck_assert_ptr_eq(region->clauses[0].items[0].sym, ir_lookup(r, "a"));
  ck_assert_str_eq(item_text(region, 0, 0), "a 2:(n - 1) m:m");   /* a single index: lo == hi */
  ck_assert_str_eq(item_text(region, 1, 0), "b 1:-");    /* r is real: no IR for the bound */
  ck_assert_ptr_eq(region->clauses[1].items[0].sections[0].hi->u.sym, ir_lookup(r, "r"));
  ck_assert_str_eq(item_text(region, 1, 1), "-");        /* zz: reported by the analysis */
  const Directive *advice = r->regions[0]->body.v[0]->u.loop.advice;
  ck_assert_ptr_nonnull(advice);
  ck_assert_ptr_eq(advice->scope, r);
  ck_assert_ptr_eq(advice->clauses[0].items[0].sym, ir_lookup(r, "r"));
  const Directive *update = r->host_dirs[0]->dir;
  ck_assert_str_eq(item_text(update, 0, 0), "b (0 - n):-");   /* k is not declared */
  ck_assert_ptr_null(update->clauses[0].items[0].sections[0].hi->u.sym);
}
END_TEST

START_TEST(test_c_clauses)
{
  IrRoutine *r = routine_of(IR_C, c_clauses);
  const Directive *region = r->regions[0]->dir;
  ck_assert_ptr_eq(region->clauses[0].items[0].sym, ir_lookup(r, "a"));
  ck_assert_str_eq(item_text(region, 0, 0), "a 1+(n - 2)");
}
END_TEST

int main(void)
{
  Suite *s = suite_create("hostscan");
  TCase *tc = tcase_create("core");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_loop_test(tc, test_host_uses, 0, (int)(sizeof use_cases / sizeof use_cases[0]));
  tcase_add_loop_test(tc, test_host_use_query, 0, (int)(sizeof query_cases / sizeof query_cases[0]));
  tcase_add_loop_test(tc, test_storage, 0, (int)(sizeof storage_cases / sizeof storage_cases[0]));
  tcase_add_test(tc, test_fortran_clauses);
  tcase_add_test(tc, test_c_clauses);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
