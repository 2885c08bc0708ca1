/* check_verify.c — the IR verifier (translator/ir/verify.c).
 *
 * Two tables.  `programs`: small valid Fortran and C programs, parsed with
 * the real front ends, inlined and planned; the verifier must accept each
 * at every stage it reaches.  `breakages`: one of those programs taken to a
 * stage, then broken in exactly one way (a node without a location, a
 * dropped subscript, a call left after inlining, a plan whose fields
 * disagree, ...); the verifier must report exactly one violation, described
 * exactly as expected (file:line:col of the node, then the problem).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "frontend.h"
#include "inline.h"
#include "normalize.h"
#include "plan.h"
#include "report.h"
#include "transforms.h"
#include "verify.h"

typedef struct TestProgram {
  const char *name;
  const char *path;     /* t.f90 or t.c: the extension picks the front end */
  const char *text;
} TestProgram;

enum {
  P_NEST_2D, P_CALL, P_TWO_KERNELS, P_COLUMN, P_MODULE, P_DATA, P_C_2D, P_ARRAY_SYNTAX, P_DEVICE,
};

static const TestProgram programs[] = {
  [P_NEST_2D] = { "fortran-nest-2d", "t.f90",
    "subroutine t(n, a, b, c2)\n"                   /* 1 */
    "  implicit none\n"
    "  integer :: n, i, j\n"
    "  real :: a(100), b(100), c2(100,100), x\n"
    "!$stencil region\n"                            /* 5 */
    "  do j = 1, n\n"
    "    do i = 1, n\n"
    "      c2(i, j) = a(i) + b(j)\n"
    "    end do\n"
    "  end do\n"                                    /* 10 */
    "!$stencil end region\n"
    "end subroutine t\n"
    "subroutine other(y)\n"
    "  real :: y\n"
    "  y = 1.0\n"
    "end subroutine other\n" },
  [P_CALL] = { "fortran-inlined-call", "t.f90",
    "subroutine col(k1, k2, q)\n"                   /* 1 */
    "  implicit none\n"
    "  integer :: k1, k2, k\n"
    "  real :: q(100)\n"
    "  real, parameter :: half = 0.5\n"             /* 5 */
    "  real :: w\n"
    "  do k = k1, k2\n"
    "    w = q(k) * half\n"
    "    q(k) = w\n"
    "  end do\n"                                    /* 10 */
    "end subroutine col\n"
    "subroutine t(n, c2)\n"
    "  implicit none\n"
    "  integer :: n, j\n"
    "  real :: c2(100,100)\n"                       /* 15 */
    "!$stencil region\n"
    "  do j = 1, n\n"
    "    call col(1, n, c2(1, j))\n"
    "  end do\n"
    "!$stencil end region\n"                        /* 20 */
    "end subroutine t\n" },
  [P_TWO_KERNELS] = { "fortran-two-kernels", "t.f90",
    "subroutine t(n, a, b)\n"
    "  implicit none\n"
    "  integer :: n, i\n"
    "  real :: a(100), b(100)\n"
    "!$stencil region\n"
    "  do i = 1, n\n"
    "    a(i) = 2.0 * a(i)\n"
    "  end do\n"
    "  do i = 2, n\n"
    "    b(i) = a(i - 1)\n"
    "  end do\n"
    "!$stencil end region\n"
    "end subroutine t\n" },
  [P_COLUMN] = { "fortran-column-work-array", "t.f90",
    "subroutine t(n, m, u, v)\n"
    "  implicit none\n"
    "  integer :: n, m, i, j\n"
    "  real :: u(n, m), v(n, m), work(n)\n"
    "!$stencil region\n"
    "  do j = 1, m\n"
    "    do i = 1, n\n"
    "      work(i) = u(i, j) * 2.0\n"
    "    end do\n"
    "    do i = 1, n\n"
    "      v(i, j) = work(i) + 1.0\n"
    "    end do\n"
    "  end do\n"
    "!$stencil end region\n"
    "end subroutine t\n" },
  [P_MODULE] = { "fortran-module-symbols", "t.f90",
    "module m\n"
    "  implicit none\n"
    "  integer, parameter :: nk = 10\n"
    "  real :: g(nk)\n"
    "contains\n"
    "subroutine t(a)\n"
    "  real :: a(nk)\n"
    "  integer :: k\n"
    "!$stencil region\n"
    "  do k = 1, nk\n"
    "    a(k) = g(k) * 2.0\n"
    "  end do\n"
    "!$stencil end region\n"
    "end subroutine t\n"
    "end module m\n" },
  [P_DATA] = { "fortran-data-directives", "t.f90",
    "subroutine t(n, a)\n"                      /* 1 */
    "  implicit none\n"
    "  integer :: n, i\n"
    "  real :: a(100)\n"
    "!$stencil data copy(a)\n"                  /* 5 */
    "!$stencil region\n"
    "  do i = 1, n\n"
    "    a(i) = a(i) + 1.0\n"
    "  end do\n"
    "!$stencil end region\n"                    /* 10 */
    "!$stencil end data\n"
    "end subroutine t\n" },
  [P_C_2D] = { "c-nest-2d", "t.c",
    "void t(int n, double a[restrict 64][64], const double b[restrict 64][64])\n" /* 1 */
    "{\n"
    "#pragma stencil region\n"
    "  for (int j = 0; j < n; j++)\n"
    "    for (int i = 0; i < n; i++) {\n"            /* 5 */
    "      double s = b[j][i] * 2.0;\n"
    "      a[j][i] = s + 1.0;\n"
    "    }\n"
    "}\n" },
  [P_ARRAY_SYNTAX] = { "fortran-array-syntax", "t.f90",
    "subroutine t(n, a, b)\n"                      /* 1 */
    "  implicit none\n"
    "  integer :: n, j\n"
    "  real :: a(100,100), b(100,100)\n"
    "!$stencil region\n"                            /* 5 */
    "  do j = 1, n\n"
    "    a(1:n,j) = b(1:n,j) + maxval(b(:,j))\n"
    "    where (a(:,j) > 0.) a(:,j) = 0.\n"
    "  end do\n"
    "!$stencil end region\n"
    "end subroutine t\n" },
  [P_DEVICE] = { "fortran-device-function", "t.f90",
    "module m\n"                                    /* 1 */
    "contains\n"
    "subroutine t(n, a)\n"
    "  integer :: n, i\n"
    "  real :: a(100)\n"                            /* 5 */
    "!$stencil region\n"
    "  do i = 1, n\n"
    "    a(i) = fact(a(i))\n"
    "  end do\n"
    "!$stencil end region\n"                        /* 10 */
    "end subroutine t\n"
    "recursive real function fact(x) result(r)\n"
    "  real, intent(in) :: x\n"
    "  if (x > 1.0) then\n"
    "    r = x * fact(x - 1.0)\n"                   /* 15 */
    "  else\n"
    "    r = 1.0\n"
    "  end if\n"
    "end function fact\n"
    "end module m\n" },
};

