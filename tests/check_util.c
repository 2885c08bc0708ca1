/* check_util.c — the helpers check_util.h declares, shared by the unit
 * tests of the planning passes. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "check_util.h"
#include "frontend.h"
#include "report.h"
#include "transforms.h"

char *cu_region_source(const char *decls, const char *clauses, const char *body)
{
  return ir_printf("subroutine t(n, a, b, c, c2)\n  implicit none\n  integer :: n, i, j, k\n"
                   "  real :: a(100), b(100), c(100), c2(100,100)\n%s!$stencil region%s\n%s"
                   "!$stencil end region\nend subroutine t\n", decls, clauses, body);
}

Program *cu_parse(const char *text)
{
  int file = diag_add_source(xstrdup("t.f90"), xstrdup(text), strlen(text));
  return fe_fortran(file);
}

Program *cu_parse_region(const char *name, const char *decls, const char *body)
{
  Program *p = cu_parse(cu_region_source(decls, "", body));
  ck_assert_msg(p != NULL, "case %s does not parse", name);
  return p;
}

bool cu_plan_program(Program *p)
{
  return xf_plan_program(p);
}

bool cu_run(const char *text, CuPass pass, bool with_report, Program **out, char **msgs)
{
  size_t len = 0;
  *msgs = NULL;
  FILE *f = open_memstream(msgs, &len);
  diag_set_stream(f);
  Program *p = cu_parse(text);
  bool ok = p && pass(p);
  if (with_report)
    report_print(f);
  fclose(f);
  diag_set_stream(stderr);
  *out = p;
  return ok;
}

bool cu_plan_region(const char *name, const char *decls, const char *clauses, const char *body,
                    bool with_report, Program **out, char **msgs)
{
  bool ok = cu_run(cu_region_source(decls, clauses, body), cu_plan_program, with_report, out, msgs);
  ck_assert_msg(*out != NULL, "case %s does not parse:\n%s", name, *msgs);
  return ok;
}

IrRegion *cu_first_region(const Program *p)
{
  for (int r = 0; r < p->nroutines; r++)
    if (p->routines[r]->nregions)
      return p->routines[r]->regions[0];
  return NULL;
}

ArrayPlan *cu_array_plan(const RegionPlan *plan, const char *name)
{
  for (int i = 0; i < plan->narrays; i++)
    if (!strcmp(plan->arrays[i].sym->name, name))
      return &plan->arrays[i];
  return NULL;
}

IrStmt *cu_find_loop(const IrStmtList *l, const char *iv)
{
  for (int i = 0; i < l->n; i++) {
    IrStmt *s = l->v[i], *found = NULL;
    if (s->kind == IR_S_DO) {
      if (!strcmp(s->u.loop.iv->name, iv))
        return s;
      found = cu_find_loop(&s->u.loop.body, iv);
    } else if (s->kind == IR_S_IF) {
      found = cu_find_loop(&s->u.cond.then, iv);
      if (!found)
        found = cu_find_loop(&s->u.cond.els, iv);
    }
    if (found)
      return found;
  }
  return NULL;
}

int cu_count_lines(const char *text, const char *fragment)
{
  int n = 0;
  while (*text) {
    const char *end = strchr(text, '\n');
    size_t len = end ? (size_t)(end - text) : strlen(text);
    char *line = xstrndup(text, len);
    n += strstr(line, fragment) != NULL;
    free(line);
    text += len + (end != NULL);
  }
  return n;
}

char *cu_dump_stmts(const IrStmtList *l)
{
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  ir_dump_stmts(l, 0, f);
  fclose(f);
  return out;
}

void cu_reset(void)
{
  report_clear();
  ir_arena_free();
  diag_reset();
}

char *cu_kernels_text(const RegionPlan *plan)
{
  char *out = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&out, &len);
  for (int k = 0; k < plan->nkernels; k++) {
    fprintf(f, "%s", k ? " | " : "");
    for (int i = 0; i < plan->kernels[k].nmapped; i++)
      fprintf(f, "%s%s", i ? " " : "", plan->kernels[k].mapped[i]->u.loop.iv->name);
  }
  fclose(f);
  return out;
}
