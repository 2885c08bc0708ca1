/* s2s_rt.c — the runtime linked into every translated program.
 *
 * Generated launchers call it around each region: s2s_region_begin, then
 * s2s_data_begin per array (allocate and copy in, or find the copy a data
 * region already made), s2s_kernel_begin/S2S_LAUNCH/s2s_kernel_end per
 * kernel, s2s_data_end per array (copy out, release), s2s_region_end.
 *
 * The file builds twice from the same source:
 *   - against the CUDA runtime (gcc -I$CUDA/include; the program links
 *     -lcudart) into libs2srt.a;
 *   - with -DS2S_EMULATE into libs2srt_emu.a, where "device" memory is host
 *     memory and the CUDA calls below are the host versions at the end of the
 *     emulation section.  Everything above the CUDA API is shared, so the
 *     tests that run in emulation exercise the same present table, copy
 *     engine and error paths as a GPU run.
 *
 * Sections: errors and clocks; emulated CUDA; device set-up and timers;
 * boxes (the sub-arrays of data clauses); the present table; the copy
 * engine; the data, update and kernel API; the timing report.
 *
 * The runtime keeps process-wide state and is not thread-safe: call it from
 * one host thread (the one that runs the translated regions).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime, posix_memalign */
#endif

#include "s2s_rt.h"

#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <uthash.h>

#define S2S_RT_PREFIX "s2s-cuda runtime: "

/* Launches per kernel line of a region, for the timing report. */
typedef struct S2sKernelStat {
  int line;
  long launches;
  double total_us, max_us, min_us;
  unsigned grid[3], block[3]; /* last launch */
  struct S2sKernelStat *next; /* sorted by line */
} S2sKernelStat;

/* One array (sub-array) on the device.  Key: host address of the first byte
 * the device copy covers.  Copies never overlap (s2s_rt_find refuses a box
 * that straddles one), so that address is unique even when two disjoint
 * boxes of one array are present, which keying by the array's own base
 * address would not be. */
typedef struct S2sPresent {
  uintptr_t host_first;      /* key */
  uintptr_t host_last;       /* last byte covered, inclusive */
  char *dev;                 /* device allocation; dev[0] mirrors host_first */
  size_t elem;               /* element size of the creating clause's array */
  long refs;                 /* data_begin calls not yet matched by data_end */
  S2sClause clause;          /* the clause that created it */
  const S2sRegion *region;   /* ... in this region, at this line */
  int line;
  char what[160];            /* the creating box, e.g. "a(1:10,2:5)" */
  UT_hash_handle hh;
} S2sPresent;

/* A box reduced to what a copy needs.  run[0] is contiguous (stride 1);
 * run[d] repeats runs 0..d-1 count[d] times at stride[d] elements.
 * Dimensions of a single index are dropped and a dimension that covers its
 * whole extent is merged into the next, so a contiguous box has one run and
 * any box at most rank runs. */
typedef struct S2sBoxShape {
  long first, last;          /* linear offsets from the declared lower bounds */
  int nruns;
  long count[S2S_MAX_RANK + 1], stride[S2S_MAX_RANK + 1];
} S2sBoxShape;

static struct {
  int initialised;
  int debug, timing;         /* S2S_DEBUG, S2S_TIME */
  int device;
  char device_name[256];
  cudaEvent_t ev_start, ev_stop;
  S2sPresent *present;       /* uthash head */
  S2sRegion *regions;        /* registered regions, newest first */
} rt;

/* ---- errors and clocks ------------------------------------------------ */

static const char *s2s_rt_str(const char *s) { return s ? s : "?"; }

static void s2s_rt_vmessage(const char *kind, const S2sRegion *r, int line,
                            const char *where, const char *fmt, va_list ap) {
  fprintf(stderr, S2S_RT_PREFIX "%s: ", kind);
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " in %s %s (%s:%d)\n", where, r ? s2s_rt_str(r->name) : "?",
          r ? s2s_rt_str(r->file) : "?", line);
}

/* Every stop of the user's program goes through here, so the message always
 * names the region and the user's source line.  `where` is "region" or
 * "kernel of region"; `hint`, if not NULL, says what the user can change. */
