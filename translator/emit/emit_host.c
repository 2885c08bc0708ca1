/* emit_host.c — the host file: the user's text with each directive replaced.
 *
 * The user's file is copied line by line, byte for byte (CRLF line ends, a
 * missing final newline, tabs, comments), and only these edits are made:
 *
 *   Fortran                                   C
 *   region lines  -> call s2s_x_r1(a, n, ...)   region lines -> { s2s_x_r1((void *)a, n);
 *                    if (s2s_host_pass() /= 0)      if (s2s_host_pass()) {
 *                    then / region code / end if    region code } }
 *   data          -> call s2s_x_d1_begin(...)   data pragma  -> { s2s_x_d1_begin(...);
 *   end data      -> call s2s_x_d1_end(...)     after the statement: s2s_x_d1_end(...); }
 *   update        -> call s2s_x_u1(...)         update pragma -> s2s_x_u1(...);
 *   after the specification part of each       before each function with calls, one
 *   routine with calls, one interface block     prototype per function it calls
 *
 * The region's own code stays after its call for the host pass (host
 * fallback and autocompare, rt/s2s_compare.c): the user's lines less the
 * directive lines, byte for byte.
 *
 * A region made into kernel variants (present() of the routine's optional
 * dummies, transforms/present.c) is replaced by an IF / ELSE IF chain that
 * tests presence and calls the matching variant's launcher.
 *
 * Fortran calls take the indentation of the directive line and are broken
 * with `&` well before the 132-column limit; every argument is passed by
 * reference to a bind(C) interface whose dummies have the user's names.
 * C calls take the indentation of the statement the pragma applies to.
 *
 * Every edit is planned first (a list sorted by line), then the file is
 * written in one pass; generated lines use the file's own line ending.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* POSIX.1-2008 and realpath, also when built outside the Makefile */
#endif
#include <stdlib.h>
#include <string.h>
#include "emit.h"
#include "emit_text.h"

/* Soft right margin of generated Fortran lines (the hard limit is 132). */
#define FORTRAN_MARGIN 100

/* ---- text helpers ------------------------------------------------------------ */

/* Lines of generated text, without line ends. */
typedef struct Block {
  int n, cap;
  char **v;
} Block;

static void block_add(Block *b, char *line /* takes ownership */) {
  if (b->n == b->cap) {
    b->cap = b->cap ? 2 * b->cap : 8;
    b->v = xrealloc(b->v, sizeof *b->v * (size_t)b->cap);
  }
  b->v[b->n++] = line;
}

static void block_free(Block *b) {
  for (int i = 0; i < b->n; i++) free(b->v[i]);
  free(b->v);
}

/* A growable string. */
typedef struct Str {
  char *s;
  size_t len, cap;
} Str;

static void str_add(Str *s, const char *t) {
  size_t n = strlen(t);
  if (s->len + n + 1 > s->cap) {
    s->cap = (s->len + n + 1) * 2;
    s->s = xrealloc(s->s, s->cap);
  }
  memcpy(s->s + s->len, t, n + 1);
  s->len += n;
}

/* The user's file split into lines. */
typedef struct Text {
  int nlines;
  const char **start;  /* start[l-1]: line l */
  size_t *len;         /* without its line end */
  size_t *eol_len;     /* 0 (last line without newline), 1 ("\n") or 2 ("\r\n") */
  const char *eol;     /* the file's line end, for generated lines */
} Text;

static void text_split(Text *t, const char *s, size_t n) {
  int count = 0;
  for (size_t i = 0; i < n; i++)
    if (s[i] == '\n') count++;
  if (n > 0 && s[n - 1] != '\n') count++;
  t->nlines = count;
  t->start = xmalloc(sizeof *t->start * (size_t)(count ? count : 1));
  t->len = xmalloc(sizeof *t->len * (size_t)(count ? count : 1));
  t->eol_len = xmalloc(sizeof *t->eol_len * (size_t)(count ? count : 1));
  t->eol = NULL;
  size_t pos = 0;
  for (int l = 0; l < count; l++) {
    const char *nl = memchr(s + pos, '\n', n - pos);
    size_t end = nl ? (size_t)(nl - s) : n;
    size_t eol = nl ? 1 : 0;
    if (nl && end > pos && s[end - 1] == '\r') end--, eol = 2;
    if (!t->eol && eol) t->eol = eol == 2 ? "\r\n" : "\n";
    t->start[l] = s + pos;
    t->len[l] = end - pos;
    t->eol_len[l] = eol;
    pos = end + eol;
  }
  if (!t->eol) t->eol = "\n";
}

static void text_free(Text *t) {
  free(t->start);
  free(t->len);
  free(t->eol_len);
}

/* The column (0-based) of the first non-blank byte of line l; the line's
 * length when it is blank. */
static size_t first_nonblank(const Text *t, int l) {
  size_t i = 0;
  while (i < t->len[l - 1] && (t->start[l - 1][i] == ' ' || t->start[l - 1][i] == '\t')) i++;
  return i;
}

/* The leading blanks of line l (malloc'ed). */
static char *indentation(const Text *t, int l) {
  return xstrndup(t->start[l - 1], first_nonblank(t, l));
}

static bool blank_line(const Text *t, int l) { return first_nonblank(t, l) == t->len[l - 1]; }

/* The first non-blank byte of line l, '\0' for a blank line. */
static char first_char(const Text *t, int l) {
  size_t i = first_nonblank(t, l);
  return i < t->len[l - 1] ? t->start[l - 1][i] : '\0';
}

static bool starts_with_hash(const Text *t, int l) { return first_char(t, l) == '#'; }

/* A Fortran line with code: not blank, not a comment or directive, not a
 * preprocessor line. */
static bool fortran_code_line(const Text *t, int l) {
  char c = first_char(t, l);
  return c != '\0' && c != '!' && c != '#';
}

/* The indentation of a Fortran call: the directive line's.  Directives
 * are often written in column 1, as OpenMP's were; then the call takes the
 * indentation of the code it stands among: the region's first statement,
 * else the statement after the directive (for `end data`, the one before). */
