/* check_moddata.c — tests of module data in regions (analysis/access.c,
 * transforms/storage.c, translator/emit/emit_cuda.c):
 *   - place_rule       the decision alone (an_module_data_place), a table of
 *                      facts: by value, constant memory, data clause,
 *                      refused (a written scalar is never privatized);
 *   - program_case     small programs parsed and planned by the real front
 *                      end and planner: each module variable's place, its
 *                      report line, and the one error of a refused write;
 *   - module_elsewhere the module's symbols reached only through the
 *                      routine's USE list, or through no module at all (as
 *                      a summary of another file may give them): the same
 *                      places, from the IR symbols alone;
 *   - named_constants  the storage pass's named constants: every PARAMETER
 *                      the region uses and those their values use, each
 *                      after the ones it needs, renamed when another symbol
 *                      of the region has the name; and the .cu declaring
 *                      them by name.
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "access.h"
#include "check_util.h"
#include "emit.h"

/* ---- the rule --------------------------------------------------------------- */

typedef struct PlaceCase {
  const char *name;
  ModuleDataFacts facts;
  ModulePlace expect;
} PlaceCase;

#define LEFT AN_CONSTANT_FILE_MAX_BYTES

static const PlaceCase place_cases[] = {
  { "scalar read", { .is_array = false }, MODULE_BY_VALUE },
  { "scalar read, host reads it after (irrelevant)", { .host_reads_after = true }, MODULE_BY_VALUE },
  /* never privatized: other routines, in other files too, may read it after the region */
  { "scalar written, assigned first, not read after", { .written = true }, MODULE_REFUSED },
  { "scalar written, read before its assignment", { .written = true, .read_before_write = true },
    MODULE_REFUSED },
  { "scalar written, read by the host after", { .written = true, .host_reads_after = true },
    MODULE_REFUSED },
  { "scalar written, both", { .written = true, .read_before_write = true, .host_reads_after = true },
    MODULE_REFUSED },
  { "small uniform array", { .is_array = true, .uniform = true, .bytes = 12, .constant_left = LEFT },
    MODULE_CONSTANT },
  { "array at the size limit",
    { .is_array = true, .uniform = true, .bytes = AN_CONSTANT_ARRAY_MAX_BYTES, .constant_left = LEFT },
    MODULE_CONSTANT },
  { "array over the size limit",
    { .is_array = true, .uniform = true, .bytes = AN_CONSTANT_ARRAY_MAX_BYTES + 4,
      .constant_left = LEFT }, MODULE_DATA_CLAUSE },
  { "array the file has no room left for",
    { .is_array = true, .uniform = true, .bytes = 64, .constant_left = 60 }, MODULE_DATA_CLAUSE },
  { "array with run-time bounds", { .is_array = true, .uniform = true, .bytes = -1, .constant_left = LEFT },
    MODULE_DATA_CLAUSE },
  { "array read at a thread's own index",
    { .is_array = true, .uniform = false, .bytes = 12, .constant_left = LEFT }, MODULE_DATA_CLAUSE },
  { "array written", { .is_array = true, .written = true, .uniform = true, .bytes = 12,
                       .constant_left = LEFT }, MODULE_DATA_CLAUSE },
  { "array named in a data clause",
    { .is_array = true, .user_clause = true, .uniform = true, .bytes = 12, .constant_left = LEFT },
    MODULE_DATA_CLAUSE },
};

START_TEST(test_place_rule)
{
  const PlaceCase *c = &place_cases[_i];
  ModulePlace got = an_module_data_place(&c->facts);
  ck_assert_msg(got == c->expect, "case %s: place %d, expected %d", c->name, (int)got,
                (int)c->expect);
}
END_TEST

/* ---- programs ------------------------------------------------------------------ */

/* A module m of the same file, and routine t with one region over i:
 *   module m                                  line 1
 *     real :: ms, mt, coef(3), big(2000), tab(64)   line 2
 *     real(8), parameter :: ep = 0.5d0        line 3
 *   end module m                              line 4
 *   subroutine t(n, a, b)                     line 5
 *     use m                                   line 6
 *     implicit none                           line 7
 *     integer :: n, i, k, it                  line 8
 *     real :: a(n), b(n)                      line 9
 *   !$stencil region                          line 10
 *   BODY                                      line 11...
 *   !$stencil end region
 *   AFTER
 *   end subroutine t */
static char *module_source(const char *body, const char *after)
{
  return ir_printf("module m\n  real :: ms, mt, coef(3), big(2000), tab(64)\n"
                   "  real(8), parameter :: ep = 0.5d0\nend module m\n"
                   "subroutine t(n, a, b)\n  use m\n  implicit none\n  integer :: n, i, k, it\n"
                   "  real :: a(n), b(n)\n!$stencil region\n%s!$stencil end region\n%s"
                   "end subroutine t\n", body, after);
}

