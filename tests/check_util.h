/* check_util.h — what the unit tests of the planning passes share
 * (check_dep.c, check_column.c, check_inline.c, check_clause.c): parse a
 * Fortran source held in a string with the real front end, plan it while
 * capturing its diagnostics and feedback report, and find regions, loops
 * and array plans by name.  Prefix cu_ ("check utilities").
 *
 * Everything a helper builds lives in the IR arena or in the diagnostics'
 * source table: cu_reset() releases both (and the report) after each case.
 * A helper that fails (a source that does not parse) fails the current test
 * with the case's name.
 */
#ifndef S2S_CHECK_UTIL_H
#define S2S_CHECK_UTIL_H

#include <stdbool.h>
#include "ir.h"
#include "plan.h"

/* The source of subroutine t around one region:
 *   subroutine t(n, a, b, c, c2)            line 1
 *     implicit none                          line 2
 *     integer :: n, i, j, k                  line 3
 *     real :: a(100), b(100), c(100), c2(100,100)   line 4
 *   DECLS                                    (each line of decls adds one)
 *   !$stencil regionCLAUSES                  line 5 without decls
 *   BODY                                     line 6 without decls
 *   !$stencil end region
 *   end subroutine t
 * decls and body end with a newline; clauses is "" or starts with a blank.
 * The text is in the IR arena. */
char *cu_region_source(const char *decls, const char *clauses, const char *body);

/* Parse Fortran `text` as file t.f90.  NULL when the front end refuses it
 * (its diagnostics went to the diagnostics stream). */
Program *cu_parse(const char *text);

/* cu_parse(cu_region_source(decls, "", body)), failing the test named
 * `name` when it does not parse. */
Program *cu_parse_region(const char *name, const char *decls, const char *body);

/* Plan every region of p as the driver does (inlining, analyses, kernels,
 * mapping; the result in each IrRegion.analysis).  The one place the tests
 * name the planning entry point.  False when a region cannot be
 * translated (reported). */
bool cu_plan_program(Program *p);

/* Run `pass` on `text` with the diagnostics and, with `with_report`, the
 * feedback report (printed after the pass) captured in *msgs (caller
 * frees).  *out gets the program, NULL when it does not parse; the
 * result is false then.  A pass: cu_plan_program, xf_inline_program. */
typedef bool (*CuPass)(Program *p);
bool cu_run(const char *text, CuPass pass, bool with_report, Program **out, char **msgs);

/* cu_run of cu_plan_program on cu_region_source(decls, clauses, body),
 * failing the test named `name` when the source does not parse. */
bool cu_plan_region(const char *name, const char *decls, const char *clauses, const char *body,
                    bool with_report, Program **out, char **msgs);

/* The first region of the first routine that has one, or NULL. */
IrRegion *cu_first_region(const Program *p);

/* The plan of array `name` in plan, or NULL. */
ArrayPlan *cu_array_plan(const RegionPlan *plan, const char *name);

/* The first loop over index `iv` in l, searched depth first in statement
 * order (loop bodies and both branches of IFs), or NULL. */
IrStmt *cu_find_loop(const IrStmtList *l, const char *iv);

/* The loops each kernel of plan maps to the grid, outermost first, kernels
 * separated by " | ": "j i | i" (caller frees). */
char *cu_kernels_text(const RegionPlan *plan);

/* How many lines of `text` contain `fragment`. */
int cu_count_lines(const char *text, const char *fragment);

/* The statements of l as --dump-ir prints them (caller frees). */
char *cu_dump_stmts(const IrStmtList *l);

/* Forget the case: the report, the IR arena, the diagnostics' sources. */
void cu_reset(void);

#endif
