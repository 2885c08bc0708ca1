/* s2s_tune.c — block shapes chosen by measurement (S2S_TUNE).
 *
 * The translator picks a block shape for each kernel (128 threads along
 * the stride-1 loop unless the user wrote vector(n)); the best shape for a
 * kernel depends on the GPU, the problem size and the kernel's registers.
 * With S2S_TUNE=1 the runtime tries candidate shapes on the first launches
 * of each kernel at each problem size (its trip counts), one shape per
 * launch: the first launch (default shape) warms up and is not counted,
 * then each candidate runs once and is timed.  A shape changes only how
 * the iterations are spread over blocks, never what a launch computes, so
 * the program's results are the same as without tuning.  The fastest shape
 * is used from then on and appended to a cache file, which later runs read
 * (without S2S_TUNE too): one tab-separated line per device, file, region,
 * kernel and trip counts.
 *
 *   S2S_TUNE unset   use the cached shape where there is one, else the default
 *   S2S_TUNE=1       as unset, and tune kernels the cache does not know
 *   S2S_TUNE=0       the translator's shapes; the cache is not read
 *   S2S_TUNE_FILE    the cache file (default $XDG_CACHE_HOME/s2s-cuda/tune.tsv,
 *                    or ~/.cache/s2s-cuda/tune.tsv)
 *
 * Candidates keep at most 256 threads per block, so every kernel can be
 * launched with them whatever its registers (255 x 256 < 65536).  Host
 * threads that launch the same kernel at once share its trials (each
 * launch takes the next candidate); their timings may then overlap.
 */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include "s2s_rt.h"
#include "s2s_rt_internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <uthash.h>

#define S2S_TUNE_MAX_CANDIDATES 8

typedef struct S2sTuneEntry {
  char key[768];             /* device \t file \t region \t kernel \t trips */
  char kernel[128];
  const S2sRegion *region;   /* for the report: NULL for lines read from the cache only */
  int line;
  unsigned shape[S2S_TUNE_MAX_CANDIDATES][3];
  double us[S2S_TUNE_MAX_CANDIDATES];
  int ncandidates;
  int next;                  /* trials handed out: 0 is the warm-up, then candidate next-1 */
  int done;                  /* measured: trials finished (warm-up included) */
  int chosen;                /* index into shape, or -1 while tuning */
  int from_cache;
  UT_hash_handle hh;
} S2sTuneEntry;

static struct {
  int mode;                  /* -1: not read yet; 0: off; 1: use the cache; 2: tune */
  int cache_read;
  char path[1024];
  S2sTuneEntry *entries;
} tune = { -1, 0, "", NULL };

static pthread_mutex_t s2s_tune_lock = PTHREAD_MUTEX_INITIALIZER;

/* The trial this thread's next kernel_end completes, or NULL. */
static _Thread_local S2sTuneEntry *s2s_tune_trial;
static _Thread_local int s2s_tune_trial_index;

static void s2s_tune_settings(void) {
  const char *v = getenv("S2S_TUNE"), *file = getenv("S2S_TUNE_FILE");
  tune.mode = !v || !*v ? 1 : strcmp(v, "0") == 0 ? 0 : 2;
  if (file && *file) {
    snprintf(tune.path, sizeof tune.path, "%s", file);
    return;
  }
  const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
  if (xdg && *xdg)
    snprintf(tune.path, sizeof tune.path, "%s/s2s-cuda/tune.tsv", xdg);
  else if (home && *home)
    snprintf(tune.path, sizeof tune.path, "%s/.cache/s2s-cuda/tune.tsv", home);
}

static S2sTuneEntry *s2s_tune_add(const char *key) {
  S2sTuneEntry *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  snprintf(e->key, sizeof e->key, "%s", key);
  e->chosen = -1;
  HASH_ADD_STR(tune.entries, key, e);
  return e;
}

/* Lines of the cache: KEY (five tab-separated fields) \t BXxBYxBZ \t US.
 * A line that does not parse is skipped: the cache only ever saves time.
 * A later line for the same key wins (a re-tune appends). */
