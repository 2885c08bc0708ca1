/* fe_common.c — CST reading helpers shared by the Fortran and C front ends.
 *
 * Tree-sitter gives byte offsets and 0-based rows/columns; the rest of the
 * translator speaks 1-based Loc in the parsed text.  These helpers do that
 * conversion once, and give both front ends the same error form.
 */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include "directive.h"
#include "frontend.h"
#include "report.h"
#include "diag.h"

FeConfig fe_config;

Loc fe_loc(const FeCtx *cx, TSNode n)
{
  TSPoint p = ts_node_start_point(n);
  Loc loc = { cx->file, (int)p.row + 1, (int)p.column + 1 };
  return loc;
}

int fe_width(const FeCtx *cx, TSNode n)
{
  uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
  uint32_t w = 0;
  while (start + w < end && cx->src->text[start + w] != '\n')
    w++;
  return w ? (int)w : 1;
}

char *fe_text(const FeCtx *cx, TSNode n)
{
  uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
  return ir_strndup(cx->src->text + start, end - start);
}

char *fe_text_lower(const FeCtx *cx, TSNode n)
{
  char *s = fe_text(cx, n);
  for (char *p = s; *p; p++)
    *p = (char)tolower((unsigned char)*p);
  return s;
}

bool fe_is(TSNode n, const char *type)
{
  return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

TSNode fe_child_of_type(TSNode n, const char *type)
{
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; i++) {
    TSNode c = ts_node_named_child(n, i);
    if (fe_is(c, type))
      return c;
  }
  TSNode null = { 0 };
  return null;
}

void fe_warn_update_outside_data(const FeCtx *cx, const Directive *d, TSNode n,
                                 const char *unit, const char *fix)
{
  const char *name = d->nclauses && d->clauses[0].nitems ? d->clauses[0].items[0].name : "?";
  int more = 0;
  for (int c = 0; c < d->nclauses; c++)
    more += d->clauses[c].nitems;
  diag_at(DIAG_WARNING, fe_loc(cx, n), fe_width(cx, n),
          "update of '%s'%s outside any data region in this %s: unless a caller's data region "
          "holds %s, %s no device copy here and the update stops the program; put it inside %s",
          name, more > 1 ? " and others" : "", unit, more > 1 ? "them" : "it",
          more > 1 ? "they have" : "the array has", fix);
}

/* The last enter/exit data of r (of `only` kind, when not DIR_REGION)
 * that names `name`: +1 enter, -1 exit, 0 none. */
static int last_lifetime_of(const IrRoutine *r, const char *name, DirKind only)
{
  for (int i = r->nhost_dirs - 1; i >= 0; i--) {
    const Directive *h = r->host_dirs[i]->dir;
    if ((h->kind != DIR_ENTER_DATA && h->kind != DIR_EXIT_DATA) ||
        (only != DIR_REGION && h->kind != only))
      continue;
    for (int c = 0; c < h->nclauses; c++)
      for (int k = 0; k < h->clauses[c].nitems; k++)
        if (!strcmp(h->clauses[c].items[k].name, name))
          return h->kind == DIR_ENTER_DATA ? 1 : -1;
  }
  return 0;
}

bool fe_update_after_enter_data(const FeCtx *cx, const IrRoutine *r, const Directive *d)
{
  int n = 0;
  for (int c = 0; c < d->nclauses; c++)
    for (int k = 0; k < d->clauses[c].nitems; k++, n++) {
      const char *name = d->clauses[c].items[k].name;
      int here = last_lifetime_of(r, name, DIR_REGION);
      bool elsewhere = false;
      for (int i = 0; here == 0 && !elsewhere && cx->prog && i < cx->prog->nroutines; i++)
        elsewhere = cx->prog->routines[i] != r &&
                    last_lifetime_of(cx->prog->routines[i], name, DIR_ENTER_DATA) == 1;
      if (here != 1 && !elsewhere)
        return false;
    }
  return n > 0;
}

