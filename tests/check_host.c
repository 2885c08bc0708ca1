/* check_host.c — unit tests of the host emitter (emit_host.c).
 *
 * Each test builds a small Program and the HostCalls emit_cuda would have
 * recorded, runs emit_host on a source text, and compares the whole output
 * with the expected text, byte for byte: what must be replaced is, and
 * everything else (comments, blank lines, CRLF line ends, a missing final
 * newline) is untouched.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"
#include "storage.h"

/* ---- building programs --------------------------------------------------- */

static void setup(void) { diag_reset(); }

static void teardown(void) {
  ir_arena_free();
  diag_reset();
}

static Program *program(IrLang lang) {
  Program *p = ir_alloc(sizeof *p);
  p->lang = lang;
  p->path = lang == IR_FORTRAN ? "t.f90" : "t.c";
  return p;
}

static IrRoutine *routine(Program *p, const char *name, int first, int spec_end, int last) {
  IrRoutine *r = ir_alloc(sizeof *r);
  r->name = ir_strdup(name);
  r->first_line = first;
  r->spec_end_line = spec_end;
  r->last_line = last;
  IR_PUSH(p->routines, p->nroutines, r);
  return r;
}

static IrSym *sym(const char *name, IrType type, int rank) {
  IrSym *s = ir_alloc(sizeof *s);
  s->name = ir_strdup(name);
  s->type = type;
  s->rank = rank;
  s->dummy_index = -1;
  return s;
}

/* The hidden scalar the front end makes for a run-time bound. */
static IrSym *bound(IrSym *array, int dim, bool upper) {
  char name[64];
  snprintf(name, sizeof name, "s2s_%cb%d_%s", upper ? 'u' : 'l', dim + 1, array->name);
  IrSym *s = sym(name, IR_T_INT, 0);
  s->bound_of = array;
  s->bound_dim = dim;
  s->bound_is_upper = upper;
  return s;
}

static HostCall *call(HostCalls *calls, HostCallKind kind, IrRoutine *r, const char *fn,
                      int first, int last) {
  HostCall *c = ir_alloc(sizeof *c);
  c->kind = kind;
  c->routine = r;
  c->function = ir_strdup(fn);
  c->first_line = first;
  c->last_line = last;
  IR_PUSH(calls->v, calls->n, c);
  return c;
}

/* A parameter of c as the launcher ABI passes it in p's language (a
 * bound's hidden scalar becomes lbound/ubound). */
static void arg(const Program *p, HostCall *c, ParamRole role, IrSym *s) {
  IR_APPEND(c->params.v, c->params.n, c->params.cap, xf_launcher_param(p->lang, role, s));
}

/* emit_host into a string (malloc'ed). */
static char *host(const Program *p, const char *src, const HostCalls *calls) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ck_assert(emit_host(p, src, strlen(src), calls, f));
  fclose(f);
  return buf;
}

/* emit_host_with line markers, into a string (malloc'ed). */
static char *host_marked(const Program *p, const char *src, const HostCalls *calls) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  ck_assert(emit_host_with(p, src, strlen(src), calls, f, true));
  fclose(f);
  return buf;
}

#define ck_assert_text(got, want)                                                        \
  do {                                                                                   \
    char *g_ = (got);                                                                    \
    ck_assert_msg(strcmp(g_, (want)) == 0, "got:\n%s\n--- want:\n%s\n---", g_, (want));  \
    free(g_);                                                                            \
  } while (0)

/* ---- Fortran ------------------------------------------------------------- */

static const char fortran_src[] =
    "! header comment\n"
    "subroutine diffuse(t, n, s)\n"
    "  implicit none\n"
    "  integer, intent(in) :: n\n"
    "  real :: t(n), s   ! trailing comment\n"
    "\n"
    "  t(1) = 0.0\n"
    "  !$stencil region copy(t)\n"
    "  do i = 1, n\n"
    "    t(i) = t(i) * s\n"
    "  end do\n"
    "  !$stencil end region\n"
    "  print *, t(1)\n"
    "end subroutine diffuse\n";

