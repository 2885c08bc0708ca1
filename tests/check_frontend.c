/* check_frontend.c — the Fortran front end: declarations, lowering of region
 * bodies (checked through the IR dump) and the errors for what it does not
 * support inside a region.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend.h"

/* Parse `text` as t.f90; the dump (or the diagnostics, on failure) in *out. */
static Program *parse(const char *text, char **out)
{
  size_t len = 0;
  FILE *f = open_memstream(out, &len);
  diag_set_stream(f);
  int file = diag_add_source(xstrdup("t.f90"), xstrdup(text), strlen(text));
  Program *p = fe_fortran(file);
  if (p)
    ir_dump_program(p, f);
  fclose(f);
  diag_set_stream(stderr);
  return p;
}

static void done(char *out)
{
  free(out);
  ir_arena_free();
  diag_reset();
}

#define ASSERT_HAS(out, text) ck_assert_msg(strstr(out, text), "missing:\n%s\nin:\n%s", text, out)

START_TEST(test_declarations)
{
  char *out;
  Program *p = parse(
      "module m\n  real, parameter :: c0 = 0.5\n  integer, parameter :: r8 = 8\ncontains\n"
      "subroutine s(ims, ime, kms, kme, a, b, q, n)\n  implicit none\n"
      "  integer, intent(in) :: ims, ime, kms, kme, n\n"
      "  real, dimension(ims:ime, kms:kme), intent(in) :: a\n"
      "  real(kind=8), intent(out) :: b(ims:ime, 0:n)\n  double precision :: q\n"
      "  real(r8) :: w(10)\n  real, allocatable :: z(:,:)\n  logical :: flag\n"
      "end subroutine s\nend module m\n", &out);
  ck_assert_msg(p != NULL, "%s", out);
  ASSERT_HAS(out, "parameter real(4) :: c0 = 0.5_4");
  ASSERT_HAS(out, "var real(4) dummy :: a(ims:ime,kms:kme)");
  ASSERT_HAS(out, "var real(8) dummy :: b(ims:ime,0:n)");
  ASSERT_HAS(out, "var real(8) dummy :: q");
  ASSERT_HAS(out, "var real(8) :: w(1:10)");
  ASSERT_HAS(out, "var real(4) :: z(s2s_lb1_z:s2s_ub1_z,s2s_lb2_z:s2s_ub2_z)");
  ASSERT_HAS(out, "var logical :: flag");
  ASSERT_HAS(out, "routine s in module m");
  done(out);
}
END_TEST

START_TEST(test_region_lowering)
{
  char *out;
  Program *p = parse(
      "subroutine s(n, a, b)\n  integer :: n, i, k\n  real :: a(n, n), b(n, n), x\n"
      "!$stencil region\n  do k = n, 1, -1\n    do i = 1, n\n"
      "      if (a(i,k) .lt. 0.0 .and. i > 2) then\n        b(i,k) = max(a(i,k), 1.0e-3)**2\n"
      "      else if (.not. a(i,k) >= 1) then\n        b(i,k) = -a(i,k) + nint(3.5d0)\n"
      "      else\n        x = real(i) / 2\n        b(i,k) = mod(i, 2) * 2.0_8 + x\n      end if\n"
      "    end do\n  end do\n!$stencil end region\nend subroutine s\n", &out);
  ck_assert_msg(p != NULL, "%s", out);
  ASSERT_HAS(out, "region s_r1 (lines 4-17)");
  ASSERT_HAS(out, "do k = n, 1, (-1)");
  ASSERT_HAS(out, "if (((a(i,k) < 0.0_4) && (i > 2))) then");
  ASSERT_HAS(out, "b(i,k) = (max(a(i,k),1.0e-3_4) ** 2)");
  ASSERT_HAS(out, "if ((!(a(i,k) >= real(4)(1)))) then");
  ASSERT_HAS(out, "b(i,k) = ((-a(i,k)) + real(4)(nint(3.5e0_8)))");
  ASSERT_HAS(out, "x = (real(4)(i) / real(4)(2))");
  ASSERT_HAS(out, "b(i,k) = real(4)(((real(8)(mod(i,2)) * 2.0_8) + real(8)(x)))");
  done(out);
}
END_TEST

typedef struct ErrorCase {
  const char *name;
  const char *body;     /* region body inside a standard routine */
  const char *message;  /* expected substring */
} ErrorCase;

