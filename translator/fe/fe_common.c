/* fe_common.c — CST reading helpers shared by the Fortran and C front ends.
 *
 * Tree-sitter gives byte offsets and 0-based rows/columns; the rest of the
 * translator speaks 1-based Loc in the parsed text.  These helpers do that
 * conversion once, and give both front ends the same error form.
 */
#include <ctype.h>
#include <stdarg.h>
#include <string.h>
#include "frontend.h"

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
