/* directive.c — reading and parsing !$stencil / #pragma stencil directives.
 *
 * Two layers:
 *   - dir_read finds a directive in a registered source file, joins its
 *     continuation lines (Fortran `&` + next `!$stencil` line, C
 *     backslash-newline) into one text, and remembers for every byte of that
 *     text the line and column it came from;
 *   - dir_parse is a recursive-descent parser over that text, one function
 *     per rule of the grammar in directive.h, each quoting the rule it reads.
 *
 * The parser stops at the first error in a directive (one precise message
 * beats a cascade) and reports it through diag with the caret on the
 * offending token, mapped back through the byte maps so that an error on a
 * continuation line points at that line.  Every message says what was
 * expected and, where it helps, what is allowed.
 */
#include "directive.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DIRECTIVES "region, end region, data, end data, do, update, enter data, exit data, wait, " \
                   "host_data, end host_data"
#define VECTOR_HINT "'vector' needs a positive integer length, as in vector(128)"
#define MAX_VECTOR 1024 /* the most threads a CUDA block can have */

/* ---- characters ------------------------------------------------------------ */

static bool is_blank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
static bool is_alnum(char c) { return is_alpha(c) || is_digit(c); }
static char lower(char c) { return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c; }

/* ASCII-only, locale-independent case-insensitive prefix match. */
static bool match_ci(const char *s, size_t len, const char *word) {
  size_t n = strlen(word);
  if (len < n) return false;
  for (size_t i = 0; i < n; i++)
    if (lower(s[i]) != word[i]) return false;
  return true;
}

static int skip_blanks(const char *s, int len, int i) {
  while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
  return i;
}

/* ---- tokens ---------------------------------------------------------------- */

typedef enum TokKind {
  T_END, T_NAME, T_INT, T_LPAREN, T_RPAREN, T_LBRACK, T_RBRACK,
  T_COMMA, T_COLON, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_BAD
} TokKind;

typedef struct Token {
  TokKind kind;
  int start, end;  /* byte offsets in the text; start == end for T_END */
  long ival;       /* T_INT */
  bool too_large;  /* T_INT that does not fit in a long */
} Token;

typedef struct Parser {
  const char *text;
  int len;
  Loc loc;                    /* of text[0] */
  const int *linemap, *colmap;
  DirLang lang;
  int pos;                    /* the lexer's cursor */
  Token tok;                  /* the current token */
  int prev_end;               /* end of the token before `tok` */
  TokKind prev_kind;
  Directive *dir;             /* being built; freed by the caller on error */
  const char *item;           /* the list item being parsed, for messages */
  int nesting;                /* parentheses and signs open in a bound (DIR_MAX_EXPR_DEPTH) */
  char found[48];             /* buffer for found() */
  bool acc;                   /* an `!$acc` / `#pragma acc` directive */
  DirDialect dialect;         /* for acc: which models are accepted */
} Parser;

/* Skip blanks and comments.  True when nothing but comments remain: a
 * Fortran `!` comment (the directive language has no strings, so the first
 * `!` starts one) or a C `//` comment runs to the end of the text. */
static bool skip_space(Parser *p) {
  for (;;) {
    while (p->pos < p->len && is_blank(p->text[p->pos])) p->pos++;
    const char *s = p->text + p->pos;
    int left = p->len - p->pos;
    if (left == 0 || (p->lang == DIR_FORTRAN && s[0] == '!')) return true;
    if (p->lang == DIR_FORTRAN || left < 2 || s[0] != '/') return false;
    if (s[1] == '/') return true;
    if (s[1] != '*') return false;
    const char *close = strstr(s + 2, "*/"); /* text is NUL-terminated */
    if (!close) return false; /* next() makes the rest one bad token */
    p->pos = (int)(close - p->text) + 2;
  }
}

static TokKind punct_kind(char c) {
  switch (c) {
  case '(': return T_LPAREN;
  case ')': return T_RPAREN;
  case '[': return T_LBRACK;
  case ']': return T_RBRACK;
  case ',': return T_COMMA;
  case ':': return T_COLON;
  case '+': return T_PLUS;
  case '-': return T_MINUS;
  case '*': return T_STAR;
  case '/': return T_SLASH;
  default: return T_BAD;
  }
}

static void lex_int(Parser *p, Token *t) {
  t->kind = T_INT;
  while (p->pos < p->len && is_digit(p->text[p->pos])) {
    int d = p->text[p->pos++] - '0';
    if (t->ival > (LONG_MAX - d) / 10) t->too_large = true;
    else t->ival = t->ival * 10 + d;
  }
}

static void next(Parser *p) {
  p->prev_end = p->tok.end;
  p->prev_kind = p->tok.kind;
  Token t = {.kind = T_END};
  if (skip_space(p)) {
    t.start = t.end = p->pos;
    p->tok = t;
    return;
  }
  t.start = p->pos;
  char c = p->text[p->pos];
  if (is_alpha(c)) {
    t.kind = T_NAME;
    while (p->pos < p->len && is_alnum(p->text[p->pos])) p->pos++;
    /* C: a struct member `s->u` or `s.u` is one name (the front end's
     * symbol for the member has it as its source_name) */
    while (p->lang == DIR_C) {
      int at = p->pos, arrow = p->text[at] == '-' && p->text[at + 1] == '>' ? 2 : 0;
      int dot = !arrow && p->text[at] == '.' ? 1 : 0;
      if ((!arrow && !dot) || at + arrow + dot >= p->len || !is_alpha(p->text[at + arrow + dot]))
        break;
      p->pos = at + arrow + dot;
      while (p->pos < p->len && is_alnum(p->text[p->pos])) p->pos++;
    }
  } else if (is_digit(c)) {
    lex_int(p, &t);
  } else if (c == '/' && p->lang == DIR_C && p->text[p->pos + 1] == '*') {
    t.kind = T_BAD; /* an unterminated comment: skip_space found no end */
    p->pos = p->len;
  } else {
    t.kind = punct_kind(c);
    p->pos++;
    /* a stray UTF-8 character is reported whole, not byte by byte */
    while (t.kind == T_BAD && p->pos < p->len && ((unsigned char)p->text[p->pos] & 0xC0) == 0x80)
      p->pos++;
  }
  t.end = p->pos;
  p->tok = t;
}

static bool tok_is(const Parser *p, const Token *t, const char *word) {
  size_t n = (size_t)(t->end - t->start);
  return t->kind == T_NAME && n == strlen(word) && match_ci(p->text + t->start, n, word);
}

/* The token's name as the IR keeps it: Fortran is case-insensitive, so its
 * names are lower-cased once here; C names stay as written. */
static char *name_of(const Parser *p, const Token *t) {
  char *s = xstrndup(p->text + t->start, (size_t)(t->end - t->start));
  if (p->lang == DIR_FORTRAN)
    for (char *c = s; *c; c++) *c = lower(*c);
  return s;
}

/* "'tok'" or "end of directive", for messages that say what was found. */
static const char *found(Parser *p) {
  const Token *t = &p->tok;
  int n = t->end - t->start;
  if (t->kind == T_END) return "end of directive";
  if (n > 32) snprintf(p->found, sizeof p->found, "'%.29s...'", p->text + t->start);
  else snprintf(p->found, sizeof p->found, "'%.*s'", n, p->text + t->start);
  return p->found;
}

/* ---- locations and messages ------------------------------------------------ */

static Loc loc_at(const Parser *p, int byte) {
  Loc l = p->loc;
  if (p->len == 0) return l;
  if (byte >= p->len) { /* just after the last byte */
    l = loc_at(p, p->len - 1);
    l.col++;
    return l;
  }
  if (!p->colmap) {
    l.col += byte;
    return l;
  }
  l.col = p->colmap[byte];
  if (p->linemap) l.line = p->linemap[byte];
  return l;
}

/* Columns covered by bytes [start, end) on the line where `start` is; a
 * token split by an `&` continuation is underlined on its first line only. */
static int width_of(const Parser *p, int start, int end) {
  Loc first = loc_at(p, start);
  int width = 1;
  for (int i = start + 1; i < end && i < p->len; i++) {
    Loc l = loc_at(p, i);
    if (l.line != first.line) break;
    width = l.col - first.col + 1;
  }
  return width;
}

/* Where a missing token should have been: just after the previous one. */
static Loc end_loc(const Parser *p) {
  if (p->prev_end == 0) return loc_at(p, p->tok.start);
  Loc l = loc_at(p, p->prev_end - 1);
  l.col++;
  return l;
}