static const ErrorCase errors[] = {
  { "present-not-optional", "do i = 1, n\n  if (present(n)) a(i) = 0.0\nend do\n",
    "'n' is not an optional dummy argument" },
  /* array syntax is lowered (pass normalize expands it); these shapes are not */
  { "vector-subscript", "do i = 1, n\n  a(i) = a(nint(a(1:2)))\nend do\n",
    "vector subscript of 'a' inside a region is not supported" },
  { "maxloc-without-dim", "i = maxloc(a(1:n))\n", "'maxloc' without dim= returns an array" },
  { "sum-with-dim-2", "a(1) = sum(a, dim=2)\n", "only dim=1 on an argument of rank 1" },
  { "maxval-of-scalar", "a(1) = maxval(n)\n", "the argument of 'maxval' must be an array" },
  { "do-while-integer-test", "do while (n)\n  n = n - 1\nend do\n",
    "the condition of DO WHILE must be logical" },
  { "undeclared", "do i = 1, n\n  a(i) = undeclared\nend do\n", "'undeclared' has no IMPLICIT type" },
  { "assign-do-var", "do i = 1, n\n  i = 2\nend do\n", "the DO variable 'i' is assigned inside its loop" },
  { "variable-step", "do i = 1, n, n\n  a(i) = 0.0\nend do\n", "must be a nonzero integer constant" },
  { "rank-mismatch", "do i = 1, n\n  a(i, 1) = 0.0\nend do\n", "'a' has rank 1 but 2 subscripts are given" },
  { "real-subscript", "do i = 1, n\n  a(1.5) = 0.0\nend do\n", "subscript of 'a' is real(4), not integer" },
  { "user-function", "do i = 1, n\n  a(i) = myfunc(i)\nend do\n", "call of function 'myfunc' inside a region" },
  { "do-not-before-loop", "!$stencil do parallel\na(1) = 0.0\n", "'!$stencil do' must come right before a DO loop" },
  { "nested-region", "!$stencil region\ndo i = 1, n\n  a(i) = 0.0\nend do\n",
    "'!$stencil region' is not allowed inside a region" },
  { "sqrt-of-int", "do i = 1, n\n  a(i) = sqrt(i)\nend do\n", "'sqrt' needs a real argument" },
  { "goto", "do i = 1, n\n  go to 10\nend do\n", "GOTO 10 jumps out of the region" },
};

START_TEST(test_errors)
{
  const ErrorCase *c = &errors[_i];
  char *text = xasprintf("subroutine s(n, a)\n  implicit none\n  integer :: n, i\n  real :: a(n)\n"
                         "!$stencil region\n%s!$stencil end region\nend subroutine s\n", c->body);
  char *out;
  Program *p = parse(text, &out);
  free(text);
  ck_assert_msg(p == NULL, "case %s: accepted", c->name);
  ck_assert_msg(strstr(out, c->message), "case %s: expected '%s' in:\n%s", c->name, c->message, out);
  ck_assert_msg(strstr(out, "t.f90:"), "case %s: no location in:\n%s", c->name, out);
  done(out);
}
END_TEST

START_TEST(test_unclosed_region)
{
  char *out;
  Program *p = parse("subroutine s(n, a)\n  integer :: n, i\n  real :: a(n)\n!$stencil region\n"
                     "do i = 1, n\n  a(i) = 0.0\nend do\nend subroutine s\n", &out);
  ck_assert(p == NULL);
  ASSERT_HAS(out, "t.f90:4:1: error: '!$stencil region' has no matching '!$stencil end region'");
  done(out);
}
END_TEST

START_TEST(test_statement_function)
{
  char *out;
  Program *p = parse(
      "subroutine s(n, a, t)\n  implicit none\n  integer :: n, i\n  real :: a(n), t(n), x\n"
      "  double precision :: w, twice\n  twice(w) = 2.0d0 * w\n"
      "!$stencil region\n  do i = 1, n\n    a(i) = twice(t(i)) + 1.0\n  end do\n"
      "!$stencil end region\nend subroutine s\n", &out);
  ck_assert_msg(p != NULL, "%s", out);
  /* the actual becomes the dummy's type (real(8)), the result the function's */
  ASSERT_HAS(out, "a(i) = real(4)(((2.0e0_8 * real(8)(t(i))) + real(8)(1.0_4)))");
  ck_assert_int_eq(p->routines[0]->spec_end_line, 6);
  done(out);
}
END_TEST

START_TEST(test_data_directives)
{
  char *out;
  Program *p = parse("program main\n  real :: t(10)\n  integer :: i\n!$stencil data copy(t)\n"
                     "  do i = 1, 3\n!$stencil update host(t)\n  end do\n!$stencil end data\n"
                     "end program main\n", &out);
  ck_assert_msg(p != NULL, "%s", out);
  IrRoutine *r = p->routines[0];
  ck_assert_int_eq(r->nhost_dirs, 3);
  ck_assert_int_eq(r->host_dirs[0]->dir->kind, DIR_DATA);
  ck_assert_int_eq(r->host_dirs[1]->dir->kind, DIR_UPDATE);
  ck_assert_int_eq(r->host_dirs[2]->dir->kind, DIR_END_DATA);
  ck_assert_ptr_eq(r->host_dirs[0]->partner, r->host_dirs[2]);
  ck_assert_int_eq(r->spec_end_line, 3);
  done(out);
}
END_TEST

int main(void)
{
  Suite *s = suite_create("frontend");
  TCase *tc = tcase_create("fortran");
  tcase_add_test(tc, test_declarations);
  tcase_add_test(tc, test_region_lowering);
  tcase_add_loop_test(tc, test_errors, 0, (int)(sizeof errors / sizeof errors[0]));
  tcase_add_test(tc, test_unclosed_region);
  tcase_add_test(tc, test_data_directives);
  tcase_add_test(tc, test_statement_function);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
