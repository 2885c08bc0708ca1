/* advice.c — pass "advice": data a host loop moves at every iteration.
 *
 * A region inside a loop of the host code (WRF's time loop around a
 * physics call, a solver's iteration loop) copies its arrays in and out
 * at every iteration: on a GPU that is usually most of the time, and the
 * article's port spent a third of its run there.  A data region around
 * the loop moves each array once; the region then finds it present.  This
 * pass says so, with the directive to write, for each innermost host loop
 * of a routine that runs regions of the same routine:
 *
 *   main.f90:40: note: the loop at lines 40-52 runs the region at line 44 at every
 *   iteration, which moves t and tend each time: write '!$stencil data copyin(t)
 *   copy(tend)' before line 40 and '!$stencil end data' after line 52 to keep them on
 *   the device across the iterations
 *
 * The advice must lead to a correct program, so an array is left out when:
 *   - host code inside the loop (outside the regions) mentions it: the
 *     host would see a stale copy without update directives (the note
 *     names the line instead);
 *   - a data directive of the routine that encloses the loop already
 *     names it (nothing to gain), or an `enter data` holds it: one of the
 *     routine before the loop (and no `exit data` of it between), or, when
 *     the routine's own enter/exit data do not name it, one of another
 *     routine by the same name (an init routine's);
 *   - the clause cannot name the whole array (a C array, or a Fortran one
 *     whose extent is not declared) and the regions in the loop give it
 *     different boxes: a data clause must name the span all of them use.
 * The clause merges the regions': in at some region and out at some
 * region is copy; neither is create.
 */
#include <stdlib.h>
#include <string.h>
#include "access.h"
#include "plan.h"
#include "report.h"
#include "transforms.h"

/* What the regions in one loop do with one array. */
typedef struct LoopArray {
  IrSym *sym;
  bool in, out;                 /* copied in / out by some region */
  const ArrayPlan *first;       /* the first region's plan of it (its box) */
  bool boxes_differ;
  bool advised;                 /* named in the advised clause (none of the reasons below) */
} LoopArray;

static bool inside(int line, int first, int last) { return line >= first && line <= last; }

/* Is loop l the innermost host loop around lines first..last?  Loops of a
 * region's own code never qualify (they lie inside it). */
static const IrHostLoop *innermost_loop(const IrRoutine *r, int first, int last)
{
  const IrHostLoop *best = NULL;
  for (int i = 0; i < r->nhost_loops; i++) {
    const IrHostLoop *l = &r->host_loops[i];
    if (l->first_line < first && l->last_line > last &&
        (!best || l->first_line > best->first_line))
      best = l;
  }
  return best;
}

static bool in_some_region(const IrRoutine *r, int line)
{
  for (int i = 0; i < r->nregions; i++)
    if (inside(line, r->regions[i]->first_line, r->regions[i]->last_line))
      return true;
  return false;
}

/* The first line of loop l where host code (not a region) mentions s, or 0.
 * A struct member counts as mentioned wherever its struct is (`s->u = v;`,
 * `swap(s);`). */
static int host_mention(const IrRoutine *r, const IrSym *s, const IrHostLoop *l)
{
  IrHostUses *u;
  const char *name = s->member_base ? ir_strndup(s->member_base, strcspn(s->member_base, "-."))
                                    : s->name;     /* `s` of `s->grid` */
  HASH_FIND_STR(r->host_uses, name, u);
  for (int i = 0; u && i < u->n; i++)
    if (inside(u->v[i].line, l->first_line, l->last_line) && !in_some_region(r, u->v[i].line))
      return u->v[i].line;
  return 0;
}

/* Does a data directive of r around loop l name s? */
static bool data_directive_covers(const IrRoutine *r, const IrSym *s, const IrHostLoop *l)
{
  for (int i = 0; i < r->nhost_dirs; i++) {
    const IrHostDirective *h = r->host_dirs[i];
    if (h->dir->kind != DIR_DATA) continue;
    int end = h->partner ? h->partner->last_line : h->stmt_last_line;
    if (!(h->first_line < l->first_line && end >= l->last_line)) continue;
    for (int c = 0; c < h->dir->nclauses; c++)
      for (int k = 0; k < h->dir->clauses[c].nitems; k++)
        if (h->dir->clauses[c].items[k].sym == s) return true;
  }
  return false;
}