static bool error_span(Parser *p, int start, int end, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool error_span(Parser *p, int start, int end, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vat(DIAG_ERROR, loc_at(p, start), width_of(p, start, end), fmt, ap);
  va_end(ap);
  return false;
}

static void note_at(Parser *p, const Token *t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void note_at(Parser *p, const Token *t, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  diag_vat(DIAG_NOTE, loc_at(p, t->start), width_of(p, t->start, t->end), fmt, ap);
  va_end(ap);
}

/* A character that is no token at all gets its own message wherever it is:
 * any context-specific "expected X" would only hide what is wrong. */
static bool report_stray(Parser *p) {
  const Token *t = &p->tok;
  int n = t->end - t->start;
  const char *s = p->text + t->start;
  if (p->lang == DIR_C && n > 1 && s[0] == '/' && s[1] == '*')
    return error_span(p, t->start, t->start + 2, "unterminated comment in directive");
  if (p->lang == DIR_FORTRAN && s[0] == '&' && p->prev_end == 0)
    return error_span(p, t->start, t->end, "'&' after '!$stencil' starts a continuation line, "
                                           "but no directive is being continued");
  if (p->lang == DIR_FORTRAN && s[0] == '&')
    return error_span(p, t->start, t->end, "'&' continues a directive only at the end of a line");
  if (p->item)
    return error_span(p, t->start, t->end,
                      "stray '%.*s' in a bound of '%s'; bounds use names, integers, "
                      "+ - * / and parentheses", n, s, p->item);
  return error_span(p, t->start, t->end, "stray '%.*s' in directive", n, s);
}

/* Report at the current token, or just after the previous token when the
 * directive ended too early.  Returns false so callers can `return error_here(...)`. */
static bool error_here(Parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool error_here(Parser *p, const char *fmt, ...) {
  if (p->tok.kind == T_BAD) return report_stray(p);
  va_list ap;
  va_start(ap, fmt);
  if (p->tok.kind == T_END) diag_vat(DIAG_ERROR, end_loc(p), 1, fmt, ap);
  else
    diag_vat(DIAG_ERROR, loc_at(p, p->tok.start), width_of(p, p->tok.start, p->tok.end), fmt, ap);
  va_end(ap);
  return false;
}

/* A list that is not closed: at the end of the directive the closer is
 * missing (and the note shows which opener); elsewhere a separator is. */
static bool error_unclosed(Parser *p, const Token *open, const char *what) {
  char opener = p->text[open->start];
  char closer = opener == '(' ? ')' : ']';
  if (opener == '(' && p->tok.kind != T_END && p->tok.kind != T_BAD)
    return error_here(p, "expected ',' or '%c' in %s, found %s", closer, what, found(p));
  if (p->tok.kind == T_END) error_here(p, "expected '%c' to close %s", closer, what);
  else error_here(p, "expected '%c' to close %s, found %s", closer, what, found(p));
  if (p->tok.kind != T_BAD) note_at(p, open, "to match this '%c'", opener);
  return false;
}

/* ---- building the Directive -------------------------------------------------- */

/* The clause's text as written, from `start` to the end of the last token. */
static char *clause_text(const Parser *p, int start) {
  /* collapse the blanks and continuation breaks of a joined text */
  size_t n = (size_t)(p->prev_end - start);
  char *t = xmalloc(n + 1);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    char c = p->text[start + i];
    if (is_blank(c)) {
      if (k && t[k - 1] != ' ' && t[k - 1] != '(' && t[k - 1] != ',') t[k++] = ' ';
      continue;
    }
    if ((c == ')' || c == ',') && k && t[k - 1] == ' ') k--;
    t[k++] = c;
  }
  t[k] = '\0';
  return t;
}

static DirClause *add_clause(Directive *d, DirClauseKind kind, Loc loc) {
  d->clauses = xrealloc(d->clauses, sizeof *d->clauses * (size_t)(d->nclauses + 1));
  DirClause *c = &d->clauses[d->nclauses++];
  *c = (DirClause){.kind = kind, .loc = loc};
  return c;
}

static DirItem *add_item(DirClause *c) {
  c->items = xrealloc(c->items, sizeof *c->items * (size_t)(c->nitems + 1));
  DirItem *it = &c->items[c->nitems++];
  memset(it, 0, sizeof *it);
  return it;
}

static DirExpr *new_expr(DirExprKind kind, Loc loc) {
  DirExpr *e = xcalloc(1, sizeof *e);
  e->kind = kind;
  e->loc = loc;
  e->depth = 1;
  return e;
}

static void free_expr(DirExpr *e) {
  if (!e) return;
  switch (e->kind) {
  case DIR_E_NAME: free(e->u.name); break;
  case DIR_E_INT: break;
  case DIR_E_BINARY: free_expr(e->u.bin.lhs); free_expr(e->u.bin.rhs); break;
  case DIR_E_NEG: free_expr(e->u.operand); break;
  }
  free(e);
}

/* A Fortran index `a(k)` shares one expression as lo and hi. */
static void free_item(DirItem *it) {
  free(it->name);
  for (int s = 0; s < it->nsections; s++) {
    DirSection *sec = &it->sections[s];
    if (sec->hi != sec->lo) free_expr(sec->hi);
    free_expr(sec->lo);
    free_expr(sec->len);
  }
}

void dir_free(Directive *d) {
  if (!d) return;
  for (int c = 0; c < d->nclauses; c++) {
    for (int i = 0; i < d->clauses[c].nitems; i++) free_item(&d->clauses[c].items[i]);
    free(d->clauses[c].items);
    free(d->clauses[c].text);
  }
  free(d->clauses);
  for (int a = 0; a < d->nacc; a++) free(d->acc[a].text);
  free(d->acc);
  free(d->queues);
  dir_free(d->loop);
  free(d);
}

/* ---- bound expressions ------------------------------------------------------- */

static DirExpr *parse_expr(Parser *p);

static bool is_operator(TokKind k) {
  return k == T_PLUS || k == T_MINUS || k == T_STAR || k == T_SLASH;
}

static DirExpr *primary_error(Parser *p) {
  const char *where = p->item ? p->item : "";
  if (is_operator(p->prev_kind))
    error_here(p, "expected an operand after '%c', found %s", p->text[p->prev_end - 1], found(p));
  else
    error_here(p, "expected a bound expression in '%s', found %s", where, found(p));
  return NULL;
}

static DirExpr *too_deep(Parser *p) {
  error_here(p, "bound expression in '%s' nested more than %d levels deep; simplify it",
             p->item ? p->item : "", DIR_MAX_EXPR_DEPTH);
  return NULL;
}

/* paren := '(' expr ')' */
static DirExpr *parse_paren(Parser *p) {
  Token open = p->tok;
  if (p->nesting == DIR_MAX_EXPR_DEPTH) return too_deep(p);
  next(p);
  p->nesting++;
  DirExpr *e = parse_expr(p);
  p->nesting--;
  if (!e) return NULL;
  if (p->tok.kind == T_RPAREN) {
    next(p);
    return e;
  }
  free_expr(e);
  if (p->tok.kind == T_BAD) {
    report_stray(p);
    return NULL;
  }
  error_here(p, "expected ')' in a bound of '%s', found %s", p->item ? p->item : "", found(p));
  note_at(p, &open, "to match this '('");
  return NULL;
}

/* primary := int | name | paren */
static DirExpr *parse_primary(Parser *p) {
  Token t = p->tok;
  Loc loc = loc_at(p, t.start);
  if (t.kind == T_LPAREN) return parse_paren(p);
  if (t.kind == T_INT) {
    if (t.too_large) {
      error_here(p, "integer %s is too large", found(p));
      return NULL;
    }
    DirExpr *e = new_expr(DIR_E_INT, loc);
    e->u.ival = t.ival;
    next(p);
    return e;
  }
  if (t.kind != T_NAME) return primary_error(p);
  next(p);
  if (p->tok.kind == T_LPAREN || p->tok.kind == T_LBRACK) {
    error_here(p, "bounds cannot call functions or index arrays ('%.*s' is followed by '%c')",
               t.end - t.start, p->text + t.start, p->text[p->tok.start]);
    return NULL;
  }
  DirExpr *e = new_expr(DIR_E_NAME, loc);
  e->u.name = name_of(p, &t);
  return e;
}

/* unary := '-' unary | '+' unary | primary */
static DirExpr *parse_unary(Parser *p) {
  if (p->tok.kind != T_PLUS && p->tok.kind != T_MINUS) return parse_primary(p);
  if (p->nesting == DIR_MAX_EXPR_DEPTH) return too_deep(p);
  bool minus = p->tok.kind == T_MINUS;
  Loc loc = loc_at(p, p->tok.start);
  next(p);
  p->nesting++;
  DirExpr *operand = parse_unary(p);
  p->nesting--;
  if (!operand || !minus) return operand;
  DirExpr *e = new_expr(DIR_E_NEG, loc);
  e->u.operand = operand;
  e->depth = operand->depth + 1;
  return e;
}

/* Left-associative binary levels: term := unary (('*'|'/') unary)*
 *                                  expr := term (('+'|'-') term)* */
static DirExpr *parse_binary(Parser *p, int level) {
  TokKind op1 = level ? T_PLUS : T_STAR, op2 = level ? T_MINUS : T_SLASH;
  DirExpr *lhs = level ? parse_binary(p, 0) : parse_unary(p);
  while (lhs && (p->tok.kind == op1 || p->tok.kind == op2)) {
    char op = p->text[p->tok.start];
    next(p);
    DirExpr *rhs = level ? parse_binary(p, 0) : parse_unary(p);
    if (!rhs) {
      free_expr(lhs);
      return NULL;
    }
    DirExpr *e = new_expr(DIR_E_BINARY, lhs->loc);
    e->u.bin.op = op;
    e->u.bin.lhs = lhs;
    e->u.bin.rhs = rhs;
    e->depth = 1 + (lhs->depth > rhs->depth ? lhs->depth : rhs->depth);
    lhs = e;
    if (e->depth > DIR_MAX_EXPR_DEPTH) {
      free_expr(e);
      return too_deep(p);
    }
  }
  return lhs;
}

static DirExpr *parse_expr(Parser *p) { return parse_binary(p, 1); }

/* ---- sub-arrays ---------------------------------------------------------------- */

static DirSection *add_section(Parser *p, DirItem *it) {
  if (it->nsections == DIR_MAX_RANK) {
    error_here(p, "sub-array '%s' has more than %d dimensions", it->name, DIR_MAX_RANK);
    return NULL;
  }
  return &it->sections[it->nsections++];
}

static bool stride_error(Parser *p, const DirItem *it) {
  return error_here(p, "unexpected ':' in dimension %d of '%s'; a section is lo:hi, lo:, :hi "
                       "or :, without a stride", it->nsections, it->name);
}

static bool ends_section(TokKind k) { return k == T_COMMA || k == T_RPAREN; }

/* section := expr | [expr] ':' [expr]      (Fortran) */
static bool parse_fortran_section(Parser *p, DirItem *it, DirSection *s) {
  if (ends_section(p->tok.kind) || p->tok.kind == T_END)
    return error_here(p, "expected a section (lo:hi, lo:, :hi, : or an index) in dimension %d "
                         "of '%s', found %s", it->nsections, it->name, found(p));
  if (p->tok.kind != T_COLON) {
    if (!(s->lo = parse_expr(p))) return false;
    if (p->tok.kind != T_COLON) {
      s->hi = s->lo;
      s->is_index = true;
      return true;
    }
  }
  next(p); /* the ':' */
  if (ends_section(p->tok.kind)) return true;
  if (p->tok.kind == T_COLON) return stride_error(p, it);
  if (!(s->hi = parse_expr(p))) return false;
  return p->tok.kind == T_COLON ? stride_error(p, it) : true;
}

/* item := name '(' section (',' section)* ')' */
static bool parse_fortran_sections(Parser *p, DirItem *it) {
  Token open = p->tok;
  next(p);
  if (p->tok.kind == T_RPAREN)
    return error_here(p, "empty subscript list in '%s()'; write '%s' for the whole array",
                      it->name, it->name);
  char what[96];
  snprintf(what, sizeof what, "the subscripts of '%s'", it->name);
  for (;;) {
    DirSection *s = add_section(p, it);
    if (!s || !parse_fortran_section(p, it, s)) return false;
    if (p->tok.kind == T_COMMA) {
      next(p);
      continue;
    }
    if (p->tok.kind == T_RPAREN) {
      next(p);
      return true;
    }
    return error_unclosed(p, &open, what);
  }
}

/* The C start: an omitted start means 0, as in OpenACC's a[:n]. */
static bool parse_c_start(Parser *p, DirSection *s) {
  if (p->tok.kind == T_COLON) {
    s->lo = new_expr(DIR_E_INT, loc_at(p, p->tok.start));
    return true;
  }
  return (s->lo = parse_expr(p)) != NULL;
}

static bool bare_index_error(Parser *p, const DirItem *it, const DirSection *s, int start) {
  char e[64];
  dir_expr_print(s->lo, e, sizeof e);
  return error_span(p, start, p->prev_end,
                    "bare index in '%s[%s]'; a C sub-array needs the start:length form, "
                    "as in %s[%s:1]", it->name, e, it->name, e);
}

static bool missing_length_error(Parser *p, const DirItem *it, const DirSection *s, bool no_start) {
  char e[64] = "";
  if (!no_start) dir_expr_print(s->lo, e, sizeof e);
  return error_here(p, "missing length in '%s[%s:]'; a C sub-array is [start:length]", it->name, e);
}

/* '[' start ':' length ']' */
static bool parse_c_section(Parser *p, DirItem *it) {
  Token open = p->tok;
  DirSection *s = add_section(p, it); /* checked at the '[' that is one too many */
  if (!s) return false;
  next(p);
  if (p->tok.kind == T_RBRACK)
    return error_here(p, "empty brackets after '%s'; write %s[start:length]", it->name, it->name);
  int start = p->tok.start;
  if (!parse_c_start(p, s)) return false;
  if (p->tok.kind == T_RBRACK) return bare_index_error(p, it, s, start);
  if (p->tok.kind != T_COLON)
    return error_here(p, "expected ':' after the start in '%s[...]', found %s", it->name, found(p));
  next(p);
  if (p->tok.kind == T_RBRACK) return missing_length_error(p, it, s, p->text[start] == ':');
  if (!(s->len = parse_expr(p))) return false;
  if (p->tok.kind == T_RBRACK) {
    next(p);
    return true;
  }
  if (p->tok.kind == T_COLON)
    return error_here(p, "unexpected ':' after the length in '%s[...]'; a C sub-array is "
                         "[start:length], without a stride", it->name);
  char what[96];
  snprintf(what, sizeof what, "dimension %d of '%s'", it->nsections, it->name);
  return error_unclosed(p, &open, what);
}

/* item := name ('[' start ':' length ']')+ */
static bool parse_c_sections(Parser *p, DirItem *it) {
  while (p->tok.kind == T_LBRACK)
    if (!parse_c_section(p, it)) return false;
  return true;
}

/* ---- clauses ------------------------------------------------------------------- */

enum { ON_REGION = 1, ON_DATA = 2, ON_DO = 4, ON_UPDATE = 8, ON_ENTER = 16, ON_EXIT = 32,
       ON_WAIT = 64, ON_HOST_DATA = 128 };
typedef enum ClauseShape { CL_LIST, CL_NAMES, CL_FLAG, CL_VECTOR } ClauseShape;
typedef enum DoFlag {
  F_PARALLEL, F_SEQ, F_KERNEL, F_INDEPENDENT, F_FINALIZE, F_ASYNC, F_IF_PRESENT
} DoFlag;

typedef struct ClauseWord {
  const char *word;
  ClauseShape shape;
  DirClauseKind kind; /* CL_LIST, CL_NAMES */
  DoFlag flag;        /* CL_FLAG */
  unsigned on;        /* the constructs that accept it */
} ClauseWord;

static const ClauseWord clause_words[] = {
    {"copyin", CL_LIST, DIR_COPYIN, 0, ON_REGION | ON_DATA | ON_ENTER},
    {"copyout", CL_LIST, DIR_COPYOUT, 0, ON_REGION | ON_DATA | ON_EXIT},
    {"copy", CL_LIST, DIR_COPY, 0, ON_REGION | ON_DATA},
    {"create", CL_LIST, DIR_CREATE, 0, ON_REGION | ON_DATA | ON_ENTER},
    {"delete", CL_LIST, DIR_DELETE, 0, ON_EXIT},
    {"finalize", CL_FLAG, 0, F_FINALIZE, ON_EXIT},
    {"local", CL_LIST, DIR_CREATE, 0, ON_REGION | ON_DATA},
    {"present", CL_LIST, DIR_PRESENT, 0, ON_REGION | ON_DATA},
    {"host", CL_LIST, DIR_UPDATE_HOST, 0, ON_UPDATE},
    {"device", CL_LIST, DIR_UPDATE_DEVICE, 0, ON_UPDATE},
    {"parallel", CL_FLAG, 0, F_PARALLEL, ON_DO},
    {"seq", CL_FLAG, 0, F_SEQ, ON_DO},
    {"kernel", CL_FLAG, 0, F_KERNEL, ON_DO},
    {"independent", CL_FLAG, 0, F_INDEPENDENT, ON_DO},
    {"async", CL_FLAG, 0, F_ASYNC, ON_UPDATE},
    {"vector", CL_VECTOR, 0, 0, ON_DO},
    {"private", CL_NAMES, DIR_PRIVATE, 0, ON_DO},
    {"use_device", CL_NAMES, DIR_USE_DEVICE, 0, ON_HOST_DATA},
    {"if_present", CL_FLAG, 0, F_IF_PRESENT, ON_HOST_DATA},
};

static const ClauseWord *find_clause(const Parser *p) {
  for (size_t i = 0; i < sizeof clause_words / sizeof clause_words[0]; i++)
    if (tok_is(p, &p->tok, clause_words[i].word)) return &clause_words[i];
  return NULL;
}

static unsigned construct_bit(DirKind k) {
  switch (k) {
  case DIR_REGION: return ON_REGION;
  case DIR_DATA: return ON_DATA;
  case DIR_DO: return ON_DO;
  case DIR_UPDATE: return ON_UPDATE;
  case DIR_ENTER_DATA: return ON_ENTER;
  case DIR_EXIT_DATA: return ON_EXIT;
  case DIR_WAIT: return ON_WAIT;
  case DIR_HOST_DATA: return ON_HOST_DATA;
  default: return 0;
  }
}

static const char *clauses_allowed(DirKind k) {
  switch (k) {
  case DIR_DO: return "parallel, seq, kernel, independent, vector, private";
  case DIR_UPDATE: return "host, device, async";
  case DIR_ENTER_DATA: return "copyin, create";
  case DIR_EXIT_DATA: return "copyout, delete, finalize";
  case DIR_HOST_DATA: return "use_device, if_present";
  default: return "copyin, copyout, copy, create, local, present";
  }
}

static const char *sentinel(const Parser *p) {
  if (p->acc) return p->lang == DIR_FORTRAN ? "!$acc" : "#pragma acc";
  return p->lang == DIR_FORTRAN ? "!$stencil" : "#pragma stencil";
}

const char *dir_sentinel(const Directive *d, DirLang lang) {
  if (d && d->origin != DIR_FROM_STENCIL) return lang == DIR_FORTRAN ? "!$acc" : "#pragma acc";
  return lang == DIR_FORTRAN ? "!$stencil" : "#pragma stencil";
}

const char *dir_spelling(const Directive *d, DirLang lang) {
  if (d->spelled) return d->spelled;
  static const char *const fortran[] = {
      [DIR_REGION] = "!$stencil region", [DIR_END_REGION] = "!$stencil end region",
      [DIR_DATA] = "!$stencil data", [DIR_END_DATA] = "!$stencil end data",
      [DIR_DO] = "!$stencil do", [DIR_UPDATE] = "!$stencil update",
      [DIR_ENTER_DATA] = "!$stencil enter data", [DIR_EXIT_DATA] = "!$stencil exit data",
      [DIR_WAIT] = "!$stencil wait", [DIR_HOST_DATA] = "!$stencil host_data",
      [DIR_END_HOST_DATA] = "!$stencil end host_data"};
  static const char *const c[] = {
      [DIR_REGION] = "#pragma stencil region", [DIR_END_REGION] = "#pragma stencil end region",
      [DIR_DATA] = "#pragma stencil data", [DIR_END_DATA] = "#pragma stencil end data",
      [DIR_DO] = "#pragma stencil do", [DIR_UPDATE] = "#pragma stencil update",
      [DIR_ENTER_DATA] = "#pragma stencil enter data",
      [DIR_EXIT_DATA] = "#pragma stencil exit data", [DIR_WAIT] = "#pragma stencil wait",
      [DIR_HOST_DATA] = "#pragma stencil host_data",
      [DIR_END_HOST_DATA] = "#pragma stencil end host_data"};
  return lang == DIR_FORTRAN ? fortran[d->kind] : c[d->kind];
}

static bool *flag_field(Directive *d, DoFlag f) {
  switch (f) {
  case F_PARALLEL: return &d->parallel;
  case F_SEQ: return &d->seq;
  case F_KERNEL: return &d->kernel;
  case F_INDEPENDENT: return &d->independent;
  case F_FINALIZE: return &d->finalize;
  case F_ASYNC: return &d->async;
  case F_IF_PRESENT: return &d->if_present;
  }
  S2S_BUG("bad DoFlag %d", (int)f);
}

/* `seq` says "run this loop in order"; parallel, vector and independent each
 * say the opposite.  Returns the clause already given that `word` contradicts. */
static const char *contradicted_by(const Directive *d, const char *word) {
  if (strcmp(word, "seq") == 0) {
    if (d->parallel) return "parallel";
    if (d->vector) return "vector";
    if (d->independent) return "independent";
    return NULL;
  }
  bool against_seq = strcmp(word, "parallel") == 0 || strcmp(word, "vector") == 0 ||
                     strcmp(word, "independent") == 0;
  return against_seq && d->seq ? "seq" : NULL;
}

/* Checks common to do-clauses: given once, not against an earlier one. */
static bool check_do_clause(Parser *p, const char *word, bool already) {
  if (already) return error_here(p, "duplicate clause '%s'", word);
  const char *other = contradicted_by(p->dir, word);
  if (other) return error_here(p, "'%s' and '%s' contradict each other", other, word);
  return true;
}

/* do-clause := 'parallel' | 'seq' | 'kernel' | 'independent' */
static bool parse_flag(Parser *p, const ClauseWord *w) {
  bool *field = flag_field(p->dir, w->flag);
  if (!check_do_clause(p, w->word, *field)) return false;
  *field = true;
  next(p);
  if (p->tok.kind == T_LPAREN) return error_here(p, "'%s' takes no argument", w->word);
  return true;
}

/* The hint replaces any "expected ..." or stray-character message inside
 * vector(...): what is wanted there is always the same. */
static bool vector_hint(Parser *p) {
  if (p->tok.kind == T_END) return error_here(p, VECTOR_HINT);
  return error_span(p, p->tok.start, p->tok.end, VECTOR_HINT);
}

static bool vector_length(Parser *p) {
  const Token *n = &p->tok;
  if (n->kind != T_INT) return vector_hint(p);
  if (n->too_large || n->ival > MAX_VECTOR)
    return error_here(p, "'vector' length %.*s exceeds %d, the most threads a CUDA block can have",
                      n->end - n->start, p->text + n->start, MAX_VECTOR);
  if (n->ival == 0)
    return error_here(p, "'vector' length must be positive, not 0; "
                         "use a multiple of 32 such as 128");
  p->dir->vector = (int)n->ival;
  next(p);
  return true;
}

/* do-clause := 'vector' '(' int ')' */
static bool parse_vector(Parser *p) {
  if (!check_do_clause(p, "vector", p->dir->vector != 0)) return false;
  next(p);
  if (p->tok.kind != T_LPAREN) return vector_hint(p);
  next(p);
  if (!vector_length(p)) return false;
  if (p->tok.kind == T_BAD) return vector_hint(p);
  if (p->tok.kind != T_RPAREN)
    return error_here(p, "expected ')' after the length of 'vector', found %s", found(p));
  next(p);
  return true;
}

/* The same array twice in the data clauses of one directive (or the same
 * name twice in private) is ambiguous: which clause wins?  Say where the
 * first one is. */
static bool check_duplicate(Parser *p, const Token *name, const DirItem *it, bool private_list) {
  const Directive *d = p->dir;
  for (int c = 0; c < d->nclauses; c++) {
    if ((d->clauses[c].kind == DIR_PRIVATE) != private_list) continue;
    for (int i = 0; i < d->clauses[c].nitems; i++) {
      const DirItem *other = &d->clauses[c].items[i];
      if (other == it) return true;
      if (strcmp(other->name, it->name) != 0) continue;
      const char *fmt = private_list ? "duplicate name '%s' in 'private'"
                        : d->kind == DIR_UPDATE ? "duplicate array '%s' in 'update'"
                        : "duplicate array '%s' in data clauses";
      error_span(p, name->start, name->end, fmt, it->name);
      diag_at(DIAG_NOTE, other->loc, name->end - name->start, "'%s' first named here", other->name);
      return false;
    }
  }
  return true;
}

/* What may follow the name of a list item, by language. */
static bool parse_subscripts(Parser *p, DirItem *it, const ClauseWord *w) {
  TokKind k = p->tok.kind;
  bool fortran = p->lang == DIR_FORTRAN;
  if (w->shape == CL_NAMES && (k == T_LPAREN || k == T_LBRACK))
    return error_here(p, "'%s' takes %s names, not sub-arrays", w->word,
                      w->kind == DIR_USE_DEVICE ? "whole-array" : "variable");
  if (fortran && k == T_BAD && p->text[p->tok.start] == '%')
    return error_span(p, p->tok.start, p->tok.end,
                      "derived-type components such as '%s%%...' cannot be named in a "
                      "directive; name a plain array", it->name);
  if (fortran && k == T_LBRACK)
    return error_here(p, "Fortran sub-arrays are written %s(lo:hi), not with '['", it->name);
  if (!fortran && k == T_LPAREN)
    return error_here(p, "C sub-arrays are written %s[start:length], not with '('", it->name);
  p->item = it->name;
  bool ok = true;
  if (fortran && k == T_LPAREN) ok = parse_fortran_sections(p, it);
  else if (!fortran && k == T_LBRACK) ok = parse_c_sections(p, it);
  p->item = NULL;
  return ok;
}

/* item := name [subscripts] */
static bool parse_item(Parser *p, DirClause *c, const ClauseWord *w) {
  if (p->tok.kind != T_NAME) {
    if (w->shape == CL_NAMES)
      return error_here(p, "expected a variable name in '%s', found %s", w->word, found(p));
    return error_here(p, "expected an array name in the list of '%s', found %s", w->word, found(p));
  }
  Token name = p->tok;
  DirItem *it = add_item(c);
  it->name = name_of(p, &name);
  it->loc = loc_at(p, name.start);
  next(p);
  if (!parse_subscripts(p, it, w)) return false;
  return check_duplicate(p, &name, it, w->shape == CL_NAMES);
}

/* clause := word '(' item (',' item)* ')' */
static bool parse_list(Parser *p, const ClauseWord *w) {
  Token kw = p->tok;
  next(p);
  if (p->tok.kind != T_LPAREN)
    return error_here(p, "expected '(' after '%s', found %s", w->word, found(p));
  Token open = p->tok;
  next(p);
  if (p->tok.kind == T_RPAREN)
    return error_here(p, "empty list in '%s'; name at least one %s", w->word,
                      w->shape == CL_NAMES ? "variable" : "array");
  DirClause *c = add_clause(p->dir, w->kind, loc_at(p, kw.start));
  char what[64];
  snprintf(what, sizeof what, "the list of '%s'", w->word);
  for (;;) {
    if (!parse_item(p, c, w)) return false;
    if (p->tok.kind == T_COMMA) {
      next(p);
      continue;
    }
    if (p->tok.kind == T_RPAREN) {
      next(p);
      c = &p->dir->clauses[p->dir->nclauses - 1];
      c->text = clause_text(p, kw.start);
      return true;
    }
    return error_unclosed(p, &open, what);
  }
}

static bool parse_clause(Parser *p) {
  DirKind on = p->dir->kind;
  if (p->tok.kind == T_RPAREN) return error_here(p, "unmatched ')'");
  if (p->tok.kind != T_NAME)
    return error_here(p, "expected a clause of '%s' (%s), found %s", dir_kind_name(on),
                      clauses_allowed(on), found(p));
  const ClauseWord *w = find_clause(p);
  if (!w)
    return error_here(p, "unknown clause %s in %s %s; expected one of %s", found(p), sentinel(p),
                      dir_kind_name(on), clauses_allowed(on));
  if (!(w->on & construct_bit(on)))
    return error_here(p, "clause '%s' is not allowed on '%s'", w->word, dir_kind_name(on));
  switch (w->shape) {
  case CL_LIST:
  case CL_NAMES: return parse_list(p, w);
  case CL_FLAG: return parse_flag(p, w);
  case CL_VECTOR: return parse_vector(p);
  }
  S2S_BUG("bad clause shape %d", (int)w->shape);
}

/* clauses := clause ([','] clause)* */
static bool parse_clauses(Parser *p) {
  bool first = true;
  while (p->tok.kind != T_END) {
    if (!first && p->tok.kind == T_COMMA) {
      next(p);
      if (p->tok.kind == T_END) return error_here(p, "expected a clause after ','");
    }
    if (!parse_clause(p)) return false;
    first = false;
  }
  return true;
}

/* ---- directives ----------------------------------------------------------------- */

/* `enter data` / `exit data` name at least one array (OpenACC requires a
 * data clause; `exit data finalize` alone would say nothing). */
static bool lifetime_has_list(Parser *p, int start, int end) {
  const Directive *d = p->dir;
  if ((d->kind != DIR_ENTER_DATA && d->kind != DIR_EXIT_DATA) || d->nclauses) return true;
  return error_span(p, start, end, "'%s' needs %s",
                    d->spelled ? d->spelled : dir_kind_name(d->kind),
                    d->kind == DIR_ENTER_DATA ? "copyin(list) or create(list)"
                                              : "copyout(list) or delete(list)");
}

/* 'region' clause* | 'data' clause* | 'do' do-clause* | 'update' clause+
 * | 'enter' 'data' clause+ | 'exit' 'data' clause+ */
static bool parse_construct(Parser *p, DirKind kind) {
  Token kw = p->tok;
  p->dir->kind = kind;
  next(p);
  if (!parse_clauses(p)) return false;
  if (kind == DIR_UPDATE && p->dir->nclauses == 0)
    return error_span(p, kw.start, kw.end, "'update' needs host(list) or device(list)");
  if (kind == DIR_HOST_DATA && p->dir->nclauses == 0)
    return error_span(p, kw.start, kw.end, "'host_data' needs use_device(list)");
  return true;
}

/* Everything after a complete `end region` is an error; underline all of it. */
static bool garbage_after(Parser *p, const char *what) {
  int start = p->tok.start, end = p->tok.end;
  while (p->tok.kind != T_END) {
    end = p->tok.end;
    next(p);
  }
  return error_span(p, start, end, "garbage after '%s'", what);
}

/* Which construct an `end` closes: the next word, or glued (`endregion`). */
static bool end_kind(Parser *p, const Token *first, DirKind *kind) {
  if (tok_is(p, first, "endregion") || tok_is(p, first, "enddata")) {
    *kind = tok_is(p, first, "endregion") ? DIR_END_REGION : DIR_END_DATA;
    return true;
  }
  next(p);
  if (tok_is(p, &p->tok, "region") || tok_is(p, &p->tok, "data") ||
      tok_is(p, &p->tok, "host_data")) {
    *kind = tok_is(p, &p->tok, "region") ? DIR_END_REGION
            : tok_is(p, &p->tok, "data") ? DIR_END_DATA : DIR_END_HOST_DATA;
    return true;
  }
  if (p->tok.kind == T_END)
    return error_here(p, "'end' needs 'region', 'data' or 'host_data', as in 'end region'");
  if (tok_is(p, &p->tok, "do"))
    return error_here(p, "'end do' is not needed: '%s do' applies only to the loop that follows it",
                      sentinel(p));
  return error_here(p, "expected 'region', 'data' or 'host_data' after 'end', found %s", found(p));
}

/* 'end' 'region' | 'end' 'data' | 'endregion' | 'enddata' */
static bool parse_end(Parser *p) {
  Token first = p->tok;
  DirKind kind = DIR_END_REGION; /* set by end_kind; gcc -O2 cannot tell */
  if (!end_kind(p, &first, &kind)) return false;
  int last = p->tok.end;
  next(p);
  if (p->lang == DIR_C)
    return error_span(p, first.start, last,
                      "'%s' is not used in C: '#pragma stencil %s' applies to the statement or "
                      "{ } block that follows it",
                      dir_kind_name(kind), kind == DIR_END_REGION ? "region"
                                           : kind == DIR_END_DATA ? "data" : "host_data");
  p->dir->kind = kind;
  return p->tok.kind == T_END ? true : garbage_after(p, dir_kind_name(kind));
}

static bool parse_directive(Parser *p) {
  const Token *t = &p->tok;
  if (t->kind == T_END) return error_here(p, "empty directive; expected " DIRECTIVES);
  if (t->kind != T_NAME)
    return error_here(p, "expected a directive name (" DIRECTIVES "), found %s", found(p));
  if (tok_is(p, t, "region")) return parse_construct(p, DIR_REGION);
  if (tok_is(p, t, "data")) return parse_construct(p, DIR_DATA);
  if (tok_is(p, t, "do")) return parse_construct(p, DIR_DO);
  if (tok_is(p, t, "update")) return parse_construct(p, DIR_UPDATE);
  if (tok_is(p, t, "host_data")) return parse_construct(p, DIR_HOST_DATA);
  if (tok_is(p, t, "wait")) { /* 'wait': no clauses */
    p->dir->kind = DIR_WAIT;
    next(p);
    return p->tok.kind == T_END ? true : garbage_after(p, "wait");
  }
  if (tok_is(p, t, "enter") || tok_is(p, t, "exit")) {
    DirKind kind = tok_is(p, t, "enter") ? DIR_ENTER_DATA : DIR_EXIT_DATA;
    Token first = p->tok;
    next(p);
    if (!tok_is(p, &p->tok, "data"))
      return error_here(p, "expected 'data' after '%.*s', found %s", first.end - first.start,
                        p->text + first.start, found(p));
    p->dir->kind = kind;
    next(p);
    if (!parse_clauses(p)) return false;
    return lifetime_has_list(p, first.start, p->prev_end);
  }
  if (tok_is(p, t, "end") || tok_is(p, t, "endregion") || tok_is(p, t, "enddata"))
    return parse_end(p);
  return error_here(p, "unknown directive %s; expected " DIRECTIVES, found(p));
}

/* ---- OpenACC and the 2009 PGI Accelerator model ------------------------------------
 *
 * `!$acc` / `#pragma acc` directives are read into the same Directive as
 * `!$stencil`: region, data, do, update.  What the passes honour is what
 * the analysis can check; the user's clauses are kept (DirAccClause) so
 * that the report says what became of each: honoured, superseded (by what)
 * or ignored (why).  Assertions are advice here: gang/worker/vector and
 * parallel ask for a parallel loop that the dependence tests must prove;
 * `independent` and private lists of arrays are checked the same way.
 *
 *   pgi      := 'region' ['do'] clause* | 'end' 'region' | 'data' 'region' clause*
 *             | 'end' 'data' 'region' | 'do' clause* | 'update' clause+
 *   openacc  := ('parallel' | 'kernels') ['loop'] clause* | 'end' ('parallel' | 'kernels')
 *             | 'loop' clause* | 'data' clause* | 'end' 'data' | 'update' clause+
 *             | 'enter' 'data' clause+ | 'exit' 'data' clause+
 *             | 'wait' ['(' queues ')'] clause*
 *
 * Asynchrony: every launch and copy of a host thread is queued in program
 * order on one stream, so OpenACC's queues are all one queue here.  Only
 * `update host(list) async[(n)]` lets the host go on before a copy is done
 * (the `!$stencil update ... async` of the same name), and `wait[(n,...)]`
 * waits for all of the thread's such copies (a superset of what it asks).
 * The other async and wait clauses change nothing: a note says why.
 *
 * `routine`, `end parallel loop` and the constructs of neither list are no
 * directives here: dir_acc_inert_line says which the tool understands (no
 * effect, a note) and which it does not (a warning). */

enum { M_PGI = 1, M_OACC = 2, M_BOTH = 3 };

typedef enum AccAction {
  A_DATA, A_PRIVATE, A_PARALLEL, A_VECTOR, A_SEQ, A_KERNEL, A_INDEPENDENT, A_UPDATE,
  A_IGNORE, A_SUPERSEDE, A_UNSUPPORTED, A_FINALIZE, A_ASYNC, A_IF_PRESENT
} AccAction;

typedef enum AccArg { ARG_NONE, ARG_OPTIONAL, ARG_REQUIRED } AccArg;

typedef struct AccWord {
  const char *word;
  unsigned models, on;
  AccAction action;
  DirClauseKind kind;   /* A_DATA, A_UPDATE */
  AccArg arg;           /* for A_IGNORE, A_SUPERSEDE, A_PARALLEL: skipped whole */
  const char *why;      /* A_IGNORE, A_SUPERSEDE, A_UNSUPPORTED */
} AccWord;

#define WHY_MOVES "the analysis infers what each region moves (its 'Generating' lines)"
#define WHY_ORDER "queued in order: every launch and copy runs in program order, so the " \
                  "results are those of an immediate wait"
#define WHY_AFTER "every launch and copy runs in program order, so this one starts after " \
                  "what was queued before it, as a wait first would give"
#define WHY_GRID "the grid follows the loop bounds and the block the vector lengths"

static const AccWord acc_words[] = {
    {"copyin", M_BOTH, ON_REGION | ON_DATA | ON_ENTER, A_DATA, DIR_COPYIN, ARG_REQUIRED, NULL},
    {"copyout", M_BOTH, ON_REGION | ON_DATA | ON_EXIT, A_DATA, DIR_COPYOUT, ARG_REQUIRED, NULL},
    {"copy", M_BOTH, ON_REGION | ON_DATA, A_DATA, DIR_COPY, ARG_REQUIRED, NULL},
    {"create", M_BOTH, ON_REGION | ON_DATA | ON_ENTER, A_DATA, DIR_CREATE, ARG_REQUIRED, NULL},
    {"local", M_PGI, ON_REGION | ON_DATA, A_DATA, DIR_CREATE, ARG_REQUIRED, NULL},
    {"present", M_BOTH, ON_REGION | ON_DATA, A_DATA, DIR_PRESENT, ARG_REQUIRED, NULL},
    {"pcopy", M_OACC, ON_REGION | ON_DATA, A_DATA, DIR_COPY, ARG_REQUIRED, NULL},
    {"present_or_copy", M_OACC, ON_REGION | ON_DATA, A_DATA, DIR_COPY, ARG_REQUIRED, NULL},
    {"pcopyin", M_OACC, ON_REGION | ON_DATA | ON_ENTER, A_DATA, DIR_COPYIN, ARG_REQUIRED, NULL},
    {"present_or_copyin", M_OACC, ON_REGION | ON_DATA | ON_ENTER, A_DATA, DIR_COPYIN, ARG_REQUIRED, NULL},
    {"pcopyout", M_OACC, ON_REGION | ON_DATA, A_DATA, DIR_COPYOUT, ARG_REQUIRED, NULL},
    {"present_or_copyout", M_OACC, ON_REGION | ON_DATA, A_DATA, DIR_COPYOUT, ARG_REQUIRED, NULL},
    {"pcreate", M_OACC, ON_REGION | ON_DATA | ON_ENTER, A_DATA, DIR_CREATE, ARG_REQUIRED, NULL},
    {"present_or_create", M_OACC, ON_REGION | ON_DATA | ON_ENTER, A_DATA, DIR_CREATE, ARG_REQUIRED, NULL},
    {"delete", M_OACC, ON_EXIT, A_DATA, DIR_DELETE, ARG_REQUIRED, NULL},
    {"finalize", M_OACC, ON_EXIT, A_FINALIZE, 0, ARG_NONE, NULL},
    {"use_device", M_OACC, ON_HOST_DATA, A_DATA, DIR_USE_DEVICE, ARG_REQUIRED, NULL},
    {"if_present", M_OACC, ON_HOST_DATA, A_IF_PRESENT, 0, ARG_NONE, NULL},
    {"if", M_OACC, ON_HOST_DATA, A_UNSUPPORTED, 0, ARG_REQUIRED,
     "put the construct inside an IF (the host code then appears twice, once with device "
     "addresses and once without)"},
    {"updatein", M_PGI, ON_REGION | ON_DATA, A_IGNORE, 0, ARG_REQUIRED, WHY_MOVES},
    {"updateout", M_PGI, ON_REGION | ON_DATA, A_IGNORE, 0, ARG_REQUIRED, WHY_MOVES},
    {"host", M_BOTH, ON_UPDATE, A_UPDATE, DIR_UPDATE_HOST, ARG_REQUIRED, NULL},
    {"self", M_OACC, ON_UPDATE, A_UPDATE, DIR_UPDATE_HOST, ARG_REQUIRED, NULL},
    {"device", M_BOTH, ON_UPDATE, A_UPDATE, DIR_UPDATE_DEVICE, ARG_REQUIRED, NULL},
    {"if", M_BOTH, ON_REGION | ON_DATA | ON_UPDATE, A_IGNORE, 0, ARG_REQUIRED,
     "the code always runs on the GPU (the results are the same)"},
    {"if", M_OACC, ON_ENTER | ON_EXIT, A_IGNORE, 0, ARG_REQUIRED,
     "the arrays are always kept on the device (the results are the same)"},
    {"if_present", M_OACC, ON_UPDATE, A_IGNORE, 0, ARG_NONE, "every array named is moved"},
    {"async", M_OACC, ON_UPDATE, A_ASYNC, 0, ARG_OPTIONAL, NULL},
    {"async", M_OACC, ON_REGION | ON_DATA | ON_ENTER | ON_EXIT, A_IGNORE, 0, ARG_OPTIONAL,
     WHY_ORDER},
    {"async", M_OACC, ON_WAIT, A_IGNORE, 0, ARG_OPTIONAL,
     "the host itself waits (the results are the same)"},
    {"wait", M_OACC, ON_REGION | ON_DATA | ON_UPDATE | ON_ENTER | ON_EXIT, A_IGNORE, 0,
     ARG_OPTIONAL, WHY_AFTER},
    {"if", M_OACC, ON_WAIT, A_IGNORE, 0, ARG_REQUIRED,
     "the host always waits (the results are the same)"},
    {"num_gangs", M_OACC, ON_REGION, A_IGNORE, 0, ARG_REQUIRED, WHY_GRID},
    {"num_workers", M_OACC, ON_REGION, A_IGNORE, 0, ARG_REQUIRED, WHY_GRID},
    {"vector_length", M_OACC, ON_REGION, A_IGNORE, 0, ARG_REQUIRED,
     "the block length comes from vector(n) on a loop, else the default"},
    {"default", M_OACC, ON_REGION | ON_DATA, A_SUPERSEDE, 0, ARG_REQUIRED, WHY_MOVES},
    {"firstprivate", M_OACC, ON_REGION, A_UNSUPPORTED, 0, ARG_REQUIRED,
     "scalars the region reads already start from the host's value; remove the clause"},
    {"deviceptr", M_OACC, ON_REGION | ON_DATA, A_UNSUPPORTED, 0, ARG_REQUIRED,
     "the translation moves host arrays itself"},
    {"no_create", M_OACC, ON_REGION | ON_DATA, A_UNSUPPORTED, 0, ARG_REQUIRED, WHY_MOVES},
    {"attach", M_OACC, ON_REGION | ON_DATA | ON_ENTER, A_UNSUPPORTED, 0, ARG_REQUIRED, WHY_MOVES},
    {"detach", M_OACC, ON_EXIT, A_UNSUPPORTED, 0, ARG_REQUIRED, WHY_MOVES},
    {"parallel", M_PGI, ON_DO, A_PARALLEL, 0, ARG_OPTIONAL, NULL},
    {"gang", M_OACC, ON_DO, A_PARALLEL, 0, ARG_OPTIONAL, NULL},
    {"worker", M_OACC, ON_DO, A_PARALLEL, 0, ARG_OPTIONAL, NULL},
    {"vector", M_BOTH, ON_DO, A_VECTOR, 0, ARG_OPTIONAL, NULL},
    {"seq", M_BOTH, ON_DO, A_SEQ, 0, ARG_NONE, NULL},
    {"kernel", M_PGI, ON_DO, A_KERNEL, 0, ARG_NONE, NULL},
    {"independent", M_BOTH, ON_DO, A_INDEPENDENT, 0, ARG_NONE, NULL},
    {"private", M_BOTH, ON_DO | ON_REGION, A_PRIVATE, DIR_PRIVATE, ARG_REQUIRED, NULL},
    {"reduction", M_OACC, ON_DO | ON_REGION, A_SUPERSEDE, 0, ARG_REQUIRED,
     "the analysis finds reductions itself (its 'Generating reduction' lines)"},
    {"auto", M_OACC, ON_DO, A_SUPERSEDE, 0, ARG_NONE, "the analysis decides every loop"},
    {"collapse", M_OACC, ON_DO, A_SUPERSEDE, 0, ARG_REQUIRED,
     "the analysis maps the outermost perfectly nested parallel loops, up to three"},
    {"tile", M_OACC, ON_DO, A_IGNORE, 0, ARG_REQUIRED, WHY_GRID},
    {"device_type", M_OACC, ON_DO | ON_REGION, A_IGNORE, 0, ARG_REQUIRED,
     "the clauses are read for every device"},
    {"cache", M_PGI, ON_DO, A_SUPERSEDE, 0, ARG_REQUIRED,
     "the analysis keeps values read again in registers (k-caching)"},
    {"unroll", M_PGI, ON_DO, A_IGNORE, 0, ARG_REQUIRED, "nvcc decides the unrolling"},
    {"host", M_PGI, ON_DO, A_IGNORE, 0, ARG_OPTIONAL,
     "the loop runs on the GPU with the rest of the region (the results are the same)"},
};

static unsigned dialect_models(DirDialect d) {
  return d == DIR_DIALECT_PGI ? M_PGI : d == DIR_DIALECT_OPENACC ? M_OACC : M_BOTH;
}

static const AccWord *find_acc_word(const Parser *p, unsigned on) {
  const AccWord *any = NULL;
  for (size_t i = 0; i < sizeof acc_words / sizeof acc_words[0]; i++) {
    const AccWord *w = &acc_words[i];
    if (!tok_is(p, &p->tok, w->word) || !(w->models & dialect_models(p->dialect))) continue;
    if (w->on & on) return w;
    any = w;
  }
  return any;
}

static DirAccClause *add_acc(Directive *d, const Parser *p, int start, DirAccRole role) {
  d->acc = xrealloc(d->acc, sizeof *d->acc * (size_t)(d->nacc + 1));
  DirAccClause *a = &d->acc[d->nacc++];
  *a = (DirAccClause){.loc = loc_at(p, start), .role = role, .clause = -1};
  return a;
}

/* A balanced '(' ... ')' after a clause word whose argument is not read. */
static bool skip_argument(Parser *p, const char *word) {
  Token open = p->tok;
  int depth = 0;
  do {
    if (p->tok.kind == T_LPAREN) depth++;
    else if (p->tok.kind == T_RPAREN) depth--;
    else if (p->tok.kind == T_END) {
      char what[64];
      snprintf(what, sizeof what, "the argument of '%s'", word);
      return error_unclosed(p, &open, what);
    }
    next(p);
  } while (depth > 0);
  return true;
}

/* vector(n) / vector(length:n): the length, checked as !$stencil's is. */
static bool acc_vector(Parser *p, Directive *loop) {
  if (loop->vector) return error_here(p, "duplicate clause 'vector'");
  if (p->tok.kind != T_LPAREN) return true;
  next(p);
  if (tok_is(p, &p->tok, "length")) {
    next(p);
    if (p->tok.kind != T_COLON) return vector_hint(p);
    next(p);
  }
  Directive *saved = p->dir;
  p->dir = loop; /* vector_length sets p->dir->vector */
  bool ok = vector_length(p);
  p->dir = saved;
  if (!ok) return false;
  if (p->tok.kind != T_RPAREN)
    return error_here(p, "expected ')' after the length of 'vector', found %s", found(p));
  next(p);
  return true;
}

/* The queue of async(...) on an update.  None, an integer n >= 0 or
 * acc_async_noval: the host goes on.  acc_async_sync: it waits.  Any other
 * expression may be acc_async_sync at run time, so the update is done at
 * once: always correct (a later wait only waits), never a race. */
typedef enum AsyncQueue { Q_ERROR, Q_QUEUED, Q_SYNC, Q_UNKNOWN } AsyncQueue;

static AsyncQueue async_queue(Parser *p) {
  if (p->tok.kind != T_LPAREN) return Q_QUEUED;
  Parser at_open = *p;
  next(p);
  if (p->tok.kind == T_RPAREN) {
    error_here(p, "expected a queue in 'async(...)', found ')'; write async or async(n)");
    return Q_ERROR;
  }
  Token arg = p->tok;
  next(p);
  if (p->tok.kind == T_RPAREN) {
    AsyncQueue q = arg.kind == T_INT || tok_is(p, &arg, "acc_async_noval") ? Q_QUEUED
                   : tok_is(p, &arg, "acc_async_sync")                      ? Q_SYNC
                                                                            : Q_UNKNOWN;
    next(p);
    return q;
  }
  *p = at_open;
  return skip_argument(p, "async") ? Q_UNKNOWN : Q_ERROR;
}

static bool acc_clause(Parser *p, Directive *d, Directive *loop, unsigned on) {
  if (p->tok.kind != T_NAME)
    return error_here(p, "expected a clause of '%s', found %s", p->dir->spelled, found(p));
  const AccWord *w = find_acc_word(p, on);
  int start = p->tok.start;
  if (!w) {
    /* an unknown clause: warned and skipped, never silently dropped */
    Token t = p->tok;
    next(p);
    if (p->tok.kind == T_LPAREN && !skip_argument(p, "clause")) return false;
    diag_at(DIAG_WARNING, loc_at(p, t.start), width_of(p, t.start, p->prev_end),
            "clause '%.*s' of '%s' is not understood and is ignored", t.end - t.start,
            p->text + t.start, p->dir->spelled);
    return true;
  }
  if (!(w->on & on))
    return error_here(p, "clause '%s' is not allowed on '%s'", w->word, p->dir->spelled);
  /* a loop clause of a combined construct belongs to its loop */
  Directive *to = (w->on & ON_DO) && loop ? loop : d;
  AccAction action = w->action;
  const char *why = w->why;
  if (action == A_PRIVATE && to->kind != DIR_DO) {
    /* private on a parallel/kernels region: the gangs' copies */
    action = A_SUPERSEDE;
    why = "the analysis keeps per thread the scalars and work arrays each column writes "
          "before reading them";
  }
  bool list = action == A_DATA || action == A_UPDATE || action == A_PRIVATE;
  if (!list) next(p); /* parse_list reads the keyword itself */
  DirAccRole role = ACC_ROLE_OTHER;
  AsyncQueue queue = Q_QUEUED;
  switch (action) {
  case A_DATA:
  case A_UPDATE:
  case A_PRIVATE: {
    /* use_device names whole arrays (OpenACC: variables, no sub-arrays) */
    ClauseWord cw = {w->word, action == A_PRIVATE || w->kind == DIR_USE_DEVICE ? CL_NAMES : CL_LIST,
                     w->kind, 0, on};
    Directive *saved = p->dir;
    p->dir = to;
    bool ok = parse_list(p, &cw);
    p->dir = saved;
    if (!ok) return false;
    role = action == A_PRIVATE ? ACC_ROLE_PRIVATE : ACC_ROLE_DATA;
    break;
  }
  case A_PARALLEL:
  case A_VECTOR:
    role = ACC_ROLE_PARALLEL;
    if (action == A_VECTOR && p->tok.kind == T_LPAREN) {
      if (!acc_vector(p, to)) return false;
      role = ACC_ROLE_VECTOR_LEN;
    } else if (p->tok.kind == T_LPAREN && !skip_argument(p, w->word))
      return false;
    if (to->seq) return error_span(p, start, p->prev_end, "'seq' and '%s' contradict each other", w->word);
    break;
  case A_SEQ:
  case A_KERNEL:
  case A_INDEPENDENT:
    if (action == A_SEQ) {
      for (int a = 0; a < to->nacc; a++)
        if (to->acc[a].role == ACC_ROLE_PARALLEL || to->acc[a].role == ACC_ROLE_VECTOR_LEN ||
            to->acc[a].role == ACC_ROLE_INDEPENDENT)
          return error_span(p, start, p->prev_end, "'%s' and 'seq' contradict each other",
                            to->acc[a].text);
      to->seq = true;
      role = ACC_ROLE_SEQ;
    } else if (action == A_KERNEL) {
      to->kernel = true;
      role = ACC_ROLE_KERNEL;
    } else
      role = ACC_ROLE_INDEPENDENT;
    break;
  case A_FINALIZE:
    if (to->finalize) return error_span(p, start, p->prev_end, "duplicate clause 'finalize'");
    to->finalize = true;
    break;
  case A_IF_PRESENT:
    if (to->if_present) return error_span(p, start, p->prev_end, "duplicate clause 'if_present'");
    to->if_present = true;
    break;
  case A_ASYNC:
    for (int a = 0; a < to->nacc; a++)
      if (to->acc[a].role == ACC_ROLE_ASYNC)
        return error_span(p, start, p->prev_end, "duplicate clause 'async'");
    if ((queue = async_queue(p)) == Q_ERROR) return false;
    to->async = to->async || queue == Q_QUEUED;
    role = ACC_ROLE_ASYNC;
    break;
  case A_IGNORE:
  case A_SUPERSEDE:
  case A_UNSUPPORTED:
    if (p->tok.kind == T_LPAREN && w->arg != ARG_NONE) {
      if (!skip_argument(p, w->word)) return false;
    } else if (w->arg == ARG_REQUIRED)
      return error_here(p, "expected '(' after '%s', found %s", w->word, found(p));
    if (action == A_UNSUPPORTED)
      return error_span(p, start, p->prev_end, "clause '%s' is not supported: %s", w->word, why);
    break;
  }
  DirAccClause *a = add_acc(to, p, start, role);
  a->text = clause_text(p, start);
  if (role == ACC_ROLE_DATA || role == ACC_ROLE_PRIVATE) a->clause = to->nclauses - 1;
  if (action == A_IGNORE || action == A_SUPERSEDE) {
    a->fate = action == A_IGNORE ? ACC_IGNORED : ACC_SUPERSEDED;
    a->why = why;
  }
  if (action == A_FINALIZE) {
    a->fate = ACC_HONOURED;
    a->why = "every dynamic reference of the arrays named is dropped, not one";
  }
  if (action == A_IF_PRESENT) {
    a->fate = ACC_HONOURED;
    a->why = "an array not present on the device keeps its host address";
  }
  if (role == ACC_ROLE_DATA && to->clauses[a->clause].kind == DIR_USE_DEVICE) {
    a->fate = ACC_HONOURED;
    a->why = "the host code of the construct passes the device copies' addresses (the "
             "arrays must be present: in a data region, or after enter data)";
  }
  if (queue == Q_SYNC) {
    a->fate = ACC_HONOURED;
    a->why = "the update is done before the host goes on";
  } else if (queue == Q_UNKNOWN) {
    a->fate = ACC_IGNORED;
    a->why = "the queue may be acc_async_sync at run time, so the update is done before the "
             "host goes on (the results are the same); async, or async(n) with an integer "
             "n >= 0, lets the host go on";
  }
  return true;
}

/* What async (queued) means on this update: the host goes on past the
 * copies to the host; a copy to the device returns once its bytes are
 * staged and queued anyway. */
static void update_async_fate(Directive *d) {
  bool host = false, device = false;
  for (int c = 0; c < d->nclauses; c++) {
    host |= d->clauses[c].kind == DIR_UPDATE_HOST;
    device |= d->clauses[c].kind == DIR_UPDATE_DEVICE;
  }
  for (int a = 0; a < d->nacc; a++) {
    DirAccClause *c = &d->acc[a];
    if (c->role != ACC_ROLE_ASYNC || c->fate != ACC_DECIDED_LATER) continue;
#define WHY_AFTER_WAIT "the host's arrays have the device's values after the next wait, of " \
                       "any queue (a host thread's queues are one queue here; the end of the " \
                       "arrays' data region waits too)"
    c->fate = host ? ACC_HONOURED : ACC_NOT_NEEDED;
    c->why = !host ? "an update device does not make the host wait for the kernels before it "
                     "(the host's bytes are staged and queued), with or without async"
             : device ? "the copies to the host are queued and the host goes on (those to the "
                        "device are staged and queued as without async); " WHY_AFTER_WAIT
                      : "the copies to the host are queued and the host goes on; " WHY_AFTER_WAIT;
#undef WHY_AFTER_WAIT
  }
}

static bool acc_clauses(Parser *p, Directive *d, Directive *loop, unsigned on) {
  bool first = true;
  while (p->tok.kind != T_END) {
    if (!first && p->tok.kind == T_COMMA) {
      next(p);
      if (p->tok.kind == T_END) return error_here(p, "expected a clause after ','");
    }
    if (!acc_clause(p, d, loop, on)) return false;
    first = false;
  }
  return true;
}

typedef struct AccConstruct {
  const char *words[3];  /* as written, lower case */
  unsigned models;
  DirKind kind;
  bool combined;         /* region + loop */
  const char *spelled_f, *spelled_c;
} AccConstruct;

static const AccConstruct acc_constructs[] = {
    {{"region", "do"}, M_PGI, DIR_REGION, true, "!$acc region do", "#pragma acc region for"},
    {{"region", "for"}, M_PGI, DIR_REGION, true, "!$acc region do", "#pragma acc region for"},
    {{"region"}, M_PGI, DIR_REGION, false, "!$acc region", "#pragma acc region"},
    {{"end", "data", "region"}, M_PGI, DIR_END_DATA, false, "!$acc end data region", NULL},
    {{"end", "region"}, M_PGI, DIR_END_REGION, false, "!$acc end region", NULL},
    {{"data", "region"}, M_PGI, DIR_DATA, false, "!$acc data region", "#pragma acc data region"},
    {{"do"}, M_PGI, DIR_DO, false, "!$acc do", NULL},
    {{"for"}, M_PGI, DIR_DO, false, NULL, "#pragma acc for"},
    {{"parallel", "loop"}, M_OACC, DIR_REGION, true, "!$acc parallel loop",
     "#pragma acc parallel loop"},
    {{"kernels", "loop"}, M_OACC, DIR_REGION, true, "!$acc kernels loop", "#pragma acc kernels loop"},
    {{"parallel"}, M_OACC, DIR_REGION, false, "!$acc parallel", "#pragma acc parallel"},
    {{"kernels"}, M_OACC, DIR_REGION, false, "!$acc kernels", "#pragma acc kernels"},
    {{"end", "parallel"}, M_OACC, DIR_END_REGION, false, "!$acc end parallel", NULL},
    {{"end", "kernels"}, M_OACC, DIR_END_REGION, false, "!$acc end kernels", NULL},
    {{"end", "data"}, M_OACC, DIR_END_DATA, false, "!$acc end data", NULL},
    {{"loop"}, M_OACC, DIR_DO, false, "!$acc loop", "#pragma acc loop"},
    {{"data"}, M_OACC, DIR_DATA, false, "!$acc data", "#pragma acc data"},
    {{"update"}, M_BOTH, DIR_UPDATE, false, "!$acc update", "#pragma acc update"},
    {{"enter", "data"}, M_OACC, DIR_ENTER_DATA, false, "!$acc enter data", "#pragma acc enter data"},
    {{"exit", "data"}, M_OACC, DIR_EXIT_DATA, false, "!$acc exit data", "#pragma acc exit data"},
    {{"wait"}, M_OACC, DIR_WAIT, false, "!$acc wait", "#pragma acc wait"},
    {{"host_data"}, M_OACC, DIR_HOST_DATA, false, "!$acc host_data", "#pragma acc host_data"},
    {{"end", "host_data"}, M_OACC, DIR_END_HOST_DATA, false, "!$acc end host_data", NULL},
};

/* The construct the text starts with, for `models`; *nwords its words. */
static const AccConstruct *acc_construct_of(const char *text, DirLang lang, unsigned models,
                                            int *nwords, int *end) {
  Parser p = {.text = text, .len = (int)strlen(text), .lang = lang};
  for (size_t i = 0; i < sizeof acc_constructs / sizeof acc_constructs[0]; i++) {
    const AccConstruct *c = &acc_constructs[i];
    if (!(c->models & models) || !(lang == DIR_FORTRAN ? c->spelled_f : c->spelled_c)) continue;
    p.pos = 0;
    p.tok = (Token){0};
    next(&p);
    int n = 0;
    while (n < 3 && c->words[n] && tok_is(&p, &p.tok, c->words[n])) {
      n++;
      next(&p);
    }
    if (n == 0 || (n < 3 && c->words[n])) continue;
    /* `end parallel loop` closes a combined construct: not `end parallel` */
    if (c->kind == DIR_END_REGION && (tok_is(&p, &p.tok, "loop"))) continue;
    *nwords = n;
    if (end) *end = p.tok.start;
    return c;
  }
  return NULL;
}

/* wait '(' queues ')': kept as written for the report; any wait waits for
 * every queue of the thread (OpenACC's [devnum:n:][queues:] forms too). */
static bool acc_wait_queues(Parser *p, Directive *d) {
  int start = p->tok.start;
  Parser at_open = *p; /* skip_argument reads from the '(' */
  next(p);
  if (p->tok.kind == T_RPAREN)
    return error_here(p, "expected a queue in 'wait(...)', found ')'; write wait or wait(n)");
  *p = at_open;
  if (!skip_argument(p, "wait")) return false;
  d->queues = clause_text(p, start);
  return true;
}

static bool acc_parse_directive(Parser *p) {
  Directive *d = p->dir;
  unsigned models = dialect_models(p->dialect);
  int nwords = 0, end = 0;
  const AccConstruct *c = acc_construct_of(p->text, p->lang, models, &nwords, &end);
  if (!c) return error_here(p, "unknown directive %s", found(p));
  int first = p->tok.start;
  for (int i = 0; i < nwords; i++) next(p);
  end = p->prev_end;
  d->kind = c->kind;
  d->origin = c->models == M_PGI ? DIR_FROM_PGI : c->models == M_OACC ? DIR_FROM_OPENACC
              : p->dialect == DIR_DIALECT_PGI ? DIR_FROM_PGI : DIR_FROM_OPENACC;
  d->spelled = p->lang == DIR_FORTRAN ? c->spelled_f : c->spelled_c;
  if (c->kind == DIR_END_REGION || c->kind == DIR_END_DATA || c->kind == DIR_END_HOST_DATA) {
    if (p->tok.kind != T_END) return garbage_after(p, d->spelled);
    return true;
  }
  if (c->kind == DIR_WAIT && p->tok.kind == T_LPAREN && !acc_wait_queues(p, d)) return false;
  unsigned on = construct_bit(c->kind);
  if (c->combined) {
    d->loop = xcalloc(1, sizeof *d->loop);
    d->loop->kind = DIR_DO;
    d->loop->loc = d->loc;
    d->loop->origin = d->origin;
    d->loop->spelled = d->spelled;
    on |= ON_DO;
  }
  if (!acc_clauses(p, d, d->loop, on)) return false;
  if (c->kind == DIR_UPDATE && d->nclauses == 0)
    return error_span(p, first, end, "'%s' needs host(list) or device(list)", d->spelled);
  if (c->kind == DIR_UPDATE) update_async_fate(d);
  if (c->kind == DIR_HOST_DATA && d->nclauses == 0)
    return error_span(p, first, end, "'%s' needs use_device(list)", d->spelled);
  return lifetime_has_list(p, first, end);
}

/* d->loc is `loc` here; dir_read replaces it with the sentinel's location. */
static Directive *parse_text(Parser *p, Loc loc);

Directive *dir_parse(const char *text, Loc loc, const int *linemap, const int *colmap,
                     DirLang lang) {
  Parser p = {.text = text, .len = (int)strlen(text), .loc = loc,
              .linemap = linemap, .colmap = colmap, .lang = lang};
  return parse_text(&p, loc);
}

static Directive *parse_text(Parser *pp, Loc loc) {
  Parser p = *pp;
  next(&p);
  Directive *d = xcalloc(1, sizeof *d);
  d->loc = loc;
  p.dir = d;
  if (!(p.acc ? acc_parse_directive(&p) : parse_directive(&p))) {
    dir_free(d);
    return NULL;
  }
  return d;
}

/* ---- reading directives from source lines -------------------------------------- */

/* The length of the directive word glued to the sentinel at s[i] (as in
 * `!$stencilregion`), or 0: only a whole word that names a directive counts,
 * so that prose such as `!$stenciled` stays an ordinary comment. */
static int glued_word(const char *s, int len, int i) {
  static const char *const words[] = {"region", "data", "do", "update", "end",
                                      "endregion", "enddata"};
  int n = 0;
  while (i + n < len && (is_alnum(s[i + n]) || s[i + n] == '_')) n++;
  for (size_t k = 0; n && k < sizeof words / sizeof *words; k++)
    if ((int)strlen(words[k]) == n && match_ci(s + i, (size_t)n, words[k])) return n;
  return 0;
}

/* Fortran: after blanks, `!$stencil` in any case, then a blank, the end of
 * the line or `&` (so `!$stencilfoo` is an ordinary comment), or a directive
 * word glued to it (`!$stencilregion`: a directive line that dir_read
 * refuses).  Returns the index just after the sentinel, or -1. */
static int fortran_sentinel_end(const char *s, int len) {
  int i = skip_blanks(s, len, 0);
  if (!match_ci(s + i, (size_t)(len - i), "!$stencil")) return -1;
  i += 9;
  return i == len || s[i] == ' ' || s[i] == '\t' || s[i] == '&' || glued_word(s, len, i) ? i
                                                                                          : -1;
}

/* C: after blanks, `#`, blanks, `pragma`, blanks, `stencil` (both words are
 * case-sensitive, as the preprocessor's are), then no more identifier. */
static int c_sentinel_end(const char *s, int len) {
  int i = skip_blanks(s, len, 0);
  if (i == len || s[i] != '#') return -1;
  i = skip_blanks(s, len, i + 1);
  if (len - i < 6 || strncmp(s + i, "pragma", 6) != 0) return -1;
  int j = skip_blanks(s, len, i + 6);
  if (j == i + 6 || len - j < 7 || strncmp(s + j, "stencil", 7) != 0) return -1;
  j += 7;
  return j == len || !is_alnum(s[j]) ? j : -1;
}

/* `!$acc` in any case, then a blank, the end of the line or `&` (PGI's
 * `!$acc&` continuation); C: `#pragma acc` and no more identifier.
 * Returns the index just after the sentinel, or -1. */
static int acc_sentinel_end(const char *s, int len, DirLang lang) {
  int i = skip_blanks(s, len, 0);
  if (lang == DIR_FORTRAN) {
    if (!match_ci(s + i, (size_t)(len - i), "!$acc")) return -1;
    i += 5;
    return i == len || s[i] == ' ' || s[i] == '\t' || s[i] == '&' ? i : -1;
  }
  if (i == len || s[i] != '#') return -1;
  i = skip_blanks(s, len, i + 1);
  if (len - i < 6 || strncmp(s + i, "pragma", 6) != 0) return -1;
  int j = skip_blanks(s, len, i + 6);
  if (j == i + 6 || len - j < 3 || strncmp(s + j, "acc", 3) != 0) return -1;
  j += 3;
  return j == len || !is_alnum(s[j]) ? j : -1;
}

static int line_text_end(const char *s, int len, int from, DirLang lang, bool *continued);

/* ---- which spelling a file uses ---------------------------------------------------- */

DirDialect dir_dialect_option = DIR_DIALECT_AUTO;

static bool any_line(int file, DirLang lang, int (*end)(const char *, int, DirLang)) {
  const SourceFile *sf = diag_source(file);
  for (int l = 1; sf && l <= sf->nlines; l++) {
    size_t len;
    const char *s = diag_line(file, l, &len);
    if (s && end(s, (int)len, lang) >= 0) return true;
  }
  return false;
}

static int stencil_sentinel_end(const char *s, int len, DirLang lang) {
  return lang == DIR_FORTRAN ? fortran_sentinel_end(s, len) : c_sentinel_end(s, len);
}

/* Decided once per registered file (kept in its SourceFile). */
DirDialect dir_file_dialect(int file, DirLang lang) {
  SourceFile *sf = (SourceFile *)diag_source(file);
  if (sf && sf->dir_dialect) return (DirDialect)(sf->dir_dialect - 1);
  DirDialect d = dir_dialect_option;
  if (d == DIR_DIALECT_AUTO)
    d = any_line(file, lang, stencil_sentinel_end) || !any_line(file, lang, acc_sentinel_end)
            ? DIR_DIALECT_STENCIL : DIR_DIALECT_AUTO;
  if (sf) sf->dir_dialect = (int)d + 1;
  return d;
}

static bool is_acc_file(int file, DirLang lang) {
  return dir_file_dialect(file, lang) != DIR_DIALECT_STENCIL;
}

bool dir_has_sentinel(const char *s, size_t len, DirLang lang) {
  return stencil_sentinel_end(s, (int)len, lang) >= 0 || acc_sentinel_end(s, (int)len, lang) >= 0;
}

static int sentinel_end_in(const char *s, int len, DirLang lang, bool acc) {
  return acc ? acc_sentinel_end(s, len, lang) : stencil_sentinel_end(s, len, lang);
}

/* The construct of an `!$acc` line that is no directive here: `routine`,
 * `init`, ... (understood, no effect) or anything else (not understood).
 * NULL for a directive the parser reads. */
typedef struct Inert { const char *words[3]; const char *why; } Inert;
static const Inert inert_constructs[] = {
    {{"end", "parallel", "loop"}, ""},
    {{"end", "kernels", "loop"}, ""},
    {{"end", "region", "do"}, ""},
    {{"routine"}, "a routine the region calls is inlined, or made a __device__ function, "
                  "as the analysis decides"},
    {{"init"}, "the runtime starts the device at the first launch"},
    {{"shutdown"}, "the runtime releases the device at exit"},
};

/* Does `!$acc` line `line` continue the directive of the line before? */
static bool acc_continues_previous(int file, int line, DirLang lang) {
  if (lang != DIR_FORTRAN || line <= 1) return false;
  size_t len, plen;
  const char *s = diag_line(file, line, &len);
  const char *prev = diag_line(file, line - 1, &plen);
  int at = s ? acc_sentinel_end(s, (int)len, lang) : -1;
  int pat = prev ? acc_sentinel_end(prev, (int)plen, lang) : -1;
  if (at < 0 || pat < 0) return false;
  bool continued;
  line_text_end(prev, (int)plen, pat, lang, &continued);
  return continued || (at < (int)len && s[at] == '&');
}

bool dir_acc_inert_line(int file, int line, DirLang lang, bool *understood, const char **why,
                        int *width) {
  size_t len;
  const char *s = diag_line(file, line, &len);
  int at = s ? acc_sentinel_end(s, (int)len, lang) : -1;
  if (at < 0) return false;
  /* a continuation line is part of the directive it continues */
  if (acc_continues_previous(file, line, lang)) return false;
  *width = at - skip_blanks(s, (int)len, 0);
  DirDialect d = dir_file_dialect(file, lang);
  if (d == DIR_DIALECT_STENCIL && dir_dialect_option == DIR_DIALECT_STENCIL) {
    *understood = false;
    *why = "--directives=stencil reads only !$stencil and #pragma stencil directives";
    return true;
  }
  if (d == DIR_DIALECT_STENCIL) {
    *understood = false;
    *why = lang == DIR_FORTRAN ? "the file has !$stencil directives, which are read instead "
                                 "(--directives=pgi-acc or openacc reads these)"
                               : "the file has #pragma stencil directives, which are read "
                                 "instead (--directives=pgi-acc or openacc reads these)";
    return true;
  }
  char *text = xstrndup(s + at, len - (size_t)at);
  int nwords, end;
  bool directive = acc_construct_of(text, lang, dialect_models(d), &nwords, &end) != NULL;
  *understood = false;
  *why = NULL;
  if (!directive) {
    Parser p = {.text = text, .len = (int)strlen(text), .lang = lang};
    for (size_t i = 0; i < sizeof inert_constructs / sizeof *inert_constructs; i++) {
      p.pos = 0;
      p.tok = (Token){0};
      next(&p);
      int n = 0;
      while (n < 3 && inert_constructs[i].words[n] &&
             tok_is(&p, &p.tok, inert_constructs[i].words[n])) {
        n++;
        next(&p);
      }
      if (n && (n == 3 || !inert_constructs[i].words[n])) {
        *understood = true;
        *why = inert_constructs[i].why;
        break;
      }
    }
  }
  if (!directive && !*understood && d != DIR_DIALECT_AUTO &&
      acc_construct_of(text, lang, M_BOTH, &nwords, &end))
    *why = d == DIR_DIALECT_PGI ? "an OpenACC directive, which --directives=pgi-acc does not read"
                                : "a PGI Accelerator directive, which --directives=openacc does "
                                  "not read";
  free(text);
  return !directive;
}

bool dir_is_directive_line(int file, int line, DirLang lang) {
  size_t len;
  const char *s = diag_line(file, line, &len);
  if (!s) return false;
  if (!is_acc_file(file, lang)) return stencil_sentinel_end(s, (int)len, lang) >= 0;
  bool understood;
  const char *why;
  int width;
  if (acc_sentinel_end(s, (int)len, lang) < 0) return false;
  while (acc_continues_previous(file, line, lang)) line--; /* judged by its first line */
  return !dir_acc_inert_line(file, line, lang, &understood, &why, &width);
}

const char *dir_line_text(int file, int line, DirLang lang) {
  if (!dir_is_directive_line(file, line, lang)) return NULL;
  size_t len;
  const char *s = diag_line(file, line, &len);
  int at = sentinel_end_in(s, (int)len, lang, is_acc_file(file, lang));
  return s + skip_blanks(s, (int)len, at);
}

/* `end` then blanks then a word starting with `w` (tolerant, for recovery) */
static bool end_then(const char *t, const char *w) {
  if (strncasecmp(t, "end", 3)) return false;
  t += 3;
  while (*t == ' ' || *t == '\t') t++;
  return !strncasecmp(t, w, strlen(w));
}

bool dir_line_ends_region(int file, int line, DirLang lang) {
  const char *t = dir_line_text(file, line, lang);
  if (!t) return false;
  if (!is_acc_file(file, lang)) return end_then(t, "reg");
  int nwords, end;
  const AccConstruct *c = acc_construct_of(t, lang, dialect_models(dir_file_dialect(file, lang)),
                                           &nwords, &end);
  return c ? c->kind == DIR_END_REGION : end_then(t, "reg");
}

bool dir_line_opens_region(int file, int line, DirLang lang) {
  const char *t = dir_line_text(file, line, lang);
  if (!t) return false;
  if (!is_acc_file(file, lang)) return !strncasecmp(t, "reg", 3);
  int nwords, end;
  const AccConstruct *c = acc_construct_of(t, lang, dialect_models(dir_file_dialect(file, lang)),
                                           &nwords, &end);
  return c ? c->kind == DIR_REGION && !c->combined : !strncasecmp(t, "reg", 3);
}

/* The directive text of one line from `from`, and whether it continues:
 * Fortran cuts a `!` comment, then looks for a final `&`; C looks for a
 * final backslash.  Returns the end of the text (before the marker). */
static int line_text_end(const char *s, int len, int from, DirLang lang, bool *continued) {
  int end = from;
  if (lang == DIR_FORTRAN)
    while (end < len && s[end] != '!') end++;
  else
    end = len;
  while (end > from && is_blank(s[end - 1])) end--;
  char marker = lang == DIR_FORTRAN ? '&' : '\\';
  *continued = end > from && s[end - 1] == marker;
  return *continued ? end - 1 : end;
}

/* The joined text of a directive and, per byte, where it came from. */
typedef struct Joined {
  char *text;
  int *linemap, *colmap;
  int len, cap;
} Joined;

static void join(Joined *j, const char *s, int n, int line, int col) {
  if (j->len + n + 1 > j->cap) {
    j->cap = 2 * (j->len + n + 1);
    j->text = xrealloc(j->text, (size_t)j->cap);
    j->linemap = xrealloc(j->linemap, sizeof *j->linemap * (size_t)j->cap);
    j->colmap = xrealloc(j->colmap, sizeof *j->colmap * (size_t)j->cap);
  }
  for (int i = 0; i < n; i++) {
    j->text[j->len] = s[i];
    j->linemap[j->len] = line;
    j->colmap[j->len++] = col + i;
  }
  j->text[j->len] = '\0';
}

static void free_joined(Joined *j) {
  free(j->text);
  free(j->linemap);
  free(j->colmap);
}

/* Where the next line's text starts, or -1 when it does not continue the
 * directive.  Fortran: its own `!$stencil`, then an optional `&` (which lets
 * a word be split across lines, as in Fortran).  C: the whole line. */
static int continuation_start(const char *s, int len, DirLang lang, bool acc) {
  if (lang == DIR_C) return 0;
  int at = acc ? acc_sentinel_end(s, len, lang) : fortran_sentinel_end(s, len);
  if (at < 0) return -1;
  int i = skip_blanks(s, len, at);
  if (i == len || s[i] != '&') return at;
  /* `!$stencil &` alone: the one '&' is read as continuing to the next line */
  bool continued;
  int end = line_text_end(s, len, at, lang, &continued);
  return continued && end == i ? at : i + 1;
}

static bool continuation_error(int file, int line, int col, DirLang lang, bool at_eof, bool acc) {
  Loc marker = {file, line, col};
  if (at_eof)
    diag_at(DIAG_ERROR, marker, 1, "directive continued with '%s' but the file ends",
            lang == DIR_FORTRAN ? "&" : "\\");
  else
    diag_at(DIAG_ERROR, marker, 1, "continued directive must continue on a '%s' line",
            acc ? "!$acc" : "!$stencil");
  return false;
}

/* PGI's fixed-form habit: a next line `!$acc&` continues the directive
 * even without a trailing `&`. */
static bool acc_ampersand_line(int file, int line, bool acc) {
  if (!acc || line > diag_source(file)->nlines) return false;
  size_t len;
  const char *s = diag_line(file, line, &len);
  int at = acc_sentinel_end(s, (int)len, DIR_FORTRAN);
  return at >= 0 && at < (int)len && s[at] == '&';
}

/* Append the directive's lines to `j` from `line` on; *last_line ends on the
 * last line that belongs to it (even on error, so the caller can skip it). */
static bool join_lines(Joined *j, int file, int line, int at, DirLang lang, int *last_line,
                       bool acc) {
  int nlines = diag_source(file)->nlines;
  for (;;) {
    size_t len;
    const char *s = diag_line(file, line, &len);
    bool continued;
    int end = line_text_end(s, (int)len, at, lang, &continued);
    join(j, s + at, end - at, line, at + 1);
    *last_line = line;
    if (!continued && lang == DIR_FORTRAN && acc_ampersand_line(file, line + 1, acc)) {
      join(j, " ", 1, line, end + 1); /* the line break separates words */
      continued = true;
    }
    if (!continued) return true;
    if (line == nlines) return continuation_error(file, line, end + 1, lang, true, acc);
    const char *next_s = diag_line(file, line + 1, &len);
    at = continuation_start(next_s, (int)len, lang, acc);
    if (at < 0) return continuation_error(file, line, end + 1, lang, false, acc);
    line++;
  }
}

/* Nothing but blanks and comments after the sentinel. */
static bool nothing_to_parse(const Joined *j, DirLang lang) {
  Parser p = {.text = j->text, .len = j->len, .lang = lang};
  return skip_space(&p);
}

Directive *dir_read(int file, int line, DirLang lang, int *last_line) {
  size_t len;
  const char *s = diag_line(file, line, &len);
  bool acc = is_acc_file(file, lang);
  int at = s ? sentinel_end_in(s, (int)len, lang, acc) : -1;
  if (at < 0) S2S_BUG("dir_read: line %d of file %d is not a directive", line, file);
  int first = skip_blanks(s, (int)len, 0);
  Loc sentinel_loc = {file, line, first + 1};
  *last_line = line;
  Joined j = {0};
  join(&j, "", 0, line, at + 1);
  Directive *d = NULL;
  int glued = lang == DIR_FORTRAN && !acc ? glued_word(s, (int)len, at) : 0;
  if (glued) {
    int width = at + glued - first;
    diag_at(DIAG_ERROR, sentinel_loc, width, "'%.*s': a blank is needed after '!$stencil'",
            width, s + first);
  } else if (!join_lines(&j, file, line, at, lang, last_line, acc)) {
    /* reported */
  } else if (nothing_to_parse(&j, lang)) {
    diag_at(DIAG_ERROR, sentinel_loc, at - first, "empty directive; expected %s",
            acc ? "an accelerator directive (region, data, do, parallel, kernels, loop, "
                  "update, enter data, exit data, wait)"
                : DIRECTIVES);
  } else {
    Loc text_loc = {file, j.linemap[0], j.colmap[0]};
    Parser p = {.text = j.text, .len = j.len, .loc = text_loc, .linemap = j.linemap,
                .colmap = j.colmap, .lang = lang, .acc = acc,
                .dialect = dir_file_dialect(file, lang)};
    d = parse_text(&p, text_loc);
    if (d) d->loc = sentinel_loc;
    if (d && d->loop) d->loop->loc = sentinel_loc;
  }
  free_joined(&j);
  return d;
}

/* ---- names and printing ---------------------------------------------------------- */

const char *dir_clause_name(DirClauseKind k) {
  switch (k) {
  case DIR_COPYIN: return "copyin";
  case DIR_COPYOUT: return "copyout";
  case DIR_COPY: return "copy";
  case DIR_CREATE: return "create";
  case DIR_PRESENT: return "present";
  case DIR_UPDATE_HOST: return "host";
  case DIR_UPDATE_DEVICE: return "device";
  case DIR_PRIVATE: return "private";
  case DIR_DELETE: return "delete";
  case DIR_USE_DEVICE: return "use_device";
  }
  S2S_BUG("bad DirClauseKind %d", (int)k);
}

const char *dir_kind_name(DirKind k) {
  switch (k) {
  case DIR_REGION: return "region";
  case DIR_END_REGION: return "end region";
  case DIR_DATA: return "data";
  case DIR_END_DATA: return "end data";
  case DIR_DO: return "do";
  case DIR_UPDATE: return "update";
  case DIR_ENTER_DATA: return "enter data";
  case DIR_EXIT_DATA: return "exit data";
  case DIR_WAIT: return "wait";
  case DIR_HOST_DATA: return "host_data";
  case DIR_END_HOST_DATA: return "end host_data";
  }
  S2S_BUG("bad DirKind %d", (int)k);
}

/* A bounded writer: output past `size` is dropped, the text stays terminated. */
typedef struct Out {
  char *buf;
  size_t size, n;
} Out;

static void put(Out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(Out *o, const char *fmt, ...) {
  if (o->n + 1 >= o->size) return;
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(o->buf + o->n, o->size - o->n, fmt, ap);
  va_end(ap);
  if (k > 0) o->n = o->n + (size_t)k < o->size ? o->n + (size_t)k : o->size - 1;
}

/* Binding strength: + - 1, * / 2, unary minus 3, names and literals 4. */
static int prec(const DirExpr *e) {
  if (e->kind == DIR_E_BINARY) return e->u.bin.op == '+' || e->u.bin.op == '-' ? 1 : 2;
  return e->kind == DIR_E_NEG ? 3 : 4;
}

static void print_expr(Out *o, const DirExpr *e);

static void print_operand(Out *o, const DirExpr *e, bool paren) {
  if (paren) put(o, "(");
  print_expr(o, e);
  if (paren) put(o, ")");
}

/* Parentheses only where the tree needs them, so that printing and parsing
 * again gives the same tree: a right operand of equal strength keeps its
 * parentheses (a-(b-c), a*(b/c) differ from a-b-c, a*b/c), and a negation
 * right of an operator keeps them (Fortran forbids a*-b). */
static void print_expr(Out *o, const DirExpr *e) {
  switch (e->kind) {
  case DIR_E_NAME: put(o, "%s", e->u.name); return;
  case DIR_E_INT: put(o, "%ld", e->u.ival); return;
  case DIR_E_NEG:
    put(o, "-");
    print_operand(o, e->u.operand, prec(e->u.operand) < 4);
    return;
  case DIR_E_BINARY: {
    int p = prec(e);
    const DirExpr *r = e->u.bin.rhs;
    print_operand(o, e->u.bin.lhs, prec(e->u.bin.lhs) < p);
    put(o, "%c", e->u.bin.op);
    print_operand(o, r, prec(r) <= p || r->kind == DIR_E_NEG);
    return;
  }
  }
}

void dir_expr_print(const DirExpr *e, char *buf, size_t size) {
  if (!buf || size == 0) return;
  Out o = {buf, size, 0};
  buf[0] = '\0';
  if (e) print_expr(&o, e);
}
