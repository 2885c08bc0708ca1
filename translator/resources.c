/* resources.c — kernel resource feedback (resources.h): parse ptxas -v,
 * map its entries to the generated kernels, compute theoretical occupancy.
 *
 * The occupancy model is cuda_occupancy.h's, reduced to what a kernel of
 * ours can vary (no dynamic shared memory, no cluster launch): resident
 * blocks per SM are the least of
 *   - warp slots:  max_warps / warps per block,
 *   - block slots: max_blocks,
 *   - registers:   registers are allocated per warp, registers x 32 rounded
 *                  up to the allocation unit (256); each of the SM's four
 *                  sub-partitions holds regs_per_sm/4 of them, so it holds
 *                  floor(regs_per_sm/4 / per-warp) warps, and the SM four
 *                  times that;
 *   - shared:      smem_per_sm / (static shared + the 1 KB the system
 *                  reserves per block, rounded up to the allocation unit).
 * A block that alone exceeds a per-block limit does not launch at all.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include "resources.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "report.h"

/* ---- kernel sites ------------------------------------------------------------ */

void res_sites_add(ResKernelSites *l, const char *name, const char *routine, const char *file,
                   int line, const int block[3], bool block_fixed) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->v = xrealloc(l->v, sizeof *l->v * (size_t)l->cap);
  }
  ResKernelSite *s = &l->v[l->n++];
  s->name = xstrdup(name);
  s->routine = xstrdup(routine ? routine : "");
  s->file = xstrdup(file ? file : "");
  s->line = line;
  memcpy(s->block, block, sizeof s->block);
  s->block_fixed = block_fixed;
  s->tile_bytes = 0;          /* emit_cuda sets it for a kernel with tiles */
}

void res_sites_free(ResKernelSites *l) {
  for (int i = 0; i < l->n; i++) {
    free(l->v[i].name);
    free(l->v[i].routine);
    free(l->v[i].file);
  }
  free(l->v);
  memset(l, 0, sizeof *l);
}

const ResKernelSite *res_sites_find(const ResKernelSites *l, const char *name) {
  for (int i = 0; i < l->n; i++)
    if (strcmp(l->v[i].name, name) == 0) return &l->v[i];
  return NULL;
}

/* ---- parsing ptxas -v ---------------------------------------------------------- */

static const char info_prefix[] = "ptxas info";

/* The text after "ptxas info    : ", or NULL when the line is not one. */
static const char *info_body(const char *line) {
  if (strncmp(line, info_prefix, sizeof info_prefix - 1) != 0) return NULL;
  const char *colon = strchr(line, ':');
  if (!colon) return NULL;
  colon++;
  while (*colon == ' ') colon++;
  return colon;
}

bool res_is_ptxas_info(const char *line) {
  if (info_body(line)) return true;
  /* "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" */
  while (*line == ' ' || *line == '\t') line++;
  return isdigit((unsigned char)*line) && strstr(line, "bytes stack frame");
}

/* The text between the first quote at or after `from` and the next
 * (malloc'ed; "" when there is none). */
static char *quoted(const char *from) {
  const char *q = strchr(from, '\'');
  if (!q) return xstrdup("");
  const char *end = strchr(q + 1, '\'');
  return xstrndup(q + 1, end ? (size_t)(end - q - 1) : strlen(q + 1));
}

/* "N bytes WHAT" or "N WHAT" items of a comma-separated list: the number
 * before `what`, or -1 when the list has no such item. */
static long item_value(const char *list, const char *what) {
  const char *p = list;
  while ((p = strstr(p, what)) != NULL) {
    /* walk back over " bytes " or " " to the number */
    const char *q = p;
    while (q > list && q[-1] == ' ') q--;
    if (q - list >= 5 && strncmp(q - 5, "bytes", 5) == 0) {
      q -= 5;
      while (q > list && q[-1] == ' ') q--;
    }
    const char *digits = q;
    while (digits > list && isdigit((unsigned char)digits[-1])) digits--;
    if (digits < q) return strtol(digits, NULL, 10);
    p += strlen(what);
  }
  return -1;
}

static long nonneg(long v) { return v < 0 ? 0 : v; }