static bool directive_names(const Directive *d, const IrSym *s)
{
  for (int c = 0; c < d->nclauses; c++)
    for (int k = 0; k < d->clauses[c].nitems; k++)
      if (d->clauses[c].items[k].sym == s || !strcmp(d->clauses[c].items[k].name, s->name))
        return true;
  return false;
}

/* Does an `enter data` hold s throughout loop l?  The last enter/exit data
 * of r naming s before the loop's end must be an enter data before the
 * loop; when r's own do not name it, an enter data of another routine of
 * the program naming the same name counts (the arrays of an init routine,
 * passed on by the caller: the same rule as the update warning's). */
static bool entered_data_covers(const Program *p, const IrRoutine *r, const IrSym *s,
                                const IrHostLoop *l)
{
  const IrHostDirective *last = NULL;
  for (int i = 0; i < r->nhost_dirs; i++) {
    const IrHostDirective *h = r->host_dirs[i];
    if ((h->dir->kind == DIR_ENTER_DATA || h->dir->kind == DIR_EXIT_DATA) &&
        h->first_line <= l->last_line && directive_names(h->dir, s))
      last = h;
  }
  if (last)
    return last->dir->kind == DIR_ENTER_DATA && last->first_line < l->first_line;
  for (int i = 0; i < p->nroutines; i++) {
    const IrRoutine *o = p->routines[i];
    for (int k = 0; o != r && k < o->nhost_dirs; k++)
      if (o->host_dirs[k]->dir->kind == DIR_ENTER_DATA) {
        const Directive *d = o->host_dirs[k]->dir;
        for (int c = 0; c < d->nclauses; c++)
          for (int m = 0; m < d->clauses[c].nitems; m++)
            if (!strcmp(d->clauses[c].items[m].name, s->name))
              return true;
      }
  }
  return false;
}

/* Can the clause name the whole array?  In Fortran when every extent is
 * known from its declaration (not assumed-size or assumed-shape); a C
 * clause always needs the range, so C arrays give a box. */
static bool whole_array_known(const IrSym *s, IrLang lang)
{
  if (lang != IR_FORTRAN)
    return false;
  for (int d = 0; d < s->rank; d++)
    if (!s->lo[d] || !s->hi[d] || (s->hi[d]->kind == IR_E_VAR && s->hi[d]->u.var->bound_of))
      return false;
  return true;
}

static bool same_box(const ArrayPlan *a, const ArrayPlan *b, IrLang lang)
{
  char x[512], y[512];
  an_box_text(a->sym, a->box_lo, a->box_hi, lang, x, sizeof x);
  an_box_text(b->sym, b->box_lo, b->box_hi, lang, y, sizeof y);
  return !strcmp(x, y);
}

static LoopArray *loop_array(LoopArray **v, int *n, IrSym *s)
{
  for (int i = 0; i < *n; i++)
    if ((*v)[i].sym == s) return &(*v)[i];
  *v = xrealloc(*v, sizeof **v * (size_t)(*n + 1));
  (*v)[*n] = (LoopArray){ .sym = s };
  return &(*v)[(*n)++];
}

static void str_append(char **s, const char *t)
{
  size_t n = *s ? strlen(*s) : 0;
  *s = xrealloc(*s, n + strlen(t) + 1);
  strcpy(*s + n, t);
}

/* The clause item of one array: the whole array, or its box. */
static void clause_item(const LoopArray *a, IrLang lang, char *buf, size_t size)
{
  if (whole_array_known(a->sym, lang))
    snprintf(buf, size, "%s", ir_sym_user_name(a->sym));
  else
    an_box_text(a->sym, a->first->box_lo, a->first->box_hi, lang, buf, size);
}

