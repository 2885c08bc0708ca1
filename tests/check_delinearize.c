/* check_delinearize.c — unit tests of pass "delinearize" (analysis/delinearize.c).
 *
 * Table-driven: each case is the loop nest of one region in
 *
 *   void t(int ni, int nj, int nk, int n, float *restrict a, const float *restrict b)
 *
 * parsed by the C front end, then run through the pass; the case gives the
 * report line the pass must record about array `a` (its rewritten form and
 * shape, or the note saying why it stays flat), or "" when the pass must
 * leave `a` alone without a word (its subscripts are not linearized).  The
 * rank the symbol has afterwards is checked too: only a delinearized array
 * changes.  Then the flat clause text of a delinearized array's box
 * (dl_flat_box_text) and the box of a flat clause (dl_flat_item_box).
 */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "delinearize.h"
#include "frontend.h"
#include "report.h"

static char *captured;
static size_t captured_len;
static FILE *capture;

static void setup(void)
{
  diag_reset();
  report_clear();
  captured = NULL;
  capture = open_memstream(&captured, &captured_len);
  diag_set_stream(capture);
}

static void teardown(void)
{
  diag_set_stream(NULL);
  fclose(capture);
  free(captured);
  ir_arena_free();
  report_clear();
  diag_reset();
}

static const char *output(void)
{
  fflush(capture);
  return captured ? captured : "";
}

/* The region's routine, parsed from `body`. */
static Program *parse_region(const char *body)
{
  char *src = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&src, &len);
  fprintf(f, "void t(int ni, int nj, int nk, int n, float *restrict a, const float *restrict b)\n"
             "{\n#pragma stencil region\n%s}\n", body);
  fclose(f);
  int file = diag_add_source(xstrdup("t.c"), src, len);
  Program *p = fe_c(file);
  ck_assert_msg(p != NULL, "fe_c failed on:\n%s\nwith:\n%s", body, output());
  return p;
}

/* The report's lines about 'a' (one expected). */
static char *report_about_a(void)
{
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  report_print(f);
  fclose(f);
  char *found = xstrdup("");
  for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n"))
    if (strstr(line, "'a'")) {
      free(found);
      found = xstrdup(strstr(line, ": ") ? strstr(line, ": ") + 2 : line);
    }
  free(text);
  return found;
}

typedef struct Case {
  const char *name;
  const char *body;
  const char *report;  /* the line about 'a', after "t.c:N: " */
  int rank;            /* of 'a' afterwards */
} Case;