START_TEST(test_fortran_region) {
  Program *p = program(IR_FORTRAN);
  IrRoutine *r = routine(p, "diffuse", 2, 5, 14);
  HostCalls calls = { 0 };
  HostCall *c = call(&calls, HOST_CALL_REGION, r, "s2s_diffuse_r1", 8, 12);
  arg(p, c, PARAM_ARRAY, sym("t", IR_T_REAL4, 1));
  arg(p, c, PARAM_SCALAR, sym("n", IR_T_INT, 0));
  arg(p, c, PARAM_SCALAR, sym("s", IR_T_REAL4, 0));
  ck_assert_text(host(p, fortran_src, &calls),
                 "! header comment\n"
                 "subroutine diffuse(t, n, s)\n"
                 "  implicit none\n"
                 "  integer, intent(in) :: n\n"
                 "  real :: t(n), s   ! trailing comment\n"
                 "  interface\n"
                 "    subroutine s2s_diffuse_r1(t, n, s) bind(C, name=\"s2s_diffuse_r1\")\n"
                 "      use, intrinsic :: iso_c_binding, only: c_float, c_int\n"
                 "      real(c_float) :: t(*)\n"
                 "      integer(c_int) :: n\n"
                 "      real(c_float) :: s\n"
                 "    end subroutine s2s_diffuse_r1\n"
                 "    integer(c_int) function s2s_host_pass() bind(C, name=\"s2s_host_pass\")\n"
                 "      use, intrinsic :: iso_c_binding, only: c_int\n"
                 "    end function s2s_host_pass\n"
                 "    subroutine s2s_host_pass_end() bind(C, name=\"s2s_host_pass_end\")\n"
                 "    end subroutine s2s_host_pass_end\n"
                 "    subroutine s2s_host_pass_result(x) bind(C, name=\"s2s_host_pass_result\")\n"
                 "      type(*) :: x\n"
                 "    end subroutine s2s_host_pass_result\n"
                 "  end interface\n"
                 "\n"
                 "  t(1) = 0.0\n"
                 "  call s2s_diffuse_r1(t, n, s)\n"
                 "  if (s2s_host_pass() /= 0) then\n"
                 "  do i = 1, n\n"
                 "    t(i) = t(i) * s\n"
                 "  end do\n"
                 "    call s2s_host_pass_end()\n"
                 "  end if\n"
                 "  print *, t(1)\n"
                 "end subroutine diffuse\n");
}
END_TEST

/* Line markers: one opens the file, one follows every edit, and one goes
 * before the region's own lines kept for the host pass, so that every user
 * line keeps its number for the host compiler; Fortran gets cpp's
 * linemarker form, which gfortran reads with or without -cpp. */
START_TEST(test_fortran_line_markers) {
  Program *p = program(IR_FORTRAN);
  IrRoutine *r = routine(p, "diffuse", 2, 5, 14);
  HostCalls calls = { 0 };
  HostCall *c = call(&calls, HOST_CALL_REGION, r, "s2s_diffuse_r1", 8, 12);
  arg(p, c, PARAM_SCALAR, sym("n", IR_T_INT, 0));
  ck_assert_text(host_marked(p, fortran_src, &calls),
                 "# 1 \"t.f90\"\n"
                 "! header comment\n"
                 "subroutine diffuse(t, n, s)\n"
                 "  implicit none\n"
                 "  integer, intent(in) :: n\n"
                 "  real :: t(n), s   ! trailing comment\n"
                 "  interface\n"
                 "    subroutine s2s_diffuse_r1(n) bind(C, name=\"s2s_diffuse_r1\")\n"
                 "      use, intrinsic :: iso_c_binding, only: c_int\n"
                 "      integer(c_int) :: n\n"
                 "    end subroutine s2s_diffuse_r1\n"
                 "    integer(c_int) function s2s_host_pass() bind(C, name=\"s2s_host_pass\")\n"
                 "      use, intrinsic :: iso_c_binding, only: c_int\n"
                 "    end function s2s_host_pass\n"
                 "    subroutine s2s_host_pass_end() bind(C, name=\"s2s_host_pass_end\")\n"
                 "    end subroutine s2s_host_pass_end\n"
                 "    subroutine s2s_host_pass_result(x) bind(C, name=\"s2s_host_pass_result\")\n"
                 "      type(*) :: x\n"
                 "    end subroutine s2s_host_pass_result\n"
                 "  end interface\n"
                 "# 6 \"t.f90\"\n"
                 "\n"
                 "  t(1) = 0.0\n"
                 "  call s2s_diffuse_r1(n)\n"
                 "  if (s2s_host_pass() /= 0) then\n"
                 "# 9 \"t.f90\"\n"       /* the region's own lines keep their numbers */
                 "  do i = 1, n\n"
                 "    t(i) = t(i) * s\n"
                 "  end do\n"
                 "    call s2s_host_pass_end()\n"
                 "  end if\n"
                 "# 13 \"t.f90\"\n"
                 "  print *, t(1)\n"
                 "end subroutine diffuse\n");
}
END_TEST

/* C: #line; prototypes inserted before the function count as its line,
 * which the marker after them gives back; the last edit at the end of the
 * file needs no marker after it. */