/* "Used 19 registers, used 0 barriers, 512 bytes smem, 408 bytes cmem[0]" */
static void parse_used(const char *body, ResUsage *u) {
  u->registers = (int)nonneg(item_value(body, "registers"));
  u->barriers = (int)nonneg(item_value(body, "barriers"));
  u->smem = nonneg(item_value(body, "smem"));
  u->cmem0 = nonneg(item_value(body, "cmem[0]"));
  u->lmem = nonneg(item_value(body, "lmem"));
}

/* "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" */
static void parse_properties(const char *line, ResUsage *u) {
  u->stack_frame = nonneg(item_value(line, "stack frame"));
  u->spill_stores = nonneg(item_value(line, "spill stores"));
  u->spill_loads = nonneg(item_value(line, "spill loads"));
}

static ResUsage *new_usage(ResUsageList *l) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->v = xrealloc(l->v, sizeof *l->v * (size_t)l->cap);
  }
  ResUsage *u = &l->v[l->n++];
  memset(u, 0, sizeof *u);
  return u;
}

/* One line of ptxas output; `cur` is the entry being described (NULL before
 * the first), `props` whether the next properties line is cur's. */
static ResUsage *parse_line(const char *line, ResUsageList *out, ResUsage *cur, bool *props) {
  const char *body = info_body(line);
  if (body && strncmp(body, "Compiling entry function", 24) == 0) {
    cur = new_usage(out);
    cur->function = quoted(body);
    const char *for_ = strstr(body, "' for ");
    char *arch = quoted(for_ ? for_ + 2 : "");
    snprintf(cur->arch, sizeof cur->arch, "%s", arch);
    free(arch);
    *props = false;
  } else if (body && strncmp(body, "Function properties for ", 24) == 0) {
    /* also printed for the __device__ functions an entry calls: only the
     * entry's own properties line counts */
    *props = cur && strcmp(body + 24, cur->function) == 0;
  } else if (body && cur && strncmp(body, "Used ", 5) == 0) {
    parse_used(body, cur);
  } else if (!body && *props && cur && strstr(line, "stack frame")) {
    parse_properties(line, cur);
    *props = false;
  }
  return cur;
}

int res_parse_ptxas(const char *text, ResUsageList *out) {
  int before = out->n;
  ResUsage *cur = NULL;
  bool props = false;
  for (const char *p = text; p && *p;) {
    size_t n = strcspn(p, "\n");
    char *line = xstrndup(p, n && p[n - 1] == '\r' ? n - 1 : n);
    cur = parse_line(line, out, cur, &props);
    free(line);
    p += n + (p[n] == '\n');
  }
  return out->n - before;
}

void res_usage_free(ResUsageList *l) {
  for (int i = 0; i < l->n; i++) free(l->v[i].function);
  free(l->v);
  memset(l, 0, sizeof *l);
}

/* ---- names ------------------------------------------------------------------- */

/* Our kernels are `template <typename s2s_idx> __global__ void NAME(...)` at
 * file scope: Itanium-mangled as _Z <length> NAME I <type> E v <params>. */
bool res_demangle_kernel(const char *mangled, char *name, size_t size, const char **index_type) {
  if (strncmp(mangled, "_Z", 2) != 0 || !isdigit((unsigned char)mangled[2])) return false;
  char *end;
  long len = strtol(mangled + 2, &end, 10);
  if (len <= 0 || (size_t)len >= size || strlen(end) < (size_t)len + 3) return false;
  const char *args = end + len;
  if (args[0] != 'I' || args[2] != 'E') return false;
  const char *type = args[1] == 'i' ? "int" : args[1] == 'l' ? "long" : args[1] == 'x' ? "long long"
                                                                                         : NULL;
  if (!type) return false;
  memcpy(name, end, (size_t)len);
  name[len] = '\0';
  *index_type = type;
  return true;
}

/* ---- occupancy ------------------------------------------------------------------ */