/* ---- building a program up to a stage ------------------------------------------------ */

static char *messages;
static size_t messages_len;
static FILE *message_stream;

static void setup(void)
{
  message_stream = open_memstream(&messages, &messages_len);
  diag_set_stream(message_stream);
}

static void teardown(void)
{
  diag_set_stream(stderr);
  fclose(message_stream);
  free(messages);
  messages = NULL;
  report_clear();
  ir_arena_free();
  diag_reset();
}

/* The diagnostics so far, for failure messages. */
static const char *diagnostics(void)
{
  fflush(message_stream);
  return messages ? messages : "";
}

static Program *build(const TestProgram *tp, IrStage stage)
{
  int file = diag_add_source(xstrdup(tp->path), xstrdup(tp->text), strlen(tp->text));
  size_t len = strlen(tp->path);
  Program *p = len > 2 && !strcmp(tp->path + len - 2, ".c") ? fe_c(file) : fe_fortran(file);
  ck_assert_msg(p != NULL, "%s does not parse:\n%s", tp->name, diagnostics());
  if (stage >= IR_STAGE_PLANNED) {
    /* every pass after parse, normalize and inline included */
    ck_assert_msg(xf_plan_program(p), "%s: planning fails:\n%s", tp->name, diagnostics());
    return p;
  }
  if (stage >= IR_STAGE_NORMALIZED)
    ck_assert_msg(xf_normalize_program(p), "%s: normalize fails:\n%s", tp->name, diagnostics());
  if (stage >= IR_STAGE_INLINED)
    ck_assert_msg(xf_inline_program(p), "%s: inlining fails:\n%s", tp->name, diagnostics());
  return p;
}