START_TEST(test_c_line_markers) {
  static const char src[] = "/* f */\nvoid f(int n)\n{\n#pragma stencil region\n  g(n);\n}\n";
  Program *p = program(IR_C);
  p->path = "dir/\"q\".c";
  IrRoutine *r = routine(p, "f", 2, 2, 6);
  HostCalls calls = { 0 };
  HostCall *c = call(&calls, HOST_CALL_REGION, r, "s2s_f_r1", 4, 5);
  arg(p, c, PARAM_SCALAR, sym("n", IR_T_INT, 0));
  ck_assert_text(host_marked(p, src, &calls),
                 "#line 1 \"dir/\\\"q\\\".c\"\n"
                 "/* f */\n"
                 "void s2s_f_r1(int n);\n"
                 "int s2s_host_pass(void);\n"
                 "void s2s_host_pass_end(void);\n"
                 "void s2s_host_pass_result(const void *);\n"
                 "#line 2 \"dir/\\\"q\\\".c\"\n"
                 "void f(int n)\n"
                 "{\n"
                 "  { s2s_f_r1(n);\n"
                 "    if (s2s_host_pass()) {\n"
                 "#line 5 \"dir/\\\"q\\\".c\"\n"
                 "  g(n);\n"
                 "      s2s_host_pass_end();\n"
                 "    } }\n"
                 "#line 6 \"dir/\\\"q\\\".c\"\n"
                 "}\n");
}
END_TEST

/* No calls: the output is the input, also with CRLF and no final newline. */
START_TEST(test_fortran_unchanged) {
  static const char src[] = "program p\r\n  print *, 1\r\n\r\nend program p";
  Program *p = program(IR_FORTRAN);
  routine(p, "p", 1, 1, 4);
  HostCalls calls = { 0 };
  ck_assert_text(host(p, src, &calls), src);
}
END_TEST

/* CRLF everywhere in generated lines too; the region ends the file without
 * a final newline, and so does the output. */
START_TEST(test_fortran_crlf_no_final_newline) {
  static const char src[] =
      "subroutine s(a)\r\n"
      "  real(8) :: a(10)\r\n"
      "  !$stencil region\r\n"
      "  a = 1\r\n"
      "  !$stencil end region";
  Program *p = program(IR_FORTRAN);
  IrRoutine *r = routine(p, "s", 1, 2, 5);
  HostCalls calls = { 0 };
  HostCall *c = call(&calls, HOST_CALL_REGION, r, "s2s_s_r1", 3, 5);
  arg(p, c, PARAM_ARRAY, sym("a", IR_T_REAL8, 1));
  ck_assert_text(host(p, src, &calls),
                 "subroutine s(a)\r\n"
                 "  real(8) :: a(10)\r\n"
                 "  interface\r\n"
                 "    subroutine s2s_s_r1(a) bind(C, name=\"s2s_s_r1\")\r\n"
                 "      use, intrinsic :: iso_c_binding, only: c_double\r\n"
                 "      real(c_double) :: a(*)\r\n"
                 "    end subroutine s2s_s_r1\r\n"
                 "    integer(c_int) function s2s_host_pass() bind(C, name=\"s2s_host_pass\")\r\n"
                 "      use, intrinsic :: iso_c_binding, only: c_int\r\n"
                 "    end function s2s_host_pass\r\n"
                 "    subroutine s2s_host_pass_end() bind(C, name=\"s2s_host_pass_end\")\r\n"
                 "    end subroutine s2s_host_pass_end\r\n"
                 "    subroutine s2s_host_pass_result(x) bind(C, name=\"s2s_host_pass_result\")\r\n"
                 "      type(*) :: x\r\n"
                 "    end subroutine s2s_host_pass_result\r\n"
                 "  end interface\r\n"
                 "  call s2s_s_r1(a)\r\n"
                 "  if (s2s_host_pass() /= 0) then\r\n"
                 "  a = 1\r\n"
                 "    call s2s_host_pass_end()\r\n"
                 "  end if");
}
END_TEST

/* Many arguments: the call and the interface's subroutine statement are
 * broken with `&`, every line stays within 100 columns, and joining the
 * pieces gives back the one-line form. */
START_TEST(test_fortran_continuation) {
  static const char src[] =
      "subroutine wsm5(a)\n"
      "  real :: a(10)\n"
      "    !$stencil region\n"
      "    a = 1\n"
      "    !$stencil end region\n"
      "end subroutine wsm5\n";
  Program *p = program(IR_FORTRAN);
  IrRoutine *r = routine(p, "wsm5", 1, 2, 6);
  HostCalls calls = { 0 };
  HostCall *c = call(&calls, HOST_CALL_REGION, r, "s2s_wsm5_r1", 3, 5);
  char want_call[4096] = "call s2s_wsm5_r1(";
  for (int i = 0; i < 40; i++) {
    char name[32];
    snprintf(name, sizeof name, "variable_%02d", i);
    arg(p, c, PARAM_ARRAY, sym(name, IR_T_REAL4, 3));
    strcat(want_call, name);
    strcat(want_call, i < 39 ? ", " : ")");
  }
  char *out = host(p, src, &calls);
  /* every line short enough; collect the call back into one line */
  char joined[4096] = "";
  bool in_call = false;
  int continued = 0;
  for (char *line = strtok(out, "\n"); line; line = strtok(NULL, "\n")) {
    ck_assert_msg(strlen(line) <= 100, "line too long (%zu): %s", strlen(line), line);
    if (strncmp(line, "    call ", 9) == 0) in_call = true;
    if (!in_call) continue;
    char *s = line;
    while (*s == ' ') s++;
    if (*joined && joined[strlen(joined) - 1] == ',') strcat(joined, " ");
    strcat(joined, s);
    size_t n = strlen(joined);
    if (n >= 2 && strcmp(joined + n - 2, " &") == 0) {
      joined[n - 2] = '\0';
      continued++;
    } else {
      in_call = false;
    }
  }
  ck_assert_int_gt(continued, 2);
  ck_assert_str_eq(joined, want_call);
  free(out);
}
END_TEST

