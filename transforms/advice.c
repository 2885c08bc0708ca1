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
 *     names it (nothing to gain);
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
    if (data_directive_covers(r, a->sym, l)) continue;
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
