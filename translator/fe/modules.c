/* modules.c — summaries of Fortran modules and procedures (modules.h).
 *
 * Writing: the units of a parsed file are the top-level `module`,
 * `subroutine` and `function` nodes of its CST; each summary is the text of
 * the unit's lines, as the front end parsed them (after preprocessing), so
 * that reading it back is parsing Fortran again.  Reading: this file finds
 * and reads the text; fe_fortran.c lowers it.
 *
 * The order of a run's inputs comes from a line scan, not a parse: it runs
 * before the preprocessor (which needs the options of each input) and only
 * has to see `module NAME`, `use NAME`, `subroutine NAME` and `call NAME`
 * lines; a name it misses only costs the order, never correctness (the
 * front end then reports the module as not found).
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE /* POSIX.1-2008 (mkstemp, getcwd), also when built outside the Makefile */
#endif
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <tree_sitter/api.h>

#include "diag.h"
#include "modules.h"

const TSLanguage *tree_sitter_fortran(void);

static const char *const unit_word[] = { "module", "procedure" };
static const char *const unit_suffix[] = { ".s2smod", ".s2sproc" };

/* ---- names ---------------------------------------------------------------- */

static void names_add(FeNames *l, const char *name, size_t n)
{
  for (int i = 0; i < l->n; i++)
    if (strlen(l->v[i]) == n && !strncmp(l->v[i], name, n))
      return;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->v = xrealloc(l->v, sizeof *l->v * (size_t)l->cap);
  }
  l->v[l->n++] = xstrndup(name, n);
}

static bool names_has(const FeNames *l, const char *name)
{
  for (int i = 0; l && i < l->n; i++)
    if (!strcmp(l->v[i], name))
      return true;
  return false;
}

void fe_names_free(FeNames *l)
{
  for (int i = 0; i < l->n; i++)
    free(l->v[i]);
  free(l->v);
  memset(l, 0, sizeof *l);
}

void fe_units_free(FeUnits *u)
{
  fe_names_free(&u->modules);
  fe_names_free(&u->uses);
  fe_names_free(&u->procedures);
  fe_names_free(&u->calls);
}

/* ---- configuration and what this run wrote ------------------------------------ */

typedef enum UnitState { UNIT_EXPECTED, UNIT_WRITTEN, UNIT_FAILED } UnitState;

typedef struct RunUnit {
  FeUnitKind kind;
  char *name;
  char *input;        /* the input of this run that defines it, or NULL */
  UnitState state;
  char *text;         /* UNIT_WRITTEN: the summary */
  size_t len;
  char *path;         /* ... and where it was written */
} RunUnit;

static struct {
  FeNames files_read, files_written; /* since the last fe_modules_take_files */
  char *module_dir;
  int ninclude;
  char **include;
  int nunits;
  RunUnit *units;
} run;

void fe_modules_configure(const char *module_dir, const char *const *include_dirs, int ninclude)
{
  free(run.module_dir);
  for (int i = 0; i < run.ninclude; i++)
    free(run.include[i]);
  free(run.include);
  run.module_dir = module_dir ? xstrdup(module_dir) : NULL;
  run.ninclude = ninclude;
  run.include = ninclude ? xcalloc((size_t)ninclude, sizeof *run.include) : NULL;
  for (int i = 0; i < ninclude; i++)
    run.include[i] = xstrdup(include_dirs[i]);
}

/* Remember a summary file for the dependency file (once each). */
static void note_file(FeNames *l, const char *path)
{
  for (int i = 0; i < l->n; i++)
    if (!strcmp(l->v[i], path))
      return;
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->v = xrealloc(l->v, sizeof *l->v * (size_t)l->cap);
  }
  l->v[l->n++] = xstrdup(path);
}

void fe_modules_take_files(FeNames *read, FeNames *written)
{
  *read = run.files_read;
  *written = run.files_written;
  memset(&run.files_read, 0, sizeof run.files_read);
  memset(&run.files_written, 0, sizeof run.files_written);
}

void fe_modules_reset(void)
{
  fe_modules_configure(NULL, NULL, 0);
  fe_names_free(&run.files_read);
  fe_names_free(&run.files_written);
  for (int i = 0; i < run.nunits; i++) {
    free(run.units[i].name);
    free(run.units[i].input);
    free(run.units[i].text);
    free(run.units[i].path);
  }
  free(run.units);
  run.units = NULL;
  run.nunits = 0;
}