static char *fortran_indent(const Text *t, const HostCall *c) {
  char *ind = indentation(t, c->first_line);
  if (*ind) return ind;
  free(ind);
  int l = 0;
  if (c->kind == HOST_CALL_DATA_END || c->kind == HOST_CALL_HOST_DATA_END) {
    for (l = c->first_line - 1; l >= 1 && !fortran_code_line(t, l); l--) {}
  } else {
    for (l = c->first_line + 1; l <= t->nlines && !fortran_code_line(t, l); l++) {}
    if (l > t->nlines) l = 0;
  }
  return l >= 1 ? indentation(t, l) : xstrdup("");
}

/* Does Fortran line l end with a continuation `&` (before any comment)? */
static bool fortran_continues(const Text *t, int l) {
  const char *s = t->start[l - 1];
  char quote = 0;
  int last = -1;
  for (size_t i = 0; i < t->len[l - 1]; i++) {
    if (quote) {
      if (s[i] == quote) quote = 0;
      continue;
    }
    if (s[i] == '\'' || s[i] == '"') quote = s[i];
    else if (s[i] == '!') break;
    if (s[i] != ' ' && s[i] != '\t') last = (int)i;
  }
  return last >= 0 && s[last] == '&';
}

/* ---- edits ------------------------------------------------------------------- */

typedef enum EditPhase { EDIT_BEFORE, EDIT_REPLACE, EDIT_AFTER } EditPhase;

typedef struct Edit {
  int line;          /* where: before/after this line, or the first line replaced */
  EditPhase phase;
  int last;          /* EDIT_REPLACE: the last line replaced */
  int seq;           /* order among edits at the same place */
  Block text;
} Edit;

typedef struct Edits {
  int n, cap;
  Edit *v;
} Edits;

static Edit *edit_add(Edits *e, int line, EditPhase phase, int last) {
  if (e->n == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 16;
    e->v = xrealloc(e->v, sizeof *e->v * (size_t)e->cap);
  }
  Edit *d = &e->v[e->n];
  *d = (Edit){ .line = line, .phase = phase, .last = last, .seq = e->n };
  e->n++;
  return d;
}