typedef struct ProgramCase {
  const char *name;
  const char *body;
  const char *after;
  bool ok;
  const char *places;      /* "name:place ..." of every module variable, in order */
  const char *message;     /* substring of the messages (report or error), or NULL */
  int errors;              /* how many errors */
} ProgramCase;

static const char *place_name(ModulePlace p)
{
  static const char *const names[] = {
    [MODULE_BY_VALUE] = "value", [MODULE_CONSTANT] = "constant",
    [MODULE_DATA_CLAUSE] = "clause",
    [MODULE_REFUSED] = "refused",
  };
  return names[p];
}

static char *describe_places(const RegionPlan *p)
{
  char *text = NULL;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  for (int i = 0; i < p->nmodule_vars; i++)
    fprintf(f, "%s%s:%s", i ? " " : "", p->module_vars[i].sym->name,
            place_name(p->module_vars[i].place));
  fclose(f);
  return text;
}

static const ProgramCase program_cases[] = {
  { "scalar read", "do i = 1, n\n  a(i) = a(i) * ms\nend do\n", "", true, "ms:value",
    "Module variable 'ms' (m) passed by value", 0 },
  { "coefficients at literal indices",
    "do i = 1, n\n  a(i) = coef(1) + coef(3) * a(i)\nend do\n", "", true, "coef:constant",
    "Module array 'coef' (m) placed in constant memory (12 bytes", 0 },
  { "coefficients in a loop of constant bounds",
    "do i = 1, n\n  do k = 1, 3\n    a(i) = a(i) + coef(k)\n  end do\nend do\n", "", true,
    "coef:constant", NULL, 0 },
  { "coefficients at the thread's index (a loop of constant bounds on the grid)",
    "do i = 1, 3\n  a(i) = coef(i)\nend do\n", "", true, "coef:clause",
    "Generating copyin(coef(1:3))", 0 },
  { "table at a data-dependent index",
    "do i = 1, n\n  it = int(b(i))\n  a(i) = tab(it)\nend do\n", "", true, "tab:clause",
    "Module array 'tab' (m) moved by its data clause", 0 },
  { "array too big for constant memory",
    "do i = 1, n\n  a(i) = big(7)\nend do\n", "", true, "big:clause", NULL, 0 },
  { "module array written: copied back",
    "do i = 1, 3\n  coef(i) = a(i)\nend do\n", "", true, "coef:clause", "Generating copyout(coef(1:3))",
    0 },
  { "temporary assigned first: refused, other routines may read it after the region",
    "do i = 1, n\n  mt = a(i) * 2.0\n  a(i) = mt + 1.0\nend do\n", "", false, "mt:refused",
    "t.f90:12:3: error: module variable 'mt' (module m) is assigned in the region: each GPU thread "
    "would have its own copy", 1 },
  { "accumulated: refused at the write",
    "do i = 1, n\n  a(i) = a(i) + 1.0\n  ms = ms + a(i)\nend do\n", "", false, "ms:refused",
    "t.f90:13:3: error: module variable 'ms' (module m) is assigned in the region, but its read at "
    "line 13 may come before the assignment", 1 },
  { "assigned only under IF, read always: refused",
    "do i = 1, n\n  if (a(i) > 0.0) mt = a(i)\n  b(i) = mt\nend do\n", "", false, "mt:refused",
    "its read at line 13 may come before the assignment", 1 },
  { "read by the routine after the region: refused",
    "do i = 1, n\n  mt = a(i)\n  b(i) = mt\nend do\n", "  a(1) = mt\n", false, "mt:refused",
    "routine 't' reads it after the region at line 16", 1 },
  { "two refused scalars: one error",
    "do i = 1, n\n  ms = ms + a(i)\n  mt = mt + b(i)\nend do\n", "", false, "ms:refused mt:refused",
    "module variable 'ms'", 1 },
  { "user clause on a module array",
    "do i = 1, n\n  a(i) = coef(2)\nend do\n", "", true, "coef:clause", "Generating copyin(coef(1:3))",
    0 },
};

START_TEST(test_program_case)
{
  const ProgramCase *c = &program_cases[_i];
  const char *src = module_source(c->body, c->after);
  if (!strcmp(c->name, "user clause on a module array"))
    src = ir_printf("%.*s copyin(coef)%s", (int)(strstr(src, "region\n") + 6 - src), src,
                    strstr(src, "region\n") + 6);
  char *msgs;
  Program *p;
  bool ok = cu_run(src, cu_plan_program, true, &p, &msgs);
  ck_assert_msg(p, "case %s does not parse:\n%s", c->name, msgs);
  ck_assert_msg(ok == c->ok, "case %s: planning %s:\n%s", c->name, ok ? "succeeded" : "failed", msgs);
  char *places = describe_places(cu_first_region(p)->analysis);
  ck_assert_msg(!strcmp(places, c->places), "case %s: places '%s', expected '%s'", c->name, places,
                c->places);
  if (c->message)
    ck_assert_msg(strstr(msgs, c->message), "case %s: messages lack '%s':\n%s", c->name, c->message,
                  msgs);
  ck_assert_msg(cu_count_lines(msgs, ": error:") == c->errors, "case %s: %d errors, expected %d:\n%s",
                c->name, cu_count_lines(msgs, ": error:"), c->errors, msgs);
  free(places);
  free(msgs);
  cu_reset();
}
END_TEST