static const char *const stage_names[] = { "parsed", "normalized", "inlined", "planned" };

static void assert_accepted(const TestProgram *tp, const Program *p, IrStage stage)
{
  char why[512] = "";
  int n = ir_verify(p, stage, why, sizeof why);
  ck_assert_msg(n == 0, "%s %s: %d violations, the first: %s", tp->name, stage_names[stage], n,
                why);
}

/* Every program passes at each stage it reaches.  (Not also at the earlier
 * ones: after inlining, a region may name the callee's constants, which the
 * IR_STAGE_PARSED scope rule does not allow.) */
START_TEST(test_accepts_valid)
{
  const TestProgram *tp = &programs[_i];
  for (IrStage stage = IR_STAGE_PARSED; stage <= IR_STAGE_PLANNED; stage++) {
    Program *p = build(tp, stage);
    assert_accepted(tp, p, stage);
    report_clear();
    ir_arena_free();
    diag_reset();
  }
}
END_TEST

/* ---- what the breakages reach into ------------------------------------------------------ */

static IrRoutine *routine(Program *p, const char *name)
{
  for (int r = 0; r < p->nroutines; r++)
    if (!strcmp(p->routines[r]->name, name))
      return p->routines[r];
  ck_abort_msg("no routine '%s'", name);
  return NULL;
}

static IrSym *sym(Program *p, const char *routine_name, const char *name)
{
  IrSym *s = ir_lookup(routine(p, routine_name), name);
  ck_assert_msg(s != NULL, "no symbol '%s' in '%s'", name, routine_name);
  return s;
}

static IrRegion *region(Program *p)
{
  return routine(p, "t")->regions[0];
}

static IrStmt *outer_loop(Program *p)
{
  IrStmt *s = region(p)->body.v[0];
  ck_assert_int_eq(s->kind, IR_S_DO);
  return s;
}

/* P_NEST_2D's `do i`, and the assignment in it */
static IrStmt *inner_loop(Program *p)
{
  IrStmt *s = outer_loop(p)->u.loop.body.v[0];
  ck_assert_int_eq(s->kind, IR_S_DO);
  return s;
}

static IrStmt *inner_assign(Program *p)
{
  IrStmt *s = inner_loop(p)->u.loop.body.v[0];
  ck_assert_int_eq(s->kind, IR_S_ASSIGN);
  return s;
}

static RegionPlan *plan(Program *p)
{
  RegionPlan *rp = region(p)->analysis;
  ck_assert_ptr_nonnull(rp);
  return rp;
}

static ArrayPlan *array_plan(Program *p, const char *name)
{
  RegionPlan *rp = plan(p);
  for (int i = 0; i < rp->narrays; i++)
    if (!strcmp(rp->arrays[i].sym->name, name))
      return &rp->arrays[i];
  ck_abort_msg("no array plan for '%s'", name);
  return NULL;
}

static IrSym **with_one_more(IrSym **list, int n, IrSym *s)
{
  IrSym **grown = ir_alloc(sizeof *grown * (size_t)(n + 1));
  if (n)
    memcpy(grown, list, sizeof *grown * (size_t)n);
  grown[n] = s;
  return grown;
}

/* ---- the breakages -------------------------------------------------------------------- */

static void stmt_without_location(Program *p) { inner_loop(p)->loc = (Loc){ 0 }; }
static void expr_without_location(Program *p) { inner_assign(p)->u.assign.rhs->loc = (Loc){ 0 }; }
static void symbol_without_location(Program *p) { sym(p, "t", "x")->loc = (Loc){ 0 }; }
static void dropped_subscript(Program *p) { inner_assign(p)->u.assign.lhs->u.elem.n = 1; }

