/* source.c — read an input, refuse fixed form, run cpp, build the line map.
 *
 * The preprocessors keep what the front ends need:
 *   - Fortran: `gfortran -E -cpp` (traditional mode) leaves `!` comments,
 *     `!$stencil` lines among them, alone, and `//` (concatenation) is not a
 *     comment to it; it removes C comments as gfortran -cpp itself does.
 *   - C: `gcc -E -x c` (or $CPP) keeps `#pragma stencil` lines.
 * Both write `# N "file" flags` markers; they are read into the line map
 * (diag_map_line) and taken out of the text, so the front end parses plain
 * code and every diagnostic still names the user's file and line.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* POSIX.1-2008 and realpath, also when built outside the Makefile */
#endif
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif

#include "source.h"

#include <ctype.h>
#include <strings.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_driver.h"


/* ---- reading ------------------------------------------------------------- */

/* The whole file, NUL-terminated, or NULL with errno set. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = xmalloc(cap);
  for (;;) {
    if (cap - n < 2) buf = xrealloc(buf, cap *= 2);
    size_t got = fread(buf + n, 1, cap - n - 1, f);
    n += got;
    if (got == 0) break;
  }
  int err = ferror(f) ? errno : 0;
  fclose(f);
  if (err) {
    free(buf);
    errno = err;
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

/* ---- lines --------------------------------------------------------------- */

typedef struct Line {
  const char *s;
  size_t len;   /* without "\n" or "\r\n" */
} Line;

/* The line starting at *pos; advances *pos past its end of line.  False at
 * the end of the text. */
static bool next_line(const char *text, size_t len, size_t *pos, Line *line) {
  if (*pos >= len) return false;
  const char *s = text + *pos;
  const char *nl = memchr(s, '\n', len - *pos);
  size_t n = nl ? (size_t)(nl - s) : len - *pos;
  *pos += nl ? n + 1 : n;
  if (n > 0 && s[n - 1] == '\r') n--;
  *line = (Line){ s, n };
  return true;
}

static bool blank_line(Line l) {
  for (size_t i = 0; i < l.len; i++)
    if (l.s[i] != ' ' && l.s[i] != '\t') return false;
  return true;
}

/* ---- fixed form ---------------------------------------------------------- */

/* Does free-form code line `l` end with a continuation `&` (before any `!`
 * comment)?  Strings are skipped so that a `!` or `&` inside one does not
 * count. */