static void s2s_tune_read_cache(void) {
  FILE *f = tune.path[0] ? fopen(tune.path, "r") : NULL;
  char line[1024];
  while (f && fgets(line, sizeof line, f)) {
    char *fields[7];
    int n = 0;
    line[strcspn(line, "\n")] = '\0';
    if (line[0] == '#') continue;
    for (char *p = line, *tab; n < 7; p = tab + 1) {
      fields[n++] = p;
      if (!(tab = strchr(p, '\t'))) break;
      *tab = '\0';
    }
    unsigned bx, by, bz;
    if (n != 7 || sscanf(fields[5], "%ux%ux%u", &bx, &by, &bz) != 3 || !bx || !by || !bz ||
        bx * by * bz > 1024)
      continue;
    char key[768];
    snprintf(key, sizeof key, "%s\t%s\t%s\t%s\t%s", fields[0], fields[1], fields[2], fields[3],
             fields[4]);
    S2sTuneEntry *e;
    HASH_FIND_STR(tune.entries, key, e);
    if (!e && !(e = s2s_tune_add(key))) break;
    e->shape[0][0] = bx, e->shape[0][1] = by, e->shape[0][2] = bz;
    e->us[0] = atof(fields[6]);
    e->ncandidates = 1;
    e->chosen = 0;
    e->from_cache = 1;
  }
  if (f) fclose(f);
}

static void s2s_tune_mkdirs(const char *path) {
  char dir[1024];
  snprintf(dir, sizeof dir, "%s", path);
  for (char *p = dir + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir(dir, 0755) != 0 && errno != EEXIST) return;
      *p = '/';
    }
}

static void s2s_tune_save(const S2sTuneEntry *e) {
  if (!tune.path[0]) return;
  s2s_tune_mkdirs(tune.path);
  FILE *f = fopen(tune.path, "a");
  if (!f) return;                       /* no cache: the choice holds for this run */
  const unsigned *s = e->shape[e->chosen];
  fprintf(f, "%s\t%ux%ux%u\t%.1f\n", e->key, s[0], s[1], s[2], e->us[e->chosen]);
  fclose(f);
}

/* The shapes to try: the translator's first, then the others that fit the
 * trip counts (no more threads along y or z than iterations there). */
static void s2s_tune_candidates(S2sTuneEntry *e, const long trip[3], const unsigned deflt[3]) {
  static const unsigned flat[][3] = { { 64, 1, 1 }, { 128, 1, 1 }, { 256, 1, 1 } };
  static const unsigned tiles[][3] = { { 128, 1, 1 }, { 256, 1, 1 }, { 64, 2, 1 }, { 32, 4, 1 },
                                       { 64, 4, 1 }, { 32, 8, 1 }, { 32, 4, 2 } };
  int multi = trip[1] > 1 || trip[2] > 1;
  const unsigned (*c)[3] = multi ? tiles : flat;
  int nc = multi ? (int)(sizeof tiles / sizeof tiles[0]) : (int)(sizeof flat / sizeof flat[0]);
  memcpy(e->shape[0], deflt, sizeof e->shape[0]);
  e->ncandidates = 1;
  for (int i = 0; i < nc && e->ncandidates < S2S_TUNE_MAX_CANDIDATES; i++) {
    if (c[i][1] > (unsigned)trip[1] || c[i][2] > (unsigned)trip[2]) continue;
    if (!memcmp(c[i], deflt, sizeof c[i])) continue;
    memcpy(e->shape[e->ncandidates++], c[i], sizeof c[i]);
  }
}