static void loop_index_assigned(Program *p)
{
  IrStmt *s = inner_assign(p);
  IrStmt *a = ir_stmt(IR_S_ASSIGN, s->loc);
  a->u.assign.lhs = ir_var(sym(p, "t", "j"), s->loc);
  a->u.assign.rhs = ir_int(1, s->loc);
  ir_list_push(&inner_loop(p)->u.loop.body, a);
}

static void inner_loop_reuses_index(Program *p) { inner_loop(p)->u.loop.iv = sym(p, "t", "j"); }
static void real_loop_index(Program *p) { inner_loop(p)->u.loop.iv = sym(p, "t", "x"); }

static void symbol_of_other_routine(Program *p)
{
  IrStmt *s = inner_assign(p);
  s->u.assign.rhs = ir_var(sym(p, "other", "y"), s->u.assign.rhs->loc);
}

/* P_CALL before inlining: the callee's named constant is not the caller's */
static void constant_of_callee_before_inlining(Program *p)
{
  IrStmt *call = outer_loop(p)->u.loop.body.v[0];
  ck_assert_int_eq(call->kind, IR_S_CALL);
  call->u.call.args[0] = ir_var(sym(p, "col", "half"), call->u.call.args[0]->loc);
}

static void not_inlined(Program *p) { (void)p; }

static void no_mapped_loop(Program *p) { plan(p)->kernels[0].nmapped = 0; }

static void body_of_outer_mapped_loop(Program *p)
{
  KernelPlan *k = &plan(p)->kernels[0];
  ck_assert_int_eq(k->nmapped, 2);
  k->body = &k->mapped[0]->u.loop.body;
}

static void mapped_loops_not_perfectly_nested(Program *p)
{
  KernelPlan *k = &plan(p)->kernels[0];
  ck_assert_int_eq(k->nmapped, 2);
  IrStmt *extra = ir_stmt(IR_S_CYCLE, k->mapped[1]->loc);
  ir_list_push(&k->mapped[0]->u.loop.body, extra);
}

static void outer_mapped_loop_not_nest(Program *p)
{
  KernelPlan *k = &plan(p)->kernels[0];
  k->nmapped = 1;
  k->mapped[0] = k->mapped[1];
  k->body = &k->mapped[0]->u.loop.body;
}

static void axis_out_of_range(Program *p) { plan(p)->kernels[0].axis[0] = 3; }

static void shared_axis(Program *p)
{
  KernelPlan *k = &plan(p)->kernels[0];
  k->axis[1] = k->axis[0];
}

static void too_many_threads(Program *p)
{
  KernelPlan *k = &plan(p)->kernels[0];
  k->block[0] = 64;
  k->block[1] = 32;
}

static void zero_block(Program *p) { plan(p)->kernels[0].block[2] = 0; }

static void duplicate_kernel_name(Program *p)
{
  RegionPlan *rp = plan(p);
  ck_assert_int_eq(rp->nkernels, 2);
  rp->kernels[1].name = rp->kernels[0].name;
}

static void duplicate_array_plan(Program *p) { array_plan(p, "b")->sym = sym(p, "t", "a"); }
static void array_plan_of_scalar(Program *p) { array_plan(p, "b")->sym = sym(p, "t", "n"); }

static void privatized_not_privatizable(Program *p)
{
  ArrayPlan *a = array_plan(p, "c2");
  a->privatizable = false;
  a->privatized = true;
}

static void missing_box_bound(Program *p) { array_plan(p, "c2")->box_hi[1] = NULL; }

static void user_clause_without_line(Program *p)
{
  ArrayPlan *a = array_plan(p, "a");
  a->user_clause = true;
  a->clause_line = 0;
}

static void input_also_private(Program *p)
{
  RegionPlan *rp = plan(p);
  rp->privates = with_one_more(rp->privates, rp->nprivates, sym(p, "t", "n"));
  rp->nprivates++;
}

static void array_input(Program *p)
{
  RegionPlan *rp = plan(p);
  rp->inputs = with_one_more(rp->inputs, rp->ninputs, sym(p, "t", "c2"));
  rp->ninputs++;
}

