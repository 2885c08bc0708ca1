/* check_tripcount.c — table-driven tests of the per-column trip count
 * (transforms/tripcount.c): which sub-stepping loops over a maximum across
 * columns become loops to each column's own count, and which stay.
 *
 * Every case is a region of cu_region_source's subroutine t (a, b, c(100),
 * c2(100,100), n, i, j, k) with the step index `it`, the maximum `mx`, the
 * per-column counts `ms(100)` and a scalar `kk`; the pass runs alone on it
 * and the case says whether the report has the rewrite and, then, that
 * the loop over it runs to ms(i).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "tripcount.h"

/* The maximum of ms over columns 1..n, as WSM5 computes it. */
#define MAX_LOOP "mx = 1\ndo i = 1, n\n  if (mx .le. ms(i)) mx = ms(i)\nend do\n"
/* One nest of the sub-stepping loop, tested per column. */
#define TESTED(stmt) "  do k = 1, n\n    do i = 1, n\n      if (it .le. ms(i)) then\n        " stmt \
                     "\n      end if\n    end do\n  end do\n"

typedef struct TripCase {
  const char *name;
  const char *body;
  bool rewritten;
} TripCase;

static const TripCase cases[] = {
  { "wsm5-shape", MAX_LOOP "do it = 1, mx\n" TESTED("c2(i,k) = c2(i,k) * 0.5") "end do\n", true },
  { "max-intrinsic",
    "mx = 1\ndo i = 1, n\n  mx = max(mx, ms(i))\nend do\ndo it = 1, mx\n"
    TESTED("c2(i,k) = c2(i,k) * 0.5") "end do\n", true },
  { "mirrored-test",
    MAX_LOOP "do it = 1, mx\n  do k = 1, n\n    do i = 1, n\n      if (ms(i) .ge. it) c2(i,k) = 0.0\n"
    "    end do\n  end do\nend do\n", true },
  /* two tested nests and the top level done with kk set by hand */
  { "two-nests-and-index",
    MAX_LOOP "do it = 1, mx\n  kk = n\n  do i = 1, n\n    if (it .le. ms(i)) c2(i,kk) = 1.0\n  end do\n"
    TESTED("c2(i,k) = c2(i,k) + c2(i,k)") "end do\n", true },
  /* the maximum is read after the loop: it is still needed */
  { "max-read-after", MAX_LOOP "do it = 1, mx\n" TESTED("c2(i,k) = 0.0") "end do\na(1) = real(mx)\n",
    false },
  /* a nest without the test runs mx times for every column */
  { "untested-nest",
    MAX_LOOP "do it = 1, mx\n" TESTED("c2(i,k) = 0.0") "  do i = 1, n\n    b(i) = b(i) + 1.0\n"
    "  end do\nend do\n", false },
  /* another count in the second test */
  { "other-count",
    MAX_LOOP "do it = 1, mx\n" TESTED("c2(i,k) = 0.0")
    "  do i = 1, n\n    if (it .le. int(c(i))) b(i) = 0.0\n  end do\nend do\n", false },
  /* the counts change while stepping */
  { "count-written", MAX_LOOP "do it = 1, mx\n" TESTED("ms(i) = ms(i) - 1") "end do\n", false },
  /* the maximum over fewer columns than the loops visit */
  { "bounds-differ",
    "mx = 1\ndo i = 1, n - 1\n  if (mx .le. ms(i)) mx = ms(i)\nend do\ndo it = 1, mx\n"
    TESTED("c2(i,k) = 0.0") "end do\n", false },
  /* a column reads its neighbour's values of the previous step */
  { "neighbour-column", MAX_LOOP "do it = 1, mx\n" TESTED("c2(i,k) = c2(i-1,k) * 0.5") "end do\n",
    false },
  /* an EXIT in the tested statements would leave another loop without the loop over i */
  { "exit-in-test", MAX_LOOP "do it = 1, mx\n" TESTED("if (c2(i,k) > 1.0) exit") "end do\n", false },
  /* the step index is read after the loop: its last value differs per column */
  { "index-read-after", MAX_LOOP "do it = 1, mx\n" TESTED("c2(i,k) = 0.0") "end do\nkk = it\n",
    false },
  /* the index set by hand is read after the loop outside the loops over it */
  { "unguarded-read-after",
    MAX_LOOP "do it = 1, mx\n  kk = n\n  do i = 1, n\n    if (it .le. ms(i)) c2(i,kk) = 1.0\n  end do\n"
    "end do\na(1) = real(kk)\n", false },
  /* no maximum computed before: nothing says mx >= ms(i) */
  { "no-max-loop", "mx = 5\ndo it = 1, mx\n" TESTED("c2(i,k) = 0.0") "end do\n", false },
};

START_TEST(test_tripcount)
{
  const TripCase *c = &cases[_i];
  Program *p;
  char *msgs;
  char *text = cu_region_source("integer :: it, mx, ms(100), kk\n", "", c->body);
  bool ok = cu_run(text, xf_per_column_tripcounts, true, &p, &msgs);
  ck_assert_msg(ok && p, "%s: does not parse:\n%s", c->name, msgs);
  bool reported = strstr(msgs, "Loop 'it' runs to ms(i) in each column") != NULL;
  ck_assert_msg(reported == c->rewritten, "%s: rewritten %d, expected %d\n%s", c->name, reported,
                c->rewritten, msgs);
  IrStmt *loop = cu_find_loop(&cu_first_region(p)->body, "it");
  ck_assert_msg(loop, "%s: no loop over it", c->name);
  IrStmtList one = { 1, 1, &loop };
  char *dump = cu_dump_stmts(&one);
  char *first_line = strndup(dump, strcspn(dump, "\n"));
  const char *want = c->rewritten ? ", ms(i)" : ", mx";
  size_t nl = strlen(first_line), nw = strlen(want);
  ck_assert_msg(nl >= nw && strcmp(first_line + nl - nw, want) == 0,
                "%s: the loop over it is '%s', expected it to end '%s'", c->name, first_line, want);
  if (c->rewritten) {
    /* the loop over i is now around it, and the maximum is gone */
    IrStmt *outer = cu_find_loop(&cu_first_region(p)->body, "i");
    ck_assert_msg(outer && cu_find_loop(&outer->u.loop.body, "it"), "%s: no loop over i around it",
                  c->name);
    char *body = cu_dump_stmts(&cu_first_region(p)->body);
    ck_assert_msg(!strstr(body, "mx ="), "%s: the maximum is still computed", c->name);
    free(body);
  }
  free(first_line);
  free(dump);
  free(msgs);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("tripcount");
  TCase *tc = tcase_create("decisions");
  tcase_add_loop_test(tc, test_tripcount, 0, (int)(sizeof cases / sizeof cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
