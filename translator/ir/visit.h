/* visit.h — the statement visitor, beside the expression walker of ir.h,
 * and the queries on statement lists built on it.
 *
 * A pass that looks at every statement of a list (nested ones included)
 * says what it does with one statement, in a `pre` callback and, where it
 * needs the statement's bodies done first, a `post` callback; the visitor
 * keeps the DO loops around the statement and how many IFs it is under.
 * A walk that rebuilds statement lists, or keeps state per list rather
 * than per statement, stays hand-written (each says why).
 */
#ifndef S2S_VISIT_H
#define S2S_VISIT_H

#include "ir.h"

typedef enum IrVisitStep {
  IR_VISIT_CONTINUE,        /* visit the statement's bodies, then call post */
  IR_VISIT_SKIP_CHILDREN,   /* not its bodies; post is still called */
  IR_VISIT_STOP,            /* end the whole walk: no further pre or post at all */
} IrVisitStep;

/* How many enclosing loops the visitor keeps without allocating (on the
 * stack of ir_visit_stmts); deeper nests move them to the heap. */
enum { IR_VISIT_LOOPS_INLINE = 16 };

typedef struct IrVisit IrVisit;
struct IrVisit {
  /* set by the caller (NULL pre: continue everywhere; NULL post: none) */
  IrVisitStep (*pre)(IrStmt *s, IrVisit *v);
  void (*post)(IrStmt *s, IrVisit *v);
  void *ctx;
  /* kept by ir_visit_stmts for the callbacks, which only read them: the DO
   * statements of the walked list around s, outermost first (s itself is
   * not among them, in pre or in post), and how many IFs (and WHEREs,
   * before pass "normalize") of the walked list s is inside (in their THEN
   * or ELSE part) */
  IrStmt **loops;
  int nloops;
  int under_if;
  int under_sequential;     /* how many IR_S_WHILE and IR_S_BLOCK of the walked list s is
                               inside (the visitor walks their bodies; they are not DO
                               loops, so not among `loops`) */
  /* private to the walk */
  int cap;
  bool loops_on_heap;
  bool stopped;
};

/* Walk l in program order: pre(s), then s's bodies (the body of a DO,
 * WHILE or BLOCK; an IF's THEN and then ELSE part), then post(s).  Returns false when a pre
 * callback stopped the walk.  A callback may start walks of its own, with
 * another IrVisit; v itself may be walked again once this walk is over. */
bool ir_visit_stmts(IrStmtList *l, IrVisit *v);

/* The innermost loop around the statement being visited, or NULL. */
IrStmt *ir_visit_loop(const IrVisit *v);

/* The outermost loop over iv around the statement being visited, or NULL. */
IrStmt *ir_visit_loop_over(const IrVisit *v, const IrSym *iv);

/* Does s itself (not its body) assign x: `x = ...`, an element of array x
 * (`x(i) = ...`), or a DO over x? */
bool ir_stmt_assigns(const IrStmt *s, const IrSym *x);

/* The first statement of l, nested ones included, that assigns x or one
 * of its elements (ir_stmt_assigns; a loop comes before its body), or
 * NULL: "is x assigned in l?" */
IrStmt *ir_assignment_of(const IrStmtList *l, const IrSym *x);

/* Add to *out the scalars l assigns (`x = ...` and DO indices), in the
 * order of their first assignment. */
void ir_assigned_scalars(const IrStmtList *l, IrSymSet *out);

/* Is statement s in l, nested ones included? */
bool ir_list_contains(const IrStmtList *l, const IrStmt *s);

/* Jumps (ir.h: EXIT and CYCLE, with their targets).  The first EXIT or
 * CYCLE (kind IR_S_EXIT or IR_S_CYCLE; -1: either) inside l, nested ones
 * included, whose target is not a statement of l or inside one: a jump
 * that leaves l (when l is a loop's body: it ends the iteration or the
 * loop, or goes further out).  NULL: none leaves. */
const IrStmt *ir_jump_leaving(const IrStmtList *l, int kind);

/* ... the same for statement s: a jump inside s whose target is neither s
 * nor inside it (the statements after s may then not run). */
const IrStmt *ir_stmt_jump_leaving(const IrStmt *s, int kind);

/* Jump j as the user wrote it, for messages: "EXIT", "CYCLE outer", "GOTO
 * 100" (a label: the front end's name for the loop or block of a GOTO),
 * "RETURN" (IR_RETURN_NAME).  An arena string. */
const char *ir_jump_text(const IrStmt *j);

/* Is s a loop (IR_S_DO or IR_S_WHILE), the target of an unnamed jump? */
bool ir_is_loop(const IrStmt *s);

#endif
