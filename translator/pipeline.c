/* pipeline.c — the pass table: every pass of a translation, in order.
 *
 *   parse      tree-sitter CST -> IR, directives attached (translator/fe)
 *   normalize  array syntax, WHERE and reductions over sections expanded into loops, in
 *              regions and in the routines they call (transforms/normalize.c)
 *   inline     calls in regions replaced by the callees' bodies (transforms/inline.c)
 *   invariant  reads of a scalar that holds one region-invariant value (`l = ite`) replaced
 *              by that value, so loops it bounds stay parallel (transforms/invariant.c)
 *   delinearize  C: flat arrays indexed `a[(k*nj + j)*ni + i]` read as a[k][j][i] of a
 *              [][nj][ni] array where the ranges nest (analysis/delinearize.c)
 *   tripcount  `do n = 1, mstepmax` over columns tested `n <= mstep(i)` becomes
 *              `do i / do n = 1, mstep(i)`, the maximum dropped (transforms/tripcount.c)
 *   present    a region testing present() of its routine's optional dummies becomes one
 *              region per combination of present and absent (transforms/present.c)
 *   -- for each region --
 *   accesses   data clauses, boxes, private scalars; the access list kept (analysis/access.c)
 *   group      kernels and arrays privatized per thread (transforms/map.c, column.c)
 *   recompute  a stencil program's work arrays that stay in device memory computed where
 *              they are read instead (their producer nests inlined into the nests that read
 *              them) where legal and cheap; then accesses and group again (recompute.c)
 *   -- for each kernel of the region --
 *   columnize  the thread body of a column kernel (transforms/column.c)
 *   fuse       loops of the thread body fused where legal (transforms/column.c)
 *   contract   a work array kept per thread that one loop uses a level at a time becomes
 *              a scalar (transforms/contract.c)
 *   map        loops on the grid, block shape, firstprivates (transforms/map.c)
 *   kcache     values read at neighbouring iterations of a sequential loop kept in
 *              registers (rolling scalars: k-caching) (transforms/kcache.c)
 *   smem       a read-only array read at several constant horizontal offsets around the
 *              thread's (i, j) staged per block in shared memory (a tile with its halo),
 *              the reads taken from the tile (transforms/smem.c).  Last of the kernel
 *              passes: it needs the mapping (which loops are x and y, the block shape,
 *              which it makes 2-D) and the final thread body (kcache's registers are
 *              in sequential loops, which it leaves alone); storage after it passes the
 *              tiled arrays' boxes (the load stays inside the device copy)
 *   coarsen    each thread computes several consecutive iterations of the loop on grid
 *              axis y, so that the loads they share issue once (thread coarsening)
 *              (transforms/coarsen.c).  After smem and kcache: it counts the loads of
 *              the final thread body and leaves kernels with tiles alone; the emitters
 *              then wrap the body in the loop over the points and divide the grid's y
 *              extent
 *   -- (each region) --
 *   storage    where each array lives, kernel and launcher parameters (transforms/storage.c)
 *   --
 *   advice     a note for each host loop that runs regions: the data region that keeps their
 *              arrays on the device across its iterations (transforms/advice.c)
 *   emit-cuda  NAME.s2s.cu: kernels and launchers (translator/emit/emit_cuda.c)
 *   emit-host  the host file: launches and data movement (translator/emit/emit_host.c)
 *
 * A program pass runs once; a run of region passes runs for each region in
 * turn, and within it a run of kernel passes for each kernel in turn, so
 * every region (and kernel) goes through its passes before the next one
 * starts and the feedback report keeps the order of the code.  A region
 * whose pass fails (an error was reported) skips its remaining passes; the
 * other regions are still planned, so one run shows every region's errors;
 * then the pipeline stops.
 *
 * Analyses are computed by the pass that first needs them and kept in the
 * region's plan (analysis/plan.h): the access list by "accesses", each
 * kernel's accesses by "group", a kernel's dependence graph on first query.
 * A pass that changes IR an analysis describes names it in `invalidates`;
 * the driver recomputes the analysis right after that pass, once.
 *
 * In debug and sanitizer builds (S2S_VERIFY_IR), and in any build run with
 * S2S_VERIFY_IR=1, the IR verifier (ir/verify.h) checks the program after
 * every pass; a violation is an internal error naming the pass.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "delinearize.h"
#include "dep.h"
#include "diag.h"
#include "directive.h"
#include "emit.h"
#include "frontend.h"
#include "inline.h"
#include "normalize.h"
#include "pipeline.h"
#include "report.h"
#include "invariant.h"
#include "present.h"
#include "tripcount.h"
#include "storage.h"
#include "transforms.h"
#include "verify.h"

/* smem is off unless asked for (-Msmem): on the H100 the tiled hdiff kernel
 * took 0.23 ms against 0.14 ms for the untiled one (tests/bench/RESULTS.md) */