static const Case cases[] = {
  { "horner 3-D",
    "  for (int k = 0; k < nk; k++)\n"
    "    for (int j = 0; j < nj; j++)\n"
    "      for (int i = 0; i < ni; i++)\n"
    "        a[(k*nj + j)*ni + i] = b[i];\n",
    "info: Delinearized 'a': a[(k*nj+j)*ni+i] is a[k][j][i] of a [][nj][ni] array", 3 },
  { "nested from the fastest index",
    "  for (int k = 0; k < nk; k++)\n"
    "    for (int j = 0; j < nj; j++)\n"
    "      for (int i = 0; i < ni; i++)\n"
    "        a[i + ni*(j + nj*k)] = b[i];\n",
    "info: Delinearized 'a': a[i+ni*(j+nj*k)] is a[k][j][i] of a [][nj][ni] array", 3 },
  { "expanded products, extents in any order",
    "  for (int k = 0; k < nk; k++)\n"
    "    for (int j = 0; j < nj; j++)\n"
    "      for (int i = 0; i < ni; i++)\n"
    "        a[k*(nj*ni) + ni*j + i] = b[i];\n",
    "info: Delinearized 'a': a[k*(nj*ni)+ni*j+i] is a[k][j][i] of a [][nj][ni] array", 3 },
  { "offsets within the extents",
    "  for (int j = 1; j < nj - 1; j++)\n"
    "    for (int i = 1; i < ni - 1; i++)\n"
    "      a[j*ni + i] = b[(j-1)*ni + i+1];\n",
    "info: Delinearized 'a': a[j*ni+i] is a[j][i] of a [][ni] array", 2 },
  { "a cube: one extent twice",
    "  for (int k = 0; k < n; k++)\n"
    "    for (int j = 0; j < n; j++)\n"
    "      for (int i = 0; i < n; i++)\n"
    "        a[(k*n + j)*n + i] = b[i];\n",
    "info: Delinearized 'a': a[(k*n+j)*n+i] is a[k][j][i] of a [][n][n] array", 3 },
  { "padded extent",
    "  for (int j = 0; j < nj; j++)\n"
    "    for (int i = 0; i < ni + 2; i++)\n"
    "      a[j*(ni+2) + i] = b[i];\n",
    "info: Delinearized 'a': a[ni*j+2*j+i] is a[j][i] of a [][ni+2] array", 2 },
  { "constant extent",
    "  for (int j = 0; j < nj; j++)\n"
    "    for (int i = 0; i < 64; i++)\n"
    "      a[j*64 + i] = b[i];\n",
    "info: Delinearized 'a': a[64*j+i] is a[j][i] of a [][64] array", 2 },
  { "counting down, <=, !=",
    "  for (int j = nj - 1; j >= 0; j--)\n"
    "    for (int i = 0; i != ni; i++)\n"
    "      a[j*ni + i] = b[i];\n",
    "info: Delinearized 'a': a[j*ni+i] is a[j][i] of a [][ni] array", 2 },
  { "triangular inner bound",
    "  for (int j = 0; j < nj; j++)\n"
    "    for (int i = 0; i <= j; i++)\n"
    "      a[j*nj + i] = b[i];\n",
    "info: Delinearized 'a': a[j*nj+i] is a[j][i] of a [][nj] array", 2 },
  { "index past its extent: left flat",
    "  for (int j = 0; j < nj; j++)\n"
    "    for (int i = 0; i < ni; i++)\n"
    "      a[j*ni + i + 1] = b[i];\n",
    "note: 'a' not delinearized: in a[j*ni+i+1] at line 6, the index i+1 along the extent ni "
    "may reach ni, beyond ni-1", 1 },
  { "index below 0: left flat",
    "  for (int j = 1; j < nj; j++)\n"
    "    for (int i = 0; i < ni; i++)\n"
    "      a[j*ni + i - 1] = b[i];\n",
    "note: 'a' not delinearized: in a[j*ni+i-1] at line 6, the index i-1 along the extent ni "
    "may be below 0 (its least value is -1)", 1 },
  { "bound of another name: left flat",
    "  for (int j = 0; j < nj; j++)\n"
    "    for (int i = 0; i < n; i++)\n"
    "      a[j*ni + i] = b[i];\n",
    "note: 'a' not delinearized: in a[j*ni+i] at line 6, the index i along the extent ni may "
    "reach n-1, beyond ni-1", 1 },
  { "a stride that is not a product of the extents: left flat",
    "  for (int k = 0; k < nk; k++)\n"
    "    for (int j = 0; j < nj; j++)\n"
    "      for (int i = 0; i < ni; i++)\n"
    "        a[k*n + j*ni + i] = b[i];\n",
    "note: 'a' not delinearized: in a[k*n+j*ni+i] at line 7, the index ni*j+i along the extent n "
    "cannot be bounded: the coefficient of 'j' is not a constant", 1 },
  { "product of two indices: left flat",
    "  for (int j = 0; j < nj; j++)\n"
    "    for (int i = 0; i < ni; i++)\n"
    "      a[j*ni + i*j] = b[i];\n",
    "note: 'a' not delinearized: its subscript in a[j*ni+i*j] at line 6 multiplies loop indices",
    1 },
  { "a scalar the region assigns twice: left flat",
    "  for (int j = 0; j < nj; j++)\n"
    "    for (int i = 0; i < ni; i++) {\n"
    "      int c = j;\n"
    "      c = c + 0;\n"
    "      a[c*ni + i] = b[i];\n"
    "    }\n",
    "note: 'a' not delinearized: its subscript in a[c*ni+i] at line 8 reads 'c', which the "
    "region assigns and which is not a loop index around it", 1 },
  /* index scalars: one assignment from indices and invariants, read later
   * in the same list (the same iteration), is that value */
  { "an index scalar defined in the iteration",
    "  for (int k = 0; k < nk; k++)\n"
    "    for (int j = 0; j < nj; j++)\n"
    "      for (int i = 0; i < ni; i++) {\n"
    "        int idx = (k*nj + j)*ni + i;\n"
    "        a[idx] = b[idx];\n"
    "      }\n",
    "info: Delinearized 'a': a[idx] is a[k][j][i] of a [][nj][ni] array", 3 },
  { "an index scalar assigned by a statement, read in a nested if",
    "  for (int j = 0; j < nj; j++)\n"
    "    for (int i = 0; i < ni; i++) {\n"
    "      int idx;\n"
    "      idx = j*ni + i;\n"
    "      if (i > 0) a[idx] = b[i];\n"
    "    }\n",
    "info: Delinearized 'a': a[idx] is a[j][i] of a [][ni] array", 2 },
  { "a row offset defined around the inner loop",
    "  for (int j = 0; j < nj; j++) {\n"
    "    int row = j*ni;\n"
    "    for (int i = 0; i < ni; i++)\n"
    "      a[row + i] = b[i];\n"
    "  }\n",
    "info: Delinearized 'a': a[row+i] is a[j][i] of a [][ni] array", 2 },
  { "an index scalar read before its definition: left flat",
    "  for (int j = 0; j < nj; j++)\n"
    "    for (int i = 0; i < ni; i++) {\n"
    "      a[j*ni + i] = a[n];\n"
    "      n = j*ni + i;\n"
    "    }\n",
    "note: 'a' not delinearized: its subscript in a[n] at line 6 reads 'n', which the region "
    "assigns and which is not a loop index around it", 1 },
  { "an index scalar defined under an if, read after it: left flat",
    "  for (int j = 0; j < nj; j++)\n"
    "    for (int i = 0; i < ni; i++) {\n"
    "      if (i > 0) n = j*ni + i;\n"
    "      a[j*ni + i] = a[n];\n"
    "    }\n",
    "note: 'a' not delinearized: its subscript in a[n] at line 7 reads 'n', which the region "
    "assigns and which is not a loop index around it", 1 },
  { "an index scalar defined from an array element: left flat",
    "  for (int j = 0; j < nj; j++)\n"
    "    for (int i = 0; i < ni; i++) {\n"
    "      int idx = j*ni + i + (int)b[0];\n"
    "      a[j*ni + i] = a[idx];\n"
    "    }\n",
    "note: 'a' not delinearized: its subscript in a[idx] at line 7 reads 'idx', which the "
    "region assigns and which is not a loop index around it", 1 },
  { "an index scalar of an inner loop read after it: left flat",
    "  for (int j = 0; j < nj; j++) {\n"
    "    for (int i = 0; i < ni; i++)\n"
    "      n = j*ni + i;\n"
    "    a[j*ni] = a[n];\n"
    "  }\n",
    "note: 'a' not delinearized: its subscript in a[n] at line 7 reads 'n', which the region "
    "assigns and which is not a loop index around it", 1 },
  { "not linearized: nothing said",
    "  for (int i = 1; i < n; i++)\n"
    "    a[i] = b[i - 1];\n",
    "", 1 },
  { "one index scaled: not linearized",
    "  for (int i = 0; i < n; i++)\n"
    "    a[2*i] = b[i];\n",
    "", 1 },
};

