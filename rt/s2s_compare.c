/* s2s_compare.c — the host pass: run-time host fallback and autocompare.
 *
 * The translator keeps each region's original loops in the host file,
 * right after the call of its launcher:
 *
 *   call s2s_diffuse_r1(t, tend, ...)          s2s_diffuse_r1(t, tend, ...);
 *   if (s2s_host_pass() /= 0) then             if (s2s_host_pass()) {
 *     <the user's loops, unchanged>              <the user's statement, unchanged>
 *     call s2s_host_pass_end()                   s2s_host_pass_end();
 *   end if                                     }
 *
 * so the host can run a region by itself in two cases:
 *
 *   Host fallback (as NVHPC's): no GPU is visible, or S2S_DEVICE=host.  The
 *   launcher, data and update functions return at once (s2s_region_begin
 *   gives 0) and the host pass runs the loops on the user's arrays.  A
 *   notice says so once.
 *
 *   Autocompare (as NVHPC's PCAST), S2S_AUTOCOMPARE=1: every region runs
 *   on the device and then on the host.  The launcher captures what the
 *   device computed (every array the region writes, over its box, and its
 *   reduction results) instead of copying it back; the host pass computes
 *   the same on the host, and s2s_host_pass_end compares the two: per
 *   array the number of elements out of tolerance, the largest absolute
 *   and relative error and ULP distance, the first mismatches with their
 *   indices in the user's index space.  The host keeps its own results, so
 *   every region starts from host values the CPU computed and an error
 *   does not spread to the regions after it (inside a data region the
 *   device copies evolve on their own, as the program would run them).
 *   A verdict per region and a summary come at exit.
 *
 *   Tolerance: an element passes when |device - host| <= atol or
 *   <= rtol * |host|.  S2S_AUTOCOMPARE_RTOL (default 1e-5 for 4-byte reals,
 *   1e-12 for 8-byte ones) and S2S_AUTOCOMPARE_ATOL (default 0), each a
 *   number or a list with numbers per array (`th=0.05,q=2e-5,1e-9`);
 *   integers and logicals must be equal.  Both NaN counts as equal.
 *
 * Launchers called while the thread runs a host pass (a region's loops
 * that call a routine with a region of its own) run on the host as well:
 * passes nest.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <float.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "s2s_rt_internal.h"

#define S2S_PASS_DEPTH 8        /* nested host passes */
#define S2S_AC_SHOWN 5          /* mismatches printed per array */

/* What the device computed, held until the host pass has run. */
typedef struct S2sCapture {
  int line;
  S2sArray a;                  /* the descriptor (its box), or a scalar: rank 0 */
  int type;                    /* S2S_TYPE_* */
  unsigned char *dev;          /* the device's values of the box's span (arrays) or the value */
  long first;                  /* offset of the span's first element (arrays) */
  unsigned char host[16];      /* scalars: the host pass's value (s2s_host_pass_result) */
  int host_given;
} S2sCapture;

typedef struct S2sPass {
  S2sRegion *r;
  int compare;                 /* autocompare: the captures are compared at the end */
  int n, cap;
  S2sCapture *v;
} S2sPass;

static _Thread_local S2sPass s2s_pass[S2S_PASS_DEPTH];
static _Thread_local int s2s_pass_depth;     /* passes armed on this thread */
static _Thread_local int s2s_pass_running;   /* of which the host is running */

/* Statistics kept per region and array for the summary at exit. */
typedef struct S2sAcArray {
  char name[64];
  int type;
  size_t elem;
  long long compared, bad;
  double max_abs, max_rel, max_ulp;
  int shown;                   /* mismatches printed already */
  double rtol, atol;           /* its tolerance (S2S_AUTOCOMPARE_RTOL/ATOL, by name or default) */
  struct S2sAcArray *next;
} S2sAcArray;

typedef struct S2sAcRegion {
  const S2sRegion *r;
  long calls, failed_calls;
  S2sAcArray *arrays;
  struct S2sAcRegion *next;
} S2sAcRegion;

static struct {
  pthread_mutex_t lock;
  _Atomic int read;            /* the settings below are read (checked without the lock) */
  int enabled;
  double rtol4, rtol8, atol;
  S2sAcRegion *regions, **tail;
} ac = { PTHREAD_MUTEX_INITIALIZER, 0, 0, 1e-5, 1e-12, 0.0, NULL, NULL };

