/* check_devicefn.c — table-driven tests of the __device__ function
 * fallback of inlining (transforms/inline.c, "__device__ functions"): for a
 * function a region calls, whether it is inlined, kept as the call of a
 * __device__ function (recursive, or its loops would nest too deep), or
 * refused, and why.
 *
 * Each case is a whole Fortran file: a module whose routine `outer` calls,
 * inside its region (one loop over i), a function of the module.  The test
 * runs the front end and xf_inline_program and compares the decision, a
 * fragment of the diagnostics and report, how many functions are reported
 * as __device__ functions and how many calls as inlined, and for a
 * __device__ function how many statements of the region (as --dump-ir
 * prints them) call it; the IR must then pass the verifier.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "inline.h"
#include "verify.h"

typedef enum Decision { INLINED, DEVICE, REFUSED } Decision;

typedef struct DeviceCase {
  const char *name;
  const char *source;
  Decision decision;
  const char *message;   /* substring of the diagnostics and report, or NULL */
  int ndevice;           /* report lines "... generated as a __device__ function" */
  int ninlined;          /* report lines "... inlined" */
  const char *call;      /* DEVICE: a fragment of the region's statements that call it */
  int ncalls;            /* how many statements contain it */
} DeviceCase;

/* `outer(n, a, b)` with a region over i around STMT (line 10), then the callee. */
#define CALLER(stmt)                                                                         \
  "module m\n  implicit none\n  real :: g\ncontains\n  subroutine outer(n, a, b)\n"          \
  "    integer, intent(in) :: n\n    real, intent(inout) :: a(n), b(n)\n    integer :: i\n"    \
  "!$stencil region\n    do i = 1, n\n      " stmt "\n    end do\n!$stencil end region\n"      \
  "  end subroutine outer\n"
#define END_MODULE "end module m\n"

/* recursive real function fact(x) result(r), with DECLS and BODY inside */
#define FACT(decls, body)                                                                    \
  "  recursive real function fact(x) result(r)\n    real, intent(in) :: x\n" decls          \
  "    if (x > 1.0) then\n      r = x * fact(x - 1.0)\n    else\n      r = 1.0\n    end if\n" \
  body "  end function fact\n"

