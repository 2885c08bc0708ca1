/* ir_dump.c — print the IR as Fortran-like text for --dump-ir=PASS.
 *
 * The dump is for people debugging the translator and for golden tests of
 * passes, so it is stable: one statement per line, two-space indentation,
 * symbols listed in declaration order with type and shape, subscripts in IR
 * order (fastest first, also for C input), each statement tagged with its
 * source line.  A __device__ function's body is printed with its routine,
 * and each call of one reads `__device__ name(args)`.
 */
#include <stdio.h>
#include "ir.h"

const char *ir_intrinsic_name(IrIntrinsic fn)
{
  static const char *const names[] = {
    [IR_FN_MIN] = "min", [IR_FN_MAX] = "max", [IR_FN_ABS] = "abs", [IR_FN_SQRT] = "sqrt",
    [IR_FN_EXP] = "exp", [IR_FN_LOG] = "log", [IR_FN_LOG10] = "log10", [IR_FN_SIN] = "sin",
    [IR_FN_COS] = "cos", [IR_FN_TAN] = "tan", [IR_FN_ATAN] = "atan", [IR_FN_TANH] = "tanh",
    [IR_FN_SIGN] = "sign", [IR_FN_MOD] = "mod", [IR_FN_NINT] = "nint", [IR_FN_FLOOR] = "floor",
    [IR_FN_CEILING] = "ceiling", [IR_FN_POW] = "pow", [IR_FN_PRESENT] = "present",
    [IR_FN_USER] = "function", [IR_FN_MAXVAL] = "maxval", [IR_FN_MINVAL] = "minval",
    [IR_FN_SUM] = "sum", [IR_FN_PRODUCT] = "product", [IR_FN_ANY] = "any", [IR_FN_ALL] = "all",
    [IR_FN_COUNT] = "count", [IR_FN_MAXLOC] = "maxloc", [IR_FN_MINLOC] = "minloc",
  };
  return names[fn];
}

static void dump_list(FILE *f, int n, IrExpr *const *v)
{
  for (int i = 0; i < n; i++) {
    if (i)
      fputc(',', f);
    ir_dump_expr(v[i], f);
  }
}

/* a(lo:hi:stride, k); a bound that is not declared (assumed size) as `*` */
static void dump_section(const IrExpr *e, FILE *f)
{
  fprintf(f, "%s(", e->u.section.sym->name);
  for (int i = 0; i < e->u.section.n; i++) {
    const IrTriplet *t = &e->u.section.dim[i];
    if (i)
      fputc(',', f);
    ir_dump_expr(t->lo, f);
    if (!t->is_range)
      continue;
    fputc(':', f);
    if (t->hi)
      ir_dump_expr(t->hi, f);
    else
      fputc('*', f);
    if (t->stride) {
      fputc(':', f);
      ir_dump_expr(t->stride, f);
    }
  }
  fputc(')', f);
}

void ir_dump_expr(const IrExpr *e, void *file)
{
  FILE *f = file;
  switch (e->kind) {
  case IR_E_INT: fprintf(f, "%ld", e->u.ival); break;
  case IR_E_REAL: fprintf(f, "%s_%s", e->u.real, e->type == IR_T_REAL4 ? "4" : "8"); break;
  case IR_E_LOGICAL: fputs(e->u.ival ? ".true." : ".false.", f); break;
  case IR_E_VAR: fputs(e->u.var->name, f); break;
  case IR_E_ELEM:
    fprintf(f, "%s(", e->u.elem.sym->name);
    dump_list(f, e->u.elem.n, e->u.elem.sub);
    fputc(')', f);
    break;
  case IR_E_UNARY:
    fprintf(f, "(%s", ir_op_text(e->u.unary.op));
    ir_dump_expr(e->u.unary.arg, f);
    fputc(')', f);
    break;
  case IR_E_BINARY:
    fputc('(', f);
    ir_dump_expr(e->u.binary.lhs, f);
    fprintf(f, " %s ", ir_op_text(e->u.binary.op));
    ir_dump_expr(e->u.binary.rhs, f);
    fputc(')', f);
    break;
  case IR_E_CALL:
    if (e->u.call.device_fn)
      fputs("__device__ ", f);
    fprintf(f, "%s(", e->u.call.fn == IR_FN_USER ? e->u.call.name : ir_intrinsic_name(e->u.call.fn));
    dump_list(f, e->u.call.n, e->u.call.args);
    fputc(')', f);
    if (e->u.call.result_of)
      fprintf(f, "%%%s", e->u.call.result_of->name);
    break;
  case IR_E_COND:
    fputs("merge(", f);
    ir_dump_expr(e->u.cond.then, f);
    fputc(',', f);
    ir_dump_expr(e->u.cond.els, f);
    fputc(',', f);
    ir_dump_expr(e->u.cond.test, f);
    fputc(')', f);
    break;
  case IR_E_CONVERT:
    fprintf(f, "%s(", ir_type_name(e->type));
    ir_dump_expr(e->u.operand, f);
    fputc(')', f);
    break;
  case IR_E_SECTION:
    dump_section(e, f);
    break;
  }
}

static void indent_to(FILE *f, int indent, const IrStmt *s)
{
  fprintf(f, "%5d  %*s", diag_user_line(s->loc), 2 * indent, "");
}