static RunUnit *run_unit(FeUnitKind kind, const char *name, bool add)
{
  for (int i = 0; i < run.nunits; i++)
    if (run.units[i].kind == kind && !strcmp(run.units[i].name, name))
      return &run.units[i];
  if (!add)
    return NULL;
  run.units = xrealloc(run.units, sizeof *run.units * (size_t)(run.nunits + 1));
  RunUnit *u = &run.units[run.nunits++];
  *u = (RunUnit){ .kind = kind, .name = xstrdup(name), .state = UNIT_EXPECTED };
  return u;
}

void fe_modules_expect(FeUnitKind kind, const char *name, const char *path)
{
  RunUnit *u = run_unit(kind, name, true);
  if (!u->input && u->state == UNIT_EXPECTED)
    u->input = xstrdup(path);
}

void fe_modules_input_done(const char *path, bool ok)
{
  for (int i = 0; i < run.nunits && !ok; i++)
    if (run.units[i].input && !strcmp(run.units[i].input, path) && run.units[i].state == UNIT_EXPECTED)
      run.units[i].state = UNIT_FAILED;
}

/* ---- finding a summary ----------------------------------------------------------- */

static char *read_text(const char *path, size_t *len)
{
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 14, n = 0;
  char *buf = xmalloc(cap);
  size_t got;
  while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
    n += got;
    if (cap - n < 2)
      buf = xrealloc(buf, cap *= 2);
  }
  bool bad = ferror(f);
  fclose(f);
  if (bad) {
    free(buf);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

static bool is_regular(const char *path)
{
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* dir/NAME.SUFFIX, without "./" for the current directory (shorter messages). */
static char *summary_path(const char *dir, FeUnitKind kind, const char *name)
{
  if (!dir || !strcmp(dir, "."))
    return xasprintf("%s%s", name, unit_suffix[kind]);
  size_t n = strlen(dir);
  return xasprintf("%s%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", name, unit_suffix[kind]);
}

char *fe_modules_find(FeUnitKind kind, const char *name, size_t *len, char **path,
                      const char **failed_input)
{
  *failed_input = NULL;
  *path = NULL;
  RunUnit *u = run_unit(kind, name, false);
  if (u && u->state == UNIT_WRITTEN) {
    *len = u->len;
    *path = xstrdup(u->path);
    note_file(&run.files_read, u->path);
    return xstrndup(u->text, u->len);
  }
  if (u && u->state == UNIT_FAILED) {
    *failed_input = u->input;
    return NULL;
  }
  int ndirs = run.ninclude + 2;
  for (int i = 0; i < ndirs; i++) {
    const char *dir = i == 0 ? run.module_dir : i <= run.ninclude ? run.include[i - 1] : ".";
    if (!dir)
      continue;
    char *p = summary_path(dir, kind, name);
    char *text = is_regular(p) ? read_text(p, len) : NULL;
    if (text) {
      *path = p;
      note_file(&run.files_read, p);
      return text;
    }
    free(p);
  }
  return NULL;
}

bool fe_summary_header(const char *text, FeSummaryHeader *h)
{
  static const char prefix[] = "! s2s-cuda summary ";
  memset(h, 0, sizeof *h);
  if (strncmp(text, prefix, sizeof prefix - 1))
    return false;
  const char *p = text + sizeof prefix - 1;
  char kind[16];
  int used = 0;
  if (sscanf(p, "%d", &h->version) != 1)
    return false;
  if (sscanf(p, "%*d: %15s %127[a-z0-9_], line %d of %n", kind, h->name, &h->line, &used) != 3 ||
      !used)
    return false;
  if (!strcmp(kind, "module"))
    h->kind = FE_UNIT_MODULE;
  else if (!strcmp(kind, "procedure"))
    h->kind = FE_UNIT_PROCEDURE;
  else
    return false;
  p += used;
  size_t n = strcspn(p, "\r\n");
  if (!n || n >= sizeof h->origin)
    return false;
  memcpy(h->origin, p, n);
  h->origin[n] = '\0';
  return true;
}

/* ---- writing summaries ------------------------------------------------------------- */

static char *node_text_lower(const char *text, TSNode n)
{
  uint32_t start = ts_node_start_byte(n), end = ts_node_end_byte(n);
  char *s = xstrndup(text + start, end - start);
  for (char *c = s; *c; c++)
    *c = (char)tolower((unsigned char)*c);
  return s;
}

/* The name of a module, subroutine or function node (lower case), or NULL. */
static char *unit_name(const char *text, TSNode unit)
{
  TSNode stmt = ts_node_named_child(unit, 0);
  if (ts_node_is_null(stmt))
    return NULL;
  TSNode name = ts_node_child_by_field_name(stmt, "name", 4);
  for (uint32_t i = 0; ts_node_is_null(name) && i < ts_node_named_child_count(stmt); i++)
    if (!strcmp(ts_node_type(ts_node_named_child(stmt, i)), "name"))
      name = ts_node_named_child(stmt, i);
  if (ts_node_is_null(name))
    return NULL;
  char *s = node_text_lower(text, name);
  for (char *c = s; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '_') {
      free(s);
      return NULL;
    }
  return s;
}

/* The user's file as an absolute path, so that a summary read from another
 * directory still names it. */
static char *absolute(const char *path)
{
  if (path[0] == '/')
    return xstrdup(path);
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd))
    return xstrdup(path);
  return xasprintf("%s/%s", cwd, path[0] == '.' && path[1] == '/' ? path + 2 : path);
}