/* A tolerance setting: a comma-separated list of numbers from 0 to 1, each
 * either for every array (`1e-5`) or for one array (`th=0.05`), e.g.
 * S2S_AUTOCOMPARE_ATOL=th=0.05,q=2e-5,1e-9.  The value for array `name`
 * (NULL: the list's default), `fallback` when the list has none; the whole
 * list is checked at every call, so a typo stops the program at once. */
static double ac_tolerance(const char *var, const char *name, double fallback) {
  const char *v = getenv(var), *p = v;
  double found = fallback, dflt = fallback;
  int named = 0;
  if (!v || !*v) return fallback;
  while (*p) {
    const char *comma = strchr(p, ','), *eq = strchr(p, '=');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    const char *num = p;
    char *end;
    double x;
    if (eq && eq < p + len) num = eq + 1;
    x = strtod(num, &end);
    if (end != p + len || num == end || !(x >= 0.0) || x > 1.0)
      s2s_rt_fail_hint(NULL, 0, NULL, NULL, "%s='%s': '%.*s' is not a tolerance from 0 to 1 "
                       "(give NUMBER or ARRAY=NUMBER, comma-separated)", var, v, (int)len, p);
    if (num == p) dflt = x;
    else if (name && (size_t)(eq - p) == strlen(name) && !strncasecmp(p, name, (size_t)(eq - p)))
      found = x, named = 1;
    p += len + (comma != NULL);
  }
  return named ? found : dflt;
}

static void ac_summary_at_exit(void);

