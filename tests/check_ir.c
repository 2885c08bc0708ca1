/* check_ir.c — table-driven tests of the statement visitor, the symbol set
 * and the assignment queries (translator/ir/visit.c, ir.c).
 *
 * Each visitor case is a small Fortran region body, parsed by the real
 * front end and walked with callbacks that write one line per call:
 *   pre|post LABEL @LOOPS ifN
 * LABEL names the statement (`do i`, `if`, `x=`, `a()=`, `cycle`, `exit`),
 * LOOPS the indices of the loops the visitor says are around it (outermost
 * first, `-` for none) and N its under-IF count.  A case may make pre
 * return SKIP_CHILDREN or STOP at the first statement with a given label.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend.h"
#include "visit.h"

static Program *parse(const char *body)
{
  char *text = xasprintf(
      "subroutine t(n, a, b)\n  implicit none\n  integer :: n, i, j, k\n"
      "  real :: x, y, a(100), b(100)\n!$stencil region\n%s!$stencil end region\n"
      "end subroutine t\n", body);
  int file = diag_add_source(xstrdup("t.f90"), text, strlen(text));
  return fe_fortran(file);
}

static IrStmtList *region_body(Program *p)
{
  return &p->routines[0]->regions[0]->body;
}

static const char *label(const IrStmt *s)
{
  switch (s->kind) {
  case IR_S_DO: return ir_printf("do %s", s->u.loop.iv->name);
  case IR_S_IF: return "if";
  case IR_S_ASSIGN:
    return s->u.assign.lhs->kind == IR_E_VAR ? ir_printf("%s=", s->u.assign.lhs->u.var->name)
                                             : ir_printf("%s()=", s->u.assign.lhs->u.elem.sym->name);
  case IR_S_CYCLE: return "cycle";
  case IR_S_EXIT: return "exit";
  case IR_S_CALL: return "call";
  case IR_S_WHILE: return "while";
  case IR_S_BLOCK: return "block";
  }
  return "?";
}

/* ---- the visitor ------------------------------------------------------------ */

typedef struct VisitCase {
  const char *name;
  const char *body;
  const char *skip;     /* pre answers SKIP_CHILDREN at the first statement so labelled */
  const char *stop;     /* ... STOP */
  const char *expect;   /* the calls, one per line */
} VisitCase;

static const VisitCase visit_cases[] = {
  { "nest-order", "do j = 1, n\n do i = 1, n\n  a(i) = b(i)\n end do\n x = 1.0\nend do\n",
    NULL, NULL,
    "pre do j @- if0\n"
    "pre do i @j if0\n"
    "pre a()= @j,i if0\n"
    "post a()= @j,i if0\n"
    "post do i @j if0\n"
    "pre x= @j if0\n"
    "post x= @j if0\n"
    "post do j @- if0\n" },
  { "if-then-else", "do j = 1, n\n if (j > 1) then\n  x = 1.0\n else\n  do i = 1, n\n   a(i) = x\n"
    "  end do\n end if\n y = x\nend do\n",
    NULL, NULL,
    "pre do j @- if0\n"
    "pre if @j if0\n"
    "pre x= @j if1\n"
    "post x= @j if1\n"
    "pre do i @j if1\n"
    "pre a()= @j,i if1\n"
    "post a()= @j,i if1\n"
    "post do i @j if1\n"
    "post if @j if0\n"
    "pre y= @j if0\n"
    "post y= @j if0\n"
    "post do j @- if0\n" },
  { "nested-ifs", "if (n > 1) then\n if (n > 2) then\n  x = 1.0\n end if\nend if\n", NULL, NULL,
    "pre if @- if0\n"
    "pre if @- if1\n"
    "pre x= @- if2\n"
    "post x= @- if2\n"
    "post if @- if1\n"
    "post if @- if0\n" },
  { "skip-children", "do j = 1, n\n do i = 1, n\n  a(i) = b(i)\n end do\n x = 1.0\nend do\n",
    "do i", NULL,
    "pre do j @- if0\n"
    "pre do i @j if0\n"
    "post do i @j if0\n"
    "pre x= @j if0\n"
    "post x= @j if0\n"
    "post do j @- if0\n" },
  { "skip-if", "if (n > 1) then\n x = 1.0\nelse\n y = 2.0\nend if\nx = 3.0\n", "if", NULL,
    "pre if @- if0\n"
    "post if @- if0\n"
    "pre x= @- if0\n"
    "post x= @- if0\n" },
  { "stop-inside", "do j = 1, n\n do i = 1, n\n  x = b(i)\n  a(i) = x\n end do\n y = 1.0\nend do\n",
    NULL, "x=",
    "pre do j @- if0\n"
    "pre do i @j if0\n"
    "pre x= @j,i if0\n" },
  { "stop-in-then", "do i = 1, n\n if (i > 1) then\n  cycle\n else\n  x = 1.0\n end if\n"
    " y = 1.0\nend do\n", NULL, "cycle",
    "pre do i @- if0\n"
    "pre if @i if0\n"
    "pre cycle @i if1\n" },
  { "jumps", "do i = 1, n\n if (i > 2) exit\n if (i > 1) cycle\nend do\n", NULL, NULL,
    "pre do i @- if0\n"
    "pre if @i if0\n"
    "pre exit @i if1\n"
    "post exit @i if1\n"
    "post if @i if0\n"
    "pre if @i if0\n"
    "pre cycle @i if1\n"
    "post cycle @i if1\n"
    "post if @i if0\n"
    "post do i @- if0\n" },
};