static void duplicate_input(Program *p)
{
  RegionPlan *rp = plan(p);
  ck_assert_int_ge(rp->ninputs, 1);
  rp->inputs = with_one_more(rp->inputs, rp->ninputs, rp->inputs[0]);
  rp->ninputs++;
}

static void variable_among_params(Program *p)
{
  RegionPlan *rp = plan(p);
  rp->params = with_one_more(rp->params, rp->nparams, sym(p, "t", "k"));
  rp->nparams++;
}

static void constant_among_inputs(Program *p)
{
  RegionPlan *rp = plan(p);
  rp->inputs = with_one_more(rp->inputs, rp->ninputs, sym(p, "t", "nk"));
  rp->ninputs++;
}

static void data_directive_partner_elsewhere(Program *p)
{
  IrRoutine *r = routine(p, "t");
  ck_assert_int_eq(r->nhost_dirs, 2);
  r->host_dirs[1]->partner = r->host_dirs[1];
}

static void region_without_plan(Program *p) { region(p)->analysis = NULL; }

static void privatized_work_array_without_box(Program *p)
{
  /* privatized arrays need no box: only the non-privatized one is reported */
  ArrayPlan *w = array_plan(p, "work");
  ck_assert(w->privatized);
  w->box_lo[0] = NULL;
  array_plan(p, "v")->box_lo[0] = NULL;
}

static void column_loop_without_location(Program *p)
{
  /* the loops of a column kernel are built by the mapping, outside the
   * region's body: they are checked too */
  KernelPlan *k = &plan(p)->kernels[0];
  ck_assert(k->nest != region(p)->body.v[0]);
  ck_assert_int_eq(k->nmapped, 2);
  k->mapped[1]->loc = (Loc){ 0 };
}

static void c_dropped_subscript(Program *p)
{
  IrStmt *body = inner_loop(p);
  IrStmt *s = body->u.loop.body.v[body->u.loop.body.n - 1];
  ck_assert_int_eq(s->kind, IR_S_ASSIGN);
  s->u.assign.lhs->u.elem.n = 1;
}

/* P_DEVICE after inlining: the region's call of fact, and the one in fact's body */
static IrExpr *device_call_in_region(Program *p)
{
  IrStmt *s = outer_loop(p)->u.loop.body.v[0];
  ck_assert_int_eq(s->kind, IR_S_ASSIGN);
  IrExpr *call = s->u.assign.rhs;
  ck_assert(call->kind == IR_E_CALL && call->u.call.device_fn);
  return call;
}

static IrExpr *device_call_in_body(Program *p)
{
  IrStmt *s = routine(p, "fact")->body.v[0]->u.cond.then.v[0];
  ck_assert_int_eq(s->kind, IR_S_ASSIGN);
  IrExpr *call = s->u.assign.rhs->u.binary.rhs;
  ck_assert(call->kind == IR_E_CALL && call->u.call.device_fn);
  return call;
}

static void device_call_unmarked(Program *p) { device_call_in_region(p)->u.call.device_fn = NULL; }
static void device_body_call_unmarked(Program *p) { device_call_in_body(p)->u.call.device_fn = NULL; }
static void device_call_argument_dropped(Program *p) { device_call_in_region(p)->u.call.n = 0; }

static void device_call_whole_array(Program *p)
{
  IrExpr *call = device_call_in_region(p);
  call->u.call.args[0] = ir_var(sym(p, "t", "a"), call->u.call.args[0]->loc);
}

/* a call statement in a __device__ function's body not marked as the call
 * of a __device__ subroutine */
static void device_body_calls_subroutine(Program *p)
{
  IrStmt *s = routine(p, "fact")->body.v[0];
  IrStmt *call = ir_stmt(IR_S_CALL, s->loc);
  call->u.call.name = "clip";
  ir_list_push(&routine(p, "fact")->body, call);
}