void fe_error(const FeCtx *cx, TSNode n, const char *fmt, ...)
{
  va_list ap;
  va_start(ap, fmt);
  diag_vat(DIAG_ERROR, fe_loc(cx, n), fe_width(cx, n), fmt, ap);
  va_end(ap);
}

void fe_walk(TSNode n, FeWalk (*fn)(TSNode n, void *ctx), void *ctx)
{
  TSTreeCursor cur = ts_tree_cursor_new(n);
  long depth = 0;     /* below n; counted here: ts_tree_cursor_current_depth is not O(1) */
  for (;;) {
    FeWalk w = fn(ts_tree_cursor_current_node(&cur), ctx);
    if (w == FE_WALK_STOP)
      break;
    if (w == FE_WALK_INTO && ts_tree_cursor_goto_first_child(&cur)) {
      depth++;
      continue;
    }
    /* up until a node with a next sibling; done when back at n */
    bool more = false;
    while (depth > 0 && !(more = ts_tree_cursor_goto_next_sibling(&cur))) {
      ts_tree_cursor_goto_parent(&cur);
      depth--;
    }
    if (!more)
      break;
  }
  ts_tree_cursor_delete(&cur);
}

/* The first ERROR or MISSING node, depth first (only subtrees with errors). */
static FeWalk find_syntax_error(TSNode n, void *ctx)
{
  if (ts_node_is_missing(n) || fe_is(n, "ERROR")) {
    *(TSNode *)ctx = n;
    return FE_WALK_STOP;
  }
  return ts_node_has_error(n) ? FE_WALK_INTO : FE_WALK_SKIP;
}

bool fe_syntax_errors(const FeCtx *cx, TSNode root)
{
  TSNode bad = { 0 };
  fe_walk(root, find_syntax_error, &bad);
  if (ts_node_is_null(bad))
    return false;
  if (ts_node_is_missing(bad))
    fe_error(cx, bad, "syntax error: expected '%s' here", ts_node_type(bad));
  else
    fe_error(cx, bad, "syntax error: the parser cannot read this %s",
             ts_node_named_child_count(bad) ? "construct" : "token");
  return true;
}

int fe_first_line(const FeCtx *cx, TSNode n)
{
  Loc loc = fe_loc(cx, n);
  return diag_user_line(loc);
}

int fe_last_line(const FeCtx *cx, TSNode n)
{
  uint32_t end = ts_node_end_byte(n);
  TSPoint p = ts_node_end_point(n);
  /* A node ending right after a newline ends on the previous line. */
  int row = (int)p.row + 1;
  if (end > 0 && cx->src->text[end - 1] == '\n')
    row--;
  Loc loc = { cx->file, row, 1 };
  return diag_user_line(loc);
}

/* ---- host scan ----------------------------------------------------------------
 *
 * Analyses ask where the host code mentions a name (is a work array used
 * outside its region?  is a scalar the region assigns read after it?).  The
 * answer comes from the CST, not from the text: only identifier nodes
 * count, so comments, strings and directive lines never do, and `t` never
 * matches inside `t2`.  A mention assigns the name when the token after it
 * is `=` (an assignment, a DO variable, a C initializer); `+=` and `==`
 * read it. */

static IrHostUse *add_host_use(IrRoutine *r, const char *name, int line)
{
  IrHostUses *u;
  HASH_FIND_STR(r->host_uses, name, u);
  if (!u) {
    u = ir_alloc(sizeof *u);
    u->name = name;
    HASH_ADD_KEYPTR(hh, r->host_uses, u->name, strlen(u->name), u);
  }
  IR_APPEND(u->v, u->n, u->cap, ((IrHostUse){ line, false }));
  return &u->v[u->n - 1];
}

typedef struct HostScan {
  const FeCtx *cx;
  IrRoutine *r;
  IrHostUse *last;       /* the mention just recorded, while the walk is still beside it */
  long last_depth;
} HostScan;

