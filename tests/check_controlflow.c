/* check_controlflow.c — control flow of column code (issue 9, item 6): which
 * GOTO shapes the Fortran front end structures into loops and blocks and
 * which it refuses, named EXIT and CYCLE, DO WHILE and endless DO, RETURN in
 * a routine a region calls, and the jump queries of visit.h.  Table-driven:
 * each row is a region body (with host code before the region and routines
 * after it where it needs them) and either the IR it must lower to (lines of
 * the dump, in order) or the refusal it must get.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend.h"
#include "visit.h"

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
  for (int r = 0; p && r < p->nroutines; r++)
    if (p->routines[r]->body_lowered) {   /* routines a region calls */
      fprintf(f, "body of %s\n", p->routines[r]->name);
      ir_dump_stmts(&p->routines[r]->body, 1, f);
    }
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

typedef struct Shape {
  const char *name;
  const char *body;      /* the region's statements */
  const char *expect;    /* accepted: dump lines that must appear in this order, '|'
                            between them (leading blanks of each ignored);
                            refused: NULL */
  const char *refusal;   /* refused: a substring of the error; accepted: NULL */
  const char *host;      /* optional: host statements before the region */
  const char *after;     /* optional: routines after the one with the region */
} Shape;

static const Shape shapes[] = {
  /* backward GOTO in the same list: a loop from the label to the GOTO */
  { "backward-same-list",
    "do i = 1, n\n  k = 0\n100 continue\n  k = k + 1\n  if (k < 5) go to 100\n  a(i) = k\nend do\n",
    "do i = 1, n|k = 0|100: do|k = (k + 1)|if ((k < 5)) then|cycle 100|end if|exit 100|"
    "end do|a(i) = real(4)(k)", NULL, NULL, NULL },
  /* ... from a nested IF, unconditional at the end of a block */
  { "backward-from-if",
    "do i = 1, n\n  k = 0\n10 k = k + 1\n  if (k < 5) then\n    a(i) = 1.0\n    goto 10\n  end if\nend do\n",
    "10: do|k = (k + 1)|if ((k < 5)) then|a(i) = 1.0_4|cycle 10|end if|exit 10|end do", NULL, NULL, NULL },
  /* forward GOTO in the same list: a block up to the label */
  { "forward-same-list",
    "do i = 1, n\n  if (a(i) < 0.0) go to 200\n  a(i) = 2.0 * a(i)\n200 continue\n  k = i\nend do\n",
    "200: block|if ((a(i) < 0.0_4)) then|exit 200|end if|a(i) = (2.0_4 * a(i))|end block|k = i",
    NULL, NULL, NULL },
  /* forward out of a nested IF and out of a DO to an enclosing list */
  { "forward-out-of-do",
    "do i = 1, n\n  do k = 1, n\n    if (a(k) > 0.5) then\n      go to 30\n    end if\n  end do\n"
    "  a(i) = 0.0\n30 continue\nend do\n",
    "30: block|do k = 1, n|if ((a(k) > 0.5_4)) then|exit 30|end if|end do|a(i) = 0.0_4|end block",
    NULL, NULL, NULL },
  /* to a labelled END DO or the terminal statement of `do 10`: the next iteration */
  { "to-end-do",
    "do i = 1, n\n  if (a(i) > 0.5) go to 40\n  a(i) = 1.0\n40 end do\n",
    "do i = 1, n|40: block|exit 40|a(i) = 1.0_4|end block|end do", NULL, NULL, NULL },
  { "to-terminal-statement",
    "do 10 i = 1, n\n  if (a(i) > 0.5) go to 10\n  a(i) = 1.0\n10 a(i) = a(i) + 1.0\n",
    "do i = 1, n|10: block|exit 10|a(i) = 1.0_4|end block|a(i) = (a(i) + 1.0_4)|end do", NULL, NULL, NULL },
  /* a block that starts inside a loop and ends after it: the loop is stretched */
  { "block-out-of-loop",
    "do i = 1, n\n  k = 0\n10 k = k + 1\n  if (k > 3) go to 20\n  if (k < 9) go to 10\n"
    "  a(i) = 1.0\n20 a(i) = a(i) + k\nend do\n",
    "10: do|k = (k + 1)|20: block|exit 20|cycle 10|a(i) = 1.0_4|end block|exit 10|end do|"
    "a(i) = (a(i) + real(4)(k))", NULL, NULL, NULL },
  /* two blocks that overlap: the later one starts earlier */
  { "crossing-blocks",
    "do i = 1, n\n  if (a(i) < 0.0) go to 20\n  if (a(i) > 0.5) go to 30\n  a(i) = 1.0\n"
    "20 a(i) = a(i) + 2.0\n30 continue\nend do\n",
    "30: block|20: block|exit 20|exit 30|a(i) = 1.0_4|end block|a(i) = (a(i) + 2.0_4)|end block",
    NULL, NULL, NULL },
  /* an unnamed EXIT inside a GOTO loop still leaves its DO, which gets a name */
  { "unnamed-exit-in-goto-loop",
    "do i = 1, n\n  k = 0\n50 k = k + 1\n  if (a(i) > k) exit\n  if (k < 4) go to 50\nend do\n",
    "(do@7): do i = 1, n|50: do|exit (do@7)|cycle 50|exit 50", NULL, NULL, NULL },
  /* named constructs, DO WHILE, endless DO */
  { "named-exit-cycle",
    "outer: do i = 1, n\n  inner: do k = 1, n\n    if (a(k) > 0.) cycle outer\n"
    "    if (a(k) < 0.) exit inner\n  end do inner\nend do outer\n",
    "outer: do i = 1, n|inner: do k = 1, n|cycle outer|exit inner|end do|end do", NULL, NULL, NULL },
  { "do-while",
    "do i = 1, n\n  k = 0\n  do while (k < 10 .and. a(i) > 0.0)\n    k = k + 1\n  end do\nend do\n",
    "do while (((k < 10) && (a(i) > 0.0_4)))|k = (k + 1)|end do", NULL, NULL, NULL },
  { "endless-do",
    "do i = 1, n\n  k = n\n  scan: do\n    if (k < 1) exit scan\n    k = k - 1\n  end do scan\nend do\n",
    "scan: do|exit scan|k = (k - 1)|end do", NULL, NULL, NULL },
  /* RETURN of a routine a region calls: the block around its inlined body */
  { "early-return",
    "do i = 1, n\n  call f(a, i, n)\nend do\n",
    "(return): block|if ((a(i) < 0.0_4)) then|exit (return)|end if|do k = 1, n|exit (return)|"
    "end do|end block", NULL, NULL,
    "subroutine f(a, i, n)\n  integer :: i, n, k\n  real :: a(n)\n  if (a(i) < 0.0) return\n"
    "  do k = 1, n\n    a(k) = a(k) + 1.0\n    if (a(k) > 9.0) return\n  end do\n"
    "  a(i) = 0.0\nend subroutine f\n" },

  /* refused */
  { "into-if", "do i = 1, n\n  go to 10\n  if (a(i) > 0.) then\n10  a(i) = 1.0\n  end if\nend do\n",
    NULL, "GOTO 10 jumps into a construct", NULL, NULL },
  { "into-do-from-after", "do i = 1, n\n  do k = 1, n\n20  a(k) = 1.0\n  end do\n"
    "  if (a(i) > 0.) go to 20\nend do\n", NULL, "GOTO 20 jumps into a construct", NULL, NULL },
  { "into-goto-loop",
    "do i = 1, n\n  if (a(i) > 0.) go to 20\n10 a(i) = a(i) + 1.0\n20 a(i) = a(i) * 0.5\n"
    "  if (a(i) > 1.) go to 10\nend do\n",
    NULL, "GOTO 20 jumps into the loop that the GOTO 10 at line", NULL, NULL },
  { "computed-goto", "do i = 1, n\n  go to (10, 20) k\n10 continue\n20 continue\nend do\n",
    NULL, "computed or assigned GOTO is not supported", NULL, NULL },
  { "out-of-region", "do i = 1, n\n  if (a(i) > 0.) go to 99\nend do\n",
    NULL, "GOTO 99 jumps out of the region", NULL, NULL },
  { "into-region", "do i = 1, n\n77 a(i) = 0.0\nend do\n", NULL,
    "a jump to label 77, inside the region at line 7, from outside it", "  if (n > 3) go to 77\n", NULL },
  { "exit-unknown-name", "do i = 1, n\n  exit nosuch\nend do\n", NULL,
    "EXIT names 'nosuch', which is not a DO loop around it in the region", NULL, NULL },
  { "exit-outside-loops", "k = 1\nexit\n", NULL,
    "EXIT outside every DO loop of the region", NULL, NULL },
  { "out-of-callee", "do i = 1, n\n  call g(a, n)\nend do\n", NULL,
    "GOTO 5 jumps out of the routine", NULL,
    "subroutine g(a, n)\n  integer :: n\n  real :: a(n)\n  go to 5\nend subroutine g\n" },
};

