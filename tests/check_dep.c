/* check_dep.c — table-driven tests of the dependence tests (analysis/dep.c):
 * ZIV, strong and weak SIV, Banerjee bounds and GCD; distances, kinds and
 * unknowns; accesses under IF.
 *
 * Each case is a small Fortran loop nest in a region.  The test parses it
 * with the real front end, builds the dependence graph of the region body,
 * and compares every dependence, described as dep_describe prints it, with
 * the expected list (in order).  Cases whose answer must be "unknown" or
 * "dependent" are here as much as the independent ones.  What the planning
 * decides from the dependences is tested in check_column.c (kernels, loops,
 * fusion) and check_clause.c (data clauses, privatization).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "dep.h"

typedef struct DepCase {
  const char *name;
  const char *decls;    /* extra declarations */
  const char *body;     /* the region body */
  const char *expect;   /* dependences, one per line, as dep_describe prints them */
} DepCase;

static const DepCase cases[] = {
  /* strong SIV, same element: an anti dependence inside one iteration */
  { "self-distance-0", "", "do i = 1, n\n a(i) = a(i) + 1.0\nend do\n",
    "'a' (anti dependence, distance (0) along i)\n" },
  /* strong SIV: a(i) reads what iteration i-1 wrote, distance 1 */
  { "flow-distance-1", "", "do i = 2, n\n a(i) = a(i-1) * 2.0\nend do\n",
    "'a' (flow dependence, distance (1) along i)\n" },
  /* between two statements: the write of a(i+1) flows to the read a(i) one iteration later */
  { "write-ahead", "", "do i = 1, n - 1\n a(i+1) = b(i)\n c(i) = a(i)\nend do\n",
    "'a' (flow dependence, distance (1) along i)\n" },
  /* GCD test: 2*i and 2*i+1 never meet */
  { "gcd-independent", "", "do i = 1, n / 2\n a(2*i) = a(2*i+1)\nend do\n", "" },
  /* ZIV: a(1) and a(2) never meet; a(1) written by every iteration is an output dependence */
  { "ziv-independent", "", "do i = 1, n\n a(1) = a(2) + b(i)\nend do\n",
    "'a' (output dependence, distance (*) along i)\n" },
  /* a reduction into a(k): anti and output, distance 0 along k, any along i */
  { "reduction-into-k", "", "do k = 1, n\n do i = 1, n\n  a(k) = a(k) + b(i)\n end do\nend do\n",
    "'a' (anti dependence, distance (0,*) along k,i)\n"
    "'a' (output dependence, distance (0,*) along k,i)\n" },
  /* a recurrence along the inner k: distance (0,1) */
  { "k-recurrence", "",
    "do i = 1, n\n do k = 2, n\n  c2(i,k) = c2(i,k-1) + 1.0\n end do\nend do\n",
    "'c2' (flow dependence, distance (0,1) along i,k)\n" },
  /* an indirect subscript: not affine, conservatively dependent */
  { "indirect-unknown", "integer :: idx(100)\n",
    "do i = 1, n\n a(idx(i)) = b(i)\nend do\n",
    "'a' (output dependence, distance (*) along i; subscripts not affine)\n" },
  /* c2(i,n) against c2(i,m): the invariants may be equal, so dependent at distance 0 */
  { "different-invariants", "integer :: m\n",
    "do i = 1, n\n c2(i, n) = c2(i, m) + 1.0\nend do\n",
    "'c2' (anti dependence, distance (0) along i)\n" },
  /* a subscript that is a scalar assigned in the loop: not affine */
  { "variant-subscript", "integer :: kk\n",
    "do i = 1, n\n kk = i + 1\n a(kk) = b(i)\nend do\n",
    "'a' (output dependence, distance (*) along i; subscripts not affine)\n" },
  /* two dimensions demand distances 1 and 0 along i at once: no dependence */
  { "conflicting-distances", "",
    "do i = 2, n\n c2(i, i) = c2(i-1, i)\nend do\n", "" },
  /* weak-zero SIV: a(20) lies outside the range 1..10 the write covers */
  { "weak-zero-outside", "",
    "do i = 1, 10\n a(i) = a(20) + 1.0\nend do\n", "" },
  /* weak-zero SIV: a(5) lies inside it, dependent at an unknown distance */
  { "weak-zero-inside", "",
    "do i = 1, 10\n a(i) = a(5) + 1.0\nend do\n",
    "'a' (anti dependence, distance (*) along i)\n" },
  /* weak-crossing SIV: i and 40-i never meet for i in 1..10 */
  { "weak-crossing-disjoint", "",
    "do i = 1, 10\n a(i) = a(-i + 40)\nend do\n", "" },
  /* weak-crossing SIV: i and 11-i meet, dependent */
  { "weak-crossing-meets", "",
    "do i = 1, 10\n a(i) = a(-i + 11)\nend do\n",
    "'a' (anti dependence, distance (*) along i)\n" },
  /* MIV (two indices in one subscript): the Banerjee bounds test */
  { "miv-banerjee", "",
    "do j = 1, 10\n do i = 1, 10\n  a(i + 10*j) = a(i + 10*j + 200)\n end do\nend do\n",
    /* read and write never meet; the write with itself is injective, which
     * the bounds test cannot see: conservatively dependent */
    "'a' (output dependence, distance (*,*) along j,i)\n" },
  /* symbolic bounds: i and n+1-i may meet, the distance is unknown */
  { "symbolic-bounds-unknown", "",
    "do i = 1, n\n a(i) = a(n + 1 - i)\nend do\n",
    "'a' (anti dependence, distance (*) along i)\n" },
  /* a step of -1: the distance is counted in iterations, a(k-1) is read one iteration early */
  { "negative-step", "",
    "do k = n, 2, -1\n a(k) = a(k-1)\nend do\n",
    "'a' (anti dependence, distance (1) along k)\n" },
  /* an access under IF may happen: the recurrence still counts, distance 1 */
  { "conditional-flow", "",
    "do i = 2, n\n if (b(i) > 0.0) a(i) = a(i-1)\nend do\n",
    "'a' (flow dependence, distance (1) along i)\n" },
  /* the write and the read in the two branches of one IF: still a dependence between them */
  { "conditional-branches", "",
    "do i = 2, n\n if (b(i) > 0.0) then\n  a(i) = b(i)\n else\n  c(i) = a(i-1)\n end if\nend do\n",
    "'a' (flow dependence, distance (1) along i)\n" },
};

static char *describe_all(const DepGraph *g)
{
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  for (int i = 0; i < g->ndeps; i++) {
    char buf[256];
    dep_describe(g, &g->deps[i], buf, sizeof buf);
    fprintf(f, "%s\n", buf);
  }
  fclose(f);
  return out;
}

START_TEST(test_dep_case)
{
  const DepCase *c = &cases[_i];
  Program *p = cu_parse_region(c->name, c->decls, c->body);
  IrRegion *g = p->routines[0]->regions[0];
  IrSym *kk = ir_lookup(p->routines[0], "kk");
  DepGraph dg = { .nvariant = kk ? 1 : 0, .variant = &kk };
  dep_build(&g->body, &dg);
  char *got = describe_all(&dg);
  ck_assert_msg(!strcmp(got, c->expect), "case %s:\n got:\n%s expected:\n%s", c->name, got, c->expect);
  free(got);
  dep_free(&dg);
  cu_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("dep");
  TCase *tc = tcase_create("dependence");
  tcase_add_loop_test(tc, test_dep_case, 0, (int)(sizeof cases / sizeof cases[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
