/* check_smem.c — table-driven tests of pass "smem" (transforms/smem.c):
 * read-only arrays read around the thread's (i, j) staged per block in
 * shared memory.
 *   - which arrays are staged, as the report says ("Array 'u' staged in
 *     shared memory: tile (bx+2) x (by+2) per block ..."), with the tile's
 *     halo and the kernel's block shape in the plan;
 *   - every condition of the file comment refused in turn, with its reason
 *     ("Array 'u' not staged in shared memory: ...");
 *   - arrays that are no candidates (fewer than 5 offsets, a kernel over one
 *     axis) neither staged nor reported;
 *   - S2S_SMEM=0 turns the pass off.
 * Each case is a small Fortran region parsed with the real front end
 * (tests/check_util.h gives its source: with the two lines of declarations
 * below, the body starts at line 8).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "transforms.h"

/* The declarations every case gets (two lines: the body starts at line 8). */
static const char decls[] =
  "real :: u(100,100,50), v(100,100,50), w(100,100,50), r\n"
  "integer :: kk\n";

typedef struct SmemCase {
  const char *name;
  const char *body;
  int nstaged;          /* report lines "... staged in shared memory" */
  int nrefused;         /* report lines "... not staged in shared memory" */
  const char *present;  /* substring of the report, or NULL */
  int xlo, xhi, ylo, yhi; /* the first tile's offsets (nstaged > 0) */
  int block_x, block_y; /* the kernel's block shape (0: not checked) */
  bool off;             /* planned with S2S_SMEM=0 */
} SmemCase;

/* The 5-point Laplacian of u at level k, the shape every refusal below
 * starts from: enough offsets to be a candidate. */
#define LAP5(k) "u(i+1,j," k ") + u(i-1,j," k ") + u(i,j+1," k ") + u(i,j-1," k ") - 4.0*u(i,j," k ")"