static void ac_read_settings(void) {
  const char *v;
  pthread_mutex_lock(&ac.lock);
  if (!ac.read) {
    v = getenv("S2S_AUTOCOMPARE");
    ac.enabled = v && *v && strcmp(v, "0") != 0;
    if (v && *v && strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
      s2s_rt_fail_hint(NULL, 0, NULL, NULL, "S2S_AUTOCOMPARE='%s': use 1 to compare every "
                       "region with its host run, 0 not to", v);
    ac.rtol4 = ac_tolerance("S2S_AUTOCOMPARE_RTOL", NULL, 1e-5);
    ac.rtol8 = ac_tolerance("S2S_AUTOCOMPARE_RTOL", NULL, 1e-12);
    ac.atol = ac_tolerance("S2S_AUTOCOMPARE_ATOL", NULL, 0.0);
    ac.tail = &ac.regions;
    if (ac.enabled) atexit(ac_summary_at_exit);
    ac.read = 1;
  }
  pthread_mutex_unlock(&ac.lock);
}

/* Called by s2s_compute_begin (s2s_rt.c), the runtime initialised:
 * arm a host pass for region r when the host runs it, alone (host
 * fallback, or the thread already inside a host pass) or after the device
 * (autocompare).  Returns whether the device runs the region. */
int s2s_autocompare_enabled(void) {
  if (!ac.read) ac_read_settings();
  return ac.enabled;
}

int s2s_pass_arm(S2sRegion *r, int host_fallback) {
  S2sPass *p;
  int on_device;
  if (!ac.read) ac_read_settings();
  on_device = !host_fallback && s2s_pass_running == 0;
  if (on_device && !ac.enabled) return 1;
  if (s2s_pass_depth == S2S_PASS_DEPTH)
    s2s_rt_fail_hint(r, r->line, "region", NULL, "host passes nested more than %d deep",
                     S2S_PASS_DEPTH);
  p = &s2s_pass[s2s_pass_depth++];
  p->r = r;
  p->compare = on_device;
  p->n = 0;
  return on_device;
}

int s2s_host_pass(void) {
  if (s2s_pass_depth <= s2s_pass_running) return 0;
  s2s_pass_running++;
  return 1;
}

static S2sCapture *ac_capture(S2sPass *p) {
  if (p->n == p->cap) {
    p->cap = p->cap ? 2 * p->cap : 8;
    p->v = realloc(p->v, sizeof *p->v * (size_t)p->cap);
    if (!p->v) s2s_rt_fail_hint(NULL, 0, NULL, NULL, "out of host memory for autocompare");
  }
  return &p->v[p->n++];
}

/* The pass the launcher running on this thread armed for comparing. */
static S2sPass *ac_comparing(const S2sRegion *r) {
  S2sPass *p;
  if (s2s_pass_depth <= s2s_pass_running) return NULL;
  p = &s2s_pass[s2s_pass_depth - 1];
  return p->compare && p->r == r ? p : NULL;
}

/* Offset (elements) of the element at multi-index idx from the element at
 * the declared lower bounds. */
static long ac_offset(const S2sArray *a, const long *idx) {
  long off = 0, stride = 1;
  for (int d = 0; d < a->rank; d++) {
    off += (idx[d] - a->lo[d]) * stride;
    stride *= a->ext[d];
  }
  return off;
}

static int ac_box_empty(const S2sArray *a) {
  for (int d = 0; d < a->rank; d++)
    if (a->sub_hi[d] < a->sub_lo[d]) return 1;
  return 0;
}

void s2s_compare_array(S2sRegion *r, int line, const S2sArray *a, const void *dev, int type) {
  S2sPass *p = ac_comparing(r);
  S2sCapture *c;
  long last, n;
  if (!p || !dev || ac_box_empty(a)) return;
  s2s_wait(r, line);
  c = ac_capture(p);
  c->line = line;
  c->a = *a;
  c->type = type;
  c->first = ac_offset(a, a->sub_lo);
  last = ac_offset(a, a->sub_hi);
  n = last - c->first + 1;
  c->dev = malloc((size_t)n * a->elem);
  if (!c->dev)
    s2s_rt_fail_hint(NULL, 0, NULL, NULL, "out of host memory for autocompare of '%s' "
                     "(%ld elements)", a->name, n);
  s2s_check(cudaMemcpy(c->dev, (const char *)dev + (size_t)c->first * a->elem,
                       (size_t)n * a->elem, cudaMemcpyDeviceToHost),
            r, line, "autocompare: copy of the device's results");
}

int s2s_compare_scalar(S2sRegion *r, int line, const char *name, void *host, const void *value,
                       size_t size, int type) {
  S2sPass *p = ac_comparing(r);
  S2sCapture *c;
  if (!p) return 0;
  c = ac_capture(p);
  memset(c, 0, sizeof *c);
  c->line = line;
  c->a.name = name;
  c->a.host = host;
  c->a.elem = size;
  c->type = type;
  c->dev = malloc(size);
  if (!c->dev) s2s_rt_fail_hint(NULL, 0, NULL, NULL, "out of host memory for autocompare");
  memcpy(c->dev, value, size);
  return 1;
}

/* The host pass's value of a reduction result, passed at its end: a
 * Fortran compiler need not store a local variable whose address it
 * passed to the launcher (the callee may not keep it), so the value comes
 * as an argument rather than being read through the launcher's pointer. */
void s2s_host_pass_result(const void *host) {
  S2sPass *p;
  if (s2s_pass_running <= 0) return;
  p = &s2s_pass[s2s_pass_running - 1];
  for (int i = 0; p->compare && i < p->n; i++) {
    S2sCapture *c = &p->v[i];
    if (!c->a.rank && c->a.host == host && c->a.elem <= sizeof c->host) {
      memcpy(c->host, host, c->a.elem);
      c->host_given = 1;
    }
  }
}

int s2s_pass_holds(const void *host) {
  S2sPass *p;
  if (s2s_pass_depth <= s2s_pass_running) return 0;
  p = &s2s_pass[s2s_pass_depth - 1];
  for (int i = 0; p->compare && i < p->n; i++)
    if (p->v[i].a.rank && p->v[i].a.host == host) return 1;
  return 0;
}

/* ---- comparing ---------------------------------------------------------- */

static S2sAcArray *ac_array_stat(S2sAcRegion *g, const S2sCapture *c) {
  S2sAcArray **q = &g->arrays;
  for (; *q; q = &(*q)->next)
    if (!strcmp((*q)->name, c->a.name ? c->a.name : "?")) return *q;
  *q = calloc(1, sizeof **q);
  if (!*q) s2s_rt_fail_hint(NULL, 0, NULL, NULL, "out of host memory for autocompare");
  snprintf((*q)->name, sizeof (*q)->name, "%s", c->a.name ? c->a.name : "?");
  (*q)->type = c->type;
  (*q)->elem = c->a.elem;
  (*q)->rtol = ac_tolerance("S2S_AUTOCOMPARE_RTOL", (*q)->name,
                            c->a.elem == sizeof(float) ? ac.rtol4 : ac.rtol8);
  (*q)->atol = ac_tolerance("S2S_AUTOCOMPARE_ATOL", (*q)->name, ac.atol);
  return *q;
}

static S2sAcRegion *ac_region_stat(const S2sRegion *r) {
  S2sAcRegion *g;
  for (g = ac.regions; g; g = g->next)
    if (g->r == r) return g;
  g = calloc(1, sizeof *g);
  if (!g) s2s_rt_fail_hint(NULL, 0, NULL, NULL, "out of host memory for autocompare");
  g->r = r;
  *ac.tail = g;
  ac.tail = &g->next;
  return g;
}

static double ac_load(const unsigned char *p, size_t elem, int type) {
  if (type == S2S_TYPE_REAL) {
    if (elem == sizeof(float)) { float f; memcpy(&f, p, sizeof f); return f; }
    double d; memcpy(&d, p, sizeof d); return d;
  }
  if (elem == 8) { int64_t i; memcpy(&i, p, sizeof i); return (double)i; }
  if (elem == 4) { int32_t i; memcpy(&i, p, sizeof i); return i; }
  if (elem == 2) { int16_t i; memcpy(&i, p, sizeof i); return i; }
  return *(const signed char *)p;
}

/* Distance in units in the last place: the count of representable values
 * between the two (same-sign ordering of the bit patterns). */
static double ac_ulps(const unsigned char *x, const unsigned char *y, size_t elem) {
  int64_t a, b;
  if (elem == sizeof(float)) {
    int32_t a32, b32;
    memcpy(&a32, x, 4);
    memcpy(&b32, y, 4);
    a = a32 < 0 ? (int64_t)INT32_MIN - a32 : a32;
    b = b32 < 0 ? (int64_t)INT32_MIN - b32 : b32;
  } else {
    memcpy(&a, x, 8);
    memcpy(&b, y, 8);
    if (a < 0) a = INT64_MIN - a;
    if (b < 0) b = INT64_MIN - b;
  }
  /* in unsigned arithmetic: the difference may not fit an int64 */
  return (double)(a > b ? (uint64_t)a - (uint64_t)b : (uint64_t)b - (uint64_t)a);
}

/* tend(12,3,7) in Fortran, tend[7][3][12] in C (dimensions listed fastest first). */
static void ac_element_text(const S2sRegion *r, const S2sArray *a, const long *idx, char *buf,
                            size_t size) {
  int c = s2s_rt_is_c_file(r->file);
  size_t n = (size_t)snprintf(buf, size, "%s%s", a->name ? a->name : "?", c || !a->rank ? "" : "(");
  for (int i = 0; i < a->rank && n < size; i++) {
    if (c)
      n += (size_t)snprintf(buf + n, size - n, "[%ld]", idx[a->rank - 1 - i]);
    else
      n += (size_t)snprintf(buf + n, size - n, "%s%ld", i ? "," : "", idx[i]);
  }
  if (!c && a->rank && n < size) snprintf(buf + n, size - n, ")");
}

static const char *ac_type_text(int type, size_t elem) {
  if (type == S2S_TYPE_REAL) return elem == 4 ? "real(4)" : "real(8)";
  return type == S2S_TYPE_LOGICAL ? "logical" : "integer";
}

/* One element: device value at d, host value at h.  Returns whether it is
 * out of tolerance; updates the array's maxima. */
static int ac_element(S2sAcArray *s, const unsigned char *d, const unsigned char *h, size_t elem,
                      int type, double *abs_err, double *rel_err, double *ulp) {
  double dv = ac_load(d, elem, type), hv = ac_load(h, elem, type);
  *abs_err = *rel_err = *ulp = 0.0;
  if (type != S2S_TYPE_REAL) {
    if (type == S2S_TYPE_LOGICAL) dv = dv != 0.0, hv = hv != 0.0;
    if (dv == hv) return 0;
    *abs_err = fabs(dv - hv);
    *rel_err = hv != 0.0 ? *abs_err / fabs(hv) : INFINITY;
  } else {
    if (isnan(dv) && isnan(hv)) return 0;
    if (dv == hv) return 0;
    *abs_err = fabs(dv - hv);
    if (isnan(*abs_err)) *abs_err = INFINITY;
    *rel_err = hv != 0.0 ? *abs_err / fabs(hv) : INFINITY;
    *ulp = isnan(dv) || isnan(hv) ? INFINITY : ac_ulps(d, h, elem);
  }
  if (*abs_err > s->max_abs) s->max_abs = *abs_err;
  if (*rel_err > s->max_rel) s->max_rel = *rel_err;
  if (*ulp > s->max_ulp) s->max_ulp = *ulp;
  if (type != S2S_TYPE_REAL) return 1;
  return !(*abs_err <= s->atol || *abs_err <= s->rtol * fabs(hv));
}

static void ac_print_mismatch(const S2sRegion *r, const S2sArray *a, const long *idx,
                              const unsigned char *d, const unsigned char *h, int type,
                              double abs_err, double rel_err, double ulp) {
  char where[256];
  ac_element_text(r, a, idx, where, sizeof where);
  if (type == S2S_TYPE_REAL)
    fprintf(stderr, "  %s: device %.*g, host %.*g (abs %.3g, rel %.3g, %.4g ulp)\n", where,
            a->elem == 4 ? 9 : 17, ac_load(d, a->elem, type), a->elem == 4 ? 9 : 17,
            ac_load(h, a->elem, type), abs_err, rel_err, ulp);
  else
    fprintf(stderr, "  %s: device %.0f, host %.0f\n", where, ac_load(d, a->elem, type),
            ac_load(h, a->elem, type));
}

/* Compare one capture with the host's values; returns whether it failed. */
static int ac_compare(const S2sRegion *r, long call, S2sAcRegion *g, const S2sCapture *c) {
  const S2sArray *a = &c->a;
  S2sAcArray *s = ac_array_stat(g, c);
  long idx[S2S_MAX_RANK], total = 0, bad = 0, shown_here = 0;
  long first_bad[S2S_AC_SHOWN][S2S_MAX_RANK];
  double err[S2S_AC_SHOWN][3];
  double abs_err, rel_err, ulp;
  const unsigned char *host_scalar = c->host_given ? c->host : (const unsigned char *)a->host;
  if (!a->rank) { /* a scalar: the value the host pass gave, else the one at a->host */
    total = 1;
    if (ac_element(s, c->dev, host_scalar, a->elem, c->type, &abs_err, &rel_err, &ulp)) {
      bad = 1;
      err[0][0] = abs_err, err[0][1] = rel_err, err[0][2] = ulp;
      shown_here = 1;
    }
  } else {
    for (int d = 0; d < a->rank; d++) idx[d] = a->sub_lo[d];
    for (;;) {
      long off = ac_offset(a, idx);
      const unsigned char *dv = c->dev + (size_t)(off - c->first) * a->elem;
      const unsigned char *hv = (const unsigned char *)a->host + (size_t)off * a->elem;
      total++;
      if (ac_element(s, dv, hv, a->elem, c->type, &abs_err, &rel_err, &ulp)) {
        if (bad < S2S_AC_SHOWN) {
          memcpy(first_bad[bad], idx, sizeof idx);
          err[bad][0] = abs_err, err[bad][1] = rel_err, err[bad][2] = ulp;
          shown_here++;
        }
        bad++;
      }
      int d = 0;
      while (d < a->rank && ++idx[d] > a->sub_hi[d]) idx[d] = a->sub_lo[d], d++;
      if (d == a->rank) break;
    }
  }
  s->compared += total;
  s->bad += bad;
  if (!bad || s->shown) return bad != 0;
  /* The first failing call of this array: the details. */
  s->shown = 1;
  fprintf(stderr, "s2s autocompare: %s:%d: region %s, call %ld: %s differs from the host in "
          "%ld of %ld element%s (max abs %.3g, max rel %.3g", r->file, c->line, r->name, call,
          a->name ? a->name : "?", bad, total, total == 1 ? "" : "s", s->max_abs, s->max_rel);
  if (c->type == S2S_TYPE_REAL) fprintf(stderr, ", max %.4g ulp", s->max_ulp);
  fprintf(stderr, ")\n");
  for (int i = 0; i < shown_here; i++) {
    if (!a->rank) {
      ac_print_mismatch(r, a, idx, c->dev, host_scalar, c->type, err[i][0], err[i][1], err[i][2]);
      continue;
    }
    long off = ac_offset(a, first_bad[i]);
    ac_print_mismatch(r, a, first_bad[i], c->dev + (size_t)(off - c->first) * a->elem,
                      (const unsigned char *)a->host + (size_t)off * a->elem, c->type,
                      err[i][0], err[i][1], err[i][2]);
  }
  if (bad > shown_here) fprintf(stderr, "  ... and %ld more\n", bad - shown_here);
  return 1;
}

void s2s_host_pass_end(void) {
  S2sPass *p;
  if (s2s_pass_running <= 0 || s2s_pass_running != s2s_pass_depth)
    s2s_rt_fail_hint(NULL, 0, NULL, NULL, "s2s_host_pass_end without its host pass (a "
                     "generated host file edited by hand?)");
  p = &s2s_pass[s2s_pass_depth - 1];
  if (p->compare) {
    pthread_mutex_lock(&ac.lock);
    S2sAcRegion *g = ac_region_stat(p->r);
    long call = ++g->calls;
    int failed = 0;
    for (int i = 0; i < p->n; i++) failed |= ac_compare(p->r, call, g, &p->v[i]);
    if (failed) g->failed_calls++;
    pthread_mutex_unlock(&ac.lock);
  }
  for (int i = 0; i < p->n; i++) free(p->v[i].dev);
  p->n = 0;
  s2s_pass_running--;
  s2s_pass_depth--;
}

void s2s_autocompare_counts(const S2sRegion *r, long *calls, long *failed_calls,
                            long long *bad_elements) {
  *calls = *failed_calls = 0;
  *bad_elements = 0;
  pthread_mutex_lock(&ac.lock);
  for (S2sAcRegion *g = ac.regions; g; g = g->next) {
    if (g->r != r) continue;
    *calls = g->calls;
    *failed_calls = g->failed_calls;
    for (S2sAcArray *s = g->arrays; s; s = s->next) *bad_elements += s->bad;
  }
  pthread_mutex_unlock(&ac.lock);
}

static void ac_summary_at_exit(void) {
  int regions = 0, failed = 0;
  pthread_mutex_lock(&ac.lock);
  fprintf(stderr, "s2s autocompare summary (tolerance: rtol %g for real(4), %g for real(8), "
          "atol %g; integers and logicals exact):\n", ac.rtol4, ac.rtol8, ac.atol);
  for (S2sAcRegion *g = ac.regions; g; g = g->next) {
    regions++;
    failed += g->failed_calls != 0;
    fprintf(stderr, "  %s:%d region %s: %ld call%s, %s", g->r->file, g->r->line, g->r->name,
            g->calls, g->calls == 1 ? "" : "s",
            g->failed_calls ? "FAILED" : "PASSED");
    if (g->failed_calls) fprintf(stderr, " in %ld", g->failed_calls);
    fputc('\n', stderr);
    for (S2sAcArray *s = g->arrays; s; s = s->next) {
      fprintf(stderr, "    %s (%s): %lld of %lld element%s out of tolerance", s->name,
              ac_type_text(s->type, s->elem), s->bad, s->compared, s->compared == 1 ? "" : "s");
      if (s->type == S2S_TYPE_REAL &&
          (s->atol != ac.atol || s->rtol != (s->elem == sizeof(float) ? ac.rtol4 : ac.rtol8)))
        fprintf(stderr, " (its tolerance: rtol %g, atol %g)", s->rtol, s->atol);
      if (s->max_abs > 0.0) {
        fprintf(stderr, ", max abs %.3g, max rel %.3g", s->max_abs, s->max_rel);
        if (s->type == S2S_TYPE_REAL) fprintf(stderr, ", max %.4g ulp", s->max_ulp);
      } else {
        fprintf(stderr, ", identical");
      }
      fputc('\n', stderr);
    }
  }
  fprintf(stderr, "s2s autocompare: %d region%s compared, %d FAILED\n", regions,
          regions == 1 ? "" : "s", failed);
  pthread_mutex_unlock(&ac.lock);
}