XfConfig xf_config = { .recompute = true, .kcache = true, .smem = false, .contract = true };

bool xf_c_no_alias(const IrSym *s)
{
  return s->is_restrict || (xf_config.assume_no_alias && (s->is_dummy || s->member_base));
}

typedef enum PassScope { SCOPE_PROGRAM, SCOPE_REGION, SCOPE_KERNEL } PassScope;

/* Analyses a pass can invalidate (Pass.invalidates). */
enum { ANALYSIS_NONE = 0, ANALYSIS_REGION_ACCESSES = 1 };

static bool pass_parse(Unit *u)
{
  u->prog = u->src.fortran ? fe_fortran(u->src.file) : fe_c(u->src.file);
  return u->prog != NULL;
}

static bool pass_normalize(Unit *u) { return xf_normalize_program(u->prog); }

static bool pass_inline(Unit *u) { return xf_inline_program(u->prog); }

static bool pass_invariant(Unit *u) { return xf_region_invariants(u->prog); }

static bool pass_delinearize(Unit *u) { return xf_delinearize_program(u->prog); }

static bool pass_tripcount(Unit *u) { return xf_per_column_tripcounts(u->prog); }

static bool pass_present(Unit *u) { return xf_present_variants(u->prog); }

static bool pass_storage(Program *p, IrRegion *g)
{
  xf_plan_storage(p, g);
  return true;
}

static bool pass_advice(Unit *u)
{
  xf_advise_data(u->prog);
  xf_report_host_clauses(u->prog);
  return true;
}

static bool pass_emit_cuda(Unit *u)
{
  u->emit.user_text_file = u->src.orig_file != u->src.file ? u->src.orig_file + 1 : 0;
  return emit_cuda_with(u->prog, u->cu, &u->calls, &u->emit);
}

static bool pass_emit_host(Unit *u)
{
  return emit_host_with(u->prog, u->src.orig, u->src.orig_len, &u->calls, u->host,
                        u->emit.line_directives);
}

typedef struct Pass {
  const char *name;
  PassScope scope;
  bool (*program)(Unit *u);                          /* SCOPE_PROGRAM */
  bool (*region)(Program *p, IrRegion *g);           /* SCOPE_REGION */
  bool (*kernel)(Program *p, IrRegion *g, int k);    /* SCOPE_KERNEL */
  unsigned invalidates;                              /* ANALYSIS_* recomputed after it */
} Pass;