static bool is_c_directive(const char *type)
{
  return !strcmp(type, "preproc_def") || !strcmp(type, "preproc_function_def") ||
         !strcmp(type, "preproc_call") || !strcmp(type, "preproc_include");
}

/* Does the walk go into node n (the child `field` of a node of type
 * `parent`)?  Records n when it is a mention. */
static bool host_node(HostScan *h, TSNode n, const char *parent, const char *field, long depth)
{
  const char *type = ts_node_type(n);
  if (h->last && depth == h->last_depth && !strcmp(type, "="))
    h->last->assigns = true;
  h->last = NULL;
  bool fortran = h->cx->prog->lang == IR_FORTRAN;
  if (!fortran && (is_c_directive(type) ||
                   (field && !strcmp(field, "condition") && !strncmp(parent, "preproc_", 8))))
    return false;                           /* `#define`, `#pragma`, `#if` conditions */
  if (fortran ? !strcmp(type, "do_loop")
              : !strcmp(type, "for_statement") || !strcmp(type, "while_statement") ||
                !strcmp(type, "do_statement"))
    IR_APPEND(h->r->host_loops, h->r->nhost_loops, h->r->host_loops_cap,
              ((IrHostLoop){ fe_first_line(h->cx, n), fe_last_line(h->cx, n) }));
  if (strcmp(type, "identifier"))
    return true;
  if (field && !strcmp(field, "name"))      /* `call f(n=1)`, `#ifdef N`: not the variable */
    return false;
  char *name = fortran ? fe_text_lower(h->cx, n) : fe_text(h->cx, n);
  h->last = add_host_use(h->r, name, fe_first_line(h->cx, n));
  h->last_depth = depth;
  return false;
}

void fe_host_scan(const FeCtx *cx, IrRoutine *r, TSNode n)
{
  HostScan h = { cx, r, NULL, 0 };
  TSTreeCursor cur = ts_tree_cursor_new(n);
  long depth = 0, cap = 16;  /* depth counted here: ts_tree_cursor_current_depth is not O(1) */
  const char **types = xmalloc(sizeof *types * (size_t)cap);  /* of the nodes above */
  types[0] = "";
  for (;;) {
    TSNode c = ts_tree_cursor_current_node(&cur);
    const char *field = ts_tree_cursor_current_field_name(&cur);
    if (host_node(&h, c, types[depth], field, depth) && ts_tree_cursor_goto_first_child(&cur)) {
      if (++depth == cap)
        types = xrealloc(types, sizeof *types * (size_t)(cap *= 2));
      types[depth] = ts_node_type(c);
      continue;
    }
    bool more = false;
    while (depth > 0 && !(more = ts_tree_cursor_goto_next_sibling(&cur))) {
      ts_tree_cursor_goto_parent(&cur);
      depth--;
    }
    if (!more)
      break;
  }
  free(types);
  ts_tree_cursor_delete(&cur);
}

/* ---- directive clauses -------------------------------------------------------------- */

/* The symbol a clause names: the routine's, or in C a struct member
 * (`s->u`) that a region of the routine uses, by its source_name. */
static IrSym *clause_symbol(IrRoutine *r, const char *name)
{
  IrSym *s = ir_lookup(r, name);
  if (s || !strpbrk(name, ".>"))
    return s;
  for (s = r->symbols; s; s = s->hh.next)
    if (s->member_base && strcmp(s->source_name, name) == 0)
      return s;
  return NULL;
}

/* A sub-array bound as IR, or NULL when a name in it is not an integer
 * scalar of r (every name is resolved all the same: the message names
 * each). */