/* ---- a module known only through its symbols ------------------------------------- */

/* The module read from another file's summary (IrModule.loaded_from, as
 * the front end marks it): places come from the symbols alone, and the
 * report names the module.  (Removing the module from the program would
 * leave its symbols out of scope, which the IR verifier rejects.) */
START_TEST(test_module_elsewhere)
{
  Program *p = cu_parse(module_source("do i = 1, n\n  a(i) = coef(2) * ms + a(i)\nend do\n", ""));
  ck_assert(p);
  for (int i = 0; i < p->nmodules; i++)
    p->modules[i]->loaded_from = "elsewhere.f90";   /* the module of the "other file" */
  ck_assert(cu_plan_program(p));
  RegionPlan *plan = cu_first_region(p)->analysis;
  char *places = describe_places(plan);
  ck_assert_msg(!strcmp(places, "coef:constant ms:value"), "%s", places);
  for (int i = 0; i < plan->nmodule_vars; i++)
    ck_assert_msg(plan->module_vars[i].module && !strcmp(plan->module_vars[i].module, "m"),
                  "module of '%s'", plan->module_vars[i].sym->name);
  free(places);
  cu_reset();
}
END_TEST

/* ---- named constants --------------------------------------------------------------- */

static char *emit_cu(Program *p)
{
  char *cu = NULL;
  size_t len;
  HostCalls calls = { 0 };
  FILE *f = open_memstream(&cu, &len);
  ck_assert(emit_cuda(p, f, &calls));
  fclose(f);
  return cu;
}

START_TEST(test_named_constants)
{
  /* c depends on b, b on a; the inlined helper's own 'n' meets the dummy 'n' */
  const char *src =
      "module k\n  real, parameter :: a = 2.0, b = a * 3.0, c = b + 1.0\n"
      "  real(8), parameter :: d = 0.25d0\n  integer, parameter :: unused = 9\nend module k\n"
      "subroutine t(n, x)\n  use k\n  implicit none\n  integer :: n, i\n  real :: x(n)\n"
      "!$stencil region\n  do i = 1, n\n    x(i) = x(i) * c + real(d)\n    call h(x(i))\n"
      "  end do\n!$stencil end region\nend subroutine t\n"
      "subroutine h(y)\n  real :: y\n  integer, parameter :: n = 4\n  y = y + real(n)\nend subroutine h\n";
  Program *p;
  char *msgs;
  ck_assert(cu_run(src, cu_plan_program, false, &p, &msgs));
  free(msgs);
  RegionPlan *plan = cu_first_region(p)->analysis;
  char *text = NULL;
  size_t len;
  FILE *f = open_memstream(&text, &len);
  for (int i = 0; i < plan->nconsts; i++)
    fprintf(f, "%s%s", i ? " " : "", plan->consts[i].name);
  fclose(f);
  ck_assert_msg(!strcmp(text, "a b c d s2s_n_2"), "constants: %s", text);
  free(text);
  char *cu = emit_cu(p);
  static const char *const expect[] = {
    "  constexpr float a = 2.0f;\n", "  constexpr float b = a * 3.0f;\n",
    "  constexpr float c = b + 1.0f;\n", "  constexpr double d = 0.25e0;\n",
    "  constexpr int s2s_n_2 = 4; /* 'n' */\n", "S2S_x(i) * c + (float)d;",
    "S2S_x(i) + (float)s2s_n_2;",
  };
  for (size_t i = 0; i < sizeof expect / sizeof *expect; i++)
    ck_assert_msg(strstr(cu, expect[i]), "the .cu lacks '%s':\n%s", expect[i], cu);
  ck_assert_msg(!strstr(cu, "unused"), "an unused constant is declared:\n%s", cu);
  ck_assert_msg(!strstr(cu, "2.0f * 3.0f"), "a constant was folded:\n%s", cu);
  free(cu);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("moddata");
  TCase *tc = tcase_create("moddata");
  tcase_add_loop_test(tc, test_place_rule, 0, (int)(sizeof place_cases / sizeof place_cases[0]));
  tcase_add_loop_test(tc, test_program_case, 0,
                      (int)(sizeof program_cases / sizeof program_cases[0]));
  tcase_add_test(tc, test_module_elsewhere);
  tcase_add_test(tc, test_named_constants);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