static const Pass passes[] = {
  { "parse",     SCOPE_PROGRAM, .program = pass_parse },
  { "normalize", SCOPE_PROGRAM, .program = pass_normalize },
  { "inline",    SCOPE_PROGRAM, .program = pass_inline },
  { "invariant", SCOPE_PROGRAM, .program = pass_invariant },
  { "delinearize", SCOPE_PROGRAM, .program = pass_delinearize },
  { "tripcount", SCOPE_PROGRAM, .program = pass_tripcount },
  { "present",   SCOPE_PROGRAM, .program = pass_present },
  { "accesses",  SCOPE_REGION,  .region = xf_pass_accesses },
  { "group",     SCOPE_REGION,  .region = xf_pass_group },
  { "recompute", SCOPE_REGION,  .region = xf_pass_recompute },
  { "columnize", SCOPE_KERNEL,  .kernel = xf_pass_columnize },
  { "fuse",      SCOPE_KERNEL,  .kernel = xf_pass_fuse },
  { "contract",  SCOPE_KERNEL,  .kernel = xf_pass_contract },
  { "map",       SCOPE_KERNEL,  .kernel = xf_pass_map },
  { "kcache",    SCOPE_KERNEL,  .kernel = xf_pass_kcache },
  { "smem",      SCOPE_KERNEL,  .kernel = xf_pass_smem },
  { "coarsen",   SCOPE_KERNEL,  .kernel = xf_pass_coarsen },
  { "storage",   SCOPE_REGION,  .region = pass_storage },
  { "advice",    SCOPE_PROGRAM, .program = pass_advice },
  { "emit-cuda", SCOPE_PROGRAM, .program = pass_emit_cuda },
  { "emit-host", SCOPE_PROGRAM, .program = pass_emit_host },
};
enum { NPASSES = sizeof passes / sizeof *passes };

/* "plan": not a pass, the state after every planning pass of each region
 * (the dump older versions printed). */
static const char plan_dump[] = "plan";

bool pipeline_has_pass(const char *name)
{
  if (strcmp(name, plan_dump) == 0)
    return true;
  for (int i = 0; i < NPASSES; i++)
    if (strcmp(passes[i].name, name) == 0)
      return true;
  return false;
}

void pipeline_list(FILE *out)
{
  for (int i = 0; i < NPASSES; i++)
    fprintf(out, "%s\n", passes[i].name);
}

/* ---- statistics (S2S_STATS=1) ------------------------------------------------- */

static double pass_seconds[NPASSES];
static int nregions_seen;