static const ResArch arch_table[] = {
  /* name     warps blocks regs  unit sub regs/blk smem/SM smem/blk resv unit */
  { "sm_70",  64,   32,   65536, 256, 4, 65536,   98304,  98304,  0,    256 },
  { "sm_75",  32,   16,   65536, 256, 4, 65536,   65536,  65536,  0,    256 },
  { "sm_80",  64,   32,   65536, 256, 4, 65536,  167936, 166912,  1024, 128 },
  { "sm_86",  48,   16,   65536, 256, 4, 65536,  102400, 101376,  1024, 128 },
  { "sm_87",  48,   16,   65536, 256, 4, 65536,  167936, 166912,  1024, 128 },
  { "sm_89",  48,   24,   65536, 256, 4, 65536,  102400, 101376,  1024, 128 },
  { "sm_90",  64,   32,   65536, 256, 4, 65536,  233472, 232448,  1024, 128 },
  { "sm_100", 64,   32,   65536, 256, 4, 65536,  233472, 232448,  1024, 128 },
  { "sm_120", 48,   32,   65536, 256, 4, 65536,  102400, 101376,  1024, 128 },
};

const ResArch *res_arch(const char *arch) {
  const char *num = strncmp(arch, "sm_", 3) == 0 ? arch + 3
                    : strncmp(arch, "compute_", 8) == 0 ? arch + 8 : NULL;
  if (!num) return NULL;
  size_t digits = strspn(num, "0123456789");
  /* sm_90a, sm_100f: the architecture-specific features do not change the limits */
  if (!digits || (num[digits] && (!isalpha((unsigned char)num[digits]) || num[digits + 1])))
    return NULL;
  for (size_t i = 0; i < sizeof arch_table / sizeof *arch_table; i++)
    if (strlen(arch_table[i].name + 3) == digits && strncmp(arch_table[i].name + 3, num, digits) == 0)
      return &arch_table[i];
  return NULL;
}

static long round_up(long v, long unit) { return (v + unit - 1) / unit * unit; }

/* Blocks per SM that the registers allow; -1: no limit (no registers). */
static int blocks_by_registers(const ResArch *a, int warps_per_block, int registers) {
  long per_warp = round_up((long)registers * 32, a->reg_alloc_unit);
  if (per_warp == 0) return -1;
  /* the hardware's per-block check assumes warps spread over every sub-partition */
  if (per_warp * round_up(warps_per_block, a->sub_partitions) > a->max_regs_per_block) return 0;
  long warps = (a->regs_per_sm / a->sub_partitions / per_warp) * a->sub_partitions;
  return (int)(warps / warps_per_block);
}

static int blocks_by_shared(const ResArch *a, long smem) {
  long per_block = round_up(smem + a->smem_reserved, a->smem_alloc_unit);
  if (smem > a->smem_per_block) return 0;
  return per_block ? (int)(a->smem_per_sm / per_block) : -1;
}

ResOccupancy res_occupancy(const ResArch *a, int threads, int registers, long smem) {
  ResOccupancy o = { .max_warps = a->max_warps, .limit = RES_LIMIT_WARPS };
  int wpb = (threads + 31) / 32;
  if (threads <= 0 || threads > 1024 || registers > 255) {
    o.limit = RES_LIMIT_NO_FIT;
    o.why = threads > 1024 || threads <= 0 ? "more than 1024 threads per block" : "over 255 registers";
    return o;
  }
  int by_regs = blocks_by_registers(a, wpb, registers);
  int by_smem = blocks_by_shared(a, smem);
  if (by_regs == 0 || by_smem == 0) {
    o.limit = RES_LIMIT_NO_FIT;
    o.why = by_regs == 0 ? "the block needs more registers than an SM has"
                         : "the block needs more shared memory than an SM has";
    return o;
  }
  /* the first limit of the least wins ties: full occupancy reads "limited by warps" */
  int blocks = a->max_warps / wpb;
  if (a->max_blocks < blocks) blocks = a->max_blocks, o.limit = RES_LIMIT_BLOCKS;
  if (by_regs >= 0 && by_regs < blocks) blocks = by_regs, o.limit = RES_LIMIT_REGISTERS;
  if (by_smem >= 0 && by_smem < blocks) blocks = by_smem, o.limit = RES_LIMIT_SHARED;
  o.blocks = blocks;
  o.warps = blocks * wpb;
  o.percent = 100 * o.warps / a->max_warps;
  return o;
}

const char *res_limit_text(ResLimit limit) {
  switch (limit) {
  case RES_LIMIT_WARPS: return "limited by warps";
  case RES_LIMIT_BLOCKS: return "limited by blocks per SM";
  case RES_LIMIT_REGISTERS: return "limited by registers";
  case RES_LIMIT_SHARED: return "limited by shared memory";
  case RES_LIMIT_NO_FIT: return "the block does not fit on an SM";
  }
  S2S_BUG("bad ResLimit %d", (int)limit);
}