/* Do the '|'-separated lines of `want` appear in `out`, in this order? */
static const char *missing_line(const char *out, const char *want)
{
  const char *at = out;
  char *copy = xstrdup(want);
  const char *missing = NULL;
  for (char *line = strtok(copy, "|"); line && !missing; line = strtok(NULL, "|")) {
    const char *found = strstr(at, line);
    if (!found)
      missing = ir_strdup(line);
    else
      at = found + strlen(line);
  }
  free(copy);
  return missing;
}

START_TEST(test_shapes)
{
  const Shape *c = &shapes[_i];
  char *text = xasprintf("subroutine s(n, a)\n  implicit none\n  integer :: n, i, k\n  real :: a(n)\n"
                         "%s  k = 0\n!$stencil region\n%s!$stencil end region\nend subroutine s\n%s",
                         c->host ? c->host : "", c->body, c->after ? c->after : "");
  char *out;
  Program *p = parse(text, &out);
  free(text);
  if (c->refusal) {
    ck_assert_msg(p == NULL, "case %s: accepted:\n%s", c->name, out);
    ck_assert_msg(strstr(out, c->refusal), "case %s: expected '%s' in:\n%s", c->name, c->refusal,
                  out);
    ck_assert_msg(strstr(out, "t.f90:"), "case %s: no location in:\n%s", c->name, out);
  } else {
    ck_assert_msg(p != NULL, "case %s: refused:\n%s", c->name, out);
    const char *miss = missing_line(out, c->expect);
    ck_assert_msg(!miss, "case %s: '%s' missing (or out of order) in:\n%s", c->name, miss, out);
  }
  done(out);
}
END_TEST