static void advise_loop(const Program *p, const IrRoutine *r, const IrHostLoop *l)
{
  LoopArray *arrays = NULL;
  int narrays = 0, first_region = 0, nregions = 0;
  for (int i = 0; i < r->nregions; i++) {
    const IrRegion *g = r->regions[i];
    if (innermost_loop(r, g->first_line, g->last_line) != l) continue;
    if (g->variant && g->variant->index > 1) continue; /* a region's variants share its data */
    if (!nregions++) first_region = g->first_line;
    const RegionPlan *plan = g->analysis;
    for (int k = 0; k < plan->narrays; k++) {
      const ArrayPlan *a = &plan->arrays[k];
      /* an OPTIONAL dummy may be absent: a data clause could not name it */
      if (a->storage != ARRAY_DEVICE || a->clause == DIR_PRESENT || a->sym->is_optional)
        continue;
      LoopArray *la = loop_array(&arrays, &narrays, a->sym);
      la->in |= a->clause == DIR_COPYIN || a->clause == DIR_COPY;
      la->out |= a->clause == DIR_COPYOUT || a->clause == DIR_COPY;
      if (!la->first) la->first = a;
      else if (!same_box(la->first, a, p->lang)) la->boxes_differ = true;
    }
  }
  if (!narrays) {
    free(arrays);
    return;
  }
  static const char *const kinds[2][2] = { { "create", "copyout" }, { "copyin", "copy" } };
  char *clauses = NULL, *moved = NULL, *left = NULL;
  int nmoved = 0;
  for (int i = 0; i < narrays; i++) {
    LoopArray *a = &arrays[i];
    int host_line = host_mention(r, a->sym, l);
    char buf[640];
    if (data_directive_covers(r, a->sym, l) || entered_data_covers(p, r, a->sym, l)) continue;
    if (host_line) {
      snprintf(buf, sizeof buf, "%s%s (host code uses it at line %d: it would need update "
               "directives there)", left ? "; " : "", ir_sym_user_name(a->sym), host_line);
      str_append(&left, buf);
      continue;
    }
    if (a->boxes_differ && !whole_array_known(a->sym, p->lang)) {
      snprintf(buf, sizeof buf, "%s%s (the regions use different parts of it: name the span "
               "all of them use)", left ? "; " : "", ir_sym_user_name(a->sym));
      str_append(&left, buf);
      continue;
    }
    char item[512];
    clause_item(a, p->lang, item, sizeof item);
    snprintf(buf, sizeof buf, "%s%s(%s)", clauses ? " " : "", kinds[a->in][a->out], item);
    str_append(&clauses, buf);
    a->advised = true;
    nmoved++;
  }
  /* "t, q and tend" */
  for (int i = 0, k = 0; i < narrays; i++) {
    const LoopArray *a = &arrays[i];
    if (!a->advised)
      continue;
    k++;
    str_append(&moved, k == 1 ? "" : k == nmoved ? " and " : ", ");
    str_append(&moved, ir_sym_user_name(a->sym));
  }
  const char *what = nregions == 1 ? "the region at line" : "regions from line";
  if (clauses) {
    if (p->lang == IR_FORTRAN)
      report_add(REPORT_NOTE, r->name, (Loc){ r->regions[0]->dir->loc.file, l->first_line, 0 },
                 "the loop at lines %d-%d runs %s %d at every iteration, which moves %s each "
                 "time: write '!$stencil data %s' before line %d and '!$stencil end data' after "
                 "line %d to keep %s on the device across the iterations%s%s",
                 l->first_line, l->last_line, what, first_region, moved, clauses, l->first_line,
                 l->last_line, nmoved == 1 ? "it" : "them", left ? "; left out: " : "",
                 left ? left : "");
    else
      report_add(REPORT_NOTE, r->name, (Loc){ r->regions[0]->dir->loc.file, l->first_line, 0 },
                 "the loop at lines %d-%d runs %s %d at every iteration, which moves %s each "
                 "time: write '#pragma stencil data %s' before line %d (the loop is its "
                 "statement) to keep %s on the device across the iterations%s%s",
                 l->first_line, l->last_line, what, first_region, moved, clauses, l->first_line,
                 nmoved == 1 ? "it" : "them", left ? "; left out: " : "", left ? left : "");
  }
  free(clauses);
  free(moved);
  free(left);
  free(arrays);
}