static void c_region_local_of_other_routine(Program *p)
{
  /* a copy of a symbol, not the routine's own; the statement it is put in
   * is shared by the region's body and the kernel's nest, and is reported
   * once */
  IrSym *s = sym(p, "t", "s");
  IrSym *copy = ir_alloc(sizeof *copy);
  *copy = *s;
  memset(&copy->hh, 0, sizeof copy->hh);
  IrStmt *body = inner_loop(p);
  IrStmt *use = body->u.loop.body.v[body->u.loop.body.n - 1];
  use->u.assign.rhs->u.binary.lhs = ir_var(copy, use->u.assign.rhs->u.binary.lhs->loc);
}

/* control flow (ir.h): a jump names a statement around it, CYCLE a loop */
static void exit_to_nowhere(Program *p)
{
  IrStmt *loop = inner_loop(p);
  IrStmt *j = ir_stmt(IR_S_EXIT, loop->loc);
  j->u.jump.name = "nowhere";
  ir_list_push(&loop->u.loop.body, j);
}

static void cycle_of_block(Program *p)
{
  IrStmt *loop = inner_loop(p);
  IrStmt *b = ir_stmt(IR_S_BLOCK, loop->loc), *j = ir_stmt(IR_S_CYCLE, loop->loc);
  b->u.loop.name = j->u.jump.name = "skip";
  ir_list_push(&b->u.loop.body, j);
  ir_list_push(&loop->u.loop.body, b);
}

/* normalize never ran: its sections, reduction and WHERE are left (the
 * first statement alone, so that one violation is counted) */
static void section_left(Program *p)
{
  IrStmtList *body = &outer_loop(p)->u.loop.body;
  body->n = 1;
  IrStmt *s = body->v[0];
  s->u.assign.rhs = ir_int(0, s->loc);
}

typedef struct Breakage {
  const char *name;
  int program;
  IrStage built;        /* how far the pipeline ran before the breakage */
  IrStage checked;      /* the stage ir_verify is told */
  void (*apply)(Program *p);
  const char *why;      /* exactly what ir_verify must say */
} Breakage;

