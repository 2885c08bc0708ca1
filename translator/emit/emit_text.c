/* emit_text.c — the last touches on the text of NAME.s2s.cu (emit_text.h).
 *
 * The emitters write each statement on one line, however long, and put a
 * `#line N "user.f90"` before each kernel statement and a restore marker
 * after each kernel body.  Two passes over the finished text then make it
 * what a CUDA engineer wants to read and a debugger wants to map:
 *
 *   emit_wrap_text     breaks lines longer than the margin at a blank
 *                      outside strings and comments, preferring the least
 *                      nested place (after a comma, before an operator);
 *                      continuation lines are indented 4 more.  A #define
 *                      is continued with a backslash; other preprocessor
 *                      lines and comment lines stay as they are.
 *   emit_line_directives  drops each #line the compiler would infer anyway
 *                      (the statement follows the previous one in the
 *                      user's file), turns each restore marker into
 *                      `#line M "NAME.s2s.cu"` (M: the .cu's own next line) so
 *                      launchers and messages about generated code name the
 *                      .cu, or, with directives off, drops them all.
 *
 * Wrapping comes first, so the line numbers the second pass counts are
 * the final ones.
 */
#include "emit_text.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"

/* ---- wrapping ------------------------------------------------------------------ */

static bool is_blank(char c) { return c == ' ' || c == '\t'; }

/* Binary operators a line may be broken before (the continuation then
 * starts with the operator, which says it continues), with how loosely
 * they bind: a break goes before the loosest operator of its level, so
 * that `a * b + c * d` breaks before `+`. */
static size_t operator_at(const char *s, size_t i, size_t n, int *looseness)
{
  static const struct { const char *op; int loose; } ops[] = {
    { "&&", 3 }, { "||", 3 }, { "<=", 2 }, { ">=", 2 }, { "==", 2 }, { "!=", 2 }, { "+", 1 },
    { "-", 1 }, { "*", 0 }, { "/", 0 }, { "%", 0 }, { "<", 2 }, { ">", 2 }, { "?", 4 }, { ":", 4 },
  };
  for (size_t k = 0; k < sizeof ops / sizeof *ops; k++) {
    size_t m = strlen(ops[k].op);
    if (i + m < n && strncmp(s + i, ops[k].op, m) == 0 && s[i + m] == ' ') {
      *looseness = ops[k].loose;
      return m;
    }
  }
  return 0;
}

/* The length of line s without a trailing block comment (the line-number
 * comment after a statement): such a comment may run past the margin; it is
 * never a reason to break the code before it. */
static size_t code_length(const char *s, size_t n)
{
  if (n < 4 || s[n - 1] != '/' || s[n - 2] != '*')
    return n;
  char quote = 0;
  for (size_t i = 0; i + 1 < n; i++) {
    if (quote) {
      if (s[i] == '\\')
        i++;
      else if (s[i] == quote)
        quote = 0;
    } else if (s[i] == '"' || s[i] == '\'') {
      quote = s[i];
    } else if (s[i] == '/' && s[i + 1] == '*') {
      const char *end = strstr(s + i + 2, "*/");
      if (end && (size_t)(end - s) == n - 2) {
        while (i > 0 && s[i - 1] == ' ')
          i--;
        return i;
      }
      if (!end)
        return n;
      i = (size_t)(end - s) + 1;
    }
  }
  return n;
}

/* A place to break line s (n bytes, from byte `from`): the index of a
 * blank that becomes the line end, or 0 when there is none.  Only blanks
 * outside string and character literals and comments count, after a
 * comma or before a binary operator; of those that keep the line within
 * `width`, the least nested (by parentheses, brackets and braces), then a
 * comma before an operator and a loosely binding operator before a tighter
 * one, then the rightmost; when none fits, the first one after. */
static size_t break_point(const char *s, size_t n, size_t from, size_t width)
{
  size_t best = 0, first_over = 0;
  int best_rank = 1 << 30, depth = 0;
  char quote = 0;
  for (size_t i = from; i < n; i++) {
    char c = s[i];
    if (quote) {
      if (c == '\\' && i + 1 < n)
        i++;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    if (c == '/' && i + 1 < n && s[i + 1] == '/')
      break;                                  /* a line comment to the end */
    if (c == '/' && i + 1 < n && s[i + 1] == '*') {
      const char *end = strstr(s + i + 2, "*/");
      if (!end || (size_t)(end - s) >= n)
        break;
      i = (size_t)(end - s) + 1;
      continue;
    }
    if (c == '(' || c == '[' || c == '{')
      depth++;
    else if (c == ')' || c == ']' || c == '}')
      depth--;
    if (c != ' ' || i == from || i + 1 >= n)
      continue;
    bool after_comma = s[i - 1] == ',';
    int loose = 0;
    bool before_op = !after_comma && s[i - 1] != ' ' && operator_at(s, i + 1, n, &loose);
    if (!after_comma && !before_op)
      continue;
    int rank = 8 * depth + (before_op ? 5 - loose : 0);
    if (i <= width) {
      if (rank <= best_rank)
        best = i, best_rank = rank;
    } else if (!first_over) {
      first_over = i;
    }
  }
  return best ? best : first_over;
}

/* Is line s a preprocessor line (not a #define) or a line a block
 * comment continues on? */
static bool keep_line(const char *s, size_t n, bool in_comment)
{
  size_t i = 0;
  while (i < n && is_blank(s[i]))
    i++;
  if (in_comment || (i + 1 < n && s[i] == '/' && (s[i + 1] == '*' || s[i + 1] == '/')))
    return true;
  return i < n && s[i] == '#' && strncmp(s + i, "#define", 7) != 0;
}

/* Does the block comment state change on this line?  Returns whether a
 * block comment is open at its end. */
static bool comment_open_after(const char *s, size_t n, bool open)
{
  char quote = 0;
  for (size_t i = 0; i < n; i++) {
    if (open) {
      if (s[i] == '*' && i + 1 < n && s[i + 1] == '/')
        open = false, i++;
      continue;
    }
    if (quote) {
      if (s[i] == '\\')
        i++;
      else if (s[i] == quote)
        quote = 0;
    } else if (s[i] == '"' || s[i] == '\'') {
      quote = s[i];
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '/') {
      return false;
    } else if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
      open = true, i++;
    }
  }
  return open;
}