START_TEST(test_decisions)
{
  const Case *c = &cases[_i];
  Program *p = parse_region(c->body);
  ck_assert_msg(xf_delinearize_program(p), "%s: the pass failed", c->name);
  char *line = report_about_a();
  ck_assert_msg(strcmp(line, c->report) == 0, "%s:\n  expected '%s'\n  got      '%s'", c->name,
                c->report, line);
  free(line);
  IrSym *a = ir_lookup(p->routines[0], "a");
  ck_assert_msg(a->rank == c->rank, "%s: rank %d, expected %d", c->name, a->rank, c->rank);
  ck_assert_msg(a->delinearized == (c->rank > 1), "%s: delinearized flag", c->name);
  ck_assert_str_eq(output(), "");
}
END_TEST

/* A delinearized array's box as the clause text: one flat range when it
 * spans the faster dimensions whole, else per dimension (false). */
START_TEST(test_flat_box)
{
  Program *p = parse_region("  for (int k = 0; k < nk; k++)\n"
                            "    for (int j = 0; j < nj; j++)\n"
                            "      for (int i = 0; i < ni; i++)\n"
                            "        a[(k*nj + j)*ni + i] = b[i];\n");
  xf_delinearize_program(p);
  IrSym *a = ir_lookup(p->routines[0], "a"), *nk = ir_lookup(p->routines[0], "nk");
  Loc at = a->loc;
  IrExpr *lo[3] = { ir_int(0, at), ir_int(0, at), ir_int(0, at) };
  IrExpr *hi[3] = { a->hi[0], a->hi[1], ir_binary(IR_OP_SUB, ir_var(nk, at), ir_int(1, at), at) };
  char buf[256];
  ck_assert(dl_flat_box_text(a, lo, hi, buf, sizeof buf));
  ck_assert_str_eq(buf, "a[0:nk*nj*ni]");
  lo[2] = ir_int(1, at);                       /* levels 1..nk-1: still one range */
  ck_assert(dl_flat_box_text(a, lo, hi, buf, sizeof buf));
  ck_assert_str_eq(buf, "a[nj*ni:nk*nj*ni-nj*ni]");
  lo[0] = ir_int(1, at);                       /* the interior of each row: not one range */
  ck_assert(!dl_flat_box_text(a, lo, hi, buf, sizeof buf));
  IrSym *b = ir_lookup(p->routines[0], "b");   /* not delinearized */
  ck_assert(!dl_flat_box_text(b, lo, hi, buf, sizeof buf));
}
END_TEST