/* lbound/ubound of assumed-shape arrays (carried as the front end's hidden
 * scalars), logical arguments declared type(*), 64-bit integers. */
START_TEST(test_fortran_bounds_and_types) {
  static const char src[] =
      "subroutine s(a, m, k)\n"
      "  real :: a(:,:)\n"
      "  logical :: m\n"
      "  integer(8) :: k\n"
      "  !$stencil region\n"
      "  a = 1\n"
      "  !$stencil end region\n"
      "end subroutine s\n";
  Program *p = program(IR_FORTRAN);
  IrRoutine *r = routine(p, "s", 1, 4, 8);
  HostCalls calls = { 0 };
  HostCall *c = call(&calls, HOST_CALL_REGION, r, "s2s_s_r1", 5, 7);
  IrSym *a = sym("a", IR_T_REAL4, 2);
  arg(p, c, PARAM_ARRAY, a);
  arg(p, c, PARAM_SCALAR, bound(a, 1, false));
  arg(p, c, PARAM_SCALAR, bound(a, 1, true));
  arg(p, c, PARAM_SCALAR, sym("m", IR_T_LOGICAL, 0));
  arg(p, c, PARAM_ARRAY, sym("mask", IR_T_LOGICAL, 1));
  arg(p, c, PARAM_SCALAR, sym("k", IR_T_INT8, 0));
  ck_assert_text(host(p, src, &calls),
                 "subroutine s(a, m, k)\n"
                 "  real :: a(:,:)\n"
                 "  logical :: m\n"
                 "  integer(8) :: k\n"
                 "  interface\n"
                 "    subroutine s2s_s_r1(a, s2s_lb2_a, s2s_ub2_a, m, mask, k) bind(C, name=\"s2s_s_r1\")\n"
                 "      use, intrinsic :: iso_c_binding, only: c_float, c_int, c_long_long\n"
                 "      real(c_float) :: a(*)\n"
                 "      integer(c_int) :: s2s_lb2_a\n"
                 "      integer(c_int) :: s2s_ub2_a\n"
                 "      type(*) :: m\n"
                 "      type(*) :: mask(*)\n"
                 "      integer(c_long_long) :: k\n"
                 "    end subroutine s2s_s_r1\n"
                 "    integer(c_int) function s2s_host_pass() bind(C, name=\"s2s_host_pass\")\n"
                 "      use, intrinsic :: iso_c_binding, only: c_int\n"
                 "    end function s2s_host_pass\n"
                 "    subroutine s2s_host_pass_end() bind(C, name=\"s2s_host_pass_end\")\n"
                 "    end subroutine s2s_host_pass_end\n"
                 "    subroutine s2s_host_pass_result(x) bind(C, name=\"s2s_host_pass_result\")\n"
                 "      type(*) :: x\n"
                 "    end subroutine s2s_host_pass_result\n"
                 "  end interface\n"
                 "  call s2s_s_r1(a, lbound(a, 2), ubound(a, 2), m, mask, k)\n"
                 "  if (s2s_host_pass() /= 0) then\n"
                 "  a = 1\n"
                 "    call s2s_host_pass_end()\n"
                 "  end if\n"
                 "end subroutine s\n");
}
END_TEST

/* Directives in column 1 (as OpenMP's often are): the calls take the
 * indentation of the code around them.  Data begin/end and update; a
 * function called twice gets one interface body. */