static const Breakage breakages[] = {
  { "statement-without-location", P_NEST_2D, IR_STAGE_PARSED, IR_STAGE_PARSED,
    stmt_without_location, "t.f90:6:3: statement without a location" },
  { "expression-without-location", P_NEST_2D, IR_STAGE_PARSED, IR_STAGE_PARSED,
    expr_without_location, "t.f90:8:7: expression without a location" },
  { "symbol-without-location", P_NEST_2D, IR_STAGE_PARSED, IR_STAGE_PARSED,
    symbol_without_location, "t.f90:1:1: symbol 'x' without a location" },
  { "dropped-subscript", P_NEST_2D, IR_STAGE_INLINED, IR_STAGE_INLINED,
    dropped_subscript, "t.f90:8:7: 'c2' has 1 subscript but rank 2" },
  { "loop-index-assigned", P_NEST_2D, IR_STAGE_PARSED, IR_STAGE_PARSED,
    loop_index_assigned, "t.f90:8:7: loop index 'j' is assigned inside its loop" },
  { "inner-loop-reuses-index", P_NEST_2D, IR_STAGE_PARSED, IR_STAGE_PARSED,
    inner_loop_reuses_index,
    "t.f90:7:5: loop index 'j' is assigned inside its loop (as the index of an inner loop)" },
  { "real-loop-index", P_NEST_2D, IR_STAGE_PARSED, IR_STAGE_PARSED,
    real_loop_index, "t.f90:7:5: loop index 'x' is not an integer scalar" },
  { "symbol-of-other-routine", P_NEST_2D, IR_STAGE_INLINED, IR_STAGE_INLINED,
    symbol_of_other_routine, "t.f90:8:18: symbol 'y' is not in scope in routine 't'" },
  { "callee-constant-before-inlining", P_CALL, IR_STAGE_PARSED, IR_STAGE_PARSED,
    constant_of_callee_before_inlining,
    "t.f90:18:14: symbol 'half' is not in scope in routine 't'" },
  { "call-left-after-inlining", P_CALL, IR_STAGE_PARSED, IR_STAGE_INLINED,
    not_inlined, "t.f90:18:5: call of 'col' left in region 't_r1' after inlining" },
  { "kernel-maps-no-loop", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    no_mapped_loop, "t.f90:6:3: kernel 't_r1' maps 0 loops (must be 1 to 3)" },
  { "body-not-innermost", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    body_of_outer_mapped_loop,
    "t.f90:6:3: kernel 't_r1': its body is not the body of its innermost mapped loop" },
  { "mapped-not-perfectly-nested", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    mapped_loops_not_perfectly_nested,
    "t.f90:7:5: kernel 't_r1': mapped loop 2 is not the only statement of mapped loop 1" },
  { "outer-mapped-not-nest", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    outer_mapped_loop_not_nest,
    "t.f90:6:3: kernel 't_r1': its outermost mapped loop is not its nest" },
  { "axis-out-of-range", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    axis_out_of_range, "t.f90:6:3: kernel 't_r1': mapped loop 1 has grid axis 3 (must be 0 to 2)" },
  { "shared-axis", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    shared_axis, "t.f90:6:3: kernel 't_r1': mapped loops 1 and 2 share grid axis 1" },
  { "too-many-threads", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    too_many_threads, "t.f90:6:3: kernel 't_r1': 2048 threads per block (at most 1024)" },
  { "zero-block", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    zero_block, "t.f90:6:3: kernel 't_r1': block size 0 along axis 2" },
  { "duplicate-kernel-name", P_TWO_KERNELS, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    duplicate_kernel_name, "t.f90:9:3: kernel name 't_r1_k1' is used twice" },
  { "duplicate-array-plan", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    duplicate_array_plan, "t.f90:5:1: array 'a' has two array plans" },
  { "array-plan-of-scalar", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    array_plan_of_scalar, "t.f90:5:1: array plan of scalar 'n'" },
  { "privatized-not-privatizable", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    privatized_not_privatizable, "t.f90:5:1: array 'c2' is privatized but not privatizable" },
  { "missing-box-bound", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    missing_box_bound, "t.f90:5:1: array 'c2' has no box upper bound for dimension 2" },
  { "user-clause-without-line", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    user_clause_without_line, "t.f90:5:1: array 'a' has a user clause but no clause line" },
  { "input-also-private", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    input_also_private, "t.f90:5:1: 'n' is both an input and a private" },
  { "array-input", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    array_input, "t.f90:5:1: input 'c2' is not a scalar" },
  { "duplicate-input", P_NEST_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    duplicate_input, "t.f90:5:1: input 'n' is listed twice" },
  { "variable-among-params", P_MODULE, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    variable_among_params, "t.f90:9:1: param 'k' is not a named constant" },
  { "constant-among-inputs", P_MODULE, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    constant_among_inputs, "t.f90:9:1: input 'nk' is a named constant" },
  { "data-partner-not-mutual", P_DATA, IR_STAGE_PARSED, IR_STAGE_PARSED,
    data_directive_partner_elsewhere,
    "t.f90:5:1: host directive's partner does not point back to it" },
  { "region-without-plan", P_NEST_2D, IR_STAGE_INLINED, IR_STAGE_PLANNED,
    region_without_plan, "t.f90:5:1: region 't_r1' has no plan" },
  { "box-only-for-shared-arrays", P_COLUMN, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    privatized_work_array_without_box,
    "t.f90:5:1: array 'v' has no box lower bound for dimension 1" },
  { "column-kernel-nest-checked", P_COLUMN, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    column_loop_without_location, "t.f90:6:3: statement without a location" },
  { "exit-to-nowhere", P_NEST_2D, IR_STAGE_PARSED, IR_STAGE_PARSED,
    exit_to_nowhere, "t.f90:7:5: EXIT names 'nowhere', which is not a loop or block around it" },
  { "cycle-of-block", P_NEST_2D, IR_STAGE_PARSED, IR_STAGE_PARSED,
    cycle_of_block, "t.f90:7:5: CYCLE of block 'skip', which is not a loop" },
  { "section-left-after-normalize", P_ARRAY_SYNTAX, IR_STAGE_PARSED, IR_STAGE_NORMALIZED,
    section_left, "t.f90:7:5: array section of 'a' left after normalize" },
  { "c-dropped-subscript", P_C_2D, IR_STAGE_PARSED, IR_STAGE_PARSED,
    c_dropped_subscript, "t.c:7:7: 'a' has 1 subscript but rank 2" },
  { "c-symbol-not-in-table", P_C_2D, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    c_region_local_of_other_routine, "t.c:7:17: symbol 's' is not in scope in routine 't'" },
  { "device-call-unmarked", P_DEVICE, IR_STAGE_INLINED, IR_STAGE_INLINED,
    device_call_unmarked, "t.f90:8:12: call of function 'fact' left in region 't_r1' after "
    "inlining" },
  { "device-body-call-unmarked", P_DEVICE, IR_STAGE_INLINED, IR_STAGE_INLINED,
    device_body_call_unmarked, "t.f90:15:13: reference to 'fact' in __device__ function 'fact' "
    "is not the call of a __device__ function" },
  { "device-call-argument-dropped", P_DEVICE, IR_STAGE_PLANNED, IR_STAGE_PLANNED,
    device_call_argument_dropped, "t.f90:8:12: reference to 'fact' marked as the call of a "
    "__device__ function that it does not fit" },
  { "device-call-whole-array", P_DEVICE, IR_STAGE_INLINED, IR_STAGE_INLINED,
    device_call_whole_array, "t.f90:8:12: __device__ function 'fact' is passed the whole array "
    "'a'" },
  { "device-body-calls-subroutine", P_DEVICE, IR_STAGE_INLINED, IR_STAGE_INLINED,
    device_body_calls_subroutine, "t.f90:14:3: call of 'clip' in __device__ function 'fact' is "
    "not the call of a __device__ subroutine that it fits" },
};