/* Write `data` to `path` through a temporary file in the same directory
 * and a rename: a reader (a parallel make) sees the old file or the new
 * one, never a part. */
static bool write_atomically(const char *path, const char *data, size_t len)
{
  char *tmp = xasprintf("%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    diag_plain(DIAG_ERROR, "cannot write the summary '%s': %s", path, strerror(errno));
    free(tmp);
    return false;
  }
  mode_t mask = umask(0);
  umask(mask);
  fchmod(fd, 0666 & ~mask);
  FILE *f = fdopen(fd, "wb");
  bool ok = f && fwrite(data, 1, len, f) == len;
  int err = errno;
  ok = (f ? fclose(f) == 0 : (close(fd), false)) && ok;
  if (ok && rename(tmp, path) != 0) {
    err = errno;
    ok = false;
  }
  if (!ok) {
    diag_plain(DIAG_ERROR, "cannot write the summary '%s': %s", path, strerror(err ? err : errno));
    unlink(tmp);
  }
  free(tmp);
  return ok;
}

static bool write_unit(const SourceFile *sf, int file, TSNode unit, FeUnitKind kind, const char *dir,
                       bool verbose)
{
  if (ts_node_has_error(unit))
    return true;            /* no summary from a broken parse (compiler mode: the host
                               compiler reports the error; main.c) */
  char *name = unit_name(sf->text, unit);
  if (!name)
    return true;            /* unnamed (a syntax error): nothing anyone could USE */
  uint32_t start = ts_node_start_byte(unit), end = ts_node_end_byte(unit);
  while (start > 0 && sf->text[start - 1] != '\n')
    start--;                /* whole lines: columns stay those of the file */
  int line = (int)ts_node_start_point(unit).row + 1;
  Loc loc = { file, line, 1 };
  char *origin = absolute(diag_user_file(loc));
  char *head = xasprintf("! s2s-cuda summary %d: %s %s, line %d of %s\n", FE_SUMMARY_VERSION,
                         unit_word[kind], name, diag_user_line(loc), origin);
  size_t hn = strlen(head), bn = end - start;
  bool nl = bn == 0 || sf->text[end - 1] != '\n';
  size_t len = hn + bn + (nl ? 1 : 0);
  char *text = xmalloc(len + 1);
  memcpy(text, head, hn);
  memcpy(text + hn, sf->text + start, bn);
  if (nl)
    text[hn + bn] = '\n';
  text[len] = '\0';
  char *path = summary_path(dir, kind, name);
  bool ok = write_atomically(path, text, len);
  if (ok && verbose)
    fprintf(stderr, "s2s-cuda: wrote %s\n", path);
  if (ok) {
    note_file(&run.files_written, path);
    RunUnit *u = run_unit(kind, name, true);
    free(u->text);
    free(u->path);
    u->state = UNIT_WRITTEN;
    u->text = text;
    u->len = len;
    u->path = path;
  } else {
    free(text);
    free(path);
  }
  free(head);
  free(origin);
  free(name);
  return ok;
}

bool fe_write_summaries(int file, const char *dir, bool verbose)
{
  const SourceFile *sf = diag_source(file);
  TSParser *parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_fortran());
  TSTree *tree = ts_parser_parse_string(parser, NULL, sf->text, (uint32_t)sf->len);
  TSNode root = ts_tree_root_node(tree);
  bool ok = true;
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count && ok; i++) {
    TSNode c = ts_node_named_child(root, i);
    const char *type = ts_node_type(c);
    if (!strcmp(type, "module"))
      ok = write_unit(sf, file, c, FE_UNIT_MODULE, dir, verbose);
    else if (!strcmp(type, "subroutine") || !strcmp(type, "function"))
      ok = write_unit(sf, file, c, FE_UNIT_PROCEDURE, dir, verbose);
  }
  ts_tree_delete(tree);
  ts_parser_delete(parser);
  return ok;
}

