/* check_invariant.c — table-driven tests of the region-invariant scalars
 * (transforms/invariant.c): which scalars are found to hold one value
 * wherever the region reads them, and that the reads of those, and only
 * those, are replaced by the value.
 *
 * Every case is a region of cu_region_source's subroutine t with more
 * integer scalars l, m and q (q EQUIVALENCE'd with the real array e); the
 * pass runs alone on it.  The bound of the first loop over i afterwards
 * also shows the values propagated from the statement before (k = kte:
 * propagate_local_values).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "invariant.h"

typedef struct InvariantCase {
  const char *name;
  const char *body;
  const char *invariant;   /* the scalars reported invariant, e.g. "l m", or "" */
  const char *bound_of_i;  /* the upper bound of the first loop over i afterwards, as dumped */
} InvariantCase;

static const InvariantCase cases[] = {
  { "top-of-region", "l = n\ndo i = 1, l\n  a(i) = 0.0\nend do\n", "l", "n" },
  /* one built on another: m's value is l + 1, l's n */
  { "chained", "l = n\nm = l + 1\ndo i = 1, m\n  a(i) = 0.0\nend do\n", "l m", "(n + 1)" },
  /* the same value stored twice is still one value */
  { "same-value-twice",
    "l = n - 1\ndo i = 1, l\n  a(i) = 0.0\nend do\nl = n - 1\ndo i = 1, l\n  b(i) = 0.0\nend do\n",
    "l", "(n - 1)" },
  /* set in every iteration of an outer loop, before its reads there */
  { "inside-outer-loop", "do k = 1, n\n  l = n\n  do i = 1, l\n    c2(i,k) = 0.0\n  end do\nend do\n",
    "l", "n" },
  /* two values: not invariant in the region, but the loop right after `l = n` reads n
   * (the value of the statement before: propagate_local_values) */
  { "two-values",
    "l = n\ndo i = 1, l\n  a(i) = 0.0\nend do\nl = n - 1\ndo i = 1, l\n  b(i) = 0.0\nend do\n",
    "", "n" },
  /* the value of the statement before does not pass a statement that may assign it */
  { "local-value-stops",
    "l = n\ndo k = 1, n\n  if (a(k) > 0.0) l = k\nend do\ndo i = 1, l\n  a(i) = 0.0\nend do\n",
    "", "l" },
  /* nor one that assigns a scalar of the value */
  { "local-value-operand-changes",
    "l = n + 1\nn = 5\ndo i = 1, l\n  a(i) = 0.0\nend do\n", "", "l" },
  /* values chain: m = 3 makes l = m read 3, and the loop after reads l = 3 */
  { "local-value-chain", "m = 3\nl = m\nm = 4\ndo i = 1, l\n  a(i) = 0.0\nend do\n", "", "3" },
  /* only index-like values (affine integers) travel: a computation is not repeated */
  { "local-value-not-affine", "l = nint(a(1))\ndo i = 1, l\n  b(i) = 0.0\nend do\n", "", "l" },
  /* read before the region assigns it: the host's value reaches that read */
  { "read-before-assignment", "do i = 1, l\n  a(i) = 0.0\nend do\nl = n\n", "", "l" },
  /* assigned only under a condition: a read may see the host's value */
  { "conditional-assignment", "if (n > 3) l = n\ndo i = 1, l\n  a(i) = 0.0\nend do\n", "", "l" },
  /* the value reads a scalar the region changes */
  { "value-reads-written",
    "m = 1\ndo k = 1, n\n  m = m + 1\nend do\nl = m\ndo i = 1, l\n  a(i) = 0.0\nend do\n", "", "m" },
  { "self-reference", "l = 1\nl = l + 1\ndo i = 1, l\n  a(i) = 0.0\nend do\n", "", "l" },
  /* a DO variable is no such scalar */
  { "loop-index", "do l = 1, n\n  a(l) = 0.0\nend do\ndo i = 1, n\n  b(i) = 0.0\nend do\n", "", "n" },
  /* an EQUIVALENCE'd scalar changes when its partner is stored: never a value to use elsewhere */
  { "equivalence", "q = n\ne(1) = 4.0\ndo i = 1, q\n  a(i) = 0.0\nend do\n", "", "q" },
  /* an array element may be written in the region or stale on the host */
  { "array-element", "l = int(b(1))\ndo i = 1, l\n  a(i) = 0.0\nend do\n", "", "l" },
};

/* Names reported as invariant in msgs, space-separated in report order. */
static char *reported(const char *msgs)
{
  char *out = calloc(1, strlen(msgs) + 1);
  const char *p = msgs;
  while ((p = strstr(p, "Scalar '")) != NULL) {
    p += strlen("Scalar '");
    const char *end = strchr(p, '\'');
    if (!end || !strstr(end, "holds"))
      break;
    if (*out)
      strcat(out, " ");
    strncat(out, p, (size_t)(end - p));
  }
  return out;
}

START_TEST(test_invariant)
{
  const InvariantCase *c = &cases[_i];
  Program *p;
  char *msgs;
  char *text = cu_region_source("integer :: l, m, q\nreal :: e(2)\nequivalence (q, e(1))\n",
                                "", c->body);
  bool ok = cu_run(text, xf_region_invariants, true, &p, &msgs);
  ck_assert_msg(ok && p, "%s: does not parse:\n%s", c->name, msgs);
  char *names = reported(msgs);
  ck_assert_msg(strcmp(names, c->invariant) == 0, "%s: invariant '%s', expected '%s'\n%s", c->name,
                names, c->invariant, msgs);
  IrStmt *loop = cu_find_loop(&cu_first_region(p)->body, "i");
  ck_assert_msg(loop, "%s: no loop over i", c->name);
  IrStmtList one = { 1, 1, &loop };
  char *dump = cu_dump_stmts(&one);
  char *want = ir_printf(", %s", c->bound_of_i);
  char *first_line = strndup(dump, strcspn(dump, "\n"));
  size_t nl = strlen(first_line), nw = strlen(want);
  ck_assert_msg(nl >= nw && strcmp(first_line + nl - nw, want) == 0,
                "%s: loop over i is '%s', expected upper bound %s", c->name, first_line,
                c->bound_of_i);
  free(first_line);
  free(dump);
  free(names);
  free(msgs);
  cu_reset();
}
END_TEST

static Suite *invariant_suite(void)
{
  Suite *s = suite_create("invariant");
  TCase *tc = tcase_create("decisions");
  tcase_add_loop_test(tc, test_invariant, 0, (int)(sizeof cases / sizeof cases[0]));
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(invariant_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