static const DeviceCase cases[] = {
  /* a function that is not recursive is inlined as before */
  { "not-recursive", CALLER("a(i) = twice(b(i))")
    "  real function twice(x)\n    real, intent(in) :: x\n    twice = 2.0 * x\n"
    "  end function twice\n" END_MODULE, INLINED, "Function 'twice' inlined", 0, 1, NULL, 0 },
  /* recursive, scalars only: a __device__ function, the call kept */
  { "recursive-scalar", CALLER("a(i) = fact(b(i))") FACT("", "") END_MODULE, DEVICE,
    "t.f90:11:14: info: Function 'fact' generated as a __device__ function (recursive: cannot be "
    "inlined)", 1, 0, "a(i) = __device__ fact(b(i))", 1 },
  /* called twice: one __device__ function, reported once */
  { "called-twice", CALLER("a(i) = fact(b(i)) + fact(a(i))") FACT("", "") END_MODULE, DEVICE,
    NULL, 1, 0, "__device__ fact(a(i))", 1 },
  /* a fixed-size local array, a named constant and integer arithmetic are fine */
  { "fixed-local-array",
    CALLER("a(i) = fact(b(i))")
    FACT("    integer, parameter :: nw = 3\n    real :: w(nw)\n    integer :: k\n",
         "    do k = 1, nw\n      w(k) = r / real(k / 2 + 1)\n    end do\n    r = w(nw)\n")
    END_MODULE, DEVICE, NULL, 1, 0, "__device__ fact(b(i))", 1 },
  /* the functions it calls become __device__ functions too, even if they could be inlined */
  { "helper-of-recursive",
    CALLER("a(i) = fact(b(i))") FACT("", "    r = sq(r)\n")
    "  real function sq(y)\n    real, intent(in) :: y\n    sq = y * y\n  end function sq\n"
    END_MODULE, DEVICE, "Function 'sq' generated as a __device__ function (called by "
    "__device__ function 'fact')", 2, 0, "__device__ fact(b(i))", 1 },
  /* mutual recursion: both __device__ functions */
  { "mutual-recursion",
    CALLER("a(i) = real(even(int(b(i))))")
    "  recursive integer function even(k) result(e)\n    integer, intent(in) :: k\n"
    "    if (k == 0) then\n      e = 1\n    else\n      e = odd(k - 1)\n    end if\n"
    "  end function even\n"
    "  recursive integer function odd(k) result(o)\n    integer, intent(in) :: k\n"
    "    if (k == 0) then\n      o = 0\n    else\n      o = even(k - 1)\n    end if\n"
    "  end function odd\n" END_MODULE, DEVICE, "Function 'odd' generated as a __device__ "
    "function (called by __device__ function 'even')", 2, 0, "__device__ even(", 1 },
  /* reached through an inlined subroutine: the call stays in the inlined body */
  { "inside-inlined-routine",
    CALLER("call put(a(i), b(i))")
    "  subroutine put(y, x)\n    real, intent(out) :: y\n    real, intent(in) :: x\n"
    "    y = fact(x)\n  end subroutine put\n" FACT("", "") END_MODULE, DEVICE,
    "Routine 'put' inlined", 1, 1, "a(i) = __device__ fact(b(i))", 1 },
  /* recursive and assigning its argument: refused, saying both */
  { "assigns-argument",
    CALLER("a(i) = fact(b(i))")
    "  recursive real function fact(x) result(r)\n    real, intent(inout) :: x\n"
    "    x = x - 1.0\n    r = 1.0\n    if (x > 1.0) r = x * fact(x)\n  end function fact\n"
    END_MODULE, REFUSED, "t.f90:11:14: error: cannot inline 'fact' (called at line 11): it is "
    "recursive (fact -> fact); a recursive routine cannot be inlined, and it cannot be a "
    "__device__ function: it assigns its argument 'x' (a __device__ function made from a function "
    "takes scalars, by value)", 0, 0, NULL, 0 },
  /* an array argument: refused */
  { "array-argument",
    CALLER("a(i) = total(b, i)")
    "  recursive real function total(v, k) result(s)\n    real, intent(in) :: v(:)\n"
    "    integer, intent(in) :: k\n    s = v(k)\n    if (k > 1) s = s + total(v, k - 1)\n"
    "  end function total\n" END_MODULE, REFUSED,
    "it is recursive (total -> total); a recursive routine cannot be inlined, and it cannot be a "
    "__device__ function: its argument 'v' is an array", 0, 0, NULL, 0 },
  /* an optional argument: refused */
  { "optional-argument",
    CALLER("a(i) = fact(b(i))")
    "  recursive real function fact(x, scale) result(r)\n    real, intent(in) :: x\n"
    "    real, intent(in), optional :: scale\n    r = 1.0\n    if (x > 1.0) r = x * fact(x - 1.0)\n"
    "  end function fact\n" END_MODULE, REFUSED, "its argument 'scale' is OPTIONAL", 0, 0, NULL,
    0 },
  /* a module variable read: refused, saying what to do */
  { "reads-module-variable", CALLER("a(i) = fact(b(i))") FACT("", "    r = r * g\n") END_MODULE,
    REFUSED, "it reads module variable 'g' (pass its value as an argument instead)", 0, 0, NULL,
    0 },
  /* a module variable written: refused */
  { "assigns-module-variable", CALLER("a(i) = fact(b(i))") FACT("", "    g = r\n") END_MODULE,
    REFUSED, "it assigns module variable 'g', which all threads would share", 0, 0, NULL, 0 },
  /* a SAVE local: refused */
  { "saved-local",
    CALLER("a(i) = fact(b(i))") FACT("    integer, save :: calls\n", "    calls = calls + 1\n")
    END_MODULE, REFUSED, "its local 'calls' keeps its value from one call to the next", 0, 0,
    NULL, 0 },
  /* an automatic array sized by an argument: refused */
  { "automatic-array",
    CALLER("a(i) = depth(3)")
    "  recursive real function depth(n) result(r)\n    integer, intent(in) :: n\n"
    "    real :: w(n)\n    w(1) = 1.0\n    r = w(1)\n    if (n > 1) r = r + depth(n - 1)\n"
    "  end function depth\n" END_MODULE, REFUSED,
    "its local array 'w' has bounds known only at run time", 0, 0, NULL, 0 },
  /* a subroutine call in its body: that subroutine a __device__ function too, its
   * argument r by pointer */
  { "calls-subroutine",
    CALLER("a(i) = fact(b(i))") FACT("", "    call clip(r)\n")
    "  subroutine clip(y)\n    real, intent(inout) :: y\n    y = min(y, 100.0)\n"
    "  end subroutine clip\n" END_MODULE, DEVICE, "Subroutine 'clip' generated as a __device__ "
    "function (called by __device__ function 'fact')", 2, 0, "a(i) = __device__ fact(b(i))", 1 },
  /* ... unless it passes an expression where the subroutine assigns: refused */
  { "calls-subroutine-expression",
    CALLER("a(i) = fact(b(i))") FACT("", "    call clip(r + 1.0)\n")
    "  subroutine clip(y)\n    real, intent(inout) :: y\n    y = min(y, 100.0)\n"
    "  end subroutine clip\n" END_MODULE, REFUSED, "its call of 'clip' (line 22) passes an "
    "expression to argument 'y', which 'clip' assigns", 0, 0, NULL, 0 },
  /* a function it calls cannot be one: refused, saying why */
  { "helper-reads-module-variable",
    CALLER("a(i) = fact(b(i))") FACT("", "    r = scaled(r)\n")
    "  real function scaled(y)\n    real, intent(in) :: y\n    scaled = g * y\n"
    "  end function scaled\n" END_MODULE, REFUSED, "it calls 'scaled', which cannot be one "
    "either: it reads module variable 'g'", 0, 0, NULL, 0 },
  /* an array result: refused */
  { "array-result",
    CALLER("a(i) = a(i) + spread3(b(i))")
    "  recursive function spread3(x) result(v)\n    real, intent(in) :: x\n    real :: v(3)\n"
    "    v(1) = 0.0\n    if (x > 1.0) v(1) = x + spread3(x - 1.0)\n  end function spread3\n"
    END_MODULE, REFUSED, "it is recursive (spread3 -> spread3); a recursive routine cannot be "
    "inlined, and it cannot be a __device__ function: it returns an array", 0, 0, NULL, 0 },
  /* recursive subroutines: __device__ functions, the region's call one reference to the
   * value of x after it */
  { "recursive-subroutines",
    CALLER("call ping(a(i))")
    "  recursive subroutine ping(x)\n    real, intent(inout) :: x\n    call pong(x)\n"
    "  end subroutine ping\n  recursive subroutine pong(x)\n    real, intent(inout) :: x\n"
    "    x = 0.5 * x\n    if (x > 1.0) call ping(x)\n  end subroutine pong\n" END_MODULE, DEVICE,
    "Subroutine 'pong' generated as a __device__ function (called by __device__ subroutine "
    "'ping')", 2, 0, "a(i) = __device__ ping(a(i))%x", 1 },
  /* two arguments assigned, one INTENT(OUT): two references, the OUT one not passed,
   * the arguments read copied first; the report says the body runs twice */
  { "subroutine-two-results",
    CALLER("call split(b(i), a(i), b(i))")
    "  recursive subroutine split(v, lo, hi)\n    real, intent(in) :: v\n"
    "    real, intent(out) :: lo\n    real, intent(inout) :: hi\n"
    "    lo = 0.5 * v\n    hi = hi - lo\n    if (hi > 10.0) call split(hi, lo, hi)\n"
    "  end subroutine split\n" END_MODULE, DEVICE, "Call of 'split': it assigns 2 of its "
    "arguments ('lo', 'hi') and a __device__ function returns one value, so its body runs "
    "once for each", 1, 0, "__device__ split(split_v,split_hi)%", 2 },
  /* one that assigns nothing changes nothing: its call removed */
  { "subroutine-assigns-nothing",
    CALLER("call probe(n)")
    "  recursive subroutine probe(k)\n    integer, intent(in) :: k\n"
    "    if (k > 1) call probe(k / 2)\n  end subroutine probe\n" END_MODULE, DEVICE,
    "Call of 'probe' removed (recursive: cannot be inlined): it assigns none of its arguments",
    0, 0, "probe", 0 },
  /* an argument it assigns given an expression: refused */
  { "subroutine-expression-actual",
    CALLER("call halve(a(i) + 1.0)")
    "  recursive subroutine halve(x)\n    real :: x\n    x = 0.5 * x\n"
    "    if (x > 1.0) call halve(x)\n  end subroutine halve\n" END_MODULE, REFUSED,
    "cannot call 'halve' here (line 11): recursive: cannot be inlined, and as a __device__ "
    "function it assigns its argument 'x', whose actual here is an expression", 0, 0, NULL, 0 },
  /* an array argument: refused */
  { "subroutine-array-argument",
    CALLER("call walk(a, i)")
    "  recursive subroutine walk(v, k)\n    real, intent(inout) :: v(:)\n"
    "    integer, intent(in) :: k\n    v(k) = 0.0\n    if (k > 1) call walk(v, k - 1)\n"
    "  end subroutine walk\n" END_MODULE, REFUSED, "it cannot be a __device__ function: its "
    "argument 'v' is an array", 0, 0, NULL, 0 },
  /* a scalar dummy given a whole array: refused at the call */
  { "whole-array-actual", CALLER("a(i) = fact(b)") FACT("", "") END_MODULE, REFUSED,
    "scalar dummy 'x' gets the whole array 'b'", 0, 0, NULL, 0 },
};