START_TEST(test_fortran_data_update_column1) {
  static const char src[] =
      "program p\n"
      "  real :: t(10)\n"
      "!$stencil data copy(t)\n"
      "  do step = 1, 2\n"
      "    call work(t)\n"
      "    if (step == 1) then\n"
      "!$stencil update host(t)\n"
      "      print *, t(1)\n"
      "    end if\n"
      "  end do\n"
      "!$stencil end data\n"
      "end program p\n";
  Program *p = program(IR_FORTRAN);
  IrRoutine *r = routine(p, "p", 1, 2, 12);
  HostCalls calls = { 0 };
  IrSym *t = sym("t", IR_T_REAL4, 1);
  HostCall *b = call(&calls, HOST_CALL_DATA_BEGIN, r, "s2s_p_d1_begin", 3, 3);
  HostCall *e = call(&calls, HOST_CALL_DATA_END, r, "s2s_p_d1_end", 11, 11);
  HostCall *u = call(&calls, HOST_CALL_UPDATE, r, "s2s_p_u2", 7, 7);
  arg(p, b, PARAM_ARRAY, t);
  arg(p, e, PARAM_ARRAY, t);
  arg(p, u, PARAM_ARRAY, t);
  ck_assert_text(host(p, src, &calls),
                 "program p\n"
                 "  real :: t(10)\n"
                 "  interface\n"
                 "    subroutine s2s_p_d1_begin(t) bind(C, name=\"s2s_p_d1_begin\")\n"
                 "      use, intrinsic :: iso_c_binding, only: c_float\n"
                 "      real(c_float) :: t(*)\n"
                 "    end subroutine s2s_p_d1_begin\n"
                 "    subroutine s2s_p_d1_end(t) bind(C, name=\"s2s_p_d1_end\")\n"
                 "      use, intrinsic :: iso_c_binding, only: c_float\n"
                 "      real(c_float) :: t(*)\n"
                 "    end subroutine s2s_p_d1_end\n"
                 "    subroutine s2s_p_u2(t) bind(C, name=\"s2s_p_u2\")\n"
                 "      use, intrinsic :: iso_c_binding, only: c_float\n"
                 "      real(c_float) :: t(*)\n"
                 "    end subroutine s2s_p_u2\n"
                 "  end interface\n"
                 "  call s2s_p_d1_begin(t)\n"
                 "  do step = 1, 2\n"
                 "    call work(t)\n"
                 "    if (step == 1) then\n"
                 "      call s2s_p_u2(t)\n"
                 "      print *, t(1)\n"
                 "    end if\n"
                 "  end do\n"
                 "  call s2s_p_d1_end(t)\n"
                 "end program p\n");
}
END_TEST

/* Two routines, each with its own interface block, inserted after its own
 * specification part; one routine without declarations (the block takes
 * the routine statement's indentation plus two); a multi-line last
 * declaration gives the indentation of its first line. */
START_TEST(test_fortran_two_routines) {
  static const char src[] =
      "module m\n"
      "contains\n"
      "  subroutine a()\n"
      "    !$stencil region\n"
      "    x = 1\n"
      "    !$stencil end region\n"
      "  end subroutine a\n"
      "  subroutine b(y)\n"
      "    real :: y(10), &\n"
      "         z\n"
      "    !$stencil region\n"
      "    y = 1\n"
      "    !$stencil end region\n"
      "  end subroutine b\n"
      "end module m\n";
  Program *p = program(IR_FORTRAN);
  IrRoutine *ra = routine(p, "a", 3, 3, 7);
  IrRoutine *rb = routine(p, "b", 8, 10, 14);
  HostCalls calls = { 0 };
  call(&calls, HOST_CALL_REGION, ra, "s2s_a_r1", 4, 6);
  HostCall *c = call(&calls, HOST_CALL_REGION, rb, "s2s_b_r1", 11, 13);
  arg(p, c, PARAM_ARRAY, sym("y", IR_T_REAL4, 1));
  ck_assert_text(host(p, src, &calls),
                 "module m\n"
                 "contains\n"
                 "  subroutine a()\n"
                 "    interface\n"
                 "      subroutine s2s_a_r1() bind(C, name=\"s2s_a_r1\")\n"
                 "      end subroutine s2s_a_r1\n"
                 "      integer(c_int) function s2s_host_pass() bind(C, name=\"s2s_host_pass\")\n"
                 "        use, intrinsic :: iso_c_binding, only: c_int\n"
                 "      end function s2s_host_pass\n"
                 "      subroutine s2s_host_pass_end() bind(C, name=\"s2s_host_pass_end\")\n"
                 "      end subroutine s2s_host_pass_end\n"
                 "      subroutine s2s_host_pass_result(x) bind(C, name=\"s2s_host_pass_result\")\n"
                 "        type(*) :: x\n"
                 "      end subroutine s2s_host_pass_result\n"
                 "    end interface\n"
                 "    call s2s_a_r1()\n"
                 "    if (s2s_host_pass() /= 0) then\n"
                 "    x = 1\n"
                 "      call s2s_host_pass_end()\n"
                 "    end if\n"
                 "  end subroutine a\n"
                 "  subroutine b(y)\n"
                 "    real :: y(10), &\n"
                 "         z\n"
                 "    interface\n"
                 "      subroutine s2s_b_r1(y) bind(C, name=\"s2s_b_r1\")\n"
                 "        use, intrinsic :: iso_c_binding, only: c_float\n"
                 "        real(c_float) :: y(*)\n"
                 "      end subroutine s2s_b_r1\n"
                 "      integer(c_int) function s2s_host_pass() bind(C, name=\"s2s_host_pass\")\n"
                 "        use, intrinsic :: iso_c_binding, only: c_int\n"
                 "      end function s2s_host_pass\n"
                 "      subroutine s2s_host_pass_end() bind(C, name=\"s2s_host_pass_end\")\n"
                 "      end subroutine s2s_host_pass_end\n"
                 "      subroutine s2s_host_pass_result(x) bind(C, name=\"s2s_host_pass_result\")\n"
                 "        type(*) :: x\n"
                 "      end subroutine s2s_host_pass_result\n"
                 "    end interface\n"
                 "    call s2s_b_r1(y)\n"
                 "    if (s2s_host_pass() /= 0) then\n"
                 "    y = 1\n"
                 "      call s2s_host_pass_end()\n"
                 "    end if\n"
                 "  end subroutine b\n"
                 "end module m\n");
}
END_TEST