void xf_advise_data(Program *p)
{
  for (int i = 0; i < p->nroutines; i++) {
    const IrRoutine *r = p->routines[i];
    for (int k = 0; k < r->nhost_loops; k++) {
      const IrHostLoop *l = &r->host_loops[k];
      if (in_some_region(r, l->first_line)) continue;
      bool runs_region = false;
      for (int g = 0; g < r->nregions && !runs_region; g++)
        runs_region = innermost_loop(r, r->regions[g]->first_line, r->regions[g]->last_line) == l;
      if (runs_region) advise_loop(p, r, l);
    }
  }
}

/* ---- what became of the data clauses of host directives ----------------
 *
 * The data clauses of an `!$acc data`, `enter data`, `exit data` or
 * `update` (and their `#pragma acc` forms) are followed as written: each
 * gets a report line saying what happens to its arrays and where, and for
 * data and enter data which regions of the routine find them present (and
 * so move nothing).  The clauses fixed when read (if, async, finalize, ...)
 * have their line from the front end (fe_common.c). */

/* The regions of r between lines first and last that keep an array of the
 * clause on the device: "14 and 20", or NULL. */
static char *regions_using(const IrRoutine *r, const DirClause *cl, int first, int last)
{
  const IrRegion **found = NULL;
  int n = 0;
  for (int i = 0; i < r->nregions; i++) {
    const IrRegion *g = r->regions[i];
    const RegionPlan *plan = g->analysis;
    if (!plan || (g->variant && g->variant->index > 1) || g->first_line <= first ||
        g->first_line > last)
      continue;
    bool uses = false;
    for (int a = 0; a < plan->narrays && !uses; a++)
      for (int m = 0; m < cl->nitems && !uses; m++)
        uses = plan->arrays[a].sym == cl->items[m].sym && plan->arrays[a].storage == ARRAY_DEVICE;
    if (uses)
      IR_PUSH(found, n, g);
  }
  char *lines = NULL;
  for (int k = 0; k < n; k++) {
    char buf[32];
    snprintf(buf, sizeof buf, "%s%d", k == 0 ? "" : k == n - 1 ? " and " : ", ",
             found[k]->first_line);
    str_append(&lines, buf);
  }
  return lines;
}

/* The line of the first exit data of r after `after` that names an item of
 * cl, or 0. */
static int exit_line(const IrRoutine *r, const DirClause *cl, int after)
{
  for (int i = 0; i < r->nhost_dirs; i++) {
    const IrHostDirective *h = r->host_dirs[i];
    if (h->dir->kind != DIR_EXIT_DATA || h->first_line <= after)
      continue;
    for (int m = 0; m < cl->nitems; m++)
      if (directive_names(h->dir, cl->items[m].sym))
        return h->first_line;
  }
  return 0;
}

/* A data clause of a host directive: what it moves where, and which
 * regions of the routine find its arrays present.  `text_as_written` is the
 * clause and `loc` where; an `!$acc` clause says it is honoured, a
 * `!$stencil` data or enter data one takes the verb of the regions' lines
 * ("Generating copy(t): ..."). */
