/* check_print.c — table-driven tests of how kernels print expressions
 * (emit_cuda.c, emit_expr_text): by C's precedence, with parentheses only
 * where C would otherwise group the operands differently from the IR tree
 * the front end built by Fortran's rules.  Each case is a Fortran
 * assignment in the region of subroutine t and the C text expected for
 * its right-hand side.  The differential tests (tests/diff.sh) show that
 * the kernels so printed still compute what the originals do.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "emit.h"
#include "emit_text.h"

typedef struct PrintCase {
  const char *stmt;    /* Fortran, in the region */
  const char *text;    /* the right-hand side as a kernel prints it */
} PrintCase;

static const PrintCase cases[] = {
  /* associativity: the right operand of - and / keeps its parentheses */
  { "x = y - (z - x)", "y - (z - x)" },
  { "x = y - z - x", "y - z - x" },
  { "x = y + (z + x)", "y + (z + x)" },
  { "x = y / (z * x)", "y / (z * x)" },
  { "x = y / z * x", "y / z * x" },
  { "x = y * (z + x) / y", "y * (z + x) / y" },
  { "x = (y + z) * (x - y)", "(y + z) * (x - y)" },
  /* unary minus: Fortran's binds less tightly than *, C's more */
  { "x = -(y + z)", "-(y + z)" },
  { "x = -y * z", "-(y * z)" },
  { "x = (-y) * z", "-y * z" },
  { "x = -y + z", "-y + z" },
  { "x = y - (-z)", "y - (-z)" },
  { "x = -(-y)", "-(-y)" },
  { "x = y - (-z) * x", "y - (-z * x)" },
  { "x = y + (-2.5) * z", "y + (-2.5f * z)" },
  { "x = y * (-z)", "y * -z" },
  { "x = -y ** 2", "-s2s_powi(y, (int)2)" },
  { "x = y ** (m + p)", "s2s_powi(y, (int)(m + p))" },
  /* integer division stays where Fortran put it, conversions around it */
  { "m = m / (p / q)", "m / (p / q)" },
  { "m = m / p * q", "m / p * q" },
  { "x = real(m / p) * y", "(float)(m / p) * y" },
  { "x = m / p * y", "(float)(m / p) * y" },
  { "x = y * real(m) / p", "y * (float)m / (float)p" },
  { "m = mod(m, p + q)", "m % (p + q)" },
  { "m = mod(m, p) * q", "m % p * q" },
  { "m = q * mod(m, p)", "q * (m % p)" },
  { "m = nint(x) + 1", "(int)roundf(x) + 1" },
  { "m = 2 * nint(x)", "2 * (int)roundf(x)" },
  /* logical operators: C's && binds tighter than ||; comparisons inside
   * comparisons and && inside || keep parentheses for clarity */
  { "l1 = x < y .and. (m > p .or. q == m)", "x < y && (m > p || q == m)" },
  { "l1 = (l1 .or. l2) .and. l2", "(l1 || l2) && l2" },
  { "l1 = l1 .and. l2 .or. l2", "(l1 && l2) || l2" },
  { "l1 = l1 .or. l2 .and. l1", "l1 || (l2 && l1)" },
  { "l1 = .not. (x < y)", "!(x < y)" },
  { "l1 = .not. l1 .and. l2", "!l1 && l2" },
  { "l1 = l1 .eqv. (x < y)", "(l1 != 0) == ((x < y) != 0)" },
  { "l1 = .not. (l1 .neqv. l2)", "!((l1 != 0) != (l2 != 0))" },
  { "l1 = x + y < z * 2.0", "x + y < z * 2.0f" },
  /* calls and subscripts are full expressions again */
  { "x = max(y - z, -x)", "s2s_max(y - z, -x)" },
  { "x = a(i - 1) * (b(i + 1) - c(i))", "S2S_a(i - 1) * (S2S_b(i + 1) - S2S_c(i))" },
  { "d = dble(x) * (1d0 - d)", "(double)x * (1e0 - d)" },
};

static const char *const decls =
    "  real :: x, y, z\n  integer :: m, p, q\n  logical :: l1, l2\n  double precision :: d\n";

START_TEST(test_precedence)
{
  const PrintCase *c = &cases[_i];
  char *body = ir_printf("  i = 1\n  %s\n", c->stmt);
  Program *p = cu_parse_region(c->stmt, decls, body);
  IrRegion *g = cu_first_region(p);
  ck_assert_msg(g && g->body.n == 2 && g->body.v[1]->kind == IR_S_ASSIGN, "'%s': no assignment",
                c->stmt);
  char *text = emit_expr_text(g->body.v[1]->u.assign.rhs);
  ck_assert_msg(strcmp(text, c->text) == 0, "'%s' printed as '%s', expected '%s'", c->stmt, text,
                c->text);
  free(text);
  cu_reset();
}
END_TEST