static void dump_stmt(const IrStmt *s, int indent, FILE *f)
{
  indent_to(f, indent, s);
  switch (s->kind) {
  case IR_S_ASSIGN:
    ir_dump_expr(s->u.assign.lhs, f);
    fputs(" = ", f);
    ir_dump_expr(s->u.assign.rhs, f);
    fputc('\n', f);
    break;
  case IR_S_DO:
    if (s->u.loop.name)
      fprintf(f, "%s: ", s->u.loop.name);
    fprintf(f, "do %s = ", s->u.loop.iv->name);
    ir_dump_expr(s->u.loop.lo, f);
    fputs(", ", f);
    ir_dump_expr(s->u.loop.hi, f);
    if (s->u.loop.step) {
      fputs(", ", f);
      ir_dump_expr(s->u.loop.step, f);
    }
    fputc('\n', f);
    ir_dump_stmts(&s->u.loop.body, indent + 1, f);
    fprintf(f, "%5s  %*send do\n", "", 2 * indent, "");
    break;
  case IR_S_IF:
    fputs("if (", f);
    ir_dump_expr(s->u.cond.test, f);
    fputs(") then\n", f);
    ir_dump_stmts(&s->u.cond.then, indent + 1, f);
    if (s->u.cond.els.n) {
      fprintf(f, "%5s  %*selse\n", "", 2 * indent, "");
      ir_dump_stmts(&s->u.cond.els, indent + 1, f);
    }
    fprintf(f, "%5s  %*send if\n", "", 2 * indent, "");
    break;
  case IR_S_WHERE:
    fputs("where (", f);
    ir_dump_expr(s->u.cond.test, f);
    fputs(")\n", f);
    ir_dump_stmts(&s->u.cond.then, indent + 1, f);
    if (s->u.cond.els.n) {
      fprintf(f, "%5s  %*selsewhere\n", "", 2 * indent, "");
      ir_dump_stmts(&s->u.cond.els, indent + 1, f);
    }
    fprintf(f, "%5s  %*send where\n", "", 2 * indent, "");
    break;
  case IR_S_WHILE:
  case IR_S_BLOCK:
    if (s->u.loop.name)
      fprintf(f, "%s: ", s->u.loop.name);
    fputs(s->kind == IR_S_BLOCK ? "block" : "do", f);
    if (s->u.loop.test) {
      fputs(" while (", f);
      ir_dump_expr(s->u.loop.test, f);
      fputc(')', f);
    }
    fputc('\n', f);
    ir_dump_stmts(&s->u.loop.body, indent + 1, f);
    fprintf(f, "%5s  %*send %s\n", "", 2 * indent, "", s->kind == IR_S_BLOCK ? "block" : "do");
    break;
  case IR_S_CYCLE:
  case IR_S_EXIT:
    fputs(s->kind == IR_S_CYCLE ? "cycle" : "exit", f);
    if (s->u.jump.name)
      fprintf(f, " %s", s->u.jump.name);
    fputc('\n', f);
    break;
  case IR_S_CALL:
    fprintf(f, "call %s%s(", s->u.call.device_fn ? "__device__ " : "", s->u.call.name);
    dump_list(f, s->u.call.nargs, s->u.call.args);
    fputs(")\n", f);
    break;
  }
}

/* Not on the visitor (visit.h): it prints between an IF's two branches. */
void ir_dump_stmts(const IrStmtList *l, int indent, void *file)
{
  for (int i = 0; i < l->n; i++)
    dump_stmt(l->v[i], indent, file);
}

static void dump_sym(const IrSym *s, FILE *f)
{
  fprintf(f, "  %s %s%s", s->kind == IR_SYM_PARAM ? "parameter" : "var", ir_type_name(s->type),
          s->is_dummy ? " dummy" : "");
  if (s->is_pointer)
    fputs(" pointer", f);
  fprintf(f, " :: %s", s->name);
  if (s->rank) {
    fputc('(', f);
    for (int d = 0; d < s->rank; d++) {
      if (d)
        fputc(',', f);
      ir_dump_expr(s->lo[d], f);
      fputc(':', f);
      if (s->hi[d])
        ir_dump_expr(s->hi[d], f);
      else
        fputc('*', f);
    }
    fputc(')', f);
  }
  if (s->init) {
    fputs(" = ", f);
    ir_dump_expr(s->init, f);
  }
  fputc('\n', f);
}

/* Symbols in declaration order (uthash keeps insertion order). */
static void dump_symbols(const IrSym *table, FILE *f)
{
  for (const IrSym *s = table; s; s = s->hh.next)
    dump_sym(s, f);
}

static void dump_routine(const IrRoutine *r, FILE *f)
{
  fprintf(f, "routine %s%s%s (lines %d-%d)\n", r->name, r->module ? " in module " : "",
          r->module ? r->module->name : "", r->first_line, r->last_line);
  dump_symbols(r->symbols, f);
  if (r->device_why) {    /* its body is emitted as it is */
    fprintf(f, "  __device__ function (%s)\n", r->device_why);
    ir_dump_stmts(&r->body, 2, f);
    fputs("  end function\n", f);
  }
  for (int i = 0; i < r->nregions; i++) {
    const IrRegion *g = r->regions[i];
    fprintf(f, "  region %s (lines %d-%d)\n", g->name, g->first_line, g->last_line);
    ir_dump_stmts(&g->body, 2, f);
    fputs("  end region\n", f);
  }
}

void ir_dump_program(const Program *p, void *file)
{
  FILE *f = file;
  fprintf(f, "program %s (%s)\n", p->path, p->lang == IR_FORTRAN ? "fortran" : "c");
  for (int i = 0; i < p->nmodules; i++) {
    fprintf(f, "module %s\n", p->modules[i]->name);
    dump_symbols(p->modules[i]->symbols, f);
  }
  for (int i = 0; i < p->nroutines; i++)
    dump_routine(p->routines[i], f);
}