/* A function of `loops` nested loops over l1..lN (1..m), reading module
 * variable g when `reads_module`, called in the region's i loop. */
static const char *deep_source(int loops, bool reads_module)
{
  const char *decl = "", *nest = "", *ends = "";
  for (int l = 1; l <= loops; l++) {
    decl = ir_printf("%s    integer :: l%d\n", decl, l);
    nest = ir_printf("%s    do l%d = 1, m\n", nest, l);
    ends = ir_printf("%s    end do\n", ends);
  }
  return ir_printf(CALLER("a(i) = real(deep(2)) + b(i)")
                   "  integer function deep(m)\n    integer, intent(in) :: m\n%s"
                   "    deep = 0\n%s      deep = deep + l1%s\n%s  end function deep\n"
                   END_MODULE, decl, nest, reads_module ? " + int(g)" : "", ends);
}

typedef struct DeepCase {
  const char *name;
  int loops;
  bool reads_module;
  Decision decision;
  const char *message;
} DeepCase;

static const DeepCase deep_cases[] = {
  /* 15 loops inside the region's one: 16 levels, inlined */
  { "fits", 15, false, INLINED, "Function 'deep' inlined" },
  /* 16 inside 1: too deep to inline, a __device__ function */
  { "too-deep", 16, false, DEVICE, "Function 'deep' generated as a __device__ function (too "
    "deep to inline: its 16 nested loops inside the 1 loops around the call would nest 17 deep, "
    "more than 16 levels)" },
  /* ... but one that reads a module variable cannot be: refused, saying both */
  { "too-deep-module-variable", 16, true, REFUSED, "cannot inline 'deep' here: its 16 nested "
    "loops inside the 1 loops around the call make a loop nest deeper than 16 levels, which is "
    "not supported in a region, and it cannot be a __device__ function: it reads module variable "
    "'g'" },
};