static const SmemCase smem_cases[] = {
  /* staged */
  /* the 5-point Laplacian per level: one tile per block and level, halo 1 each side,
   * the block made 32x8 */
  { "laplacian-5-point",
    "do k = 1, n\n do j = 2, n-1\n  do i = 2, n-1\n   w(i,j,k) = " LAP5("k") "\n  end do\n"
    " end do\nend do\n", 1, 0,
    "t.f90:8:1: info: Array 'u' staged in shared memory: tile (bx+2) x (by+2) per block and "
    "level, 5 reads per point from the tile (5 in the code)", -1, 1, -1, 1, 32, 8, false },
  /* a kernel over (i, j) alone, 9 points, a fixed level: no "and level" */
  { "box-9-point-fixed-level",
    "do j = 2, n-1\n do i = 2, n-1\n  w(i,j,1) = u(i-1,j-1,3) + u(i,j-1,3) + u(i+1,j-1,3) + "
    "u(i-1,j,3) + u(i,j,3) + u(i+1,j,3) + u(i-1,j+1,3) + u(i,j+1,3) + u(i+1,j+1,3)\n end do\n"
    "end do\n", 1, 0, "tile (bx+2) x (by+2) per block, 9 reads per point from the tile",
    -1, 1, -1, 1, 32, 8, false },
  /* reads under an IF are fine: the tile holds them all; an asymmetric halo (i+2, j-2) */
  { "reads-under-if",
    "do k = 1, n\n do j = 3, n-1\n  do i = 2, n-2\n   w(i,j,k) = u(i,j,k)\n"
    "   if (u(i+2,j,k) > u(i-1,j,k)) w(i,j,k) = u(i,j-2,k) - u(i,j+1,k)\n  end do\n end do\n"
    "end do\n", 1, 0, "tile (bx+3) x (by+3) per block and level, 5 reads per point",
    -1, 2, -2, 1, 32, 8, false },
  /* the level through a scalar the kernel never assigns: uniform over the block */
  { "level-from-argument",
    "do j = 2, n-1\n do i = 2, n-1\n  w(i,j,1) = " LAP5("kk") "\n end do\nend do\n", 1, 0,
    "Array 'u' staged in shared memory", -1, 1, -1, 1, 32, 8, false },
  /* the user's vector(64) on i: staged in the user's block, which stays */
  { "user-block",
    "do k = 1, n\n do j = 2, n-1\n!$stencil do parallel, vector(64)\n  do i = 2, n-1\n"
    "   w(i,j,k) = " LAP5("k") "\n  end do\n end do\nend do\n", 1, 0,
    "Array 'u' staged in shared memory", -1, 1, -1, 1, 64, 1, false },
  /* no candidates: nothing said */
  /* four offsets: a tile would not pay */
  { "four-offsets",
    "do k = 1, n\n do j = 2, n-1\n  do i = 2, n-1\n   w(i,j,k) = u(i+1,j,k) + u(i-1,j,k) + "
    "u(i,j+1,k) + u(i,j-1,k)\n  end do\n end do\nend do\n", 0, 0, NULL, 0, 0, 0, 0, 128, 1, false },
  /* a kernel over i alone: no tile across j */
  { "one-axis",
    "do i = 3, 98\n a(i) = b(i-2) + b(i-1) + b(i) + b(i+1) + b(i+2)\nend do\n", 0, 0, NULL,
    0, 0, 0, 0, 128, 1, false },
  /* refused, with the reason */
  /* the 7-point Laplacian: u at k-1 and k+1 as well, another level than the tile's */
  { "laplacian-7-point",
    "do k = 2, n-1\n do j = 2, n-1\n  do i = 2, n-1\n   w(i,j,k) = " LAP5("k")
    " + u(i,j,k-1) + u(i,j,k+1)\n  end do\n end do\nend do\n", 0, 1,
    "t.f90:8:1: note: Array 'u' not staged in shared memory: the reads u(i+1,j,k) and "
    "u(i,j,k-1) differ in a subscript other than i and j (a tile holds one level)",
    0, 0, 0, 0, 128, 1, false },
  /* a read of a fixed row beside the stencil */
  { "fixed-row",
    "do k = 1, n\n do j = 2, n-1\n  do i = 2, n-1\n   w(i,j,k) = " LAP5("k") " + u(i,1,k)\n"
    "  end do\n end do\nend do\n", 0, 1,
    "not staged in shared memory: the read u(i,1,k) is not at constant offsets from (i, j)",
    0, 0, 0, 0, 128, 1, false },
  /* the level through a scalar each thread assigns itself */
  { "level-per-thread",
    "do j = 2, n-1\n do i = 2, n-1\n  kk = mod(i, 3) + 1\n  w(i,j,1) = " LAP5("kk") "\n"
    " end do\nend do\n", 0, 1,
    "not staged in shared memory: a subscript of u(i+1,j,kk) other than i and j is not the same "
    "for every thread of a block", 0, 0, 0, 0, 128, 1, false },
  /* the reads inside a sequential loop of the thread */
  { "in-thread-loop",
    "do j = 2, n-1\n do i = 2, n-1\n  w(i,j,1) = 0.0\n  do k = 1, 3\n"
    "   w(i,j,1) = w(i,j,1) + " LAP5("k") "\n  end do\n end do\nend do\n", 0, 1,
    "not staged in shared memory: the read u(i+1,j,k) is inside a loop of the thread",
    0, 0, 0, 0, 128, 1, false },
  /* a halo of 10 points along i */
  { "halo-too-wide",
    "do k = 1, n\n do j = 2, n-1\n  do i = 6, 94\n   w(i,j,k) = " LAP5("k")
    " + u(i+5,j,k) - u(i-5,j,k)\n  end do\n end do\nend do\n", 0, 1,
    "not staged in shared memory: its reads span 11 x 3 points around (i, j); a tile's halo is "
    "at most 8 wide", 0, 0, 0, 0, 128, 1, false },
  /* a GPU reduction in the kernel */
  { "reduction",
    "r = 0.0\ndo j = 2, n-1\n do i = 2, n-1\n  r = r + (" LAP5("1") ")\n end do\nend do\n", 0, 1,
    "not staged in shared memory: the kernel combines a reduction", 0, 0, 0, 0, 0, 0, false },
  /* S2S_SMEM=0: nothing */
  { "smem-off",
    "do k = 1, n\n do j = 2, n-1\n  do i = 2, n-1\n   w(i,j,k) = " LAP5("k") "\n  end do\n"
    " end do\nend do\n", 0, 0, NULL, 0, 0, 0, 0, 128, 1, true },
};