static double now(void)
{
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void pipeline_stats(FILE *out)
{
  double total = 0;
  for (int i = 0; i < NPASSES; i++)
    total += pass_seconds[i];
  fprintf(out, "s2s-cuda: stats: %d region%s; access lists collected %ld, dependence graphs "
          "built %ld, pairs tested %ld\n", nregions_seen, nregions_seen == 1 ? "" : "s",
          dep_stats.collected, dep_stats.graphs, dep_stats.pairs);
  for (int i = 0; i < NPASSES; i++)
    fprintf(out, "s2s-cuda: stats: %-10s %8.3f s\n", passes[i].name, pass_seconds[i]);
  fprintf(out, "s2s-cuda: stats: %-10s %8.3f s\n", "total", total);
}

/* ---- the verifier ----------------------------------------------------------------- */

static bool verifying(void)
{
#ifdef S2S_VERIFY_IR
  return true;
#else
  const char *v = getenv("S2S_VERIFY_IR");
  return v && *v && strcmp(v, "0") != 0;
#endif
}

/* Check the program after `pass` at `stage`: the plans are complete
 * (IR_STAGE_PLANNED) only after the last planning pass of every region. */
static void verify_after(const Program *prog, const char *pass, IrStage stage)
{
  char why[512];
  if (prog && verifying() && ir_verify(prog, stage, why, sizeof why))
    S2S_BUG("the IR is broken after pass '%s': %s", pass, why);
}

/* ---- running the table ------------------------------------------------------------ */

typedef struct Run {
  Unit *u;
  const char *dump;          /* pass name, "plan" or NULL */
  FILE *dump_out;
} Run;

static bool dumps(const Run *r, const Pass *p) { return r->dump && strcmp(r->dump, p->name) == 0; }

static void recompute(Program *prog, IrRegion *g, unsigned what)
{
  if (what & ANALYSIS_REGION_ACCESSES)
    xf_recompute_accesses(prog, g);
}

/* Run passes [first, end) (region and kernel passes) on region g. */
static bool run_region(const Run *r, IrRegion *g, int first, int end)
{
  Program *prog = r->u->prog;
  for (int i = first; i < end;) {
    if (passes[i].scope == SCOPE_REGION) {
      double t0 = now();
      bool ok = passes[i].region(prog, g);
      if (ok)
        recompute(prog, g, passes[i].invalidates);
      pass_seconds[i] += now() - t0;
      if (ok)
        verify_after(prog, passes[i].name, IR_STAGE_INLINED);
      if (ok && dumps(r, &passes[i])) {
        fprintf(r->dump_out, "after %s:\n", passes[i].name);
        xf_dump_region(prog, g, -1, r->dump_out);
      }
      if (!ok)
        return false;
      i++;
      continue;
    }
    int j = i;               /* [i, j): a run of kernel passes, for each kernel in turn */
    while (j < end && passes[j].scope == SCOPE_KERNEL)
      j++;
    for (int k = 0; k < xf_kernel_count(g); k++)
      for (int q = i; q < j; q++) {
        double t0 = now();
        bool ok = passes[q].kernel(prog, g, k);
        pass_seconds[q] += now() - t0;
        if (ok)
          verify_after(prog, passes[q].name, IR_STAGE_INLINED);
        if (ok && dumps(r, &passes[q])) {
          fprintf(r->dump_out, "after %s:\n", passes[q].name);
          xf_dump_region(prog, g, k, r->dump_out);
        }
        if (!ok)
          return false;
      }
    i = j;
  }
  return true;
}

/* Passes [first, end) for every region of the program. */
static void run_regions(const Run *r, int first, int end)
{
  Program *prog = r->u->prog;
  bool variant_failed = false;
  for (int ri = 0; ri < prog->nroutines; ri++)
    for (int gi = 0; gi < prog->routines[ri]->nregions; gi++) {
      IrRegion *g = prog->routines[ri]->regions[gi];
      /* the variants of a region (present.h) share its code: once one has
       * failed, the others would only repeat its errors */
      if (g->variant && g->variant->index > 1 && variant_failed)
        continue;
      nregions_seen++;
      g->report_start = report_count();
      bool ok = run_region(r, g, first, end);
      variant_failed = g->variant && !ok;
    }
  if (r->dump && strcmp(r->dump, plan_dump) == 0) {
    ir_dump_program(prog, r->dump_out);
    for (int ri = 0; ri < prog->nroutines; ri++)
      for (int gi = 0; gi < prog->routines[ri]->nregions; gi++)
        if (prog->routines[ri]->regions[gi]->analysis)
          xf_dump_region(prog, prog->routines[ri]->regions[gi], -1, r->dump_out);
  }
}

static void dump_text(FILE *out, FILE *stream, const char *const *text, const size_t *len)
{
  fflush(stream);
  fwrite(*text, 1, *len, out);
}

/* What the verifier may expect after program pass i: parsed after the
 * front end, inlined until the region passes have run, planned after them. */
static IrStage program_stage(int i)
{
  if (passes[i].program == pass_parse)
    return IR_STAGE_PARSED;
  if (passes[i].program == pass_normalize)
    return IR_STAGE_NORMALIZED;
  for (int j = 0; j < i; j++)
    if (passes[j].scope != SCOPE_PROGRAM)
      return IR_STAGE_PLANNED;
  return IR_STAGE_INLINED;
}

/* Run passes [first, end). */
static bool run_passes(Unit *u, int first, int end, const char *dump, FILE *dump_out)
{
  Run r = { u, dump, dump_out };
  int errors = diag_error_count();
  for (int i = first; i < end;) {
    if (passes[i].scope != SCOPE_PROGRAM) {
      int j = i;
      while (j < end && passes[j].scope != SCOPE_PROGRAM)
        j++;
      run_regions(&r, i, j);
      if (diag_error_count() != errors)
        return false;
      verify_after(u->prog, passes[j - 1].name, IR_STAGE_PLANNED);
      i = j;
      continue;
    }
    double t0 = now();
    bool ok = passes[i].program(u) && diag_error_count() == errors;
    pass_seconds[i] += now() - t0;
    if (!ok)
      return false;
    verify_after(u->prog, passes[i].name, program_stage(i));
    if (dumps(&r, &passes[i])) {
      fprintf(dump_out, "after %s:\n", passes[i].name);
      if (passes[i].program == pass_emit_cuda)
        dump_text(dump_out, u->cu, (const char *const *)&u->cu_text, &u->cu_len);
      else if (passes[i].program == pass_emit_host)
        dump_text(dump_out, u->host, (const char *const *)&u->host_text, &u->host_len);
      else
        ir_dump_program(u->prog, dump_out);
    }
    i++;
  }
  return true;
}

bool pipeline_run(Unit *u, const char *dump, FILE *dump_out)
{
  return run_passes(u, 0, NPASSES, dump, dump_out);
}

/* Whether the file has directives of its spelling; on the way, every
 * `!$acc` / `#pragma acc` line that is none: a note when the tool
 * understands it and it has no effect here (`wait`, `routine seq`; only
 * when `notes`), else a warning, so that no directive is dropped without a
 * word. */
bool pipeline_has_directives(const Source *src, bool notes)
{
  const SourceFile *sf = diag_source(src->file);
  DirLang lang = src->fortran ? DIR_FORTRAN : DIR_C;
  bool any = false;
  for (int l = 1; l <= sf->nlines; l++) {
    bool understood;
    const char *why;
    int width;
    if (dir_acc_inert_line(src->file, l, lang, &understood, &why, &width)) {
      size_t len;
      const char *s = diag_line(src->file, l, &len);
      int col = 0;
      while (s[col] == ' ' || s[col] == '\t') col++;
      Loc at = { src->file, l, col + 1 };
      /* the construct as written: up to its first clause argument or comment */
      int n = 1 + (int)strcspn(s + col + 1, "(!\r\n");
      while (n > 1 && (s[col + n - 1] == ' ' || s[col + n - 1] == '\t')) n--;
      if (understood && *why && notes)
        diag_at(DIAG_NOTE, at, width, "'%.*s' has no effect here: %s", n, s + col, why);
      else if (!understood)
        diag_at(DIAG_WARNING, at, width, "'%.*s' is not understood and is ignored%s%s", n,
                s + col, why ? ": " : "", why ? why : "");
    } else if (!any && dir_is_directive_line(src->file, l, lang)) {
      any = true;
    }
  }
  return any;
}

/* A stream into memory, for outputs that are written only if all went well. */
static FILE *mem_open(char **data, size_t *len)
{
  *data = NULL;
  *len = 0;
  FILE *f = open_memstream(data, len);
  if (!f)
    S2S_BUG("open_memstream: %s", strerror(errno));
  return f;
}

static bool mem_close(FILE *f)
{
  bool ok = !ferror(f);
  return fclose(f) == 0 && ok;
}

bool pipeline_translate(Unit *u, const Options *o, ResKernelSites *sites)
{
  int errors = diag_error_count();
  fe_config.default_real8 = o->default_real8;
  fe_config.default_double8 = o->default_double8;
  u->emit.relaxed_fp = o->relaxed_fp;
  u->emit.strict_fp = o->strict_fp;
  u->emit.unroll = o->unroll;
  u->emit.line_directives = !o->no_line_directives;
  u->emit.sites = sites;
  xf_config.recompute = !o->no_recompute;
  xf_config.kcache = !o->no_kcache;
  xf_config.smem = o->smem;
  xf_config.contract = !o->no_contract;
  xf_config.coarsen = o->coarsen;
  xf_config.assume_no_alias = o->assume_no_alias;
  u->cu = mem_open(&u->cu_text, &u->cu_len);
  u->host = mem_open(&u->host_text, &u->host_len);
  bool ok = pipeline_run(u, o->dump_ir, stdout) && diag_error_count() == errors;
  if (o->dump_ir)
    fflush(stdout);
  ok = mem_close(u->cu) && ok;
  ok = mem_close(u->host) && ok;
  u->cu = u->host = NULL;
  return ok;
}

static int pass_index(bool (*program)(Unit *))
{
  for (int i = 0; i < NPASSES; i++)
    if (passes[i].program == program)
      return i;
  S2S_BUG("no such pass in the table");
}

bool xf_plan_program(Program *p)
{
  Unit u = { .prog = p };
  return run_passes(&u, pass_index(pass_parse) + 1, pass_index(pass_emit_cuda), NULL, NULL);
}