static void check_decision(const char *name, const char *source, Decision decision,
                           const char *message, int ndevice, int ninlined, const char *call,
                           int ncalls)
{
  char *msgs;
  Program *p;
  bool ok = cu_run(source, xf_inline_program, true, &p, &msgs);
  ck_assert_msg(p != NULL, "case %s does not parse:\n%s", name, msgs);
  ck_assert_msg(ok == (decision != REFUSED), "case %s: %s:\n%s", name, ok ? "translated" : "refused",
                msgs);
  if (message)
    ck_assert_msg(strstr(msgs, message), "case %s: messages lack '%s':\n%s", name, message, msgs);
  ck_assert_msg(cu_count_lines(msgs, "error:") == (decision == REFUSED),
                "case %s: one error expected when refused, none otherwise:\n%s", name, msgs);
  int devices = cu_count_lines(msgs, "generated as a __device__ function");
  ck_assert_msg(devices == ndevice, "case %s: %d __device__ functions, expected %d:\n%s", name,
                devices, ndevice, msgs);
  int inlined = cu_count_lines(msgs, "' inlined");
  ck_assert_msg(inlined == ninlined, "case %s: %d calls inlined, expected %d:\n%s", name, inlined,
                ninlined, msgs);
  if (ok) {
    char why[512] = "";
    ck_assert_msg(ir_verify(p, IR_STAGE_INLINED, why, sizeof why) == 0,
                  "case %s: the verifier refuses the IR: %s", name, why);
  }
  if (call) {
    char *dump = cu_dump_stmts(&cu_first_region(p)->body);
    int n = cu_count_lines(dump, call);
    ck_assert_msg(n == ncalls, "case %s: %d statements with '%s', expected %d:\n%s", name, n,
                  call, ncalls, dump);
    free(dump);
  }
  free(msgs);
  cu_reset();
}