START_TEST(test_reports_breakage)
{
  const Breakage *b = &breakages[_i];
  const TestProgram *tp = &programs[b->program];
  Program *p = build(tp, b->built);
  assert_accepted(tp, p, b->built);
  b->apply(p);
  char why[512] = "";
  int n = ir_verify(p, b->checked, why, sizeof why);
  ck_assert_msg(n == 1 && !strcmp(why, b->why),
                "%s: %d violations, the first:\n  %s\nexpected 1:\n  %s", b->name, n, why, b->why);
}
END_TEST

/* The description is cut to the buffer, never past it. */
START_TEST(test_truncates_why)
{
  Program *p = build(&programs[P_NEST_2D], IR_STAGE_PARSED);
  loop_index_assigned(p);
  char why[16];
  memset(why, 'x', sizeof why);
  ck_assert_int_eq(ir_verify(p, IR_STAGE_PARSED, why, 12), 1);
  ck_assert_str_eq(why, "t.f90:8:7: ");
  ck_assert_int_eq(why[12], 'x');
  ck_assert_int_eq(ir_verify(p, IR_STAGE_PARSED, NULL, 0), 1);
}
END_TEST

/* Every violation is counted, not only the first. */
START_TEST(test_counts_all)
{
  Program *p = build(&programs[P_NEST_2D], IR_STAGE_PARSED);
  dropped_subscript(p);
  loop_index_assigned(p);
  char why[512];
  ck_assert_int_eq(ir_verify(p, IR_STAGE_PARSED, why, sizeof why), 2);
  ck_assert_str_eq(why, "t.f90:8:7: 'c2' has 1 subscript but rank 2");
}
END_TEST

int main(void)
{
  Suite *s = suite_create("verify");
  TCase *tc = tcase_create("verify");
  tcase_add_checked_fixture(tc, setup, teardown);
  tcase_add_loop_test(tc, test_accepts_valid, 0, (int)(sizeof programs / sizeof *programs));
  tcase_add_loop_test(tc, test_reports_breakage, 0, (int)(sizeof breakages / sizeof *breakages));
  tcase_add_test(tc, test_truncates_why);
  tcase_add_test(tc, test_counts_all);
  suite_add_tcase(s, tc);
  SRunner *sr = srunner_create(s);
  srunner_run_all(sr, CK_NORMAL);
  int failed = srunner_ntests_failed(sr);
  srunner_free(sr);
  return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
