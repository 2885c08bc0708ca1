/* check_contract.c — table-driven tests of pass "contract" (transforms/contract.c):
 * a work array kept per thread that one loop of the thread uses a level at a
 * time becomes a scalar.
 *   - which arrays are contracted, as the report says ("Array 'w' contracted
 *     to a scalar in loop 'k'", "... to 2 scalars ..." for constant
 *     subscripts), and each legality condition refused in turn (the array
 *     left in memory, no line);
 *   - the thread body: no reference to a contracted array left;
 *   - S2S_CONTRACT=0 turns the pass off.
 * The column loop i runs on the grid; the k loops stay sequential in each
 * thread because the c2 recurrence runs along k.  w, v and q are local work
 * arrays of the routine (privatized per column), c2 and b are dummies.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"

static const char decls[] = "real :: w(100,100), v(100,100), q(100,100,2), s\n";

typedef struct ContractCase {
  const char *name;
  const char *body;
  int ncontracted;          /* report lines "contracted to" */
  const char *present;      /* a substring of the report, or NULL */
  const char *gone;         /* an array no longer named in the thread body, or NULL */
  bool off;                 /* run with S2S_CONTRACT=0 */
} ContractCase;

#define RECURRENCE "  c2(i,k) = c2(i,k-1) + "

static const ContractCase cases[] = {
  /* stored at the top of the level, read after: a scalar */
  { "stored-then-read",
    "do i = 1, n\n do k = 2, n\n  w(i,k) = b(k) * 2.0\n" RECURRENCE "w(i,k)\n end do\nend do\n",
    1, "Array 'w' contracted to a scalar in loop 'k'", "w(", false },
  /* stored under both branches of an IF, then updated and read: still a scalar */
  { "stored-in-both-branches",
    "do i = 1, n\n do k = 2, n\n  if (b(k) > 0.0) then\n   w(i,k) = b(k)\n  else\n   w(i,k) = 0.0\n"
    "  end if\n  w(i,k) = w(i,k) * 0.5\n" RECURRENCE "w(i,k)\n end do\nend do\n",
    1, "Array 'w' contracted to a scalar", "w(", false },
  /* constant subscripts: one scalar per slice */
  { "two-slices",
    "do i = 1, n\n do k = 2, n\n  q(i,k,1) = b(k)\n  q(i,k,2) = b(k) + 1.0\n"
    RECURRENCE "q(i,k,1) * q(i,k,2)\n end do\nend do\n",
    1, "Array 'q' contracted to 2 scalars", "q(", false },
  /* stored only under an IF and read after it: an earlier level's value may be read */
  { "stored-under-if",
    "do i = 1, n\n w(i,:) = 0.0\n do k = 2, n\n  if (b(k) > 0.0) w(i,k) = b(k)\n"
    RECURRENCE "w(i,k)\n end do\nend do\n", 0, NULL, NULL, false },
  /* read at k-1: another level */
  { "other-level",
    "do i = 1, n\n w(i,1) = 0.0\n do k = 2, n\n  w(i,k) = b(k)\n" RECURRENCE "w(i,k-1)\n"
    " end do\nend do\n", 0, NULL, NULL, false },
  /* used in two loops that do not fuse (the second reads c2 one level up) */
  { "two-loops",
    "do i = 1, n\n do k = 2, n\n  w(i,k) = b(k)\n" RECURRENCE "1.0\n end do\n"
    " do k = 2, n - 1\n  v(i,k) = c2(i,k+1) + w(i,k)\n  c2(i,k) = v(i,k)\n end do\nend do\n",
    1, "Array 'v' contracted", "v(", false },
  /* read before it is stored in the level */
  { "read-first",
    "do i = 1, n\n w(i,:) = 1.0\n do k = 2, n\n" RECURRENCE "w(i,k)\n  w(i,k) = b(k)\n"
    " end do\nend do\n", 0, NULL, NULL, false },
  /* a subscript that is not the loop index */
  { "other-subscript",
    "do i = 1, n\n do k = 2, n\n  w(i,k) = b(k)\n  w(i,1) = b(1)\n" RECURRENCE "w(i,k)\n"
    " end do\nend do\n", 0, NULL, NULL, false },
  /* the pass off */
  { "contract-off",
    "do i = 1, n\n do k = 2, n\n  w(i,k) = b(k) * 2.0\n" RECURRENCE "w(i,k)\n end do\nend do\n",
    0, NULL, NULL, true },
};

START_TEST(test_contract_case)
{
  const ContractCase *c = &cases[_i];
  char *msgs;
  Program *p;
  if (c->off)
    setenv("S2S_CONTRACT", "0", 1);
  bool ok = cu_plan_region(c->name, decls, "", c->body, true, &p, &msgs);
  if (c->off)
    unsetenv("S2S_CONTRACT");
  ck_assert_msg(ok, "case %s: planning failed:\n%s", c->name, msgs);
  int n = cu_count_lines(msgs, "contracted to");
  ck_assert_msg(n == c->ncontracted, "case %s: %d arrays contracted, expected %d:\n%s", c->name,
                n, c->ncontracted, msgs);
  if (c->present)
    ck_assert_msg(strstr(msgs, c->present), "case %s: the report lacks '%s':\n%s", c->name,
                  c->present, msgs);
  if (c->gone) {
    const RegionPlan *plan = cu_first_region(p)->analysis;
    for (int k = 0; k < plan->nkernels; k++) {
      char *dump = cu_dump_stmts(plan->kernels[k].body);
      ck_assert_msg(!strstr(dump, c->gone), "case %s: '%s' still in kernel %d:\n%s", c->name,
                    c->gone, k, dump);
      free(dump);
    }
  }
  free(msgs);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("contract");
  TCase *tc = tcase_create("contract");
  tcase_add_loop_test(tc, test_contract_case, 0, (int)(sizeof cases / sizeof cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