START_TEST(test_decision)
{
  const DeviceCase *c = &cases[_i];
  check_decision(c->name, c->source, c->decision, c->message, c->ndevice, c->ninlined, c->call,
                 c->ncalls);
}
END_TEST

START_TEST(test_deep)
{
  const DeepCase *c = &deep_cases[_i];
  bool device = c->decision == DEVICE;
  check_decision(c->name, deep_source(c->loops, c->reads_module), c->decision, c->message,
                 device, c->decision == INLINED, device ? "__device__ deep(2)" : NULL, device);
}
END_TEST

/* A __device__ function reaches the plan as a pure function of its
 * arguments: the region's arrays are read and written as the region says,
 * nothing of the callee's appears among them. */
START_TEST(test_planned)
{
  char *msgs;
  Program *p;
  bool ok = cu_run(cases[1].source, cu_plan_program, true, &p, &msgs);
  ck_assert_msg(ok, "recursive-scalar does not plan:\n%s", msgs);
  ck_assert_msg(strstr(msgs, "Generating copyin(b(1:n))") && strstr(msgs, "copyout(a(1:n))"),
                "the data clauses are not the region's own:\n%s", msgs);
  ck_assert_msg(strstr(msgs, "Accelerator kernel generated: outer_r1"), "no kernel:\n%s", msgs);
  char why[512] = "";
  ck_assert_msg(ir_verify(p, IR_STAGE_PLANNED, why, sizeof why) == 0, "verifier: %s", why);
  free(msgs);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("devicefn");
  TCase *tc = tcase_create("devicefn");
  tcase_add_loop_test(tc, test_decision, 0, (int)(sizeof cases / sizeof cases[0]));
  tcase_add_loop_test(tc, test_deep, 0, (int)(sizeof deep_cases / sizeof deep_cases[0]));
  tcase_add_test(tc, test_planned);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