static int edit_cmp(const void *a, const void *b) {
  const Edit *x = a, *y = b;
  if (x->line != y->line) return x->line < y->line ? -1 : 1;
  if (x->phase != y->phase) return x->phase < y->phase ? -1 : 1;
  return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* ---- arguments ------------------------------------------------------------------ */

static const char *arg_name(const Param *a) {
  if (!a->sym || !a->sym->name) S2S_BUG("host argument without a symbol");
  return a->sym->name;
}

/* What the C host code evaluates for an argument: the symbol's name, or
 * for a struct member the user's `s->u` (IrSym.member_base). */
static const char *c_actual(const Param *a) {
  return a->sym->member_base ? a->sym->source_name : arg_name(a);
}

/* LBOUND/UBOUND: the array whose bound is passed.  The front end stands for
 * a run-time bound with a hidden scalar (IrSym.bound_of names its array);
 * a parameter may carry either that scalar or the array itself. */
static const IrSym *bound_array(const Param *a) {
  if (!a->sym) S2S_BUG("host argument without a symbol");
  return a->sym->bound_of ? a->sym->bound_of : a->sym;
}

static bool is_bound(const Param *a) {
  return a->role == PARAM_HOST_LBOUND || a->role == PARAM_HOST_UBOUND;
}

/* A module variable the routine cannot name: the kernel reads it (a callee
 * from another module uses it, as qsat reads ep2), but the routine's own
 * USE statements do not make it visible, or a local of the same name hides
 * it.  The host file then adds `use <module>, only: s2s_<name> => <name>`
 * to the routine and passes s2s_<name>. */
static bool needs_use(const IrRoutine *r, const IrSym *s) {
  /* a hidden bound scalar is passed as lbound/ubound of its array */
  if (!s->is_module || s->bound_of || ir_lookup(r, s->name) == s) return false;
  for (const IrUseName *u = r->use_names; u; u = u->hh.next)
    if (u->sym == s) return false;
  return true;
}

/* The name by which routine r's host code reaches symbol s. */
static char *host_name(const IrRoutine *r, const IrSym *s) {
  if (needs_use(r, s)) return xasprintf("s2s_%s", s->name);
  if (s->is_module && ir_lookup(r, s->name) != s)
    for (const IrUseName *u = r->use_names; u; u = u->hh.next)
      if (u->sym == s) return xstrdup(u->name);   /* renamed: `use m, only: lh => xlv` */
  return xstrdup(s->name);
}

/* The actual argument as the host file writes it.  C: an array is passed as
 * (void *), which converts to the element pointer the prototype declares
 * whatever the user's declaration (a pointer, a multi-dimensional array). */
static char *actual_text(const Program *p, const IrRoutine *r, const Param *a) {
  switch (a->role) {
  case PARAM_ARRAY:
    return p->lang == IR_C ? xasprintf("(void *)%s", c_actual(a)) : host_name(r, a->sym);
  case PARAM_SCALAR:
    return p->lang == IR_C ? xstrdup(c_actual(a)) : host_name(r, a->sym);
  case PARAM_REDUCTION:   /* the result comes back through the address */
    return p->lang == IR_C ? xasprintf("&%s", c_actual(a)) : host_name(r, a->sym);
  case PARAM_HOST_LBOUND:
  case PARAM_HOST_UBOUND: {
    if (p->lang != IR_FORTRAN) S2S_BUG("lbound/ubound argument in C");
    /* the array as this routine names it (a module array by its USE name) */
    char *array = host_name(r, bound_array(a));
    char *text = xasprintf("%s(%s, %d)", a->role == PARAM_HOST_LBOUND ? "lbound" : "ubound",
                           array, a->dim + 1);
    free(array);
    return text;
  }
  default:
    break;
  }
  S2S_BUG("host argument '%s' in kernel-only role %d", arg_name(a), (int)a->role);
}

const char *emit_param_ctype(const Param *a) {
  if (!a->ctype) S2S_BUG("parameter without a C type");
  if (!a->by_reference) return a->ctype;
  return ir_printf("%s%s *", a->read_only ? "const " : "", a->ctype);
}

/* The iso_c_binding kind of a parameter's C type; NULL for a LOGICAL, which
 * is declared type(*) (assumed type): gfortran warns that a LOGICAL dummy of
 * a bind(C) procedure may not be interoperable, and LOGICAL(c_bool) would
 * not accept the user's default LOGICAL.  The launcher reads it as a C int. */
static const char *c_kind(const Param *a) {
  static const char *const kinds[][2] = {
    { "float", "c_float" }, { "double", "c_double" }, { "int", "c_int" },
    { "long long", "c_long_long" },
  };
  if (!is_bound(a) && a->sym->type == IR_T_LOGICAL) return NULL;
  for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
    if (strcmp(a->ctype, kinds[i][0]) == 0) return kinds[i][1];
  S2S_BUG("argument '%s' has no C kind for C type '%s'", arg_name(a), a->ctype);
}

static const char *fortran_type(const char *kind) {
  return strcmp(kind, "c_float") == 0 || strcmp(kind, "c_double") == 0 ? "real" : "integer";
}

static bool same_name(const Program *p, const char *a, const char *b) {
  return p->lang == IR_FORTRAN ? strcasecmp(a, b) == 0 : strcmp(a, b) == 0;
}

/* Dummy names for a function's arguments: the user's names; bounds are
 * named by their hidden scalar, or NAME_lbD / NAME_ubD.  A name that repeats
 * one before it, or clashes with the function or the iso_c_binding names,
 * gets a suffix _2, _3...  (Interface bodies do not see their host's names,
 * so no other clash is possible.)  Fortran names longer than 63 characters
 * are not allowed: such a dummy is called s2s_aN (N its position). */
static char **dummy_names(const Program *p, const HostCall *c) {
  static const char *const reserved[] = { "c_float", "c_double", "c_int", "c_long_long",
                                          "iso_c_binding" };
  char **names = xcalloc((size_t)(c->params.n ? c->params.n : 1), sizeof *names);
  for (int i = 0; i < c->params.n; i++) {
    const Param *a = &c->params.v[i];
    char *base = is_bound(a) && !a->sym->bound_of
        ? xasprintf("%s_%s%d", arg_name(a), a->role == PARAM_HOST_LBOUND ? "lb" : "ub", a->dim + 1)
        : xstrdup(arg_name(a));
    if (p->lang == IR_FORTRAN && strlen(base) > 60) {
      free(base);
      base = xasprintf("s2s_a%d", i + 1);
    }
    char *name = xstrdup(base);
    for (int k = 2;; k++) {
      bool clash = same_name(p, name, c->function);
      for (size_t r = 0; r < sizeof reserved / sizeof *reserved && !clash; r++)
        clash = p->lang == IR_FORTRAN && same_name(p, name, reserved[r]);
      for (int j = 0; j < i && !clash; j++) clash = same_name(p, name, names[j]);
      if (!clash) break;
      free(name);
      name = xasprintf("%s_%d", base, k);
    }
    free(base);
    names[i] = name;
  }
  return names;
}

static void free_names(char **names, int n) {
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
}

/* ---- Fortran text ------------------------------------------------------------------ */

/* `prefix` followed by `pieces` joined by `joiner` and a blank (", " for
 * a list, " .and. " for a condition), then `suffix`; broken with ` &`
 * before FORTRAN_MARGIN, continuation lines indented 4 more. */
static void fortran_wrap_joined(Block *out, const char *indent, const char *prefix,
                                char **pieces, int n, const char *joiner, const char *suffix) {
  Str line = { 0 };
  str_add(&line, indent);
  str_add(&line, prefix);
  bool first_on_line = true;
  for (int i = 0; i < n; i++) {
    const char *sep = first_on_line ? "" : " ";
    bool last = i == n - 1;
    /* this piece, its joiner or the suffix, and room for a following " &" */
    size_t need = strlen(sep) + strlen(pieces[i]) + (last ? strlen(suffix) : strlen(joiner) + 2);
    if (!first_on_line && line.len + need > FORTRAN_MARGIN) {
      str_add(&line, " &");
      block_add(out, line.s);
      line = (Str){ 0 };
      str_add(&line, indent);
      str_add(&line, "    ");
      sep = "";
    }
    str_add(&line, sep);
    str_add(&line, pieces[i]);
    if (!last) str_add(&line, joiner);
    first_on_line = false;
  }
  str_add(&line, suffix);
  block_add(out, line.s);
}

static void fortran_wrap(Block *out, const char *indent, const char *prefix, char **pieces,
                         int n, const char *suffix) {
  fortran_wrap_joined(out, indent, prefix, pieces, n, ",", suffix);
}

static void fortran_call(const Program *p, const HostCall *c, const char *indent, Block *out) {
  int n = c->params.n + (c->kind == HOST_CALL_HOST_DATA);
  char **args = xcalloc((size_t)(n ? n : 1), sizeof *args);
  for (int i = 0; i < c->params.n; i++) args[i] = actual_text(p, c->routine, &c->params.v[i]);
  if (c->kind == HOST_CALL_HOST_DATA) args[n - 1] = xstrdup("s2s_device");
  char *prefix = xasprintf("call %s(", c->function);
  fortran_wrap(out, indent, prefix, args, n, ")");
  free(prefix);
  free_names(args, n);
}

/* The iso_c_binding kinds of parameters, in a fixed order: "c_float, c_int"
 * (NULL when none is needed).  `only`: just those of the arrays in
 * c->device (host_data's pointers), else every parameter's. */
static char *kind_list(const HostCall *c, bool only_device) {
  static const char *const order[] = { "c_float", "c_double", "c_int", "c_long_long" };
  bool used[4] = { false };
  for (int i = 0; i < c->params.n; i++) {
    const Param *a = &c->params.v[i];
    bool device = false;
    for (int k = 0; k < c->ndevice && a->role == PARAM_ARRAY; k++) device |= a->sym == c->device[k];
    const char *kind = only_device && !device ? NULL : c_kind(a);
    for (int j = 0; j < 4; j++)
      if (kind && strcmp(kind, order[j]) == 0) used[j] = true;
  }
  Str s = { 0 };
  for (int j = 0; j < 4; j++) {
    if (!used[j]) continue;
    if (s.len) str_add(&s, ", ");
    str_add(&s, order[j]);
  }
  return s.s;
}

/* The dummy of parameter a: what the launcher's C declaration of it
 * (emit_param_ctype) reads through the address Fortran passes. */
static char *fortran_declaration(const Param *a, const char *name, const char *indent) {
  if (!a->by_reference) S2S_BUG("Fortran parameter '%s' passed by value", arg_name(a));
  const char *kind = c_kind(a);
  const char *shape = a->role == PARAM_ARRAY ? "(*)" : "";
  if (!kind) return xasprintf("%s    type(*) :: %s%s", indent, name, shape);
  return xasprintf("%s    %s(%s) :: %s%s", indent, fortran_type(kind), kind, name, shape);
}

static void fortran_interface_body(const Program *p, const HostCall *c, const char *indent,
                                   Block *out) {
  char **names = dummy_names(p, c);
  char *prefix = xasprintf("  subroutine %s(", c->function);
  char *suffix = xasprintf(") bind(C, name=\"%s\")", c->function);
  int n = c->params.n;
  if (c->kind == HOST_CALL_HOST_DATA) { /* the addresses come back in a last argument */
    names = xrealloc(names, sizeof *names * (size_t)(n + 1));
    names[n++] = xstrdup("s2s_device");
  }
  fortran_wrap(out, indent, prefix, names, n, suffix);
  bool device = c->kind == HOST_CALL_HOST_DATA;
  char *kinds = kind_list(c, false);
  if (kinds || device)
    block_add(out, xasprintf("%s    use, intrinsic :: iso_c_binding, only: %s%s%s", indent,
                             kinds ? kinds : "", kinds && device ? ", " : "", device ? "c_ptr" : ""));
  for (int i = 0; i < c->params.n; i++)
    block_add(out, fortran_declaration(&c->params.v[i], names[i], indent));
  if (device) block_add(out, xasprintf("%s    type(c_ptr) :: s2s_device(*)", indent));
  block_add(out, xasprintf("%s  end subroutine %s", indent, c->function));
  free(kinds);
  free(prefix);
  free(suffix);
  free_names(names, n);
}

/* The indentation of the routine's declarations: that of the first line of
 * its last specification statement, or the routine statement's plus two
 * when it has none. */
static char *declaration_indent(const Text *t, const IrRoutine *r) {
  int l = r->spec_end_line;
  while (l - 1 >= r->first_line && l - 1 >= 1 && fortran_continues(t, l - 1)) l--;
  if (l > r->first_line) return indentation(t, l);
  char *ind = indentation(t, l);
  char *more = xasprintf("%s  ", ind);
  free(ind);
  return more;
}

/* ---- C text -------------------------------------------------------------------------- */

static char *c_call(const Program *p, const HostCall *c) {
  Str s = { 0 };
  str_add(&s, c->function);
  str_add(&s, "(");
  for (int i = 0; i < c->params.n; i++) {
    char *a = actual_text(p, c->routine, &c->params.v[i]);
    if (i) str_add(&s, ", ");
    str_add(&s, a);
    free(a);
  }
  if (c->kind == HOST_CALL_HOST_DATA) str_add(&s, ", s2s_device");
  str_add(&s, ");");
  return s.s;
}

static char *c_prototype(const Program *p, const HostCall *c) {
  char **names = dummy_names(p, c);
  Str s = { 0 };
  str_add(&s, "void ");
  str_add(&s, c->function);
  str_add(&s, "(");
  for (int i = 0; i < c->params.n; i++) {
    const char *type = emit_param_ctype(&c->params.v[i]);
    if (i) str_add(&s, ", ");
    str_add(&s, type);
    if (type[strlen(type) - 1] != '*') str_add(&s, " ");
    str_add(&s, names[i]);
  }
  if (c->kind == HOST_CALL_HOST_DATA) str_add(&s, ", void **s2s_device");
  str_add(&s, c->params.n ? ");" : "void);");
  free_names(names, c->params.n);
  return s.s;
}

/* The indentation a C call takes: that of the statement a region pragma
 * applies to; for data and update pragmas their own, unless they are
 * written in column 1 (as pragmas often are): then that of the next line,
 * or one level (two blanks) deeper than a closing brace that follows. */
static char *c_indent(const Text *t, const HostCall *c) {
  for (int l = c->first_line; l <= c->last_line && c->kind == HOST_CALL_REGION; l++)
    if (!starts_with_hash(t, l)) return indentation(t, l);
  char *ind = indentation(t, c->first_line);
  int l = c->last_line + 1;
  while (l <= t->nlines && !*ind && blank_line(t, l)) l++;
  if (*ind || l > t->nlines) return ind;
  free(ind);
  ind = indentation(t, l);
  if (first_char(t, l) != '}') return ind;
  char *deeper = xasprintf("%s  ", ind);
  free(ind);
  return deeper;
}

/* ---- the host pass ------------------------------------------------------------------------ */

/* Does line l start with `sentinel` (any case) followed by a blank, the end
 * of the line or, in Fortran, '&'? */
/* A line of a directive s2s-cuda reads, in either spelling (C: its
 * backslash continuations are skipped by the caller). */
static bool translator_directive_line(const Program *p, const Text *t, int l) {
  return dir_has_sentinel(t->start[l - 1], t->len[l - 1],
                          p->lang == IR_FORTRAN ? DIR_FORTRAN : DIR_C);
}

static bool c_line_continues(const Text *t, int l) {
  return t->len[l - 1] > 0 && t->start[l - 1][t->len[l - 1] - 1] == '\\';
}

/* A line of a Block that write_block turns into a line marker for user
 * line l (write_marker), or drops when there are no markers. */
#define MARKER_PREFIX '\001'
static char *marker_at(int l) { return xasprintf("%c%d", MARKER_PREFIX, l); }

/* After the launcher's call, the region's own code for the host pass
 * (rt/s2s_compare.c: host fallback and autocompare): the user's lines of
 * region c byte for byte, less the directive lines, under
 *   if (s2s_host_pass() /= 0) then ... call s2s_host_pass_end() ... end if
 * (C: if (s2s_host_pass()) { ... s2s_host_pass_end(); }). */
static void host_pass(const Program *p, const Text *t, const HostCall *c, const char *indent,
                      Block *out) {
  bool fortran = p->lang == IR_FORTRAN;
  block_add(out, xasprintf(fortran ? "%sif (s2s_host_pass() /= 0) then" : "%s  if (s2s_host_pass()) {",
                           indent));
  int next = 0; /* the user line the previous kept line was followed by */
  for (int l = c->first_line; l <= c->last_line; l++) {
    if (translator_directive_line(p, t, l)) {
      /* the directive's continuation lines go with it */
      while (l < c->last_line &&
             (fortran ? fortran_continues(t, l) : c_line_continues(t, l)))
        l++;
      continue;
    }
    if (l != next) block_add(out, marker_at(l)); /* the host compiler names the user's line */
    block_add(out, xstrndup(t->start[l - 1], t->len[l - 1]));
    next = l + 1;
  }
  for (int i = 0; i < c->params.n; i++) {
    if (c->params.v[i].role != PARAM_REDUCTION) continue;
    char *a = actual_text(p, c->routine, &c->params.v[i]);
    block_add(out, xasprintf(fortran ? "%s  call s2s_host_pass_result(%s)"
                                     : "%s    s2s_host_pass_result(%s);", indent, a));
    free(a);
  }
  block_add(out, xasprintf(fortran ? "%s  call s2s_host_pass_end()" : "%s    s2s_host_pass_end();",
                           indent));
  block_add(out, xasprintf(fortran ? "%send if" : "%s  } }", indent));
}

/* ---- host_data ------------------------------------------------------------------------ */

/* The parameter that passes array s. */
static const Param *array_param(const HostCall *c, const IrSym *s) {
  for (int i = 0; i < c->params.n; i++)
    if (c->params.v[i].role == PARAM_ARRAY && c->params.v[i].sym == s) return &c->params.v[i];
  S2S_BUG("host_data array '%s' without its parameter", s->name);
}

/* `host_data use_device(t, ...)` in Fortran: inside a BLOCK, the call
 * fills s2s_device with the device addresses; a pointer with t's bounds is
 * made from each, and an ASSOCIATE gives it t's name up to `end
 * host_data`, so the user's lines in between stay as written and pass the
 * device copy wherever they name t (an ASSOCIATE name keeps the bounds of
 * its selector, a whole array).
 *   block
 *     use, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, c_float
 *     type(c_ptr) :: s2s_device(1)
 *     real(c_float), pointer, contiguous :: s2s_device_1(:,:,:), s2s_shape_1(:,:,:)
 *     call s2s_main_h1(t, ..., s2s_device)
 *     call c_f_pointer(s2s_device(1), s2s_shape_1, [size(t, 1), size(t, 2), size(t, 3)])
 *     s2s_device_1(lbound(t, 1):, lbound(t, 2):, lbound(t, 3):) => s2s_shape_1
 *     associate (t => s2s_device_1)
 * and `end host_data` by `end associate`, `call s2s_main_h1_end(t, ...)` (t is
 * the host's array again), `end block`.  An assumed-size last dimension takes
 * extent 1 (only the address matters). */
static void fortran_host_data(const Program *p, const HostCall *c, const char *ind, Block *out) {
  const IrRoutine *r = c->routine;
  char *in = xasprintf("%s  ", ind);
  char *kinds = kind_list(c, true); /* never NULL: the arrays are integers or reals */
  block_add(out, xasprintf("%sblock", ind));
  block_add(out, xasprintf("%suse, intrinsic :: iso_c_binding, only: c_ptr, c_f_pointer, %s", in,
                           kinds));
  free(kinds);
  block_add(out, xasprintf("%stype(c_ptr) :: s2s_device(%d)", in, c->ndevice));
  for (int k = 0; k < c->ndevice; k++) {
    const IrSym *s = c->device[k];
    const char *kind = c_kind(array_param(c, s));
    Str shape = { 0 };
    for (int d = 0; d < s->rank; d++) str_add(&shape, d ? ",:" : ":");
    block_add(out, xasprintf("%s%s(%s), pointer, contiguous :: s2s_device_%d(%s), s2s_shape_%d(%s)",
                             in, fortran_type(kind), kind, k + 1, shape.s, k + 1, shape.s));
    free(shape.s);
  }
  /* An array whose shape comes at run time (assumed shape, allocatable)
   * may be a strided section: then the call would get a temporary copy,
   * and the construct the device address of nothing.  Stop instead. */
  for (int k = 0; k < c->ndevice; k++) {
    const IrSym *s = c->device[k];
    if (!s->rank || !s->lo[0] || s->lo[0]->kind != IR_E_VAR || !s->lo[0]->u.var->bound_of)
      continue;
    char *name = host_name(r, s);
    block_add(out, xasprintf("%sif (.not. is_contiguous(%s)) error stop &", in, name));
    block_add(out, xasprintf("%s  's2s-cuda: host_data (line %d): ''%s'' is not contiguous, so it "
                             "has no device copy of its own'", in, c->first_line, s->name));
    free(name);
  }
  fortran_call(p, c, in, out);
  char **pieces = xcalloc((size_t)c->ndevice + IR_MAX_RANK, sizeof *pieces);
  for (int k = 0; k < c->ndevice; k++) {
    const IrSym *s = c->device[k];
    char *name = host_name(r, s);
    for (int d = 0; d < s->rank; d++)
      pieces[d] = s->hi[d] ? xasprintf("size(%s, %d)", name, d + 1) : xstrdup("1");
    char *prefix = xasprintf("call c_f_pointer(s2s_device(%d), s2s_shape_%d, [", k + 1, k + 1);
    fortran_wrap(out, in, prefix, pieces, s->rank, "])");
    free(prefix);
    for (int d = 0; d < s->rank; d++) {
      free(pieces[d]);
      pieces[d] = xasprintf("lbound(%s, %d):", name, d + 1);
    }
    prefix = xasprintf("s2s_device_%d(", k + 1);
    char *suffix = xasprintf(") => s2s_shape_%d", k + 1);
    fortran_wrap(out, in, prefix, pieces, s->rank, suffix);
    for (int d = 0; d < s->rank; d++) free(pieces[d]);
    free(prefix);
    free(suffix);
    free(name);
  }
  for (int k = 0; k < c->ndevice; k++) {
    char *name = host_name(r, c->device[k]);
    pieces[k] = xasprintf("%s => s2s_device_%d", name, k + 1);
    free(name);
  }
  fortran_wrap(out, in, "associate (", pieces, c->ndevice, ")");
  free_names(pieces, c->ndevice);
  free(in);
}

/* The same in C: a block where each array's name is a pointer to its
 * device copy, of the type `&a[0]` has (so a[i][j] indexes as before),
 *   { void *s2s_device[1]; s2s_f_h1((void *)a, s2s_device);
 *     __typeof__(&(a)[0]) s2s_device_1 = s2s_device[0];
 *     { __typeof__(s2s_device_1) a = s2s_device_1;
 * closed after the statement host_data applies to by `} s2s_f_h1_end((void *)a); }`
 * (the end call sees the host's a again). */
static void c_host_data(const Program *p, const HostCall *c, const char *ind, Block *out) {
  char *call = c_call(p, c);
  block_add(out, xasprintf("%s{ void *s2s_device[%d]; %s", ind, c->ndevice, call));
  free(call);
  for (int k = 0; k < c->ndevice; k++)
    block_add(out, xasprintf("%s  __typeof__(&(%s)[0]) s2s_device_%d = s2s_device[%d];", ind,
                             c->device[k]->name, k + 1, k));
  Str shadows = { 0 };
  for (int k = 0; k < c->ndevice; k++) {
    char *one = xasprintf(" __typeof__(s2s_device_%d) %s = s2s_device_%d;", k + 1,
                          c->device[k]->name, k + 1);
    str_add(&shadows, one);
    free(one);
  }
  block_add(out, xasprintf("%s  {%s", ind, shadows.s));
  free(shadows.s);
}

/* ---- planning --------------------------------------------------------------------------- */

static void check_line(const Text *t, const HostCall *c, int line) {
  if (line < 1 || line > t->nlines)
    S2S_BUG("host call %s: line %d outside the file (1..%d)", c->function, line, t->nlines);
}

static void plan_call(const Program *p, const Text *t, const HostCall *c, Edits *e) {
  if (!c->routine) S2S_BUG("host call %s without a routine", c->function);
  if (p->lang == IR_C && (c->kind == HOST_CALL_DATA_END || c->kind == HOST_CALL_HOST_DATA_END)) {
    check_line(t, c, c->stmt_last_line);
    char *ind = indentation(t, c->stmt_last_line);
    Edit *d = edit_add(e, c->stmt_last_line, EDIT_AFTER, 0);
    d->seq = -d->seq; /* nested data on one statement: the inner one closes first */
    char *call = c_call(p, c);
    /* host_data: the call after the block where the names stood for the device copies */
    block_add(&d->text, xasprintf(c->kind == HOST_CALL_HOST_DATA_END ? "%s} %s }" : "%s%s }",
                                  ind, call));
    free(call);
    free(ind);
    return;
  }
  check_line(t, c, c->first_line);
  check_line(t, c, c->last_line);
  if (c->last_line < c->first_line) S2S_BUG("host call %s: empty line range", c->function);
  Edit *d = edit_add(e, c->first_line, EDIT_REPLACE, c->last_line);
  if (p->lang == IR_FORTRAN) {
    char *ind = fortran_indent(t, c);
    if (c->kind == HOST_CALL_HOST_DATA) {
      fortran_host_data(p, c, ind, &d->text);
    } else if (c->kind == HOST_CALL_HOST_DATA_END) {
      block_add(&d->text, xasprintf("%s  end associate", ind));
      char *in = xasprintf("%s  ", ind);
      fortran_call(p, c, in, &d->text);
      free(in);
      block_add(&d->text, xasprintf("%send block", ind));
    } else {
      fortran_call(p, c, ind, &d->text);
      if (c->kind == HOST_CALL_REGION) host_pass(p, t, c, ind, &d->text);
    }
    free(ind);
  } else if (c->kind == HOST_CALL_HOST_DATA) {
    char *ind = c_indent(t, c);
    c_host_data(p, c, ind, &d->text);
    free(ind);
  } else {
    char *ind = c_indent(t, c);
    char *call = c_call(p, c);
    /* braces: the call and its host pass stay one statement (an unbraced if's body) */
    bool brace = c->kind == HOST_CALL_DATA_BEGIN || c->kind == HOST_CALL_REGION;
    block_add(&d->text, xasprintf("%s%s%s", ind, brace ? "{ " : "", call));
    if (c->kind == HOST_CALL_REGION) host_pass(p, t, c, ind, &d->text);
    free(call);
    free(ind);
  }
}

/* Is call d another kernel variant of the region whose variant c is? */
static bool same_region_variant(const HostCall *c, const HostCall *d) {
  return d->variant && d->kind == HOST_CALL_REGION && d->routine == c->routine &&
         d->first_line == c->first_line && d->last_line == c->last_line;
}

/* The test that selects variant v: `present(a) .and. .not. present(b)`. */
static void variant_test(Block *out, const char *indent, const char *prefix,
                         const IrVariant *v) {
  char **terms = xcalloc((size_t)v->ntested, sizeof *terms);
  for (int i = 0; i < v->ntested; i++)
    terms[i] = xasprintf("%spresent(%s)", v->present[i] ? "" : ".not. ", v->tested[i]->name);
  fortran_wrap_joined(out, indent, prefix, terms, v->ntested, " .and.", ") then");
  free_names(terms, v->ntested);
}

/* The kernel variants of one region (calls[from] is its first): the host
 * tests presence and calls the launcher that matches,
 *   if (present(qs)) then / call s2s_x_r1_v1(...) / else / call s2s_x_r1_v2(...) / end if
 * the last variant (every tested argument absent) under ELSE. */
static void plan_variant_calls(const Program *p, const Text *t, const HostCalls *calls, int from,
                               Edits *e) {
  const HostCall *c = calls->v[from];
  if (p->lang != IR_FORTRAN) S2S_BUG("kernel variants of a C region %s", c->function);
  check_line(t, c, c->first_line);
  check_line(t, c, c->last_line);
  Edit *d = edit_add(e, c->first_line, EDIT_REPLACE, c->last_line);
  char *ind = fortran_indent(t, c);
  char *inner = xasprintf("%s  ", ind);
  for (int i = from; i < calls->n; i++) {
    const HostCall *v = calls->v[i];
    if (!same_region_variant(c, v)) continue;
    if (v->variant->index == v->variant->count)
      block_add(&d->text, xasprintf("%selse", ind));
    else
      variant_test(&d->text, ind, v->variant->index == 1 ? "if (" : "else if (", v->variant);
    fortran_call(p, v, inner, &d->text);
  }
  block_add(&d->text, xasprintf("%send if", ind));
  host_pass(p, t, c, ind, &d->text);
  free(inner);
  free(ind);
}

/* Has an earlier call of the same routine the same function? */
static bool seen_function(const HostCalls *calls, int i) {
  for (int j = 0; j < i; j++)
    if (calls->v[j]->routine == calls->v[i]->routine &&
        strcmp(calls->v[j]->function, calls->v[i]->function) == 0)
      return true;
  return false;
}

static bool seen_routine(const HostCalls *calls, int i) {
  for (int j = 0; j < i; j++)
    if (calls->v[j]->routine == calls->v[i]->routine) return true;
  return false;
}

/* The USE statements that make visible the module variables routine r
 * passes to its launchers without naming them itself (needs_use): right
 * after the routine statement, where a USE is always allowed (before
 * IMPLICIT and the declarations). */
static void plan_module_uses(const Program *p, const Text *t, const HostCalls *calls, int from,
                             Edits *e) {
  const IrRoutine *r = calls->v[from]->routine;
  IrSymSet added = { 0 };
  Edit *d = NULL;
  char *ind = NULL;
  for (int i = from; i < calls->n; i++) {
    if (calls->v[i]->routine != r) continue;
    for (int k = 0; k < calls->v[i]->params.n; k++) {
      IrSym *s = calls->v[i]->params.v[k].sym;
      if (!s || !needs_use(r, s) || !ir_symset_add(&added, s)) continue;
      const IrModule *m = ir_module_of(p, s);
      if (!m) S2S_BUG("module variable '%s' of no module", s->name);
      if (!d) {
        int l = r->first_line;
        while (l < t->nlines && fortran_continues(t, l)) l++;
        d = edit_add(e, l, EDIT_AFTER, 0);
        ind = declaration_indent(t, r);
      }
      block_add(&d->text, xasprintf("%suse %s, only: s2s_%s => %s", ind, m->name, s->name,
                                    s->name));
    }
  }
  free(ind);
}

/* The interface block (Fortran) or prototypes (C) of routine r, made of
 * the calls from index `from` on that belong to it. */
static void plan_declarations(const Program *p, const Text *t, const HostCalls *calls, int from,
                              Edits *e) {
  const IrRoutine *r = calls->v[from]->routine;
  if (r->spec_end_line < 1 || r->spec_end_line > t->nlines)
    S2S_BUG("routine %s: spec_end_line %d outside the file", r->name, r->spec_end_line);
  bool regions = false; /* the host pass's runtime functions are needed */
  for (int i = from; i < calls->n; i++)
    regions |= calls->v[i]->routine == r && calls->v[i]->kind == HOST_CALL_REGION;
  if (p->lang == IR_C) {
    Edit *d = edit_add(e, r->spec_end_line, EDIT_BEFORE, 0);
    for (int i = from; i < calls->n; i++)
      if (calls->v[i]->routine == r && !seen_function(calls, i))
        block_add(&d->text, c_prototype(p, calls->v[i]));
    if (regions) {
      block_add(&d->text, xstrdup("int s2s_host_pass(void);"));
      block_add(&d->text, xstrdup("void s2s_host_pass_end(void);"));
      block_add(&d->text, xstrdup("void s2s_host_pass_result(const void *);"));
    }
    return;
  }
  plan_module_uses(p, t, calls, from, e);
  Edit *d = edit_add(e, r->spec_end_line, EDIT_AFTER, 0);
  char *ind = declaration_indent(t, r);
  block_add(&d->text, xasprintf("%sinterface", ind));
  for (int i = from; i < calls->n; i++)
    if (calls->v[i]->routine == r && !seen_function(calls, i))
      fortran_interface_body(p, calls->v[i], ind, &d->text);
  if (regions) {
    block_add(&d->text, xasprintf("%s  integer(c_int) function s2s_host_pass() bind(C, name=\"s2s_host_pass\")", ind));
    block_add(&d->text, xasprintf("%s    use, intrinsic :: iso_c_binding, only: c_int", ind));
    block_add(&d->text, xasprintf("%s  end function s2s_host_pass", ind));
    block_add(&d->text, xasprintf("%s  subroutine s2s_host_pass_end() bind(C, name=\"s2s_host_pass_end\")", ind));
    block_add(&d->text, xasprintf("%s  end subroutine s2s_host_pass_end", ind));
    block_add(&d->text, xasprintf("%s  subroutine s2s_host_pass_result(x) bind(C, name=\"s2s_host_pass_result\")", ind));
    block_add(&d->text, xasprintf("%s    type(*) :: x", ind));
    block_add(&d->text, xasprintf("%s  end subroutine s2s_host_pass_result", ind));
  }
  block_add(&d->text, xasprintf("%send interface", ind));
  free(ind);
}

/* Replaced ranges must not overlap, and nothing may be inserted inside one. */
static void check_edits(const Edits *e) {
  for (int i = 0; i < e->n; i++) {
    const Edit *a = &e->v[i];
    if (a->phase != EDIT_REPLACE) continue;
    for (int j = 0; j < e->n; j++) {
      const Edit *b = &e->v[j];
      if (i == j) continue;
      bool inside = b->phase == EDIT_REPLACE
          ? b->line >= a->line && b->line <= a->last
          : b->phase == EDIT_BEFORE ? b->line > a->line && b->line <= a->last
                                    : b->line >= a->line && b->line < a->last;
      if (inside)
        S2S_BUG("host edits overlap: lines %d-%d and an edit at line %d", a->line, a->last,
                b->line);
    }
  }
}

/* ---- writing ------------------------------------------------------------------------------ */

typedef struct Writer {
  FILE *out;
  const char *eol;
  bool open_line; /* the last thing written is a line without its line end */
  const char *marker_file; /* with line markers: the user's file, escaped; else NULL */
  IrLang lang;
} Writer;

static void write_line(Writer *w, const char *s, size_t len, size_t eol_len, const char *eol) {
  fwrite(s, 1, len, w->out);
  fwrite(eol, 1, eol_len, w->out);
  w->open_line = eol_len == 0;
}

/* Generated lines; `last_eol` is the line end of the last one (the
 * replaced line's own, which may be none at the end of the file). */
static void write_marker(Writer *w, int line);

static void write_block(Writer *w, const Block *b, const char *last_eol) {
  for (int i = 0; i < b->n; i++) {
    const char *eol = i == b->n - 1 ? last_eol : w->eol;
    if (b->v[i][0] == MARKER_PREFIX) write_marker(w, atoi(b->v[i] + 1));
    else write_line(w, b->v[i], strlen(b->v[i]), strlen(eol), eol);
  }
}

/* Lines inserted after a line that had no line end (the last of the file)
 * start a new line, and leave the file still without a final newline. */
static void write_insertion(Writer *w, const Block *b) {
  if (!w->open_line) {
    write_block(w, b, w->eol);
    return;
  }
  fputs(w->eol, w->out);
  write_block(w, b, "");
}

/* Line markers: the host compiler's messages name the user's file and
 * line, not the generated file's.  C: `#line N "x.c"`; Fortran: the
 * linemarker `# N "x.f90"` that cpp writes, which gfortran reads in every
 * file, preprocessed or not (it warns about `#line` without -cpp), and
 * which cpp passes on for .F90 hosts.  A marker says which user line the
 * next line is: one opens the file and one follows every edit, so the
 * user's lines keep their numbers; generated lines count on from the line
 * before them (a call: the directive's line). */
static void write_marker(Writer *w, int line) {
  if (!w->marker_file || w->open_line) return;
  fprintf(w->out, "%s %d \"%s\"%s", w->lang == IR_C ? "#line" : "#", line, w->marker_file, w->eol);
}

static void write_text(Writer *w, const Text *t, const Edits *e) {
  int k = 0;
  write_marker(w, 1);
  for (int l = 1; l <= t->nlines; l++) {
    for (; k < e->n && e->v[k].line == l && e->v[k].phase == EDIT_BEFORE; k++)
      write_block(w, &e->v[k].text, w->eol);
    if (k > 0 && e->v[k - 1].line == l && e->v[k - 1].phase == EDIT_BEFORE) write_marker(w, l);
    int last = l;
    if (k < e->n && e->v[k].line == l && e->v[k].phase == EDIT_REPLACE) {
      const Edit *d = &e->v[k++];
      last = d->last;
      const char *eol = t->eol_len[last - 1] == 2 ? "\r\n" : t->eol_len[last - 1] == 1 ? "\n" : "";
      write_block(w, &d->text, eol);
      if (last < t->nlines && !(k < e->n && e->v[k].line == last && e->v[k].phase == EDIT_AFTER))
        write_marker(w, last + 1);
    } else {
      write_line(w, t->start[l - 1], t->len[l - 1], t->eol_len[l - 1],
                 t->eol_len[l - 1] ? t->start[l - 1] + t->len[l - 1] : "");
    }
    bool inserted = false;
    for (; k < e->n && e->v[k].line == last && e->v[k].phase == EDIT_AFTER; k++) {
      write_insertion(w, &e->v[k].text);
      inserted = true;
    }
    if (inserted && last < t->nlines) write_marker(w, last + 1);
    l = last;
  }
}

bool emit_host(const Program *p, const char *orig, size_t len, const HostCalls *calls, FILE *out) {
  return emit_host_with(p, orig, len, calls, out, false);
}

bool emit_host_with(const Program *p, const char *orig, size_t len, const HostCalls *calls,
                    FILE *out, bool line_markers) {
  Text t;
  text_split(&t, orig, len);
  Edits e = { 0 };
  for (int i = 0; i < calls->n; i++) {
    const IrVariant *v = calls->v[i]->variant;
    if (!v) plan_call(p, &t, calls->v[i], &e);
    else if (v->index == 1) plan_variant_calls(p, &t, calls, i, &e);
  }
  for (int i = 0; i < calls->n; i++)
    if (!seen_routine(calls, i)) plan_declarations(p, &t, calls, i, &e);
  if (e.n) qsort(e.v, (size_t)e.n, sizeof *e.v, edit_cmp);
  check_edits(&e);
  char *marker_file = line_markers ? emit_c_string_body(p->path) : NULL;
  Writer w = { .out = out, .eol = t.eol, .marker_file = marker_file, .lang = p->lang };
  write_text(&w, &t, &e);
  free(marker_file);
  for (int i = 0; i < e.n; i++) block_free(&e.v[i].text);
  free(e.v);
  text_free(&t);
  return !ferror(out);
}