/* ---- the jump queries ----------------------------------------------------------- */

static IrStmt *jump(IrStmtKind kind, const char *name)
{
  IrStmt *s = ir_stmt(kind, (Loc){ 0, 1, 1 });
  s->u.jump.name = name;
  return s;
}

static IrStmt *construct(IrStmtKind kind, const char *name, IrStmt *inner)
{
  IrStmt *s = ir_stmt(kind, (Loc){ 0, 1, 1 });
  s->u.loop.name = name;
  if (inner)
    ir_list_push(&s->u.loop.body, inner);
  return s;
}

typedef struct Leaving {
  const char *name;
  IrStmtKind outer;      /* the statement asked about */
  const char *outer_name;
  IrStmtKind jump_kind;
  const char *target;    /* the jump's name */
  bool leaves;
} Leaving;

static const Leaving leavings[] = {
  { "unnamed-exit-of-loop", IR_S_DO, NULL, IR_S_EXIT, NULL, false },
  { "unnamed-exit-through-block", IR_S_BLOCK, "b", IR_S_EXIT, NULL, true },
  { "exit-of-block", IR_S_BLOCK, "b", IR_S_EXIT, "b", false },
  { "exit-of-outer", IR_S_WHILE, "w", IR_S_EXIT, "outer", true },
  { "cycle-of-while", IR_S_WHILE, "w", IR_S_CYCLE, "w", false },
  { "cycle-of-outer-through-while", IR_S_WHILE, NULL, IR_S_CYCLE, "outer", true },
};

START_TEST(test_jump_leaving)
{
  const Leaving *c = &leavings[_i];
  IrStmt *s = construct(c->outer, c->outer_name, jump(c->jump_kind, c->target));
  if (c->outer == IR_S_DO)
    s->u.loop.iv = ir_alloc(sizeof *s->u.loop.iv);
  ck_assert_msg((ir_stmt_jump_leaving(s, -1) != NULL) == c->leaves, "case %s", c->name);
  ck_assert_msg((ir_jump_leaving(&s->u.loop.body, -1) != NULL), "case %s: a jump in a body "
                "always leaves the body", c->name);
  ir_arena_free();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("controlflow");
  TCase *tc = tcase_create("goto");
  tcase_add_loop_test(tc, test_shapes, 0, (int)(sizeof shapes / sizeof shapes[0]));
  tcase_add_loop_test(tc, test_jump_leaving, 0, (int)(sizeof leavings / sizeof leavings[0]));
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