/* Dummy names that would clash get a suffix: with an iso_c_binding name,
 * with the function's own name, with each other. */
START_TEST(test_fortran_dummy_clashes) {
  static const char src[] =
      "subroutine s(c_int, q)\n"
      "  integer :: c_int, q\n"
      "  !$stencil region\n"
      "  !$stencil end region\n"
      "end subroutine s\n";
  Program *p = program(IR_FORTRAN);
  IrRoutine *r = routine(p, "s", 1, 2, 5);
  HostCalls calls = { 0 };
  HostCall *c = call(&calls, HOST_CALL_REGION, r, "s2s_s_r1", 3, 4);
  arg(p, c, PARAM_SCALAR, sym("c_int", IR_T_INT, 0));
  arg(p, c, PARAM_SCALAR, sym("q", IR_T_INT, 0));
  arg(p, c, PARAM_SCALAR, sym("q", IR_T_INT, 0));
  arg(p, c, PARAM_SCALAR, sym("s2s_s_r1", IR_T_INT, 0));
  char *out = host(p, src, &calls);
  ck_assert_msg(strstr(out, "subroutine s2s_s_r1(c_int_2, q, q_2, s2s_s_r1_2) bind("), "%s", out);
  ck_assert_msg(strstr(out, "integer(c_int) :: c_int_2\n"), "%s", out);
  ck_assert_msg(strstr(out, "call s2s_s_r1(c_int, q, q, s2s_s_r1)\n"), "%s", out);
  free(out);
}
END_TEST

/* ---- C ------------------------------------------------------------------------ */

static const char c_src[] =
    "#include <stdio.h>\n"
    "\n"
    "/* scale a vector */\n"
    "void scale(int n, double *restrict a, const double *restrict b, double s)\n"
    "{\n"
    "#pragma stencil data copy(a[0:n]) copyin(b[0:n])\n"
    "  {\n"
    "    #pragma stencil region\n"
    "    for (int i = 0; i < n; i++)\n"
    "      a[i] = b[i] * s;\n"
    "#pragma stencil update host(a[0:n])\n"
    "  }\n"
    "}\n";

START_TEST(test_c_region_data_update) {
  Program *p = program(IR_C);
  IrRoutine *r = routine(p, "scale", 4, 4, 13);
  HostCalls calls = { 0 };
  IrSym *n = sym("n", IR_T_INT, 0), *a = sym("a", IR_T_REAL8, 1), *b = sym("b", IR_T_REAL8, 1);
  IrSym *s = sym("s", IR_T_REAL8, 0);
  HostCall *rc = call(&calls, HOST_CALL_REGION, r, "s2s_scale_r1", 8, 10);
  arg(p, rc, PARAM_ARRAY, b);
  arg(p, rc, PARAM_ARRAY, a);
  arg(p, rc, PARAM_SCALAR, n);
  arg(p, rc, PARAM_SCALAR, s);
  HostCall *db = call(&calls, HOST_CALL_DATA_BEGIN, r, "s2s_scale_d1_begin", 6, 6);
  HostCall *de = call(&calls, HOST_CALL_DATA_END, r, "s2s_scale_d1_end", 0, 0);
  de->stmt_last_line = 12;
  HostCall *up = call(&calls, HOST_CALL_UPDATE, r, "s2s_scale_u2", 11, 11);
  arg(p, db, PARAM_ARRAY, a);
  arg(p, db, PARAM_SCALAR, n);
  arg(p, db, PARAM_ARRAY, b);
  arg(p, de, PARAM_ARRAY, a);
  arg(p, up, PARAM_ARRAY, a);
  ck_assert_text(host(p, c_src, &calls),
                 "#include <stdio.h>\n"
                 "\n"
                 "/* scale a vector */\n"
                 "void s2s_scale_r1(double *b, double *a, int n, double s);\n"
                 "void s2s_scale_d1_begin(double *a, int n, double *b);\n"
                 "void s2s_scale_d1_end(double *a);\n"
                 "void s2s_scale_u2(double *a);\n"
                 "int s2s_host_pass(void);\n"
                 "void s2s_host_pass_end(void);\n"
                 "void s2s_host_pass_result(const void *);\n"
                 "void scale(int n, double *restrict a, const double *restrict b, double s)\n"
                 "{\n"
                 "  { s2s_scale_d1_begin((void *)a, n, (void *)b);\n"
                 "  {\n"
                 "    { s2s_scale_r1((void *)b, (void *)a, n, s);\n"
                 "      if (s2s_host_pass()) {\n"
                 "    for (int i = 0; i < n; i++)\n"
                 "      a[i] = b[i] * s;\n"
                 "        s2s_host_pass_end();\n"
                 "      } }\n"
                 "    s2s_scale_u2((void *)a);\n"
                 "  }\n"
                 "  s2s_scale_d1_end((void *)a); }\n"
                 "}\n");
}
END_TEST