/* ---- line wrapping (emit_text.c), at 40 columns -------------------------------------- */

typedef struct WrapCase {
  const char *name, *in, *out;
} WrapCase;

static const WrapCase wraps[] = {
  { "short lines stay", "  x = a + b;\n", "  x = a + b;\n" },
  { "before the least nested operator, continuation indented 4",
    "  x = (aaaa + bbbb) * cccc + dddd * (eeee - ffff);\n",
    "  x = (aaaa + bbbb) * cccc\n      + dddd * (eeee - ffff);\n" },
  { "after a comma before an operator at the same depth",
    "  f(aaaaaaaa, bbbbbbbb, cccccccc * dddddddd, eeeeeeee);\n",
    "  f(aaaaaaaa, bbbbbbbb,\n      cccccccc * dddddddd, eeeeeeee);\n" },
  { "never inside a string", "  s(\"a, b, c, d, e, f, g, h, i, j, k\", xxxx, yyyy);\n",
    "  s(\"a, b, c, d, e, f, g, h, i, j, k\",\n      xxxx, yyyy);\n" },
  { "a #define continues with a backslash",
    "#define S2S_a(i0) S2S_ELEM(a, (i0) - lo0 + n0 * (i1 - lo1))\n",
    "#define S2S_a(i0) S2S_ELEM(a, \\\n    (i0) - lo0 + n0 * (i1 - lo1))\n" },
  { "other preprocessor lines stay",
    "#line 123456 \"a/very/long/path/name/of/a/user/file.f90\"\n",
    "#line 123456 \"a/very/long/path/name/of/a/user/file.f90\"\n" },
  { "a trailing comment is no reason to break", "  x = a + b; /* samples/physics/column.f90:123 */\n",
    "  x = a + b; /* samples/physics/column.f90:123 */\n" },
  { "comment lines stay", "  // a, b, c, d, e, f, g, h, i, j, k, l, m, n, o\n",
    "  // a, b, c, d, e, f, g, h, i, j, k, l, m, n, o\n" },
  { "lines inside a block comment stay", "/* one\n   a, b, c, d, e, f, g, h, i, j, k, l, m, n, o\n*/\n",
    "/* one\n   a, b, c, d, e, f, g, h, i, j, k, l, m, n, o\n*/\n" },
  { "no place to break", "  x = aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;\n",
    "  x = aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa;\n" },
};

START_TEST(test_wrap)
{
  const WrapCase *c = &wraps[_i];
  size_t n;
  char *out = emit_wrap_text(c->in, strlen(c->in), 40, &n);
  ck_assert_msg(strcmp(out, c->out) == 0, "%s: got\n%s", c->name, out);
  ck_assert_uint_eq(n, strlen(out));
  free(out);
}
END_TEST

/* #line directives: the ones the compiler would infer dropped, restore
 * markers made into the .cu's own next line, all gone when off. */
START_TEST(test_line_directives)
{
  static const char in[] =
      "a\n#line 10 \"u.f90\"\nb\n#line 11 \"u.f90\"\nc\n#line 12 \"v.f90\"\nd\n"
      "#line 5 \"v.f90\"\ne\n" EMIT_LINE_RESTORE "\nf\n" EMIT_LINE_RESTORE "\ng\n";
  size_t n;
  char *on = emit_line_directives(in, strlen(in), true, "x.s2s.cu", &n);
  ck_assert_str_eq(on, "a\n#line 10 \"u.f90\"\nb\nc\n#line 12 \"v.f90\"\nd\n#line 5 \"v.f90\"\ne\n"
                       "#line 10 \"x.s2s.cu\"\nf\ng\n");
  free(on);
  char *off = emit_line_directives(in, strlen(in), false, "x.s2s.cu", &n);
  ck_assert_str_eq(off, "a\nb\nc\nd\ne\nf\ng\n");
  free(off);
  char *q = emit_c_string_body("dir \"x\"\\y.f90");
  ck_assert_str_eq(q, "dir \\\"x\\\"\\\\y.f90");
  free(q);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("print");
  TCase *tc = tcase_create("precedence");
  tcase_add_loop_test(tc, test_precedence, 0, (int)(sizeof cases / sizeof *cases));
  suite_add_tcase(s, tc);
  TCase *text = tcase_create("text");
  tcase_add_loop_test(text, test_wrap, 0, (int)(sizeof wraps / sizeof *wraps));
  tcase_add_test(text, test_line_directives);
  suite_add_tcase(s, text);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