/* ---- the line scan ---------------------------------------------------------------- */

static bool ident_char(char c)
{
  return isalnum((unsigned char)c) || c == '_';
}

/* The word at *p (letters, digits, _), lower-cased into w; advances *p. */
static size_t word(const char **p, const char *end, char *w, size_t cap)
{
  while (*p < end && (**p == ' ' || **p == '\t'))
    (*p)++;
  size_t n = 0;
  while (*p < end && ident_char(**p)) {
    if (n + 1 < cap)
      w[n++] = (char)tolower((unsigned char)**p);
    (*p)++;
  }
  w[n] = '\0';
  return n;
}

static void skip_blanks(const char **p, const char *end)
{
  while (*p < end && (**p == ' ' || **p == '\t'))
    (*p)++;
}

/* `use [, intrinsic|non_intrinsic] [::] name` after the word `use`. */
static void scan_use(const char *p, const char *end, FeUnits *u)
{
  char w[128];
  skip_blanks(&p, end);
  bool intrinsic = false;
  if (p < end && *p == ',') {
    p++;
    word(&p, end, w, sizeof w);
    intrinsic = !strcmp(w, "intrinsic");
    skip_blanks(&p, end);
  }
  if (p + 1 < end && p[0] == ':' && p[1] == ':')
    p += 2;
  if (word(&p, end, w, sizeof w) && !intrinsic)
    names_add(&u->uses, w, strlen(w));
}

/* Every `call name` on the line (also after `if (...)`). */
static void scan_calls(const char *line, const char *end, FeUnits *u)
{
  for (const char *p = line; p + 4 <= end; p++) {
    if ((p > line && ident_char(p[-1])) || strncasecmp(p, "call", 4) || (p + 4 < end && ident_char(p[4])))
      continue;
    const char *q = p + 4;
    char w[128];
    if (q < end && (*q == ' ' || *q == '\t') && word(&q, end, w, sizeof w))
      names_add(&u->calls, w, strlen(w));
  }
}

void fe_scan_source(const char *text, size_t len, FeUnits *u)
{
  static const char *const prefixes[] = { "pure", "elemental", "recursive", "impure", "integer",
                                          "real", "logical", "double", "precision", "complex",
                                          "character", NULL };
  const char *end_text = text + len;
  int module_depth = 0, procedure_depth = 0;
  for (const char *line = text; line < end_text;) {
    const char *eol = memchr(line, '\n', (size_t)(end_text - line));
    if (!eol)
      eol = end_text;
    const char *end = line;
    while (end < eol && *end != '!')
      end++;                  /* no comment (strings are rare on these lines) */
    const char *p = line;
    char w[128], w2[128];
    skip_blanks(&p, end);
    if (p < end && *p != '#' && word(&p, end, w, sizeof w)) {
      const char *after = p;
      if (!strcmp(w, "module") && word(&after, end, w2, sizeof w2) && strcmp(w2, "procedure") &&
          strcmp(w2, "function") && strcmp(w2, "subroutine")) {
        names_add(&u->modules, w2, strlen(w2));
        module_depth++;
      } else if (!strcmp(w, "use")) {
        scan_use(p, end, u);
      } else if (!strcmp(w, "end") || !strcmp(w, "endmodule") || !strcmp(w, "endsubroutine") ||
                 !strcmp(w, "endfunction")) {
        const char *what = w + 3;              /* endmodule: "module" */
        if (!strcmp(w, "end"))
          what = word(&after, end, w2, sizeof w2) ? w2 : "";
        if (!strcmp(what, "module") && module_depth)
          module_depth--;
        else if ((!strcmp(what, "subroutine") || !strcmp(what, "function") || !*what) &&
                 procedure_depth)
          procedure_depth--;
      } else {
        /* [prefixes] subroutine|function name */
        const char *q = line;
        bool prefix = true;
        while (prefix && word(&q, end, w2, sizeof w2)) {
          prefix = false;
          for (int k = 0; prefixes[k]; k++)
            prefix |= !strcmp(w2, prefixes[k]);
          if (prefix && q < end && *q == '(') {  /* real(kind=8) function f */
            int depth = 0;
            do {
              depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
              q++;
            } while (q < end && depth);
          }
        }
        if (!strcmp(w2, "subroutine") || !strcmp(w2, "function")) {
          char name[128];
          if (word(&q, end, name, sizeof name)) {
            if (!module_depth && !procedure_depth)
              names_add(&u->procedures, name, strlen(name));
            procedure_depth++;
          }
        }
      }
    }
    scan_calls(line, end, u);
    line = eol < end_text ? eol + 1 : end_text;
  }
}