typedef struct Trace {
  FILE *out;
  const VisitCase *c;
} Trace;

static void trace_line(Trace *t, const char *when, const IrStmt *s, const IrVisit *v)
{
  fprintf(t->out, "%s %s @", when, label(s));
  for (int i = 0; i < v->nloops; i++)
    fprintf(t->out, "%s%s", i ? "," : "", v->loops[i]->u.loop.iv->name);
  fprintf(t->out, "%s if%d\n", v->nloops ? "" : "-", v->under_if);
}

static IrVisitStep trace_pre(IrStmt *s, IrVisit *v)
{
  Trace *t = v->ctx;
  trace_line(t, "pre", s, v);
  if (t->c->stop && !strcmp(label(s), t->c->stop))
    return IR_VISIT_STOP;
  if (t->c->skip && !strcmp(label(s), t->c->skip))
    return IR_VISIT_SKIP_CHILDREN;
  return IR_VISIT_CONTINUE;
}

static void trace_post(IrStmt *s, IrVisit *v)
{
  trace_line(v->ctx, "post", s, v);
}

START_TEST(test_visit_case)
{
  const VisitCase *c = &visit_cases[_i];
  Program *p = parse(c->body);
  ck_assert_msg(p != NULL, "case %s does not parse", c->name);
  char *got = NULL;
  size_t len = 0;
  Trace t = { open_memstream(&got, &len), c };
  IrVisit v = { .pre = trace_pre, .post = trace_post, .ctx = &t };
  bool finished = ir_visit_stmts(region_body(p), &v);
  fclose(t.out);
  ck_assert_msg(!strcmp(got, c->expect), "case %s: calls\n%s\nexpected\n%s", c->name, got,
                c->expect);
  ck_assert_msg(finished == !c->stop, "case %s: ir_visit_stmts returned %d", c->name, finished);
  ck_assert_int_eq(v.nloops, 0);
  free(got);
  ir_arena_free();
  diag_reset();
}
END_TEST

/* The loop stack past what the visitor keeps without allocating: a nest
 * built directly (deeper than a region may be), walked twice with the
 * same IrVisit. */
typedef struct Deepest { int nloops; IrSym *order[64]; } Deepest;

static IrVisitStep deepest_pre(IrStmt *s, IrVisit *v)
{
  Deepest *d = v->ctx;
  if (s->kind == IR_S_ASSIGN) {
    d->nloops = v->nloops;
    for (int i = 0; i < v->nloops && i < 64; i++)
      d->order[i] = v->loops[i]->u.loop.iv;
  }
  return IR_VISIT_CONTINUE;
}