START_TEST(test_smem_case)
{
  const SmemCase *c = &smem_cases[_i];
  char *msgs;
  Program *p;
  xf_config.smem = true; /* -Msmem: the pass is off by default */
  if (c->off)
    setenv("S2S_SMEM", "0", 1);
  bool ok = cu_plan_region(c->name, decls, "", c->body, true, &p, &msgs);
  xf_config.smem = false;
  if (c->off)
    unsetenv("S2S_SMEM");
  ck_assert_msg(ok, "case %s: planning failed:\n%s", c->name, msgs);
  const RegionPlan *plan = cu_first_region(p)->analysis;
  int tiles = 0;
  for (int k = 0; k < plan->nkernels; k++)
    tiles += plan->kernels[k].ntiles;
  int staged = cu_count_lines(msgs, "' staged in shared memory");
  int refused = cu_count_lines(msgs, "' not staged in shared memory");
  ck_assert_msg(staged == c->nstaged && tiles == c->nstaged,
                "case %s: %d staged lines and %d tiles, expected %d:\n%s", c->name, staged, tiles,
                c->nstaged, msgs);
  ck_assert_msg(refused == c->nrefused, "case %s: %d refusals, expected %d:\n%s", c->name,
                refused, c->nrefused, msgs);
  if (c->present)
    ck_assert_msg(strstr(msgs, c->present), "case %s: the report lacks '%s':\n%s", c->name,
                  c->present, msgs);
  const KernelPlan *k = &plan->kernels[plan->nkernels - 1];
  if (c->nstaged) {
    const SmemTile *t = &k->tiles[0];
    ck_assert_msg(t->xlo == c->xlo && t->xhi == c->xhi && t->ylo == c->ylo && t->yhi == c->yhi,
                  "case %s: tile offsets x %ld..%ld y %ld..%ld, expected x %d..%d y %d..%d",
                  c->name, t->xlo, t->xhi, t->ylo, t->yhi, c->xlo, c->xhi, c->ylo, c->yhi);
    ck_assert_msg(t->nreads > 0 && t->noffsets >= 5, "case %s: %d reads, %d offsets", c->name,
                  t->nreads, t->noffsets);
  }
  if (c->block_x)
    ck_assert_msg(k->block[0] == c->block_x && k->block[1] == c->block_y,
                  "case %s: block %dx%d, expected %dx%d", c->name, k->block[0], k->block[1],
                  c->block_x, c->block_y);
  /* the block line comes with a tile the pass shaped, never alone */
  int shaped = cu_count_lines(msgs, "for its shared-memory tiles");
  ck_assert_msg(shaped == (c->nstaged && !k->block_fixed), "case %s: %d block lines:\n%s",
                c->name, shaped, msgs);
  free(msgs);
  cu_reset();
}
END_TEST

static Suite *smem_suite(void)
{
  Suite *s = suite_create("smem");
  TCase *tc = tcase_create("cases");
  tcase_add_loop_test(tc, test_smem_case, 0, (int)(sizeof smem_cases / sizeof smem_cases[0]));
  suite_add_tcase(s, tc);
  return s;
}

int main(void)
{
  SRunner *sr = srunner_create(smem_suite());
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