/* ---- ordering ----------------------------------------------------------------------- */

/* The input that defines `name` (modules or procedures), other than i, or -1. */
static int definer(int n, const FeUnits *const *units, bool module, const char *name, int i)
{
  for (int j = 0; j < n; j++)
    if (j != i && units[j] && names_has(module ? &units[j]->modules : &units[j]->procedures, name))
      return j;
  return -1;
}

/* must[i*n+j]: input j must come before input i. */
static bool *dependencies(int n, const FeUnits *const *units, bool calls_too)
{
  bool *must = xcalloc((size_t)n * (size_t)n, sizeof *must);
  for (int i = 0; i < n; i++) {
    if (!units[i])
      continue;
    for (int k = 0; k < units[i]->uses.n; k++) {
      int j = definer(n, units, true, units[i]->uses.v[k], i);
      if (j >= 0 && !names_has(&units[i]->modules, units[i]->uses.v[k]))
        must[i * n + j] = true;
    }
    for (int k = 0; calls_too && k < units[i]->calls.n; k++) {
      int j = definer(n, units, false, units[i]->calls.v[k], i);
      if (j >= 0 && !names_has(&units[i]->procedures, units[i]->calls.v[k]))
        must[i * n + j] = true;
    }
  }
  return must;
}

/* Kahn's algorithm, always taking the first ready input in command-line
 * order.  Returns how many were placed (n: no cycle). */
static int place(int n, const bool *must, int *order)
{
  bool *placed = xcalloc((size_t)n, sizeof *placed);
  int k = 0;
  for (bool progress = true; progress && k < n;) {
    progress = false;
    for (int i = 0; i < n && !progress; i++) {
      if (placed[i])
        continue;
      bool ready = true;
      for (int j = 0; j < n && ready; j++)
        ready = !must[i * n + j] || placed[j];
      if (ready) {
        placed[i] = true;
        order[k++] = i;
        progress = true;
      }
    }
  }
  free(placed);
  return k;
}

/* One cycle among the unplaced inputs, reported with the modules on it. */
static void report_cycle(int n, const char *const *paths, const FeUnits *const *units,
                         const bool *must, const int *order, int placed)
{
  bool *done = xcalloc((size_t)n, sizeof *done);
  for (int k = 0; k < placed; k++)
    done[order[k]] = true;
  int start = 0;
  while (done[start])
    start++;
  /* walk to predecessors until an input repeats: it is on a cycle */
  int *seen = xcalloc((size_t)n, sizeof *seen), step = 1, at = start;
  while (!seen[at]) {
    seen[at] = step++;
    int next = -1;
    for (int j = 0; j < n && next < 0; j++)
      if (must[at * n + j] && !done[j])
        next = j;
    at = next;
  }
  char *text = xstrdup("");
  int first = at;
  do {
    int next = -1;           /* the same choice as the walk that found the cycle */
    for (int j = 0; j < n && next < 0; j++)
      if (must[at * n + j] && !done[j])
        next = j;
    const char *module = "";
    for (int k = 0; k < units[at]->uses.n && !*module; k++)
      if (names_has(&units[next]->modules, units[at]->uses.v[k]))
        module = units[at]->uses.v[k];
    char *more = xasprintf("%s%s'%s' uses module '%s' of '%s'", text, *text ? ", " : "", paths[at],
                           module, paths[next]);
    free(text);
    text = more;
    at = next;
  } while (at != first);
  diag_plain(DIAG_ERROR, "the inputs use each other's modules in a cycle (%s); a module cannot "
             "depend on itself", text);
  free(text);
  free(seen);
  free(done);
}

bool fe_order_inputs(int n, const char *const *paths, const FeUnits *const *units, int *order)
{
  bool *must = dependencies(n, units, true);
  int placed = place(n, must, order);
  if (placed < n) {           /* calls may go both ways between files: modules only */
    free(must);
    must = dependencies(n, units, false);
    placed = place(n, must, order);
  }
  if (placed < n)
    report_cycle(n, paths, units, must, order, placed);
  free(must);
  return placed == n;
}