static void report_host_clause(const Program *p, const IrRoutine *r, const IrHostDirective *h,
                               int clause, const char *text_as_written, Loc loc)
{
  const Directive *d = h->dir;
  const DirClause *cl = &d->clauses[clause];
  bool stencil = d->origin == DIR_FROM_STENCIL;
  const char *it = cl->nitems > 1 ? "them" : "it";
  int line = h->first_line;
  char *regions = NULL, *text = NULL;
  switch (d->kind) {
  case DIR_DATA: {
    int end = h->partner ? h->partner->first_line : h->stmt_last_line;
    static const char *const what[] = {
        [DIR_COPYIN] = "copied in at line %d and released at line %d",
        [DIR_COPYOUT] = "allocated at line %d and copied out at line %d",
        [DIR_COPY] = "copied in at line %d and out at line %d",
        [DIR_CREATE] = "allocated at line %d and released at line %d",
        [DIR_PRESENT] = "found present at line %d (or the program stops, naming the array) and "
                        "held to line %d" };
    regions = regions_using(r, cl, line, end);
    text = ir_printf(what[cl->kind], line, end);
    break;
  }
  case DIR_ENTER_DATA: {
    int until = exit_line(r, cl, line);
    regions = regions_using(r, cl, line, until ? until : r->last_line);
    text = ir_printf("%s at line %d and kept on the device until an exit data releases %s%s",
                     cl->kind == DIR_CREATE ? "allocated" : "copied in", line, it,
                     until ? ir_printf(" (line %d)", until) : ", in this routine or another");
    break;
  }
  case DIR_EXIT_DATA:
    text = ir_printf("%s at line %d%s once no enter data or data region holds %s any longer "
                     "(no action where none holds %s)",
                     cl->kind == DIR_DELETE ? "freed without copying out" : "copied out and freed",
                     line, d->finalize ? " (finalize: all enter data dropped at once)," : ",", it,
                     it);
    break;
  case DIR_UPDATE:
    if (stencil) return; /* the directive says all there is to say */
    text = ir_printf("copied %s the device at line %d (%s must be present there)%s",
                     cl->kind == DIR_UPDATE_HOST ? "from" : "to", line,
                     cl->nitems > 1 ? "they" : "it",
                     cl->kind == DIR_UPDATE_HOST && d->async
                         ? ", asynchronously: the host's copy has the values after the next wait"
                         : "");
    break;
  case DIR_HOST_DATA: {
    int first = h->last_line + 1, last = h->partner ? h->partner->first_line - 1 : h->stmt_last_line;
    const char *names = "";
    for (int i = 0; i < cl->nitems; i++)
      names = ir_printf("%s%s%s", names, i ? ", " : "", cl->items[i].name);
    text = ir_printf("the host code at line%s %d%s names the device %s of %s (present there; the "
                     "construct first waits for the kernels and copies queued before it)",
                     last > first ? "s" : "", first, last > first ? ir_printf("-%d", last) : "",
                     cl->nitems > 1 ? "copies" : "copy", names);
    break;
  }
  default:
    return;
  }
  bool several = regions && strchr(regions, ' ');
  char *what = !stencil ? ir_printf("%s on '%s' honoured", text_as_written, d->spelled)
               : d->kind == DIR_EXIT_DATA || d->kind == DIR_HOST_DATA
                   ? ir_printf("%s on '%s'", text_as_written,
                               dir_spelling(d, p->lang == IR_FORTRAN ? DIR_FORTRAN : DIR_C))
                                          : ir_printf("Generating %s", text_as_written);
  if (regions)
    report_at(REPORT_INFO, r->name, loc, "%s: %s; %s %s %s %s present and %s nothing", what, text,
              several ? "the regions at lines" : "the region at line", regions,
              several ? "find" : "finds", it, several ? "move" : "moves");
  else
    report_at(REPORT_INFO, r->name, loc, "%s: %s", what, text);
  free(regions);
}

void xf_report_host_clauses(Program *p)
{
  for (int i = 0; i < p->nroutines; i++) {
    const IrRoutine *r = p->routines[i];
    for (int k = 0; k < r->nhost_dirs; k++) {
      const IrHostDirective *h = r->host_dirs[k];
      const Directive *d = h->dir;
      for (int a = 0; d->origin != DIR_FROM_STENCIL && a < d->nacc; a++)
        if (d->acc[a].role == ACC_ROLE_DATA && d->acc[a].fate == ACC_DECIDED_LATER)
          report_host_clause(p, r, h, d->acc[a].clause, d->acc[a].text, d->acc[a].loc);
      for (int c = 0; d->origin == DIR_FROM_STENCIL && c < d->nclauses; c++)
        if (d->clauses[c].text) report_host_clause(p, r, h, c, d->clauses[c].text, d->clauses[c].loc);
    }
  }
}