dim3 s2s_block_shape(S2sRegion *r, int line, const char *kernel, const long trip[3], unsigned bx,
                     unsigned by, unsigned bz, int fixed) {
  const unsigned deflt[3] = { bx, by, bz };
  dim3 use = dim3_of(bx, by, bz);
  s2s_rt_kernel_name(r, line, kernel);
  s2s_tune_trial = NULL;
  if (fixed) return use;                /* the user's vector(n) */
  pthread_mutex_lock(&s2s_tune_lock);
  if (tune.mode < 0) s2s_tune_settings();
  if (tune.mode > 0 && !tune.cache_read) {
    s2s_tune_read_cache();
    tune.cache_read = 1;
  }
  if (tune.mode == 0) {
    pthread_mutex_unlock(&s2s_tune_lock);
    return use;
  }
  char key[768];
  snprintf(key, sizeof key, "%s\t%s\t%s\t%s\t%ldx%ldx%ld", s2s_rt_device_label(),
           r->file ? r->file : "?", r->name ? r->name : "?", kernel, trip[0], trip[1], trip[2]);
  S2sTuneEntry *e;
  HASH_FIND_STR(tune.entries, key, e);
  if (!e && tune.mode == 2 && (e = s2s_tune_add(key)))
    s2s_tune_candidates(e, trip, deflt);
  if (e && !e->region) {
    snprintf(e->kernel, sizeof e->kernel, "%s", kernel);
    e->region = r;
    e->line = line;
  }
  if (e && e->chosen >= 0) {
    use = dim3_of(e->shape[e->chosen][0], e->shape[e->chosen][1], e->shape[e->chosen][2]);
  } else if (e && e->next <= e->ncandidates) {
    int i = e->next++;                  /* 0: warm-up with the default */
    const unsigned *s = e->shape[i ? i - 1 : 0];
    use = dim3_of(s[0], s[1], s[2]);
    s2s_tune_trial = e;
    s2s_tune_trial_index = i;
  }
  pthread_mutex_unlock(&s2s_tune_lock);
  return use;
}

int s2s_tune_timing(void) { return s2s_tune_trial != NULL; }

void s2s_tune_record(double us) {
  S2sTuneEntry *e = s2s_tune_trial;
  int i = s2s_tune_trial_index;
  s2s_tune_trial = NULL;
  if (!e) return;
  pthread_mutex_lock(&s2s_tune_lock);
  if (i > 0) e->us[i - 1] = us;
  if (++e->done == e->ncandidates + 1 && e->chosen < 0) {
    int best = 0;
    for (int c = 1; c < e->ncandidates; c++)
      if (e->us[c] < e->us[best]) best = c;
    e->chosen = best;
    s2s_tune_save(e);
  }
  pthread_mutex_unlock(&s2s_tune_lock);
}

void s2s_tune_report(FILE *out, const S2sRegion *r, int line) {
  pthread_mutex_lock(&s2s_tune_lock);
  for (S2sTuneEntry *e = tune.entries; e; e = e->hh.next) {
    if (e->region != r || e->line != line) continue;
    const char *trips = strrchr(e->key, '\t') + 1;
    const unsigned *s = e->chosen >= 0 ? e->shape[e->chosen] : NULL;
    if (!s)
      fprintf(out, "            block shape of %s (S2S_TUNE) for trips %s: tuning, %d of %d shapes tried\n",
              e->kernel, trips, e->done > 0 ? e->done - 1 : 0, e->ncandidates);
    else if (e->from_cache)
      fprintf(out, "            block shape of %s for trips %s: [%ux%ux%u] from the tuning cache "
              "(%.1f us when tuned)\n", e->kernel, trips, s[0], s[1], s[2], e->us[e->chosen]);
    else {
      fprintf(out, "            block shape of %s (S2S_TUNE) for trips %s: [%ux%ux%u] %.1f us; tried",
              e->kernel, trips,
              s[0], s[1], s[2], e->us[e->chosen]);
      for (int c = 0; c < e->ncandidates; c++)
        fprintf(out, "%s %ux%ux%u %.1f", c ? "," : "", e->shape[c][0], e->shape[c][1],
                e->shape[c][2], e->us[c]);
      fprintf(out, " us\n");
    }
  }
  pthread_mutex_unlock(&s2s_tune_lock);
}