static _Noreturn void s2s_rt_fail_hint(const S2sRegion *r, int line, const char *where,
                                       const char *hint, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
static _Noreturn void s2s_rt_fail_hint(const S2sRegion *r, int line, const char *where,
                                       const char *hint, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  s2s_rt_vmessage("error", r, line, where, fmt, ap);
  va_end(ap);
  if (hint) fprintf(stderr, S2S_RT_PREFIX "note: %s\n", hint);
  fflush(stderr);
  exit(1);
}

#define s2s_rt_fail(r, line, ...) s2s_rt_fail_hint((r), (line), "region", NULL, __VA_ARGS__)

static void s2s_rt_debug(const S2sRegion *r, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void s2s_rt_debug(const S2sRegion *r, int line, const char *fmt, ...) {
  va_list ap;
  if (!rt.debug) return;
  va_start(ap, fmt);
  s2s_rt_vmessage("debug", r, line, "region", fmt, ap);
  va_end(ap);
}

static void s2s_rt_cuda(cudaError_t err, const S2sRegion *r, int line, const char *what) {
  if (err != cudaSuccess)
    s2s_rt_fail(r, line, "CUDA error '%s' in %s", cudaGetErrorString(err), what);
}

static double s2s_rt_now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec * 1e-3;
}

/* ---- emulated CUDA ---------------------------------------------------- */
#ifdef S2S_EMULATE

_Thread_local uint3 threadIdx, blockIdx;
_Thread_local dim3 blockDim, gridDim;

struct S2sEmuEvent { double us; };

static cudaError_t s2s_emu_last_error = cudaSuccess;
static long s2s_emu_copies;

/* Failing calls leave their error for cudaGetLastError, as CUDA's do. */
static cudaError_t s2s_emu_result(cudaError_t err) {
  if (err != cudaSuccess) s2s_emu_last_error = err;
  return err;
}

void s2s_emu_set_error(cudaError_t err) { s2s_emu_result(err); }
long s2s_emu_copy_calls(void) { return s2s_emu_copies; }

const char *cudaGetErrorString(cudaError_t err) {
  switch (err) {
  case cudaSuccess: return "no error";
  case cudaErrorInvalidValue: return "invalid argument";
  case cudaErrorMemoryAllocation: return "out of memory";
  case cudaErrorInvalidConfiguration: return "invalid configuration argument";
  case cudaErrorInvalidPitchValue: return "invalid pitch argument";
  case cudaErrorInvalidDevicePointer: return "invalid device pointer";
  case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
  case cudaErrorNoDevice: return "no CUDA-capable device is detected";
  case cudaErrorInvalidDevice: return "invalid device ordinal";
  case cudaErrorLaunchFailure: return "unspecified launch failure";
  }
  return "unrecognized error code";
}

const char *cudaGetErrorName(cudaError_t err) {
  switch (err) {
  case cudaSuccess: return "cudaSuccess";
  case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
  case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
  case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
  case cudaErrorInvalidPitchValue: return "cudaErrorInvalidPitchValue";
  case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
  case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
  case cudaErrorNoDevice: return "cudaErrorNoDevice";
  case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
  case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
  }
  return "cudaErrorUnknown";
}

cudaError_t cudaGetLastError(void) {
  cudaError_t err = s2s_emu_last_error;
  s2s_emu_last_error = cudaSuccess;
  return err;
}

cudaError_t cudaPeekAtLastError(void) { return s2s_emu_last_error; }

cudaError_t cudaGetDeviceCount(int *count) {
  if (!count) return s2s_emu_result(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  return s2s_emu_result(device == 0 ? cudaSuccess : cudaErrorInvalidDevice);
}

cudaError_t cudaGetDevice(int *device) {
  if (!device) return s2s_emu_result(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  if (!prop) return s2s_emu_result(cudaErrorInvalidValue);
  if (device != 0) return s2s_emu_result(cudaErrorInvalidDevice);
  memset(prop, 0, sizeof *prop);
  snprintf(prop->name, sizeof prop->name, "CPU emulation");
  prop->multiProcessorCount = 1;
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize(void) { return cudaSuccess; }

cudaError_t cudaMalloc(void **ptr, size_t bytes) {
  void *p = NULL;
  if (!ptr) return s2s_emu_result(cudaErrorInvalidValue);
  *ptr = NULL;
  /* 256-byte aligned like cudaMalloc; exact size so ASan sees overruns. */
  if (posix_memalign(&p, 256, bytes ? bytes : 1) != 0)
    return s2s_emu_result(cudaErrorMemoryAllocation);
  memset(p, 0xFF, bytes);
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFree(void *ptr) {
  free(ptr);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind) {
  if ((unsigned)kind > cudaMemcpyDefault) return s2s_emu_result(cudaErrorInvalidMemcpyDirection);
  if (bytes && (!dst || !src)) return s2s_emu_result(cudaErrorInvalidValue);
  s2s_emu_copies++;
  if (bytes) memmove(dst, src, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                         size_t width, size_t height, enum cudaMemcpyKind kind) {
  if ((unsigned)kind > cudaMemcpyDefault) return s2s_emu_result(cudaErrorInvalidMemcpyDirection);
  if (width > dpitch || width > spitch) return s2s_emu_result(cudaErrorInvalidPitchValue);
  if (width && height && (!dst || !src)) return s2s_emu_result(cudaErrorInvalidValue);
  s2s_emu_copies++;
  for (size_t row = 0; row < height && width; row++)
    memmove((char *)dst + row * dpitch, (const char *)src + row * spitch, width);
  return cudaSuccess;
}

cudaError_t cudaMemset(void *ptr, int value, size_t bytes) {
  if (bytes && !ptr) return s2s_emu_result(cudaErrorInvalidValue);
  if (bytes) memset(ptr, value, bytes);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event) {
  if (!event) return s2s_emu_result(cudaErrorInvalidValue);
  *event = calloc(1, sizeof **event);
  return *event ? cudaSuccess : s2s_emu_result(cudaErrorMemoryAllocation);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  (void)stream; /* one implicit stream: everything is synchronous */
  if (!event) return s2s_emu_result(cudaErrorInvalidValue);
  event->us = s2s_rt_now_us();
  return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return event ? cudaSuccess : s2s_emu_result(cudaErrorInvalidValue);
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop) {
  if (!ms || !start || !stop) return s2s_emu_result(cudaErrorInvalidValue);
  *ms = (float)((stop->us - start->us) * 1e-3);
  return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  free(event);
  return cudaSuccess;
}

/* The launch limits of CUDA (compute capability 3.0 and later), so that a
 * launcher that gets them wrong fails in emulation as it would on a GPU. */
cudaError_t s2s_emu_check_launch(dim3 grid, dim3 block) {
  unsigned long long threads = (unsigned long long)block.x * block.y * block.z;
  int grid_ok = grid.x >= 1 && grid.y >= 1 && grid.z >= 1 && grid.x <= 2147483647u &&
                grid.y <= 65535u && grid.z <= 65535u;
  int block_ok = threads >= 1 && threads <= 1024 && block.x <= 1024 && block.y <= 1024 &&
                 block.z <= 64;
  return grid_ok && block_ok ? cudaSuccess : s2s_emu_result(cudaErrorInvalidConfiguration);
}

static int s2s_emu_order_of(const char *s) {
  if (!s || !*s || !strcmp(s, "forward")) return S2S_EMU_FORWARD;
  if (!strcmp(s, "reverse")) return S2S_EMU_REVERSE;
  if (!strcmp(s, "shuffle")) return S2S_EMU_SHUFFLE;
  return -1;
}

/* Read at every launch, so a test can change it between launches. */
int s2s_emu_order(void) {
  int order = s2s_emu_order_of(getenv("S2S_EMU_ORDER"));
  return order < 0 ? S2S_EMU_FORWARD : order;
}

/* S2S_EMU_SEED as a number; *ok = 0 when it is set but not one. */
static uint64_t s2s_emu_seed(int *ok) {
  const char *s = getenv("S2S_EMU_SEED");
  char *end;
  uint64_t seed;
  *ok = 1;
  if (!s || !*s) return 0x5325C0DAull; /* fixed: runs repeat unless asked not to */
  seed = strtoull(s, &end, 0);
  *ok = *end == '\0';
  return seed;
}

/* splitmix64: small, good enough to scatter thread orders, and the same on
 * every platform, so a failing seed reproduces anywhere. */
static uint64_t s2s_emu_random(void) {
  static uint64_t state;
  static int seeded;
  uint64_t z;
  if (!seeded) {
    int ok;
    state = s2s_emu_seed(&ok);
    seeded = 1;
  }
  z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void s2s_emu_permutation(unsigned long long *order, unsigned long long n) {
  for (unsigned long long i = 0; i < n; i++) order[i] = i;
  for (unsigned long long i = n; i > 1; i--) { /* Fisher-Yates */
    unsigned long long j = s2s_emu_random() % i, t = order[i - 1];
    order[i - 1] = order[j];
    order[j] = t;
  }
}

/* A misspelt S2S_EMU_ORDER would quietly test nothing: refuse it, naming
 * the kernel that would have run. */
static void s2s_emu_check_env(const S2sRegion *r, int line) {
  const char *order = getenv("S2S_EMU_ORDER");
  int seed_ok;
  if (s2s_emu_order_of(order) < 0)
    s2s_rt_fail_hint(r, line, "kernel of region", "use forward, reverse or shuffle",
                     "S2S_EMU_ORDER='%s' is not a thread order", order);
  (void)s2s_emu_seed(&seed_ok);
  if (!seed_ok)
    s2s_rt_fail(r, line, "S2S_EMU_SEED='%s' is not a number", getenv("S2S_EMU_SEED"));
}

#endif /* S2S_EMULATE */

/* ---- device set-up and timers ----------------------------------------- */

static int s2s_rt_env_flag(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

static int s2s_rt_env_device(const S2sRegion *r, int line) {
  const char *v = getenv("S2S_DEVICE");
  char *end;
  long dev;
  if (!v || !*v) return 0;
  dev = strtol(v, &end, 10);
  if (*end != '\0' || dev < 0 || dev > INT_MAX)
    s2s_rt_fail(r, line, "S2S_DEVICE='%s' is not a device number", v);
  return (int)dev;
}

static void s2s_rt_select_device(const S2sRegion *r, int line) {
  int count = 0, dev = s2s_rt_env_device(r, line);
  struct cudaDeviceProp prop; /* C spelling: CUDA has no typedef for C */
  s2s_rt_cuda(cudaGetDeviceCount(&count), r, line, "cudaGetDeviceCount (is a GPU visible?)");
  if (dev >= count)
    s2s_rt_fail_hint(r, line, "region", "set S2S_DEVICE to a number below the device count",
                     "S2S_DEVICE=%d, but there %s only %d device%s", dev,
                     count == 1 ? "is" : "are", count, count == 1 ? "" : "s");
  s2s_rt_cuda(cudaSetDevice(dev), r, line, "cudaSetDevice");
  s2s_rt_cuda(cudaGetDeviceProperties(&prop, dev), r, line, "cudaGetDeviceProperties");
  rt.device = dev;
  snprintf(rt.device_name, sizeof rt.device_name, "%s", prop.name);
}

static void s2s_rt_report_at_exit(void) { s2s_timing_report(stderr); }

/* On first use: choose the device, make the timing events, and arrange the
 * report.  Lazy, so a program that never reaches a region needs no GPU. */
static void s2s_rt_init(const S2sRegion *r, int line) {
  if (rt.initialised) return;
  rt.initialised = 1;
  rt.debug = s2s_rt_env_flag("S2S_DEBUG");
  rt.timing = s2s_rt_env_flag("S2S_TIME");
  s2s_rt_select_device(r, line);
  s2s_rt_cuda(cudaEventCreate(&rt.ev_start), r, line, "cudaEventCreate");
  s2s_rt_cuda(cudaEventCreate(&rt.ev_stop), r, line, "cudaEventCreate");
  if (rt.timing) atexit(s2s_rt_report_at_exit);
}

/* Every entry point that touches the device starts here. */
static void s2s_rt_enter(S2sRegion *r, int line) {
  s2s_rt_init(r, line);
  if (!r->registered) {
    r->registered = 1;
    r->next = rt.regions;
    rt.regions = r;
  }
}

/* Device time of the work issued between start and stop.  Events time the
 * GPU itself, and waiting on the stop event is also what surfaces a
 * kernel's asynchronous errors; in emulation they read the host clock. */
static void s2s_rt_timer_start(const S2sRegion *r, int line) {
  s2s_rt_cuda(cudaEventRecord(rt.ev_start, 0), r, line, "cudaEventRecord");
}

static double s2s_rt_timer_stop_us(const S2sRegion *r, int line, const char *where) {
  float ms = 0.0f;
  cudaError_t err = cudaEventRecord(rt.ev_stop, 0);
  if (err == cudaSuccess) err = cudaEventSynchronize(rt.ev_stop);
  if (err == cudaSuccess) err = cudaEventElapsedTime(&ms, rt.ev_start, rt.ev_stop);
  if (err != cudaSuccess)
    s2s_rt_fail_hint(r, line, where, NULL, "CUDA error '%s'", cudaGetErrorString(err));
  return (double)ms * 1e3;
}

/* ---- boxes ------------------------------------------------------------ */

static int s2s_rt_is_c_file(const char *file) {
  size_t n = file ? strlen(file) : 0;
  return n > 2 && file[n - 2] == '.' && (file[n - 1] == 'c' || file[n - 1] == 'h');
}

/* The box as the user wrote it: a(1:10,2:5) in Fortran, a[0:10][2:4] (start
 * and length, slowest first, as OpenACC) for C, whose dimensions the
 * translator listed fastest first. */
static void s2s_rt_box_text(const S2sRegion *r, const S2sArray *a, char *buf, size_t size) {
  int c = s2s_rt_is_c_file(r ? r->file : NULL);
  size_t n = (size_t)snprintf(buf, size, "%s%s", s2s_rt_str(a->name), c || !a->rank ? "" : "(");
  for (int i = 0; i < a->rank && n < size; i++) {
    int d = c ? a->rank - 1 - i : i;
    if (c)
      n += (size_t)snprintf(buf + n, size - n, "[%ld:%ld]", a->sub_lo[d],
                            a->sub_hi[d] - a->sub_lo[d] + 1);
    else
      n += (size_t)snprintf(buf + n, size - n, "%s%ld:%ld", i ? "," : "", a->sub_lo[d],
                            a->sub_hi[d]);
  }
  if (!c && a->rank && n < size) snprintf(buf + n, size - n, ")");
}

static void s2s_rt_desc_check(const S2sRegion *r, int line, const S2sArray *a) {
  if (!a) s2s_rt_fail(r, line, "NULL array descriptor");
  if (a->rank < 0 || a->rank > S2S_MAX_RANK || a->elem == 0)
    s2s_rt_fail(r, line, "array '%s' has rank %d and element size %zu", s2s_rt_str(a->name),
                a->rank, a->elem);
}

/* The box must lie inside the declared shape; the last extent may be 0
 * (assumed size: unknown, not checked). */
static void s2s_rt_box_check(const S2sRegion *r, int line, const S2sArray *a) {
  char box[160];
  if (!a->host) s2s_rt_fail(r, line, "array '%s' has no host address", s2s_rt_str(a->name));
  for (int d = 0; d < a->rank; d++) {
    int unknown = d == a->rank - 1 && a->ext[d] == 0;
    if (a->ext[d] < 0 || a->sub_lo[d] < a->lo[d] ||
        (!unknown && a->sub_hi[d] > a->lo[d] + a->ext[d] - 1)) {
      s2s_rt_box_text(r, a, box, sizeof box);
      s2s_rt_fail_hint(r, line, "region", "the data clause names elements outside the array",
                       "sub-array %s is outside dimension %d of '%s' (%ld:%ld)", box, d + 1,
                       s2s_rt_str(a->name), a->lo[d], a->lo[d] + a->ext[d] - 1);
    }
  }
}

static int s2s_rt_box_empty(const S2sArray *a) {
  for (int d = 0; d < a->rank; d++)
    if (a->sub_hi[d] < a->sub_lo[d]) return 1;
  return 0;
}

/* Drop runs of one element, then merge each run into the previous one when
 * that one fills the stride exactly (a full dimension). */
static void s2s_rt_box_merge(S2sBoxShape *s) {
  int n = 0;
  for (int d = 0; d < s->nruns; d++) {
    if (s->count[d] == 1) continue;
    if (n > 0 && s->count[n - 1] * s->stride[n - 1] == s->stride[d]) {
      s->count[n - 1] *= s->count[d];
      continue;
    }
    s->count[n] = s->count[d];
    s->stride[n++] = s->stride[d];
  }
  if (n == 0 || s->stride[0] != 1) { /* first run not contiguous: runs of one element */
    memmove(s->count + 1, s->count, (size_t)n * sizeof s->count[0]);
    memmove(s->stride + 1, s->stride, (size_t)n * sizeof s->stride[0]);
    s->count[0] = s->stride[0] = 1;
    n++;
  }
  s->nruns = n;
}

/* Offsets and runs of a valid, non-empty box. */
static void s2s_rt_box_shape(const S2sArray *a, S2sBoxShape *s) {
  long stride = 1;
  s->first = s->last = 0;
  s->nruns = a->rank;
  for (int d = 0; d < a->rank; d++) {
    s->first += (a->sub_lo[d] - a->lo[d]) * stride;
    s->last += (a->sub_hi[d] - a->lo[d]) * stride;
    s->count[d] = a->sub_hi[d] - a->sub_lo[d] + 1;
    s->stride[d] = stride;
    stride *= a->ext[d];
  }
  s2s_rt_box_merge(s);
}

/* Check `a` and compute its shape; 0 when the box is empty (nothing to do). */
static int s2s_rt_box(const S2sRegion *r, int line, const S2sArray *a, S2sBoxShape *s) {
  s2s_rt_desc_check(r, line, a);
  if (s2s_rt_box_empty(a)) return 0;
  s2s_rt_box_check(r, line, a);
  s2s_rt_box_shape(a, s);
  return 1;
}

static uintptr_t s2s_rt_host_first(const S2sArray *a, const S2sBoxShape *s) {
  return (uintptr_t)a->host + (uintptr_t)s->first * a->elem;
}

static uintptr_t s2s_rt_host_last(const S2sArray *a, const S2sBoxShape *s) {
  return (uintptr_t)a->host + (uintptr_t)(s->last + 1) * a->elem - 1;
}

/* ---- the present table ------------------------------------------------ */

static _Noreturn void s2s_rt_fail_partial(const S2sRegion *r, int line, const S2sArray *a,
                                          const S2sPresent *e) {
  char box[160];
  s2s_rt_box_text(r, a, box, sizeof box);
  s2s_rt_fail_hint(r, line, "region",
                   "an enclosing data clause must name the whole sub-array used inside it",
                   "%s is only partly present on the device: it overlaps the copy of %s made "
                   "at %s:%d (region %s)",
                   box, e->what, s2s_rt_str(e->region->file), e->line,
                   s2s_rt_str(e->region->name));
}

/* The present copy that holds the host bytes [first, last], or NULL when no
 * copy overlaps them.  A copy that overlaps without holding all of them is
 * an error (`strict`): the copy would have to grow under kernels that hold
 * pointers into it.  Boxes passed at an offset (a column a(1,1,j) handed to
 * a routine) have no entry of their own, hence the scan. */
static S2sPresent *s2s_rt_find(const S2sRegion *r, int line, const S2sArray *a,
                               uintptr_t first, uintptr_t last, int strict) {
  S2sPresent *e;
  HASH_FIND(hh, rt.present, &first, sizeof first, e);
  if (e && last <= e->host_last) return e;
  for (e = rt.present; e; e = e->hh.next) {
    if (first >= e->host_first && last <= e->host_last) return e;
    if (first <= e->host_last && e->host_first <= last) {
      if (strict) s2s_rt_fail_partial(r, line, a, e);
      return NULL;
    }
  }
  return NULL;
}

/* Pointer with the host array's layout: p + (linear offset of element e
 * from a's declared lower bounds) * elem is e's device address.  Unsigned
 * arithmetic, because p itself may lie before the allocation. */
static void *s2s_rt_dev_pointer(const S2sPresent *e, const S2sArray *a) {
  return (void *)((uintptr_t)e->dev + ((uintptr_t)a->host - e->host_first));
}

/* Allocate the device copy of [first, last] for `a`; the caller copies in. */
static S2sPresent *s2s_rt_create(const S2sRegion *r, int line, const S2sArray *a,
                                 S2sClause clause, uintptr_t first, uintptr_t last) {
  S2sPresent *e = calloc(1, sizeof *e);
  void *dev = NULL;
  if (!e) s2s_rt_fail(r, line, "out of host memory for the present table");
  s2s_rt_cuda(cudaMalloc(&dev, last - first + 1), r, line, "cudaMalloc");
  e->host_first = first;
  e->host_last = last;
  e->dev = dev;
  e->elem = a->elem;
  e->refs = 1;
  e->clause = clause;
  e->region = r;
  e->line = line;
  s2s_rt_box_text(r, a, e->what, sizeof e->what);
  HASH_ADD(hh, rt.present, host_first, sizeof e->host_first, e);
  s2s_rt_debug(r, line, "allocated %zu device bytes for %s", (size_t)(last - first + 1), e->what);
  return e;
}

static void s2s_rt_destroy(const S2sRegion *r, int line, S2sPresent *e) {
  s2s_rt_debug(r, line, "freed the device copy of %s", e->what);
  HASH_DEL(rt.present, e);
  s2s_rt_cuda(cudaFree(e->dev), r, line, "cudaFree");
  free(e);
}

/* ---- the copy engine -------------------------------------------------- */

/* `height` rows of `width` bytes, `pitch` apart on both sides (the device
 * copy has the host's layout).  cudaMemcpy2D refuses pitches beyond the
 * device's limit (2^31-1 bytes), so huge strides go row by row. */
static void s2s_rt_copy_rows(const S2sRegion *r, int line, char *dst, const char *src,
                             size_t width, size_t height, size_t pitch, enum cudaMemcpyKind kind) {
  if (height == 1) {
    s2s_rt_cuda(cudaMemcpy(dst, src, width, kind), r, line, "cudaMemcpy");
  } else if (pitch <= (size_t)INT_MAX) {
    s2s_rt_cuda(cudaMemcpy2D(dst, pitch, src, pitch, width, height, kind), r, line,
                "cudaMemcpy2D");
  } else {
    for (size_t row = 0; row < height; row++)
      s2s_rt_cuda(cudaMemcpy(dst + row * pitch, src + row * pitch, width, kind), r, line,
                  "cudaMemcpy");
  }
}

/* Copy every element of the box and nothing else: one cudaMemcpy when the
 * box is contiguous, else one 2-D copy (runs 0 and 1) per index of the
 * outer runs.  `host` and `dev` address the box's first element. */
static void s2s_rt_copy_shape(const S2sRegion *r, int line, const S2sBoxShape *s, size_t elem,
                              char *host, char *dev, int to_device) {
  long idx[S2S_MAX_RANK + 1] = {0};
  size_t width = (size_t)s->count[0] * elem;
  size_t height = s->nruns > 1 ? (size_t)s->count[1] : 1;
  size_t pitch = s->nruns > 1 ? (size_t)s->stride[1] * elem : width;
  enum cudaMemcpyKind kind = to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost;
  for (;;) {
    size_t off = 0;
    int d;
    for (d = 2; d < s->nruns; d++) off += (size_t)(idx[d] * s->stride[d]) * elem;
    if (to_device)
      s2s_rt_copy_rows(r, line, dev + off, host + off, width, height, pitch, kind);
    else
      s2s_rt_copy_rows(r, line, host + off, dev + off, width, height, pitch, kind);
    for (d = 2; d < s->nruns && ++idx[d] == s->count[d]; d++) idx[d] = 0;
    if (d >= s->nruns) break;
  }
}

static size_t s2s_rt_shape_bytes(const S2sBoxShape *s, size_t elem) {
  size_t n = elem;
  for (int d = 0; d < s->nruns; d++) n *= (size_t)s->count[d];
  return n;
}

static void s2s_rt_account(S2sRegion *r, int to_device, size_t bytes, double us) {
  r->data_us += us;
  if (to_device) {
    r->bytes_in += (long long)bytes;
    r->data_in_us += us;
    r->copies_in++;
  } else {
    r->bytes_out += (long long)bytes;
    r->data_out_us += us;
    r->copies_out++;
  }
}

/* Copy the box of `a` between the host and its present copy `e`. */
static void s2s_rt_copy_box(S2sRegion *r, int line, const S2sArray *a, const S2sBoxShape *s,
                            const S2sPresent *e, int to_device) {
  uintptr_t first = s2s_rt_host_first(a, s);
  char *host = (char *)first;
  char *dev = e->dev + (first - e->host_first);
  size_t bytes = s2s_rt_shape_bytes(s, a->elem);
  double us;
  s2s_rt_timer_start(r, line);
  s2s_rt_copy_shape(r, line, s, a->elem, host, dev, to_device);
  us = s2s_rt_timer_stop_us(r, line, "region");
  s2s_rt_account(r, to_device, bytes, us);
  if (rt.debug) {
    char box[160];
    long calls = 1;
    for (int d = 2; d < s->nruns; d++) calls *= s->count[d];
    s2s_rt_debug(r, line, "%s %s: %zu bytes, %ld %s, %.1f us", to_device ? "copyin" : "copyout",
                 (s2s_rt_box_text(r, a, box, sizeof box), box), bytes, calls,
                 s->nruns == 1 ? "cudaMemcpy" : "cudaMemcpy2D", us);
  }
}

/* ---- data, update and kernel API -------------------------------------- */

void s2s_region_begin(S2sRegion *r) {
  s2s_rt_enter(r, r->line);
  r->entered++;
  if (r->depth++ == 0) r->region_t0 = s2s_rt_now_us();
}

void s2s_region_end(S2sRegion *r) {
  if (r->depth <= 0) s2s_rt_fail(r, r->line, "region ended without being begun");
  if (--r->depth == 0) r->region_us += s2s_rt_now_us() - r->region_t0;
}

static _Noreturn void s2s_rt_fail_absent(const S2sRegion *r, int line, const S2sArray *a,
                                         const char *what, const char *hint) {
  char box[160];
  s2s_rt_box_text(r, a, box, sizeof box);
  s2s_rt_fail_hint(r, line, "region", hint, "%s is not present on the device (%s)", box, what);
}

void *s2s_data_begin(S2sRegion *r, int line, const S2sArray *a, S2sClause clause) {
  S2sBoxShape s;
  S2sPresent *e;
  s2s_rt_enter(r, line);
  if ((unsigned)clause > S2S_PRESENT) s2s_rt_fail(r, line, "unknown data clause %d", (int)clause);
  if (!s2s_rt_box(r, line, a, &s)) return NULL;
  e = s2s_rt_find(r, line, a, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s), 1);
  if (e) { /* present-or: use the copy an enclosing data region made */
    e->refs++;
    s2s_rt_debug(r, line, "%s is present (copy of %s), %ld references", s2s_rt_str(a->name),
                 e->what, e->refs);
    return s2s_rt_dev_pointer(e, a);
  }
  if (clause == S2S_PRESENT)
    s2s_rt_fail_absent(r, line, a, "present clause",
                       "copy it in with an enclosing data region, or use copyin or copy");
  e = s2s_rt_create(r, line, a, clause, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s));
  if (clause == S2S_COPYIN || clause == S2S_COPY) s2s_rt_copy_box(r, line, a, &s, e, 1);
  return s2s_rt_dev_pointer(e, a);
}

/* References are released in the reverse order of s2s_data_begin (data
 * clauses are structured), so the call that drops the last reference is the
 * one that created the copy, and the creating clause decides the copy-out;
 * `clause` of inner, present-or references changes nothing. */
void s2s_data_end(S2sRegion *r, int line, const S2sArray *a, S2sClause clause) {
  S2sBoxShape s;
  S2sPresent *e;
  (void)clause;
  s2s_rt_enter(r, line);
  if (!s2s_rt_box(r, line, a, &s)) return;
  e = s2s_rt_find(r, line, a, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s), 1);
  if (!e) s2s_rt_fail_absent(r, line, a, "at the end of its data clause", NULL);
  if (e->refs == 1 && (e->clause == S2S_COPY || e->clause == S2S_COPYOUT))
    s2s_rt_copy_box(r, line, a, &s, e, 0);
  if (--e->refs == 0) s2s_rt_destroy(r, line, e);
}

static void s2s_rt_update(S2sRegion *r, int line, const S2sArray *a, int to_device) {
  S2sBoxShape s;
  S2sPresent *e;
  s2s_rt_enter(r, line);
  if (!s2s_rt_box(r, line, a, &s)) return;
  e = s2s_rt_find(r, line, a, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s), 1);
  if (!e)
    s2s_rt_fail_absent(r, line, a, to_device ? "update device" : "update host",
                       "update needs an enclosing data region that holds the array");
  s2s_rt_copy_box(r, line, a, &s, e, to_device);
}

void s2s_update_host(S2sRegion *r, int line, const S2sArray *a) { s2s_rt_update(r, line, a, 0); }

void s2s_update_device(S2sRegion *r, int line, const S2sArray *a) {
  s2s_rt_update(r, line, a, 1);
}

void s2s_check(cudaError_t err, S2sRegion *r, int line, const char *what) {
  s2s_rt_cuda(err, r, line, what ? what : "a CUDA call");
}

/* Device memory for the per-thread copies of privatized arrays whose size is
 * known only at run time.  In emulation it is filled with 0xFF bytes (NaN
 * for reals), so a read before the thread's own write shows up in tests. */
void *s2s_scratch_alloc(S2sRegion *r, int line, size_t bytes) {
  void *p = NULL;
  if (bytes == 0) return NULL;
  s2s_rt_cuda(cudaMalloc(&p, bytes), r, line, "cudaMalloc of privatized arrays");
#ifdef S2S_EMULATE
  s2s_rt_cuda(cudaMemset(p, 0xFF, bytes), r, line, "cudaMemset of privatized arrays");
#endif
  return p;
}

void s2s_scratch_free(S2sRegion *r, int line, void *p) {
  if (p) s2s_rt_cuda(cudaFree(p), r, line, "cudaFree of privatized arrays");
}

static S2sKernelStat *s2s_rt_kernel_stat(S2sRegion *r, int line) {
  S2sKernelStat **p = &r->kernel_stats, *k;
  while (*p && (*p)->line < line) p = &(*p)->next;
  if (*p && (*p)->line == line) return *p;
  k = calloc(1, sizeof *k);
  if (!k) s2s_rt_fail(r, line, "out of host memory for kernel statistics");
  k->line = line;
  k->next = *p;
  *p = k;
  return k;
}

void s2s_kernel_begin(S2sRegion *r, int line, dim3 grid, dim3 block) {
  cudaError_t stale;
  S2sKernelStat *k;
  s2s_rt_enter(r, line);
#ifdef S2S_EMULATE
  s2s_emu_check_env(r, line);
#endif
  /* An error left by code outside the runtime must not be blamed on this kernel. */
  stale = cudaGetLastError();
  if (stale != cudaSuccess)
    s2s_rt_fail_hint(r, line, "kernel of region", "the error comes from an earlier CUDA call",
                     "CUDA error '%s' before launch", cudaGetErrorString(stale));
  k = s2s_rt_kernel_stat(r, line);
  r->grid[0] = k->grid[0] = grid.x;
  r->grid[1] = k->grid[1] = grid.y;
  r->grid[2] = k->grid[2] = grid.z;
  r->block[0] = k->block[0] = block.x;
  r->block[1] = k->block[1] = block.y;
  r->block[2] = k->block[2] = block.z;
  r->kernel_line = line;
  s2s_rt_timer_start(r, line);
}

void s2s_kernel_end(S2sRegion *r, int line) {
  cudaError_t err = cudaGetLastError(); /* launch errors: configuration, resources */
  S2sKernelStat *k;
  double us;
  if (err != cudaSuccess)
    s2s_rt_fail_hint(r, line, "kernel of region", NULL, "CUDA error '%s'", cudaGetErrorString(err));
  us = s2s_rt_timer_stop_us(r, line, "kernel of region"); /* waits: faults show here */
  k = s2s_rt_kernel_stat(r, line);
  k->max_us = k->launches == 0 || us > k->max_us ? us : k->max_us;
  k->min_us = k->launches == 0 || us < k->min_us ? us : k->min_us;
  k->total_us += us;
  k->launches++;
  r->kernel_us += us;
  r->kernels_launched++;
  s2s_rt_debug(r, line, "kernel [%ux%ux%u] x [%ux%ux%u]: %.1f us", k->grid[0], k->grid[1],
               k->grid[2], k->block[0], k->block[1], k->block[2], us);
}

unsigned s2s_grid_dim(S2sRegion *r, int line, long iterations, unsigned block, int axis) {
  long blocks, limit = axis == 0 ? 2147483647L : 65535L;
  if (axis < 0 || axis > 2 || block == 0)
    s2s_rt_fail(r, line, "grid axis %d with block size %u", axis, block);
  if (iterations <= 0) return 0;
  blocks = iterations / (long)block + (iterations % (long)block != 0);
  if (blocks > limit)
    s2s_rt_fail_hint(r, line, "region",
                     "map a shorter loop to this axis (y and z hold at most 65535 blocks)",
                     "a loop of %ld iterations needs %ld blocks of %u along grid axis %c, "
                     "more than the limit of %ld",
                     iterations, blocks, block, "xyz"[axis], limit);
  return (unsigned)blocks;
}

void s2s_assume(S2sRegion *r, int line, int holds, const char *assumption, const char *why,
                const char *values_fmt, ...) {
  char values[512];
  va_list ap;
  if (holds) return;
  va_start(ap, values_fmt);
  vsnprintf(values, sizeof values, values_fmt, ap);
  va_end(ap);
  s2s_rt_fail_hint(r, line, "region",
                   "no kernel ran; call the routine with values for which it holds, or write the "
                   "helper's extent so that the translator can prove it (such as ite-its+1 on an "
                   "array declared its:ite)",
                   "the translation assumed %s (%s), but %s", assumption, why, values);
}

long s2s_present_count(void) { return (long)HASH_COUNT(rt.present); }

long s2s_present_refs(const S2sArray *a) {
  S2sBoxShape s;
  S2sPresent *e;
  if (!s2s_rt_box(NULL, 0, a, &s)) return 0;
  e = s2s_rt_find(NULL, 0, a, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s), 0);
  return e ? e->refs : 0;
}

/* ---- the timing report -------------------------------------------------
 *
 * Layout (stable: people parse it; all times in microseconds, integers with
 * thousands separators; one block per user file, then routine, then region,
 * each sorted by name or line):
 *
 * S2S Accelerator Kernel Timing data (NVIDIA H100 80GB HBM3, device 0)
 * diffusion.f90
 *   diffuse
 *     21: region diffuse_r1 reached 10 times
 *         time(us): total=12,345 kernels=9,876 data=2,000
 *         24: kernel launched 10 times
 *             grid: [2x8x1]  block: [128x1x1]
 *             device time(us): total=9,876 max=1,100 min=950 avg=988
 *         21: data copyin reached 20 times
 *             bytes=1,234,567  device time(us): total=1,000  bandwidth=1.23 GB/s
 *         21: data copyout reached 10 times
 *             bytes=617,283  device time(us): total=1,000  bandwidth=0.62 GB/s
 *
 * The first line says "(emulated on CPU)" in emulation.  "time(us) total" is
 * the region's host wall time (kernels, copies and launch overhead);
 * "reached" counts s2s_region_begin calls, kernel "launched" counts
 * launches of the kernel at that line (grid and block are the last
 * launch's), data "reached" counts box transfers (data clauses and
 * updates) in that direction.  Bandwidth is bytes / device time, 1 GB =
 * 1e9 bytes.  Lines of copies that never happened are left out.
 */

static const char *s2s_rt_commas(double v, char buf[32]) {
  char digits[32];
  long long n = (long long)(v + (v < 0 ? -0.5 : 0.5));
  int len = snprintf(digits, sizeof digits, "%lld", n < 0 ? -n : n), o = 0;
  if (n < 0) buf[o++] = '-';
  for (int i = 0; i < len; i++) {
    if (i > 0 && (len - i) % 3 == 0) buf[o++] = ',';
    buf[o++] = digits[i];
  }
  buf[o] = '\0';
  return buf;
}

static int s2s_rt_strcmp(const char *a, const char *b) {
  return strcmp(s2s_rt_str(a), s2s_rt_str(b));
}

static int s2s_rt_region_order(const void *pa, const void *pb) {
  const S2sRegion *a = *(const S2sRegion *const *)pa, *b = *(const S2sRegion *const *)pb;
  int c = s2s_rt_strcmp(a->file, b->file);
  if (!c) c = s2s_rt_strcmp(a->routine, b->routine);
  if (!c) c = (a->line > b->line) - (a->line < b->line);
  if (!c) c = s2s_rt_strcmp(a->name, b->name);
  return c;
}

static void s2s_rt_report_kernel(FILE *out, const S2sKernelStat *k) {
  char t[32], mx[32], mn[32], avg[32];
  fprintf(out, "        %d: kernel launched %ld times\n", k->line, k->launches);
  fprintf(out, "            grid: [%ux%ux%u]  block: [%ux%ux%u]\n", k->grid[0], k->grid[1],
          k->grid[2], k->block[0], k->block[1], k->block[2]);
  fprintf(out, "            device time(us): total=%s max=%s min=%s avg=%s\n",
          s2s_rt_commas(k->total_us, t), s2s_rt_commas(k->max_us, mx),
          s2s_rt_commas(k->min_us, mn),
          s2s_rt_commas(k->launches ? k->total_us / (double)k->launches : 0.0, avg));
}

static void s2s_rt_report_data(FILE *out, int line, const char *dir, long count,
                               long long bytes, double us) {
  char b[32], t[32];
  if (count == 0) return;
  fprintf(out, "        %d: data %s reached %ld times\n", line, dir, count);
  fprintf(out, "            bytes=%s  device time(us): total=%s  bandwidth=", s2s_rt_commas((double)bytes, b),
          s2s_rt_commas(us, t));
  if (us > 0.0)
    fprintf(out, "%.2f GB/s\n", (double)bytes / us * 1e-3);
  else
    fprintf(out, "- GB/s\n");
}

static void s2s_rt_report_region(FILE *out, const S2sRegion *r) {
  char t[32], k[32], d[32];
  fprintf(out, "    %d: region %s reached %ld times\n", r->line, s2s_rt_str(r->name), r->entered);
  fprintf(out, "        time(us): total=%s kernels=%s data=%s\n", s2s_rt_commas(r->region_us, t),
          s2s_rt_commas(r->kernel_us, k), s2s_rt_commas(r->data_us, d));
  for (const S2sKernelStat *ks = r->kernel_stats; ks; ks = ks->next) s2s_rt_report_kernel(out, ks);
  s2s_rt_report_data(out, r->line, "copyin", r->copies_in, r->bytes_in, r->data_in_us);
  s2s_rt_report_data(out, r->line, "copyout", r->copies_out, r->bytes_out, r->data_out_us);
}

static void s2s_rt_report_header(FILE *out) {
#ifdef S2S_EMULATE
  fprintf(out, "S2S Accelerator Kernel Timing data (emulated on CPU)\n");
#else
  if (rt.initialised)
    fprintf(out, "S2S Accelerator Kernel Timing data (%s, device %d)\n", rt.device_name, rt.device);
  else
    fprintf(out, "S2S Accelerator Kernel Timing data (no device used)\n");
#endif
}

void s2s_timing_report(FILE *out) {
  size_t n = 0, i = 0;
  const S2sRegion **sorted;
  s2s_rt_report_header(out);
  for (const S2sRegion *r = rt.regions; r; r = r->next) n++;
  sorted = malloc((n ? n : 1) * sizeof *sorted);
  if (!sorted) return; /* at exit: no report rather than a crash */
  for (const S2sRegion *r = rt.regions; r; r = r->next) sorted[i++] = r;
  qsort(sorted, n, sizeof *sorted, s2s_rt_region_order);
  for (i = 0; i < n; i++) {
    const S2sRegion *r = sorted[i], *prev = i ? sorted[i - 1] : NULL;
    int new_file = !prev || s2s_rt_strcmp(prev->file, r->file);
    if (new_file) fprintf(out, "%s\n", s2s_rt_str(r->file));
    if (new_file || s2s_rt_strcmp(prev->routine, r->routine))
      fprintf(out, "  %s\n", s2s_rt_str(r->routine));
    s2s_rt_report_region(out, r);
  }
  fflush(out);
  free(sorted);
}