/* Two data pragmas on one statement: the inner one closes first.  CRLF is
 * kept, also in inserted lines; a function without arguments is (void). */
START_TEST(test_c_nested_data_crlf) {
  static const char src[] =
      "void f(float *x)\r\n"
      "{\r\n"
      "  #pragma stencil data copyin(x[0:4])\r\n"
      "  #pragma stencil data create(x[0:4])\r\n"
      "  g(x);\r\n"
      "}";
  Program *p = program(IR_C);
  IrRoutine *r = routine(p, "f", 1, 1, 6);
  HostCalls calls = { 0 };
  call(&calls, HOST_CALL_DATA_BEGIN, r, "s2s_f_d1_begin", 3, 3);
  HostCall *e1 = call(&calls, HOST_CALL_DATA_END, r, "s2s_f_d1_end", 0, 0);
  call(&calls, HOST_CALL_DATA_BEGIN, r, "s2s_f_d2_begin", 4, 4);
  HostCall *e2 = call(&calls, HOST_CALL_DATA_END, r, "s2s_f_d2_end", 0, 0);
  e1->stmt_last_line = e2->stmt_last_line = 5;
  ck_assert_text(host(p, src, &calls),
                 "void s2s_f_d1_begin(void);\r\n"
                 "void s2s_f_d1_end(void);\r\n"
                 "void s2s_f_d2_begin(void);\r\n"
                 "void s2s_f_d2_end(void);\r\n"
                 "void f(float *x)\r\n"
                 "{\r\n"
                 "  { s2s_f_d1_begin();\r\n"
                 "  { s2s_f_d2_begin();\r\n"
                 "  g(x);\r\n"
                 "  s2s_f_d2_end(); }\r\n"
                 "  s2s_f_d1_end(); }\r\n"
                 "}");
}
END_TEST

/* A data end after the last line of a file without a final newline. */
START_TEST(test_c_insert_after_last_line) {
  static const char src[] = "#pragma stencil data create(x[0:4])\nh(x);";
  Program *p = program(IR_C);
  IrRoutine *r = routine(p, "f", 1, 1, 2);
  HostCalls calls = { 0 };
  call(&calls, HOST_CALL_DATA_BEGIN, r, "b", 1, 1);
  call(&calls, HOST_CALL_DATA_END, r, "e", 0, 0)->stmt_last_line = 2;
  ck_assert_text(host(p, src, &calls), "void b(void);\nvoid e(void);\n{ b();\nh(x);\ne(); }");
}
END_TEST

/* The launcher ABI of one parameter, per language and role: what
 * xf_launcher_param decides and the type emit_param_ctype prints (the .cu
 * definition and the C prototype both print it). */
typedef struct AbiCase {
  IrLang lang;
  const char *what;       /* "array", "scalar", "lbound" (of a rank-2 array's dim 2) */
  IrType type;
  ParamRole role;         /* expected */
  bool by_reference, read_only;
  const char *ctype;      /* expected emit_param_ctype */
} AbiCase;

static const AbiCase abi_cases[] = {
  { IR_FORTRAN, "array", IR_T_REAL4, PARAM_ARRAY, true, false, "float *" },
  { IR_FORTRAN, "array", IR_T_REAL8, PARAM_ARRAY, true, false, "double *" },
  { IR_FORTRAN, "array", IR_T_LOGICAL, PARAM_ARRAY, true, false, "int *" },
  { IR_FORTRAN, "scalar", IR_T_INT, PARAM_SCALAR, true, true, "const int *" },
  { IR_FORTRAN, "scalar", IR_T_INT8, PARAM_SCALAR, true, true, "const long long *" },
  { IR_FORTRAN, "scalar", IR_T_LOGICAL, PARAM_SCALAR, true, true, "const int *" },
  { IR_FORTRAN, "scalar", IR_T_REAL8, PARAM_SCALAR, true, true, "const double *" },
  { IR_FORTRAN, "lbound", IR_T_INT, PARAM_HOST_LBOUND, true, true, "const int *" },
  { IR_FORTRAN, "ubound", IR_T_INT, PARAM_HOST_UBOUND, true, true, "const int *" },
  /* C: the element type, as the .cu definition declares it (not void *) */
  { IR_C, "array", IR_T_REAL4, PARAM_ARRAY, true, false, "float *" },
  { IR_C, "array", IR_T_REAL8, PARAM_ARRAY, true, false, "double *" },
  { IR_C, "array", IR_T_INT, PARAM_ARRAY, true, false, "int *" },
  { IR_C, "scalar", IR_T_INT, PARAM_SCALAR, false, false, "int" },
  { IR_C, "scalar", IR_T_INT8, PARAM_SCALAR, false, false, "long long" },
  { IR_C, "scalar", IR_T_REAL8, PARAM_SCALAR, false, false, "double" },
};