static IrExpr *bound_to_ir(IrRoutine *r, DirExpr *e)
{
  switch (e->kind) {
  case DIR_E_INT: return ir_int(e->u.ival, e->loc);
  case DIR_E_NAME: {
    IrSym *s = e->u.sym = clause_symbol(r, e->u.name);
    return s && !s->rank && ir_type_is_integer(s->type) ? ir_var(s, e->loc) : NULL;
  }
  case DIR_E_NEG: {
    IrExpr *a = bound_to_ir(r, e->u.operand);
    return a ? ir_binary(IR_OP_SUB, ir_int(0, e->loc), a, e->loc) : NULL;
  }
  case DIR_E_BINARY: {
    IrExpr *a = bound_to_ir(r, e->u.bin.lhs), *b = bound_to_ir(r, e->u.bin.rhs);
    IrOp op = e->u.bin.op == '+' ? IR_OP_ADD : e->u.bin.op == '-' ? IR_OP_SUB
            : e->u.bin.op == '*' ? IR_OP_MUL : IR_OP_DIV;
    return a && b ? ir_binary(op, a, b, e->loc) : NULL;
  }
  }
  return NULL;
}

void fe_resolve_directive(IrRoutine *r, Directive *d)
{
  d->scope = r;
  for (int c = 0; c < d->nclauses; c++)
    for (int i = 0; i < d->clauses[c].nitems; i++) {
      DirItem *it = &d->clauses[c].items[i];
      it->sym = clause_symbol(r, it->name);
      for (int k = 0; k < it->nsections; k++) {
        DirSection *s = &it->sections[k];
        s->lo_ir = s->lo ? bound_to_ir(r, s->lo) : NULL;
        s->hi_ir = s->hi ? bound_to_ir(r, s->hi) : NULL;
        s->len_ir = s->len ? bound_to_ir(r, s->len) : NULL;
      }
    }
}

void fe_directive_read(FeCtx *cx, Directive *d)
{
  IR_PUSH(cx->unresolved, cx->nunresolved, d);
  if (d->loop)
    IR_PUSH(cx->unresolved, cx->nunresolved, d->loop);
}

/* The clauses of an `!$acc` directive whose fate is known as soon as it is
 * read (ignored, or superseded by what the analysis does anyway): one
 * report line each, so that no clause the user wrote goes unmentioned.
 * The others are reported by the passes that decide them. */
static void report_fixed_acc_clauses(const IrRoutine *r, const Directive *d)
{
  if (d->kind == DIR_WAIT && d->origin != DIR_FROM_STENCIL)
    report_at(REPORT_INFO, r->name, d->loc, "'%s%s' waits for every asynchronous update host "
              "of this host thread%s; kernels and other copies run in program order",
              d->spelled, d->queues ? d->queues : "",
              d->queues ? ", of any queue (a host thread's queues are one queue here: a "
                          "superset of the queues named)" : "");
  for (int a = 0; a < d->nacc; a++) {
    const DirAccClause *c = &d->acc[a];
    if (c->fate == ACC_IGNORED || c->fate == ACC_SUPERSEDED)
      report_at(REPORT_NOTE, r->name, c->loc, "%s on '%s' %s: %s", c->text, d->spelled,
                 c->fate == ACC_IGNORED ? "ignored" : "superseded", c->why);
    else if (c->fate == ACC_NOT_NEEDED)
      report_at(REPORT_NOTE, r->name, c->loc, "%s on '%s' not needed: %s", c->text, d->spelled,
                c->why);
    else if (c->fate == ACC_HONOURED)
      report_at(REPORT_INFO, r->name, c->loc, "%s on '%s' honoured: %s", c->text, d->spelled,
                c->why);
  }
}

void fe_resolve_directives(FeCtx *cx, IrRoutine *r)
{
  for (int i = 0; i < cx->nunresolved; i++)
    report_fixed_acc_clauses(r, cx->unresolved[i]);
  for (int i = 0; i < cx->nunresolved; i++)
    fe_resolve_directive(r, cx->unresolved[i]);
  cx->nunresolved = 0;
  cx->unresolved = NULL;
}