static void wrap_line(FILE *out, const char *s, size_t n, size_t width)
{
  size_t indent = 0;
  while (indent < n && is_blank(s[indent]))
    indent++;
  bool define = strncmp(s + indent, "#define", 7) == 0;
  size_t cont = indent + 4;
  size_t from = 0;       /* start of the rest of the line in s */
  size_t lead = 0;       /* blanks written before the rest */
  for (;;) {
    size_t room = width > lead ? width - lead : 0;
    const char *rest = s + from;
    size_t left = n - from;
    if (code_length(rest, left) <= room) {
      fprintf(out, "%*s%.*s\n", (int)lead, "", (int)left, rest);
      return;
    }
    /* leave room for " \" on a #define */
    size_t at = break_point(rest, left, lead ? 0 : indent, define ? room - 2 : room);
    if (!at || left - at < 8) {     /* nothing to break at, or too little left to move */
      fprintf(out, "%*s%.*s\n", (int)lead, "", (int)left, rest);
      return;
    }
    fprintf(out, "%*s%.*s%s\n", (int)lead, "", (int)at, rest, define ? " \\" : "");
    from += at + 1;
    lead = cont;
  }
}

char *emit_wrap_text(const char *text, size_t len, size_t width, size_t *out_len)
{
  char *res = NULL;
  size_t res_len = 0;
  FILE *out = open_memstream(&res, &res_len);
  if (!out)
    S2S_BUG("open_memstream failed");
  bool in_comment = false;
  for (size_t pos = 0; pos < len;) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
    const char *s = text + pos;
    if (code_length(s, n) <= width || keep_line(s, n, in_comment))
      fprintf(out, "%.*s%s", (int)n, s, nl ? "\n" : "");
    else
      wrap_line(out, s, n, width);
    in_comment = comment_open_after(s, n, in_comment);
    pos += n + (nl ? 1 : 0);
  }
  fclose(out);
  *out_len = res_len;
  return res;
}

/* ---- line directives ---------------------------------------------------------------- */

char *emit_c_string_body(const char *s)
{
  size_t n = 0;
  for (const char *p = s; *p; p++)
    n += *p == '"' || *p == '\\' ? 2 : 1;
  char *r = xmalloc(n + 1), *q = r;
  for (const char *p = s; *p; p++) {
    if (*p == '"' || *p == '\\')
      *q++ = '\\';
    *q++ = *p;
  }
  *q = '\0';
  return r;
}

/* `#line N "file"`: N and the file (without quotes) in *line and *file. */
static bool parse_line_directive(const char *s, size_t n, long *line, const char **file,
                                 size_t *file_len)
{
  if (n < 7 || strncmp(s, "#line ", 6) != 0)
    return false;
  char *end;
  *line = strtol(s + 6, &end, 10);
  if (end == s + 6 || end + 2 > s + n || end[0] != ' ' || end[1] != '"')
    return false;
  *file = end + 2;
  *file_len = (size_t)(s + n - *file) - 1;
  return s[n - 1] == '"';
}

char *emit_line_directives(const char *text, size_t len, bool on, const char *cu_name,
                           size_t *out_len)
{
  char *res = NULL;
  size_t res_len = 0;
  FILE *out = open_memstream(&res, &res_len);
  if (!out)
    S2S_BUG("open_memstream failed");
  bool mapped = false;        /* the next line is attributed to the user's file */
  const char *cur_file = NULL;
  size_t cur_len = 0;
  long next_line = 0;         /* its line there */
  long out_line = 0;          /* lines written so far */
  size_t restore_len = strlen(EMIT_LINE_RESTORE);
  for (size_t pos = 0; pos < len;) {
    const char *nl = memchr(text + pos, '\n', len - pos);
    size_t n = nl ? (size_t)(nl - (text + pos)) : len - pos;
    const char *s = text + pos;
    pos += n + (nl ? 1 : 0);
    long line;
    const char *file;
    size_t flen;
    if (parse_line_directive(s, n, &line, &file, &flen)) {
      if (!on || (mapped && line == next_line && flen == cur_len && !memcmp(file, cur_file, flen)))
        continue;
      fprintf(out, "%.*s\n", (int)n, s);
      out_line++;
      mapped = true, cur_file = file, cur_len = flen, next_line = line;
      continue;
    }
    if (n == restore_len && !memcmp(s, EMIT_LINE_RESTORE, n)) {
      if (on && mapped) {
        out_line++;
        fprintf(out, "#line %ld \"%s\"\n", out_line + 1, cu_name);
      }
      mapped = false;
      continue;
    }
    fprintf(out, "%.*s%s", (int)n, s, nl ? "\n" : "");
    out_line++;
    if (mapped)
      next_line++;
  }
  fclose(out);
  *out_len = res_len;
  return res;
}