START_TEST(test_visit_deep)
{
  enum { DEPTH = 3 * IR_VISIT_LOOPS_INLINE + 5 };
  Loc at = { 0, 1, 1 };
  IrSym *iv[DEPTH];
  IrStmtList top = { 0, 0, NULL };
  IrStmtList *into = &top;
  for (int d = 0; d < DEPTH; d++) {
    iv[d] = ir_alloc(sizeof *iv[d]);
    iv[d]->name = ir_printf("i%d", d);
    iv[d]->type = IR_T_INT;
    IrStmt *loop = ir_stmt(IR_S_DO, at);
    loop->u.loop.iv = iv[d];
    loop->u.loop.lo = ir_int(1, at);
    loop->u.loop.hi = ir_int(2, at);
    ir_list_push(into, loop);
    into = &loop->u.loop.body;
  }
  IrStmt *assign = ir_stmt(IR_S_ASSIGN, at);
  assign->u.assign.lhs = ir_var(iv[0], at);
  assign->u.assign.rhs = ir_int(0, at);
  ir_list_push(into, assign);
  for (int round = 0; round < 2; round++) {
    Deepest d = { 0, { NULL } };
    IrVisit v = { .pre = deepest_pre, .ctx = &d };
    ck_assert(ir_visit_stmts(&top, &v));
    ck_assert_int_eq(d.nloops, DEPTH);
    for (int i = 0; i < DEPTH; i++)
      ck_assert_ptr_eq(d.order[i], iv[i]);
  }
  ir_arena_free();
}
END_TEST

/* ---- assignment queries -------------------------------------------------------- */

typedef struct AssignCase {
  const char *name;
  const char *body;
  const char *sym;
  const char *first;    /* label of ir_assignment_of's answer, NULL: none */
  const char *assigned; /* ir_assigned_scalars, comma-separated, in order */
} AssignCase;

static const AssignCase assign_cases[] = {
  { "plain", "x = 1.0\ny = x\n", "y", "y=", "x,y" },
  { "none", "a(1) = 1.0\n", "x", NULL, "" },
  { "array-element", "x = 1.0\na(1) = x\n", "a", "a()=", "x" },
  { "loop-index", "do i = 1, n\n a(i) = 0.0\nend do\n", "i", "do i", "i" },
  { "loop-in-if", "if (n > 1) then\n do i = 1, n\n  x = i\n end do\nend if\n", "i", "do i",
    "i,x" },
  { "in-else", "if (n > 1) then\n y = 1.0\nelse\n x = 2.0\nend if\n", "x", "x=", "y,x" },
  { "nested-order", "do j = 1, n\n y = 1.0\n do i = 1, n\n  x = y\n end do\nend do\nx = 0.0\n",
    "x", "x=", "j,y,i,x" },
};

START_TEST(test_assign_case)
{
  const AssignCase *c = &assign_cases[_i];
  Program *p = parse(c->body);
  ck_assert_msg(p != NULL, "case %s does not parse", c->name);
  IrSym *s = ir_lookup(p->routines[0], c->sym);
  ck_assert_msg(s != NULL, "case %s: no symbol %s", c->name, c->sym);
  IrStmt *first = ir_assignment_of(region_body(p), s);
  const char *got = first ? label(first) : NULL;
  ck_assert_msg(c->first ? got && !strcmp(got, c->first) : !got, "case %s: first assignment %s, "
                "expected %s", c->name, got ? got : "none", c->first ? c->first : "none");
  if (first)
    ck_assert(ir_list_contains(region_body(p), first));
  IrSymSet set = { 0 };
  ir_assigned_scalars(region_body(p), &set);
  char text[256] = "";
  for (int i = 0; i < set.n; i++)
    snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", i ? "," : "",
             set.syms[i]->name);
  ck_assert_msg(!strcmp(text, c->assigned), "case %s: assigned %s, expected %s", c->name, text,
                c->assigned);
  ir_arena_free();
  diag_reset();
}
END_TEST

START_TEST(test_list_contains)
{
  Program *p = parse("do j = 1, n\n if (j > 1) then\n  x = 1.0\n end if\nend do\n");
  IrStmtList *body = region_body(p);
  IrStmt *inner = body->v[0]->u.loop.body.v[0]->u.cond.then.v[0];
  ck_assert(ir_list_contains(body, inner));
  ck_assert(ir_list_contains(body, body->v[0]));
  ck_assert(!ir_list_contains(&body->v[0]->u.loop.body.v[0]->u.cond.els, inner));
  ck_assert(!ir_list_contains(body, ir_stmt(IR_S_CYCLE, inner->loc)));
  ir_arena_free();
  diag_reset();
}
END_TEST

/* ---- the symbol set ---------------------------------------------------------------- */

static IrSym *new_sym(int i)
{
  IrSym *s = ir_alloc(sizeof *s);
  s->name = ir_printf("s%d", i);
  return s;
}