/* ---- report text ------------------------------------------------------------------ */

static void block_text(const int block[3], char *buf, size_t size) {
  if (block[2] > 1) snprintf(buf, size, "%dx%dx%d", block[0], block[1], block[2]);
  else if (block[1] > 1) snprintf(buf, size, "%dx%d", block[0], block[1]);
  else snprintf(buf, size, "%d", block[0]);
}

static char *occupancy_text(const ResUsage *u, const int block[3]) {
  const ResArch *a = res_arch(u->arch);
  char b[48];
  block_text(block, b, sizeof b);
  if (!a) return xasprintf("occupancy not computed (no limits known for %s)", u->arch);
  ResOccupancy o = res_occupancy(a, block[0] * block[1] * block[2], u->registers, u->smem);
  if (o.limit == RES_LIMIT_NO_FIT)
    return xasprintf("theoretical occupancy 0%% (block %s does not fit: %s)", b, o.why);
  return xasprintf("theoretical occupancy %d%% (%d of %d warps per SM at block %s, %s)", o.percent,
                   o.warps, o.max_warps, b, res_limit_text(o.limit));
}

static char *spill_warning(const ResUsage *u, const char *who, long local) {
  if (u->spill_stores > 0 || u->spill_loads > 0)
    return xasprintf("%s spills registers to local memory: %ld bytes stored, %ld bytes loaded, "
                     "%ld bytes of local memory per thread; keep fewer temporaries live across "
                     "the loop body, or let ptxas use more registers (a larger "
                     "NVCCFLAGS=-maxrregcount=N, or none)", who, u->spill_stores, u->spill_loads,
                     local);
  return xasprintf("%s uses %ld bytes of local memory per thread (a per-thread array or a "
                   "recursive __device__ function; no spills): local memory is as slow as "
                   "global memory when the cache misses", who, local);
}

char *res_kernel_text(const ResUsage *u, const char *kernel, const char *index_type,
                      const int block[3], char **warning) {
  long local = u->stack_frame > u->lmem ? u->stack_frame : u->lmem;
  char *who = xasprintf("Kernel %s (%s, %s index)", kernel, u->arch, index_type);
  char *occ = occupancy_text(u, block);
  char *text = xasprintf("%s: %d registers, %ld bytes shared, %ld bytes local (stack %ld, spill "
                         "stores %ld, spill loads %ld); %s", who, u->registers, u->smem, local,
                         u->stack_frame, u->spill_stores, u->spill_loads, occ);
  *warning = local > 0 || u->spill_stores > 0 ? spill_warning(u, who, local) : NULL;
  free(occ);
  free(who);
  return text;
}

/* The lines of one kernel instance, if ptxas described it. */
static int report_instance(const ResUsageList *l, const ResKernelSite *s, const char *type) {
  int n = 0;
  for (int i = 0; i < l->n; i++) {
    char name[256];
    const char *t;
    if (!res_demangle_kernel(l->v[i].function, name, sizeof name, &t) || strcmp(name, s->name) ||
        strcmp(t, type))
      continue;
    char *warning;
    ResUsage u = l->v[i];
    u.smem += s->tile_bytes;   /* what the launcher asks for at the default block */
    char *text = res_kernel_text(&u, s->name, t, s->block, &warning);
    report_add_file(REPORT_INFO, s->routine, s->file, s->line, "%s", text);
    if (warning) report_add_file(REPORT_WARNING, s->routine, s->file, s->line, "%s", warning);
    free(text);
    free(warning);
    n++;
  }
  return n;
}

/* In the order of the kernels in the source, the int instance (the one most
 * launches run) before the long one. */
int res_report(const char *ptxas, const ResKernelSites *sites) {
  ResUsageList l = { 0 };
  res_parse_ptxas(ptxas, &l);
  int n = 0;
  for (int k = 0; k < sites->n; k++) {
    n += report_instance(&l, &sites->v[k], "int");
    n += report_instance(&l, &sites->v[k], "long");
  }
  res_usage_free(&l);
  return n;
}