static bool continues(Line l) {
  char quote = 0;
  size_t last = 0;
  bool any = false;
  for (size_t i = 0; i < l.len; i++) {
    char c = l.s[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    else if (c == '!') break;
    if (c != ' ' && c != '\t') last = i, any = true;
  }
  return any && l.s[last] == '&';
}

/* A `C`/`c` in column 1 opens a fixed-form comment unless the line is free-form
 * code about a variable named c (`c = 1`, `c(i) = 2`, `c%x = 3`) or a
 * statement beginning with c (`call`, `contains`, `character`...). */
static bool c_comment(Line l) {
  if (l.len == 1) return true;
  size_t i = 1;
  if (l.s[1] != ' ' && l.s[1] != '\t')
    return !(isalnum((unsigned char)l.s[1]) || strchr("_=(%[", l.s[1]));
  while (i < l.len && (l.s[i] == ' ' || l.s[i] == '\t')) i++;
  return i == l.len || !strchr("=(%[", l.s[i]);
}

/* cols 1-5 blank and a mark in column 6 that free form cannot start a
 * statement with. */
static bool column6_continuation(Line l) {
  if (l.len < 6) return false;
  for (int i = 0; i < 5; i++)
    if (l.s[i] != ' ') return false;
  return strchr("$+&*.", l.s[5]) && l.s[5] != '\0';
}

int source_fixed_form_line(const char *text, size_t len) {
  size_t pos = 0;
  Line l;
  bool continued = false; /* the previous code line ended with '&' */
  for (int n = 1; next_line(text, len, &pos, &l); n++) {
    if (blank_line(l) || l.s[0] == '#') continue;
    size_t i = 0;
    while (i < l.len && (l.s[i] == ' ' || l.s[i] == '\t')) i++;
    if (l.s[i] == '!') continue; /* a free-form comment line (also `!` in column 1) */
    if (!continued) {
      if (l.s[0] == '*') return n;
      if ((l.s[0] == 'C' || l.s[0] == 'c') && c_comment(l)) return n;
      if (column6_continuation(l)) return n;
    }
    continued = continues(l);
  }
  return 0;
}

/* A fixed-form directive line: `c$acc`, `C$ACC`, `*$acc` or `!$acc` in
 * column 1 (PGI's spellings; `$stencil` likewise), or `!$acc` after blanks;
 * the sentinel's length, 0 when the line is none. */
static size_t fixed_form_sentinel(Line l) {
  static const char *const words[] = { "$acc", "$stencil" };
  size_t i = 0;
  if (l.len == 0) return 0;
  if (l.s[0] != 'c' && l.s[0] != 'C' && l.s[0] != '*')
    while (i < l.len && (l.s[i] == ' ' || l.s[i] == '\t')) i++;
  if (i == l.len || !strchr("cC*!", l.s[i]) || (i > 0 && l.s[i] != '!')) return 0;
  for (size_t k = 0; k < sizeof words / sizeof *words; k++) {
    size_t n = strlen(words[k]);
    if (l.len - i - 1 < n || strncasecmp(l.s + i + 1, words[k], n) != 0) continue;
    size_t end = i + 1 + n;
    if (end == l.len || !(isalnum((unsigned char)l.s[end]) || l.s[end] == '_')) return end;
  }
  return 0;
}

int source_fixed_form_directive_line(const char *text, size_t len, char *sentinel, size_t size) {
  size_t pos = 0;
  Line l;
  for (int n = 1; next_line(text, len, &pos, &l); n++) {
    size_t end = fixed_form_sentinel(l);
    if (!end) continue;
    if (sentinel && size) {
      size_t from = 0;
      while (l.s[from] == ' ' || l.s[from] == '\t') from++;
      snprintf(sentinel, size, "%.*s", (int)(end - from), l.s + from);
    }
    return n;
  }
  return 0;
}

bool source_fixed_form_has_directive(const char *path) {
  size_t len;
  char *text = read_file(path, &len);
  if (!text) return true; /* the translation reports it */
  bool found = source_fixed_form_directive_line(text, len, NULL, 0) != 0;
  free(text);
  return found;
}

/* Fortran with `#if`, `#define`, `#include`... in column 1 must go through
 * cpp whatever its name (gfortran would need -cpp too). */
static bool has_cpp_directives(const char *text, size_t len) {
  static const char *const words[] = { "if", "ifdef", "ifndef", "elif", "else", "endif",
                                       "define", "undef", "include", "error", "warning" };
  size_t pos = 0;
  Line l;
  while (next_line(text, len, &pos, &l)) {
    if (l.len == 0 || l.s[0] != '#') continue;
    size_t i = 1;
    while (i < l.len && (l.s[i] == ' ' || l.s[i] == '\t')) i++;
    size_t j = i;
    while (j < l.len && isalpha((unsigned char)l.s[j])) j++;
    for (size_t k = 0; k < sizeof words / sizeof *words; k++)
      if (j - i == strlen(words[k]) && memcmp(l.s + i, words[k], j - i) == 0) return true;
  }
  return false;
}

/* ---- line markers -------------------------------------------------------- */

bool source_parse_marker(const char *s, size_t len, int *line, char **file) {
  size_t i = 0;
  *file = NULL;
  if (i >= len || s[i] != '#') return false;
  i++;
  while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
  if (len - i >= 4 && memcmp(s + i, "line", 4) == 0) {
    i += 4;
    if (i < len && s[i] != ' ' && s[i] != '\t') return false;
    while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
  }
  if (i >= len || !isdigit((unsigned char)s[i])) return false;
  long n = 0;
  while (i < len && isdigit((unsigned char)s[i])) {
    n = n * 10 + (s[i++] - '0');
    if (n > 1000000000) return false;
  }
  while (i < len && (s[i] == ' ' || s[i] == '\t')) i++;
  *line = (int)n;
  if (i >= len || s[i] != '"') return i >= len;
  char *name = xmalloc(len - i);
  size_t k = 0;
  for (i++; i < len && s[i] != '"'; i++) {
    if (s[i] == '\\' && i + 1 < len) i++;
    name[k++] = s[i];
  }
  name[k] = '\0';
  if (i >= len) {
    free(name);
    return false;
  }
  *file = name;
  return true;
}

/* ---- the preprocessor ---------------------------------------------------- */

static void preprocessor_command(const Options *o, const Source *src, ArgList *cmd) {
  if (src->fortran) {
    build_tool_words(cmd, "S2S_FPP", S2S_DEFAULT_FC);
    arglist_push(cmd, "-E");
    arglist_push(cmd, "-cpp");
  } else if (getenv("CPP") && *getenv("CPP")) {
    build_tool_words(cmd, "CPP", "cpp");
  } else {
    build_tool_words(cmd, "CC", S2S_DEFAULT_CC);
    arglist_push(cmd, "-E");
    arglist_push(cmd, "-x");
    arglist_push(cmd, "c");
  }
  for (int i = 0; i < o->cpp_args.n; i++) arglist_push(cmd, o->cpp_args.v[i]);
  if (src->path[0] == '-') { /* a file named after `--`: not an option to cpp */
    char *p = xasprintf("./%s", src->path);
    arglist_push(cmd, p);
    free(p);
  } else {
    arglist_push(cmd, src->path);
  }
}

/* Copy cpp's output without its markers into a new buffer, and remember for
 * every kept line where it came from (names malloc'ed). */
typedef struct Mapped {
  char *text;
  size_t len;
  int nlines;
  char **file;
  int *line;
} Mapped;

static void strip_markers(const char *out, size_t len, const char *path, Mapped *m) {
  m->text = xmalloc(len + 1);
  m->len = 0;
  m->nlines = 0;
  int cap = 1024;
  m->file = xmalloc(sizeof *m->file * (size_t)cap);
  m->line = xmalloc(sizeof *m->line * (size_t)cap);
  char *cur_file = xstrdup(path);
  int cur_line = 1;
  size_t pos = 0, start = 0;
  Line l;
  for (; next_line(out, len, &pos, &l); start = pos) {
    int n;
    char *name;
    if (source_parse_marker(l.s, l.len, &n, &name)) {
      if (name) free(cur_file), cur_file = name;
      cur_line = n;
      continue;
    }
    memcpy(m->text + m->len, out + start, pos - start); /* with its own end of line */
    m->len += pos - start;
    if (m->nlines == cap) {
      cap *= 2;
      m->file = xrealloc(m->file, sizeof *m->file * (size_t)cap);
      m->line = xrealloc(m->line, sizeof *m->line * (size_t)cap);
    }
    m->file[m->nlines] = xstrdup(cur_file);
    m->line[m->nlines++] = cur_line++;
  }
  m->text[m->len] = '\0';
  free(cur_file);
}

static bool preprocess(const Options *o, Source *src) {
  ArgList cmd = { 0 };
  preprocessor_command(o, src, &cmd);
  char *out = NULL;
  size_t len = 0;
  int status = build_run(arglist_argv(&cmd), o->verbose, &out, &len);
  char *tool = xstrdup(cmd.v[0]);
  arglist_free(&cmd);
  if (status != 0) {
    if (status > 0)
      diag_plain(DIAG_ERROR, "preprocessing '%s' failed (%s exited with status %d)", src->path,
                 tool, status);
    else
      diag_plain(DIAG_ERROR, "preprocessing '%s' failed", src->path);
    free(tool);
    free(out);
    return false;
  }
  free(tool);
  Mapped m;
  strip_markers(out, len, src->path, &m);
  free(out);
  src->file = diag_add_source(xstrdup(src->path), m.text, m.len);
  for (int l = 0; l < m.nlines; l++) {
    diag_map_line(src->file, l + 1, m.file[l], m.line[l]);
    free(m.file[l]);
  }
  free(m.file);
  free(m.line);
  src->preprocessed = true;
  return true;
}

/* ---- loading ------------------------------------------------------------- */

bool source_load(const Options *o, const Input *in, Source *src) {
  memset(src, 0, sizeof *src);
  src->path = in->path;
  src->fortran = in->kind != INPUT_C;
  if (in->kind == INPUT_FIXED_FORM) {
    /* Name a directive line when there is one: PGI ports spell them c$acc. */
    size_t flen;
    char *text = read_file(in->path, &flen), sentinel[16];
    int at = text ? source_fixed_form_directive_line(text, flen, sentinel, sizeof sentinel) : 0;
    free(text);
    if (at)
      diag_plain(DIAG_ERROR, "'%s': fixed-form Fortran is not supported; convert the file to "
                 "free form (and name it .f90); its directives (such as '%s' at line %d) are "
                 "then read when written '!%s' in any column, a continuation line as "
                 "'!%s&'", in->path, sentinel, at, sentinel + 1, sentinel + 1);
    else
      diag_plain(DIAG_ERROR, "'%s': fixed-form Fortran is not supported; convert the file to free "
                 "form (and name it .f90)", in->path);
    return false;
  }
  size_t len;
  char *text = read_file(in->path, &len);
  if (!text) {
    diag_plain(DIAG_ERROR, "cannot read '%s': %s", in->path, strerror(errno));
    return false;
  }
  return source_load_text(o, in, text, len, src);
}

bool source_load_text(const Options *o, const Input *in, char *text, size_t len, Source *src) {
  memset(src, 0, sizeof *src);
  src->path = in->path;
  src->fortran = in->kind != INPUT_C;
  src->orig_file = src->file = diag_add_source(xstrdup(in->path), text, len);
  src->orig = text;
  src->orig_len = len;
  const char *nul = memchr(text, '\0', len);
  if (nul) {
    /* the parsers and the line printer stop at a NUL: say it, where it is */
    int line = 1;
    const char *bol = text;
    for (const char *c = text; c < nul; c++)
      if (*c == '\n') line++, bol = c + 1;
    diag_at(DIAG_ERROR, (Loc){ src->orig_file, line, (int)(nul - bol) + 1 }, 1,
            "a NUL byte: this is not a text file, or an editor damaged it; remove the byte");
    return false;
  }
  if (src->fortran) {
    int line = source_fixed_form_line(text, len);
    if (line) {
      diag_at(DIAG_ERROR, (Loc){ src->orig_file, line, 1 }, 1,
              "fixed-form Fortran is not supported; convert the file to free form");
      return false;
    }
  }
  bool cpp = in->cpp || (src->fortran && !o->nocpp && has_cpp_directives(text, len));
  return !cpp || preprocess(o, src);
}