/* Sizes on both sides of the switch from scanning to hashing, and far past. */
static const int set_sizes[] = { 0, 1, 7, 8, 9, 17, 1000, 5000 };

START_TEST(test_symset_size)
{
  int n = set_sizes[_i];
  IrSym **syms = xmalloc(sizeof *syms * (size_t)(n + 1));
  for (int i = 0; i < n; i++)
    syms[i] = new_sym(i);
  IrSymSet set = { 0 };
  for (int i = 0; i < n; i++)
    ck_assert_msg(ir_symset_add(&set, syms[i]), "size %d: member %d was there", n, i);
  for (int i = n - 1; i >= 0; i--)
    ck_assert(!ir_symset_add(&set, syms[i]));
  ck_assert_int_eq(set.n, n);
  for (int i = 0; i < n; i++) {
    ck_assert_msg(set.syms[i] == syms[i], "size %d: member %d out of order", n, i);
    ck_assert_msg(ir_symset_has(&set, syms[i]), "size %d: member %d lost", n, i);
  }
  IrSym *outsider = new_sym(-1);
  ck_assert(!ir_symset_has(&set, outsider));
  ck_assert(!ir_symset_has(NULL, outsider));
  set = (IrSymSet){ 0 };
  ck_assert(n == 0 || !ir_symset_has(&set, syms[0]));
  free(syms);
  ir_arena_free();
}
END_TEST

START_TEST(test_symset_copy)
{
  enum { N = 1200 };
  IrSym *syms[N + 2];
  for (int i = 0; i < N + 2; i++)
    syms[i] = new_sym(i);
  IrSymSet a = { 0 };
  for (int i = 0; i < N; i++)
    ir_symset_add(&a, syms[i]);
  IrSymSet b = ir_symset_copy(&a);
  ck_assert(ir_symset_add(&b, syms[N]));         /* in the copy only */
  ck_assert(ir_symset_add(&a, syms[N + 1]));     /* in the original only */
  ck_assert(!ir_symset_has(&a, syms[N]));
  ck_assert(!ir_symset_has(&b, syms[N + 1]));
  ck_assert_int_eq(a.n, N + 1);
  ck_assert_int_eq(b.n, N + 1);
  for (int i = 0; i < N; i++)
    ck_assert(ir_symset_has(&a, syms[i]) && ir_symset_has(&b, syms[i]) && b.syms[i] == syms[i]);
  a = (IrSymSet){ 0 };
  for (int i = 0; i < N; i++)           /* b outlives a */
    ck_assert(ir_symset_has(&b, syms[i]));
  IrSymSet small = { 0 };
  ir_symset_add(&small, syms[0]);
  IrSymSet small_copy = ir_symset_copy(&small);
  ir_symset_add(&small_copy, syms[1]);
  ck_assert_int_eq(small.n, 1);
  ck_assert(!ir_symset_has(&small, syms[1]));
  ck_assert(ir_symset_has(&small_copy, syms[0]));
  ir_arena_free();
}
END_TEST

START_TEST(test_list_symbols)
{
  Program *p = parse("do i = 1, n\n a(i) = x + b(i)\nend do\n");
  IrSymSet *set = ir_list_symbols(region_body(p));
  const char *names[] = { "n", "a", "i", "x", "b" };
  ck_assert_int_eq(set->n, 5);
  for (int i = 0; i < 5; i++)
    ck_assert(ir_symset_has(set, ir_lookup(p->routines[0], names[i])));
  ck_assert(!ir_symset_has(set, ir_lookup(p->routines[0], "y")));
  ir_arena_free();
  diag_reset();
}
END_TEST

int main(void)
{
  Suite *s = suite_create("ir");
  TCase *tc = tcase_create("visit");
  tcase_add_loop_test(tc, test_visit_case, 0, (int)(sizeof visit_cases / sizeof visit_cases[0]));
  tcase_add_test(tc, test_visit_deep);
  tcase_add_loop_test(tc, test_assign_case, 0, (int)(sizeof assign_cases / sizeof assign_cases[0]));
  tcase_add_test(tc, test_list_contains);
  suite_add_tcase(s, tc);
  TCase *sets = tcase_create("symset");
  tcase_add_loop_test(sets, test_symset_size, 0, (int)(sizeof set_sizes / sizeof set_sizes[0]));
  tcase_add_test(sets, test_symset_copy);
  tcase_add_test(sets, test_list_symbols);
  suite_add_tcase(s, sets);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