START_TEST(test_launcher_abi) {
  const AbiCase *t = &abi_cases[_i];
  IrSym *a = sym("a", t->type, 2), *s = sym("s", t->type, 0);
  IrSym *subject = !strcmp(t->what, "array") ? a
                 : !strcmp(t->what, "scalar") ? s
                 : bound(a, 1, !strcmp(t->what, "ubound"));
  Param got = xf_launcher_param(t->lang, subject->rank ? PARAM_ARRAY : PARAM_SCALAR, subject);
  ck_assert_int_eq(got.role, t->role);
  ck_assert_ptr_eq(got.sym, subject);
  ck_assert_int_eq(got.dim, t->role == PARAM_HOST_LBOUND || t->role == PARAM_HOST_UBOUND ? 1 : 0);
  ck_assert_int_eq(got.by_reference, t->by_reference);
  ck_assert_int_eq(got.read_only, t->read_only);
  ck_assert_int_eq(got.no_alias, false);
  ck_assert_str_eq(emit_param_ctype(&got), t->ctype);
}
END_TEST

/* A symbol already in the list is not added again (a firstprivate scalar
 * of two kernels, an array in two clauses). */
START_TEST(test_launcher_add_once) {
  ParamList l = { 0 };
  IrSym *a = sym("a", IR_T_REAL8, 1), *n = sym("n", IR_T_INT, 0);
  xf_launcher_add(&l, IR_C, PARAM_ARRAY, a);
  xf_launcher_add(&l, IR_C, PARAM_SCALAR, n);
  xf_launcher_add(&l, IR_C, PARAM_ARRAY, a);
  xf_launcher_add(&l, IR_C, PARAM_SCALAR, n);
  ck_assert_int_eq(l.n, 2);
  ck_assert_ptr_eq(l.v[0].sym, a);
  ck_assert_ptr_eq(l.v[1].sym, n);
}
END_TEST

/* ---- internal errors ---------------------------------------------------------- */

/* Overlapping replacements are a bug in the caller: abort, never write a
 * mangled file. */
START_TEST(test_overlap_is_a_bug) {
  Program *p = program(IR_FORTRAN);
  IrRoutine *r = routine(p, "s", 1, 1, 6);
  HostCalls calls = { 0 };
  call(&calls, HOST_CALL_REGION, r, "x", 2, 4);
  call(&calls, HOST_CALL_REGION, r, "y", 3, 5);
  free(host(p, "a\nb\nc\nd\ne\nf\n", &calls));
}
END_TEST

START_TEST(test_line_outside_file_is_a_bug) {
  Program *p = program(IR_C);
  IrRoutine *r = routine(p, "s", 1, 1, 2);
  HostCalls calls = { 0 };
  call(&calls, HOST_CALL_REGION, r, "x", 2, 9);
  free(host(p, "a\nb\n", &calls));
}
END_TEST

static Suite *host_suite(void) {
  Suite *s = suite_create("host");
  TCase *f = tcase_create("fortran");
  tcase_add_checked_fixture(f, setup, teardown);
  tcase_add_test(f, test_fortran_region);
  tcase_add_test(f, test_fortran_line_markers);
  tcase_add_test(f, test_fortran_unchanged);
  tcase_add_test(f, test_fortran_crlf_no_final_newline);
  tcase_add_test(f, test_fortran_continuation);
  tcase_add_test(f, test_fortran_bounds_and_types);
  tcase_add_test(f, test_fortran_data_update_column1);
  tcase_add_test(f, test_fortran_two_routines);
  tcase_add_test(f, test_fortran_dummy_clashes);
  suite_add_tcase(s, f);
  TCase *c = tcase_create("c");
  tcase_add_checked_fixture(c, setup, teardown);
  tcase_add_test(c, test_c_region_data_update);
  tcase_add_test(c, test_c_line_markers);
  tcase_add_test(c, test_c_nested_data_crlf);
  tcase_add_test(c, test_c_insert_after_last_line);
  tcase_add_loop_test(c, test_launcher_abi, 0, (int)(sizeof abi_cases / sizeof *abi_cases));
  tcase_add_test(c, test_launcher_add_once);
  suite_add_tcase(s, c);
  TCase *bug = tcase_create("bug");
  tcase_add_checked_fixture(bug, setup, teardown);
  tcase_add_test_raise_signal(bug, test_overlap_is_a_bug, SIGABRT);
  tcase_add_test_raise_signal(bug, test_line_outside_file_is_a_bug, SIGABRT);
  suite_add_tcase(s, bug);
  return s;
}

int main(void) {
  SRunner *sr = srunner_create(host_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