/* A flat data clause on a delinearized array: whole steps of the slowest
 * index are a box, a range starting inside a plane is refused. */
START_TEST(test_flat_item_box)
{
  Program *p = parse_region("  for (int k = 0; k < nk; k++)\n"
                            "    for (int j = 0; j < nj; j++)\n"
                            "      for (int i = 0; i < ni; i++)\n"
                            "        a[(k*nj + j)*ni + i] = b[i];\n");
  xf_delinearize_program(p);
  IrRoutine *r = p->routines[0];
  IrSym *a = ir_lookup(r, "a");
  Loc at = a->loc;
  IrExpr *ni = ir_var(ir_lookup(r, "ni"), at), *nj = ir_var(ir_lookup(r, "nj"), at);
  IrExpr *nk = ir_var(ir_lookup(r, "nk"), at);
  IrExpr *plane = ir_binary(IR_OP_MUL, nj, ni, at);
  IrExpr *lo[3], *hi[3];
  const char *why = NULL;
  char buf[256];
  /* a[nj*ni : (nk-1)*nj*ni]: levels 1..nk-1 */
  IrExpr *len = ir_binary(IR_OP_MUL, ir_binary(IR_OP_SUB, nk, ir_int(1, at), at), plane, at);
  ck_assert(dl_flat_item_box(a, plane, len, lo, hi, &why));
  ck_assert(dl_flat_box_text(a, lo, hi, buf, sizeof buf));
  ck_assert_str_eq(buf, "a[nj*ni:nk*nj*ni-nj*ni]");
  ck_assert_ptr_eq(lo[0], a->lo[0]);
  ck_assert_ptr_eq(hi[1], a->hi[1]);
  /* a[1 : nk*nj*ni-1]: starts inside the first plane */
  ck_assert(!dl_flat_item_box(a, ir_int(1, at), len, lo, hi, &why));
  ck_assert_str_eq(why, "the clause's start and length must be multiples of nj*ni (whole steps "
                        "of its slowest index)");
  dl_shape_text(a, buf, sizeof buf);
  ck_assert_str_eq(buf, "[][nj][ni]");
}
END_TEST

int main(void)
{
  Suite *s = suite_create("delinearize");
  TCase *tc = tcase_create("delinearize");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_loop_test(tc, test_decisions, 0, (int)(sizeof cases / sizeof *cases));
  tcase_add_test(tc, test_flat_box);
  tcase_add_test(tc, test_flat_item_box);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
