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
 *     engine, pool and error paths as a GPU run.
 *
 * Sections: errors and clocks; emulated CUDA; host threads, streams and
 * waits; device set-up and timers; boxes (the sub-arrays of data clauses);
 * the device memory pool; the present table; host copies (the rows of a
 * box); the staging pipeline (pieces, helper threads); the copy engine; the data, update and
 * kernel API; the timing report.
 *
 * Data movement (why it looks the way it does): copies from the user's
 * pageable arrays run at a fraction of PCIe speed (an H100 host: 9.6 GB/s
 * pageable, 55 GB/s pinned), and the driver's own staging of pageable memory
 * uses one CPU thread.  So the runtime stages through a pinned ring per
 * host thread, in pieces that several CPU threads fill or drain while the
 * copy engine moves the pieces before them; boxes with holes are packed on the
 * host and unpacked on the device (one 2-D or 3-D copy) unless the span is
 * barely larger than the box; device memory comes from a pool; and nothing
 * waits for the device except where the host needs data back or must reuse
 * a staging buffer (everything, with S2S_TIME, which times each step).
 *
 * Threads: the present table, the pool and the region statistics are
 * guarded by one mutex (never held while waiting for the device); each host
 * thread queues its copies and kernels on a stream of its own.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* clock_gettime, posix_memalign */
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* sched_getaffinity: the CPUs an MPI rank may run on */
#endif

#include "s2s_rt.h"
#include "s2s_rt_internal.h"
#include "s2s_pack.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <uthash.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#define S2S_RT_PREFIX "s2s-cuda runtime: "

/* Launches per kernel line of a region, for the timing report. */
typedef struct S2sKernelStat {
  int line;
  long launches;
  double total_us, max_us, min_us;
  unsigned grid[3], block[3]; /* last launch */
  struct S2sKernelStat *next; /* sorted by line */
} S2sKernelStat;

/* Copies made by one region's data clauses of one box (same host address
 * and size), for the advice "copyin of 'th' repeated 150 times". */
typedef struct S2sArrayStat {
  char name[64];
  uintptr_t host_first;
  size_t bytes;
  long copyins, copyouts;
  double in_us, out_us;
  struct S2sArrayStat *next;
} S2sArrayStat;

/* A block of device memory, in use or cached in the pool. */
typedef struct S2sBlock {
  uintptr_t dev;             /* key of rt.blocks_in_use */
  size_t bytes;
  cudaStream_t stream;       /* the stream that used it last */
  cudaEvent_t released;      /* recorded on `stream` when it came back (NULL until then) */
  struct S2sBlock *next_free; /* cached blocks, smallest first */
  UT_hash_handle hh;
} S2sBlock;

/* One array (sub-array) on the device.  Key: host address of the first byte
 * the device copy covers.  Copies never overlap (s2s_rt_find refuses a box
 * that straddles one), so that address is unique even when two disjoint
 * boxes of one array are present, which keying by the array's own base
 * address would not be. */
typedef struct S2sPresent {
  uintptr_t host_first;      /* key */
  uintptr_t host_last;       /* last byte covered, inclusive */
  char *dev;                 /* device allocation (a pool block); dev[0] mirrors host_first */
  size_t elem;               /* element size of the creating clause's array */
  long refs;                 /* data_begin calls not yet matched by data_end, plus updates running */
  S2sClause clause;          /* the clause that created it */
  const S2sRegion *region;   /* ... in this region, at this line */
  int line;
  char what[160];            /* the creating box, e.g. "a(1:10,2:5)" */
  S2sArray box;              /* the creating box (name not kept): which elements the copy holds */
  cudaStream_t stream;       /* the stream of the thread that created it */
  /* What another thread's stream waits for before it uses the copy: the
   * last device write queued on a thread's stream (the copy-in, a kernel,
   * an update device), recorded on ready_stream, and the last update device
   * queued on a thread's copy stream (copy_ready), which only a copy that
   * no other thread uses yet takes.  A stream that records `ready` has
   * waited for the one before (s2s_rt_borrow), so the chain holds them all. */
  cudaEvent_t ready, copy_ready;
  cudaStream_t ready_stream, copy_ready_stream;
  int filling;               /* the creator is still queuing the copy-in */
  int shared;                /* used from another thread's stream too */
  int registered;            /* host span pinned with cudaHostRegister */
  int register_failed;       /* tried once; not again */
  long transfers;            /* box transfers so far */
  double moved_mb;           /* and the megabytes they moved (for registration) */
  long dynamic_refs;         /* of refs, those held by enter data (OpenACC's dynamic count) */
  int dynamic;               /* an enter data has held it: the release that ends it decides
                                the copy-out by its own clause, not by the creator's */
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

typedef enum S2sRegisterMode { S2S_REGISTER_AUTO, S2S_REGISTER_ALWAYS, S2S_REGISTER_NEVER } S2sRegisterMode;

/* Process-wide state.  `lock` guards present, regions, the statistics in
 * S2sRegion, the pool and the cost estimates. */
static struct {
  _Atomic int initialised;
  int debug, timing;         /* S2S_DEBUG, S2S_TIME */
  int device;
  int host_fallback;         /* no device: regions run their original loops (s2s_compare.c) */
  int local_rank;            /* node-local MPI rank the device was chosen by, or -1 */
  const char *rank_from;     /* where it came from: an environment variable or the program */
  int local_rank_given;      /* s2s_use_local_rank was called (before initialisation) */
  char device_name[256];
  S2sPresent *present;       /* uthash head */
  S2sRegion *regions;        /* registered regions, newest first */
  /* data movement settings, read once (see rt/README.md) */
  size_t chunk;              /* S2S_STAGE_CHUNK: bytes per staging piece (one bus copy) */
  size_t stage_bytes;        /* S2S_STAGE_BYTES: bytes of a host thread's staging ring */
  double span_ratio;         /* S2S_SPAN_RATIO: move a holey box's span when span <= ratio * box */
  int copy_threads;          /* S2S_COPY_THREADS: CPU threads working on one staged transfer */
  int pool_enabled;          /* S2S_POOL (default on) */
  S2sRegisterMode register_mode; /* S2S_REGISTER */
  /* the pool */
  S2sBlock *blocks_in_use;   /* uthash by device address */
  S2sBlock *cached;          /* free list, smallest first */
  size_t cached_bytes;
  long pool_reused, pool_allocated, pool_trims;
  /* measured costs, microseconds per MB (1e6 bytes): staged transfer,
   * transfer from pinned memory, cudaHostRegister + cudaHostUnregister */
  double staged_us_mb, pinned_us_mb, register_us_mb;
} rt;

static pthread_mutex_t s2s_rt_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t s2s_rt_fill_cond = PTHREAD_COND_INITIALIZER; /* a copy-in was queued */

static void s2s_rt_lock_take(void) { pthread_mutex_lock(&s2s_rt_lock); }
static void s2s_rt_lock_give(void) { pthread_mutex_unlock(&s2s_rt_lock); }

/* ---- errors and clocks ------------------------------------------------ */

static const char *s2s_rt_str(const char *s) { return s ? s : "?"; }

static void s2s_rt_vmessage(const char *kind, const S2sRegion *r, int line,
                            const char *where, const char *fmt, va_list ap) {
  fprintf(stderr, S2S_RT_PREFIX "%s: ", kind);
  vfprintf(stderr, fmt, ap);
  if (r)
    fprintf(stderr, " in %s %s (%s:%d)\n", where, s2s_rt_str(r->name), s2s_rt_str(r->file), line);
  else
    fputc('\n', stderr);   /* a call of the program's, outside any region */
}

/* Every stop of the user's program goes through here, so the message always
 * names the region and the user's source line.  `where` is "region" or
 * "kernel of region"; `hint`, if not NULL, says what the user can change. */
_Noreturn void s2s_rt_fail_hint(const S2sRegion *r, int line, const char *where,
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
_Thread_local unsigned char *s2s_emu_smem;
_Thread_local int s2s_emu_phase;

/* Streams are queues of operations that run when something waits for them
 * (see s2s_emu.h).  One mutex guards every queue, the allocation table and
 * the registered ranges, since any thread may run another thread's stream
 * (cudaStreamWaitEvent, a synchronous call).  Operations only move bytes,
 * so running them under the mutex cannot deadlock. */
typedef enum S2sEmuOpKind {
  S2S_EMU_OP_COPY, S2S_EMU_OP_SET, S2S_EMU_OP_RECORD, S2S_EMU_OP_WAIT, S2S_EMU_OP_PACK
} S2sEmuOpKind;

/* Read only the members `kind` names: COPY all geometry; SET dst, width,
 * value; RECORD/WAIT event and seq; PACK dst (the box), pack, value
 * (to_packed) and src (the packed rows). */
typedef struct S2sEmuOp {
  S2sEmuOpKind kind;
  char *dst;
  const char *src;
  size_t width, height, depth;           /* bytes per row, rows, planes */
  size_t dpitch, spitch, dslice, sslice; /* bytes between rows and planes */
  int value;
  struct S2sEmuEvent *event;
  unsigned long long seq;                /* WAIT: the event's count on `waited` */
  struct S2sEmuStream *waited;           /* WAIT: the stream the event was recorded on */
  S2sPackShape pack;                     /* PACK: the box's rows (s2s_pack_launch) */
  struct S2sEmuOp *next;
} S2sEmuOp;

struct S2sEmuStream {
  S2sEmuOp *head, *tail;
  unsigned long long queued, done;       /* operations ever queued / run */
  struct S2sEmuStream *next;             /* all streams */
};

struct S2sEmuEvent {
  double us;
  struct S2sEmuStream *stream;           /* where it was last recorded (NULL: complete) */
  unsigned long long seq;                /* complete once stream->done reaches it */
};

/* A device allocation, so that cudaFree can refuse a wrong pointer and a
 * test can set how much memory the "device" has. */
typedef struct S2sEmuAlloc {
  uintptr_t ptr;
  size_t bytes;
  UT_hash_handle hh;
} S2sEmuAlloc;

typedef struct S2sEmuRange {
  uintptr_t first;
  size_t bytes;
  struct S2sEmuRange *next;
} S2sEmuRange;

static pthread_mutex_t s2s_emu_lock = PTHREAD_MUTEX_INITIALIZER;
static struct S2sEmuStream *s2s_emu_streams;
static S2sEmuAlloc *s2s_emu_allocs;
static S2sEmuRange *s2s_emu_registered;
static size_t s2s_emu_alloc_bytes, s2s_emu_alloc_limit, s2s_emu_reg_bytes;
static long s2s_emu_pending, s2s_emu_mallocs, s2s_emu_frees;
static _Atomic long s2s_emu_copies, s2s_emu_transfers;
static _Atomic long long s2s_emu_transfer_byte_count;
static _Thread_local cudaError_t s2s_emu_last_error = cudaSuccess; /* per thread, as CUDA's */
static _Thread_local cudaError_t s2s_emu_wait_error = cudaSuccess;

/* Failing calls leave their error for cudaGetLastError, as CUDA's do. */
static cudaError_t s2s_emu_result(cudaError_t err) {
  if (err != cudaSuccess) s2s_emu_last_error = err;
  return err;
}

void s2s_emu_set_error(cudaError_t err) { s2s_emu_result(err); }
long s2s_emu_copy_calls(void) { return s2s_emu_copies; }
long s2s_emu_transfer_calls(void) { return s2s_emu_transfers; }
long long s2s_emu_transfer_bytes(void) { return s2s_emu_transfer_byte_count; }
void s2s_emu_fail_next_wait(cudaError_t err) { s2s_emu_wait_error = err; }

static long s2s_emu_locked_long(const long *v) {
  long n;
  pthread_mutex_lock(&s2s_emu_lock);
  n = *v;
  pthread_mutex_unlock(&s2s_emu_lock);
  return n;
}

long s2s_emu_malloc_calls(void) { return s2s_emu_locked_long(&s2s_emu_mallocs); }
long s2s_emu_free_calls(void) { return s2s_emu_locked_long(&s2s_emu_frees); }
long s2s_emu_pending_ops(void) { return s2s_emu_locked_long(&s2s_emu_pending); }

size_t s2s_emu_device_bytes(void) {
  size_t n;
  pthread_mutex_lock(&s2s_emu_lock);
  n = s2s_emu_alloc_bytes;
  pthread_mutex_unlock(&s2s_emu_lock);
  return n;
}

size_t s2s_emu_registered_bytes(void) {
  size_t n;
  pthread_mutex_lock(&s2s_emu_lock);
  n = s2s_emu_reg_bytes;
  pthread_mutex_unlock(&s2s_emu_lock);
  return n;
}

void s2s_emu_set_device_limit(size_t bytes) {
  pthread_mutex_lock(&s2s_emu_lock);
  s2s_emu_alloc_limit = bytes;
  pthread_mutex_unlock(&s2s_emu_lock);
}

/* The error the next wait of this thread reports (test hook), once. */
static cudaError_t s2s_emu_wait_result(void) {
  cudaError_t err = s2s_emu_wait_error;
  s2s_emu_wait_error = cudaSuccess;
  return s2s_emu_result(err);
}

static int s2s_emu_deferred(void) {
  const char *v = getenv("S2S_EMU_ASYNC");
  return !(v && !strcmp(v, "immediate"));
}

static void s2s_emu_run_until(struct S2sEmuStream *st, unsigned long long seq);

static void s2s_emu_run_op(S2sEmuOp *op) {
  switch (op->kind) {
  case S2S_EMU_OP_COPY:
    for (size_t z = 0; z < op->depth; z++)
      for (size_t y = 0; y < op->height; y++)
        memmove(op->dst + z * op->dslice + y * op->dpitch,
                op->src + z * op->sslice + y * op->spitch, op->width);
    break;
  case S2S_EMU_OP_SET: memset(op->dst, op->value, op->width); break;
  case S2S_EMU_OP_RECORD: op->event->us = s2s_rt_now_us(); break;
  case S2S_EMU_OP_WAIT: s2s_emu_run_until(op->waited, op->seq); break;
  case S2S_EMU_OP_PACK: /* the kernel of s2s_pack.cu, row by row */
    for (long k = 0; k < op->pack.nrows; k++) {
      char *box = op->dst + s2s_pack_row_offset(&op->pack, k);
      char *packed = (char *)op->src + (size_t)k * op->pack.width;
      if (op->value) memcpy(packed, box, op->pack.width);
      else memcpy(box, packed, op->pack.width);
    }
    break;
  }
}

/* Run the operations of `st` up to its seq-th (lock held). */
static void s2s_emu_run_until(struct S2sEmuStream *st, unsigned long long seq) {
  while (st && st->head && st->done < seq) {
    S2sEmuOp *op = st->head;
    st->head = op->next;
    if (!st->head) st->tail = NULL;
    st->done++;
    s2s_emu_pending--;
    s2s_emu_run_op(op);
    free(op);
  }
}

static void s2s_emu_drain_all_locked(void) {
  for (struct S2sEmuStream *st = s2s_emu_streams; st; st = st->next)
    s2s_emu_run_until(st, st->queued);
}

/* What a synchronous call does first: wait for every stream. */
static void s2s_emu_drain_all(void) {
  pthread_mutex_lock(&s2s_emu_lock);
  s2s_emu_drain_all_locked();
  pthread_mutex_unlock(&s2s_emu_lock);
}

/* Queue `op` (a copy of *proto) on `st`; stream 0 is the legacy default
 * stream: it waits for every stream and runs at once. */
static cudaError_t s2s_emu_enqueue(struct S2sEmuStream *st, const S2sEmuOp *proto) {
  S2sEmuOp *op = malloc(sizeof *op);
  if (!op) return s2s_emu_result(cudaErrorMemoryAllocation);
  *op = *proto;
  op->next = NULL;
  pthread_mutex_lock(&s2s_emu_lock);
  if (op->kind == S2S_EMU_OP_RECORD) {
    op->event->stream = st;
    op->event->seq = st ? st->queued + 1 : 0;
  }
  if (!st) {
    s2s_emu_drain_all_locked();
    s2s_emu_run_op(op);
    free(op);
  } else {
    if (st->tail) st->tail->next = op; else st->head = op;
    st->tail = op;
    st->queued++;
    s2s_emu_pending++;
    /* An event recorded on an idle stream is complete at once; everything
     * else waits for a synchronisation unless asked not to. */
    if ((op->kind == S2S_EMU_OP_RECORD && st->head == op) || !s2s_emu_deferred())
      s2s_emu_run_until(st, st->queued);
  }
  pthread_mutex_unlock(&s2s_emu_lock);
  return cudaSuccess;
}

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
  case cudaErrorInvalidResourceHandle: return "invalid resource handle";
  case cudaErrorNotReady: return "device not ready";
  case cudaErrorIllegalAddress: return "an illegal memory access was encountered";
  case cudaErrorHostMemoryAlreadyRegistered:
    return "part or all of the requested memory range is already mapped";
  case cudaErrorHostMemoryNotRegistered: return "pointer does not correspond to a registered memory region";
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
  case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
  case cudaErrorNotReady: return "cudaErrorNotReady";
  case cudaErrorIllegalAddress: return "cudaErrorIllegalAddress";
  case cudaErrorHostMemoryAlreadyRegistered: return "cudaErrorHostMemoryAlreadyRegistered";
  case cudaErrorHostMemoryNotRegistered: return "cudaErrorHostMemoryNotRegistered";
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

cudaError_t cudaDeviceSynchronize(void) {
  s2s_emu_drain_all();
  return s2s_emu_wait_result();
}

cudaError_t cudaMalloc(void **ptr, size_t bytes) {
  void *p = NULL;
  S2sEmuAlloc *a;
  int full;
  if (!ptr) return s2s_emu_result(cudaErrorInvalidValue);
  *ptr = NULL;
  pthread_mutex_lock(&s2s_emu_lock);
  s2s_emu_mallocs++;
  full = s2s_emu_alloc_limit && s2s_emu_alloc_bytes + bytes > s2s_emu_alloc_limit;
  pthread_mutex_unlock(&s2s_emu_lock);
  /* 256-byte aligned like cudaMalloc; exact size so ASan sees overruns. */
  if (full || posix_memalign(&p, 256, bytes ? bytes : 1) != 0)
    return s2s_emu_result(cudaErrorMemoryAllocation);
  a = malloc(sizeof *a);
  if (!a) {
    free(p);
    return s2s_emu_result(cudaErrorMemoryAllocation);
  }
  memset(p, 0xFF, bytes);
  a->ptr = (uintptr_t)p;
  a->bytes = bytes;
  pthread_mutex_lock(&s2s_emu_lock);
  HASH_ADD(hh, s2s_emu_allocs, ptr, sizeof a->ptr, a);
  s2s_emu_alloc_bytes += bytes;
  pthread_mutex_unlock(&s2s_emu_lock);
  *ptr = p;
  return cudaSuccess;
}

/* Like CUDA's, waits for the device first: queued copies may target it. */
cudaError_t cudaFree(void *ptr) {
  uintptr_t key = (uintptr_t)ptr;
  S2sEmuAlloc *a;
  if (!ptr) return cudaSuccess;
  pthread_mutex_lock(&s2s_emu_lock);
  s2s_emu_drain_all_locked();
  HASH_FIND(hh, s2s_emu_allocs, &key, sizeof key, a);
  if (a) {
    HASH_DEL(s2s_emu_allocs, a);
    s2s_emu_alloc_bytes -= a->bytes;
    s2s_emu_frees++;
  }
  pthread_mutex_unlock(&s2s_emu_lock);
  if (!a) return s2s_emu_result(cudaErrorInvalidDevicePointer);
  free(a);
  free(ptr);
  return cudaSuccess;
}

static cudaError_t s2s_emu_check_copy(const void *dst, const void *src, size_t width,
                                      size_t height, size_t depth, enum cudaMemcpyKind kind) {
  if ((unsigned)kind > cudaMemcpyDefault) return s2s_emu_result(cudaErrorInvalidMemcpyDirection);
  if (width && height && depth && (!dst || !src)) return s2s_emu_result(cudaErrorInvalidValue);
  s2s_emu_copies++;
  if (kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToHost) {
    s2s_emu_transfers++;
    s2s_emu_transfer_byte_count += (long long)(width * height * depth);
  }
  return cudaSuccess;
}

static S2sEmuOp s2s_emu_copy_op(void *dst, size_t dpitch, const void *src, size_t spitch,
                                size_t width, size_t height) {
  S2sEmuOp op;
  memset(&op, 0, sizeof op);
  op.kind = S2S_EMU_OP_COPY;
  op.dst = dst;
  op.src = src;
  op.width = width;
  op.height = height;
  op.depth = 1;
  op.dpitch = dpitch;
  op.spitch = spitch;
  return op;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream) {
  cudaError_t err = s2s_emu_check_copy(dst, src, bytes, 1, 1, kind);
  S2sEmuOp op = s2s_emu_copy_op(dst, bytes, src, bytes, bytes, bytes ? 1 : 0);
  return err != cudaSuccess ? err : s2s_emu_enqueue(stream, &op);
}

cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                              size_t width, size_t height, enum cudaMemcpyKind kind,
                              cudaStream_t stream) {
  cudaError_t err;
  S2sEmuOp op = s2s_emu_copy_op(dst, dpitch, src, spitch, width, height);
  if (width > dpitch || width > spitch) return s2s_emu_result(cudaErrorInvalidPitchValue);
  err = s2s_emu_check_copy(dst, src, width, height, 1, kind);
  return err != cudaSuccess ? err : s2s_emu_enqueue(stream, &op);
}

/* The runtime's gather/scatter kernel (s2s_pack.cu in GPU builds): one
 * stream operation, whose row walk is the kernel's. */
cudaError_t s2s_pack_launch(cudaStream_t stream, char *box, char *packed, const S2sPackShape *s,
                            int to_packed) {
  S2sEmuOp op;
  memset(&op, 0, sizeof op);
  op.kind = S2S_EMU_OP_PACK;
  op.dst = box;
  op.src = packed;
  op.pack = *s;
  op.value = to_packed;
  s2s_emu_copies++; /* a device-side copy for the tests' counts */
  return s2s_emu_enqueue(stream, &op);
}

/* Linear memory only, as the runtime uses it. */
cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream) {
  const struct cudaPitchedPtr *s, *d;
  const struct cudaExtent *e;
  cudaError_t err;
  S2sEmuOp op;
  if (!p || p->srcArray || p->dstArray) return s2s_emu_result(cudaErrorInvalidValue);
  s = &p->srcPtr;
  d = &p->dstPtr;
  e = &p->extent;
  if (e->width + p->srcPos.x > s->pitch || e->width + p->dstPos.x > d->pitch ||
      e->height + p->srcPos.y > s->ysize || e->height + p->dstPos.y > d->ysize)
    return s2s_emu_result(cudaErrorInvalidPitchValue);
  err = s2s_emu_check_copy(d->ptr, s->ptr, e->width, e->height, e->depth, p->kind);
  if (err != cudaSuccess) return err;
  op = s2s_emu_copy_op((char *)d->ptr + p->dstPos.x + d->pitch * (p->dstPos.y + d->ysize * p->dstPos.z),
                       d->pitch,
                       (const char *)s->ptr + p->srcPos.x + s->pitch * (p->srcPos.y + s->ysize * p->srcPos.z),
                       s->pitch, e->width, e->height);
  op.depth = e->depth;
  op.dslice = d->pitch * d->ysize;
  op.sslice = s->pitch * s->ysize;
  return s2s_emu_enqueue(stream, &op);
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind) {
  return cudaMemcpyAsync(dst, src, bytes, kind, 0);
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                         size_t width, size_t height, enum cudaMemcpyKind kind) {
  return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, 0);
}

cudaError_t cudaMemsetAsync(void *ptr, int value, size_t bytes, cudaStream_t stream) {
  S2sEmuOp op;
  if (bytes && !ptr) return s2s_emu_result(cudaErrorInvalidValue);
  memset(&op, 0, sizeof op);
  op.kind = S2S_EMU_OP_SET;
  op.dst = ptr;
  op.width = bytes;
  op.value = value;
  return s2s_emu_enqueue(stream, &op);
}

cudaError_t cudaMemset(void *ptr, int value, size_t bytes) {
  return cudaMemsetAsync(ptr, value, bytes, 0);
}

cudaError_t cudaMallocHost(void **ptr, size_t bytes) {
  void *p = NULL;
  if (!ptr) return s2s_emu_result(cudaErrorInvalidValue);
  if (posix_memalign(&p, 4096, bytes ? bytes : 1) != 0)
    return s2s_emu_result(cudaErrorMemoryAllocation);
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void *ptr) {
  s2s_emu_drain_all();
  free(ptr);
  return cudaSuccess;
}

/* CUDA refuses a range that overlaps one already registered. */
cudaError_t cudaHostRegister(void *ptr, size_t bytes, unsigned int flags) {
  uintptr_t first = (uintptr_t)ptr;
  S2sEmuRange *r;
  (void)flags;
  if (!ptr || !bytes) return s2s_emu_result(cudaErrorInvalidValue);
  pthread_mutex_lock(&s2s_emu_lock);
  for (r = s2s_emu_registered; r; r = r->next)
    if (first < r->first + r->bytes && r->first < first + bytes) break;
  pthread_mutex_unlock(&s2s_emu_lock);
  if (r) return s2s_emu_result(cudaErrorHostMemoryAlreadyRegistered);
  r = malloc(sizeof *r);
  if (!r) return s2s_emu_result(cudaErrorMemoryAllocation);
  r->first = first;
  r->bytes = bytes;
  pthread_mutex_lock(&s2s_emu_lock);
  r->next = s2s_emu_registered;
  s2s_emu_registered = r;
  s2s_emu_reg_bytes += bytes;
  pthread_mutex_unlock(&s2s_emu_lock);
  return cudaSuccess;
}

cudaError_t cudaHostUnregister(void *ptr) {
  S2sEmuRange **p, *r = NULL;
  pthread_mutex_lock(&s2s_emu_lock);
  s2s_emu_drain_all_locked();
  for (p = &s2s_emu_registered; *p; p = &(*p)->next)
    if ((*p)->first == (uintptr_t)ptr) {
      r = *p;
      *p = r->next;
      s2s_emu_reg_bytes -= r->bytes;
      break;
    }
  pthread_mutex_unlock(&s2s_emu_lock);
  if (!r) return s2s_emu_result(cudaErrorHostMemoryNotRegistered);
  free(r);
  return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags) {
  struct S2sEmuStream *st;
  (void)flags;
  if (!stream) return s2s_emu_result(cudaErrorInvalidValue);
  st = calloc(1, sizeof *st);
  if (!st) return s2s_emu_result(cudaErrorMemoryAllocation);
  pthread_mutex_lock(&s2s_emu_lock);
  st->next = s2s_emu_streams;
  s2s_emu_streams = st;
  pthread_mutex_unlock(&s2s_emu_lock);
  *stream = st;
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *stream) {
  return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}

/* Queued work still runs, as on a GPU.  The stream's memory is kept (a
 * few bytes per thread that ever ran a region): events recorded on it may
 * still be waited for, and they point at it. */
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (!stream) return s2s_emu_result(cudaErrorInvalidResourceHandle);
  pthread_mutex_lock(&s2s_emu_lock);
  s2s_emu_run_until(stream, stream->queued);
  pthread_mutex_unlock(&s2s_emu_lock);
  return cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  pthread_mutex_lock(&s2s_emu_lock);
  if (stream) s2s_emu_run_until(stream, stream->queued); else s2s_emu_drain_all_locked();
  pthread_mutex_unlock(&s2s_emu_lock);
  return s2s_emu_wait_result();
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  int idle;
  pthread_mutex_lock(&s2s_emu_lock);
  idle = !stream || !stream->head;
  pthread_mutex_unlock(&s2s_emu_lock);
  return idle ? cudaSuccess : cudaErrorNotReady;
}

/* Work queued on `stream` after this waits for `event`'s work. */
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  S2sEmuOp op;
  (void)flags;
  if (!event) return s2s_emu_result(cudaErrorInvalidResourceHandle);
  memset(&op, 0, sizeof op);
  op.kind = S2S_EMU_OP_WAIT;
  pthread_mutex_lock(&s2s_emu_lock);
  op.waited = event->stream;
  op.seq = event->seq;
  pthread_mutex_unlock(&s2s_emu_lock);
  return s2s_emu_enqueue(stream, &op);
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
  (void)flags;
  if (!event) return s2s_emu_result(cudaErrorInvalidValue);
  *event = calloc(1, sizeof **event);
  return *event ? cudaSuccess : s2s_emu_result(cudaErrorMemoryAllocation);
}

cudaError_t cudaEventCreate(cudaEvent_t *event) {
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  S2sEmuOp op;
  if (!event) return s2s_emu_result(cudaErrorInvalidValue);
  memset(&op, 0, sizeof op);
  op.kind = S2S_EMU_OP_RECORD;
  op.event = event;
  return s2s_emu_enqueue(stream, &op);
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (!event) return s2s_emu_result(cudaErrorInvalidValue);
  pthread_mutex_lock(&s2s_emu_lock);
  s2s_emu_run_until(event->stream, event->seq);
  pthread_mutex_unlock(&s2s_emu_lock);
  return s2s_emu_wait_result();
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  int done;
  if (!event) return s2s_emu_result(cudaErrorInvalidValue);
  pthread_mutex_lock(&s2s_emu_lock);
  done = !event->stream || event->stream->done >= event->seq;
  pthread_mutex_unlock(&s2s_emu_lock);
  return done ? cudaSuccess : cudaErrorNotReady;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t stop) {
  if (!ms || !start || !stop) return s2s_emu_result(cudaErrorInvalidValue);
  *ms = (float)((stop->us - start->us) * 1e-3);
  return cudaSuccess;
}

/* Destroying an event whose work is queued is allowed: waits that name it
 * keep their own copy of the stream and count. */
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  pthread_mutex_lock(&s2s_emu_lock);
  if (event && event->stream) s2s_emu_run_until(event->stream, event->seq);
  pthread_mutex_unlock(&s2s_emu_lock);
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

/* ---- the race check (S2S_EMU_CHECK=race) --------------------------------
 *
 * While a kernel runs under the check, every element of a global array it
 * reads or writes through its index macros (S2S_ELEM: an S2sEmuElem in
 * emulation) comes here with the kernel's array parameter and the
 * element's offset.  A table per host thread, keyed by the element's
 * address, keeps for each element touched in this launch the first thread
 * that wrote it and the first two threads that read it; an element written
 * by one thread and read or written by another is a race: the kernel's
 * result depends on the order its threads run in on the GPU.  Each such
 * element is reported once (the first S2S_EMU_RACE_SHOWN of a launch in
 * full), and the run stops with status 1 at the end of the launch.
 *
 * What it cannot see: privatized arrays (scalars, local arrays, scratch
 * slices: each thread's own by construction), reduction accumulators
 * (combined through s2s_reduce) and constant memory; none of them index
 * through S2S_ELEM.  Threads are numbered as CUDA numbers them: block
 * (blockIdx linear) times threads per block plus threadIdx linear, + 1 (0:
 * none).
 *
 * The element is named in the user's index space through the descriptor
 * the region's data clause passed to s2s_data_begin with the same device
 * pointer (recorded per host thread while the check is on). */

#define S2S_EMU_RACE_SHOWN 4
#define S2S_RT_STR(x) #x
#define S2S_RT_XSTR(x) S2S_RT_STR(x)

typedef struct S2sRaceCell {
  uintptr_t addr;
  unsigned epoch;                  /* the launch that filled it; another: an empty cell */
  unsigned reported;
  unsigned long long writer, reader1, reader2; /* thread ids + 1, 0: none */
} S2sRaceCell;

typedef struct S2sRaceArray {
  const char *dev;                 /* device pointer returned by s2s_data_begin */
  S2sArray desc;                   /* a copy of the clause's descriptor */
} S2sRaceArray;

typedef struct S2sRace {
  S2sRaceCell *cells;
  size_t cap, used;                /* cap: a power of 2; used: cells of this launch */
  unsigned epoch;
  const S2sRegion *region;         /* the kernel that runs */
  int line;
  char kernel[128];
  long conflicts;                  /* elements raced in this launch */
  long outside;                    /* accesses outside their array's box in this launch */
  S2sRaceArray *arrays;            /* descriptors of the data clauses open on this thread */
  int narrays, arrays_cap;
} S2sRace;

S2S_EMU_TLS int s2s_emu_race_active;
static _Thread_local S2sRace s2s_race;
static _Thread_local struct { const S2sRegion *r; int line; const char *name; } s2s_race_kernel;

/* S2S_EMU_CHECK as a switch: 1 race, 0 unset or empty, -1 anything else. */
static int s2s_emu_check_of(const char *s) {
  if (!s || !*s) return 0;
  return !strcmp(s, "race") ? 1 : -1;
}

static int s2s_emu_race_wanted(void) { return s2s_emu_check_of(getenv("S2S_EMU_CHECK")) > 0; }

void s2s_rt_kernel_name(const S2sRegion *r, int line, const char *kernel) {
  s2s_race_kernel.r = r;
  s2s_race_kernel.line = line;
  s2s_race_kernel.name = kernel;
}

/* s2s_data_begin returned `dev` for `a`: remember its descriptor. */
static void s2s_race_note_array(const S2sRegion *r, int line, const S2sArray *a, void *dev) {
  S2sRace *s = &s2s_race;
  if (!dev || !s2s_emu_race_wanted()) return;
  if (s->narrays == s->arrays_cap) {
    int cap = s->arrays_cap ? 2 * s->arrays_cap : 16;
    S2sRaceArray *v = realloc(s->arrays, (size_t)cap * sizeof *v);
    if (!v) s2s_rt_fail(r, line, "out of host memory for the race check");
    s->arrays = v;
    s->arrays_cap = cap;
  }
  s->arrays[s->narrays].dev = dev;
  s->arrays[s->narrays++].desc = *a;
}

/* s2s_data_end for `a`: forget the newest descriptor of the same array. */
static void s2s_race_forget_array(const S2sArray *a) {
  S2sRace *s = &s2s_race;
  for (int i = s->narrays - 1; i >= 0; i--) {
    const S2sArray *d = &s->arrays[i].desc;
    if (d->host == a->host && d->name == a->name && !memcmp(d->sub_lo, a->sub_lo, sizeof d->sub_lo)) {
      memmove(&s->arrays[i], &s->arrays[i + 1], (size_t)(s->narrays - i - 1) * sizeof *s->arrays);
      s->narrays--;
      return;
    }
  }
}

static void s2s_race_begin(const S2sRegion *r, int line) {
  S2sRace *s = &s2s_race;
  if (!s2s_emu_race_wanted()) return;
  if (++s->epoch == 0) { /* wrapped: every cell would look filled by this launch */
    if (s->cells) memset(s->cells, 0, s->cap * sizeof *s->cells);
    s->epoch = 1;
  }
  s->used = 0;
  s->conflicts = 0;
  s->outside = 0;
  s->region = r;
  s->line = line;
  snprintf(s->kernel, sizeof s->kernel, "%s",
           s2s_race_kernel.r == r && s2s_race_kernel.line == line && s2s_race_kernel.name
               ? s2s_race_kernel.name : "");
  s2s_emu_race_active = 1;
}

static size_t s2s_race_slot(const S2sRace *s, uintptr_t addr) {
  return (size_t)(((uint64_t)addr * 0x9E3779B97F4A7C15ull) >> 20) & (s->cap - 1);
}

/* Twice the cells (at least 4096), this launch's moved over. */
static void s2s_race_grow(S2sRace *s) {
  size_t cap = s->cap ? 2 * s->cap : 4096;
  S2sRaceCell *old = s->cells, *cells = calloc(cap, sizeof *cells);
  size_t oldcap = s->cap;
  if (!cells) s2s_rt_fail(s->region, s->line, "out of host memory for the race check");
  s->cells = cells;
  s->cap = cap;
  for (size_t i = 0; i < oldcap; i++) {
    size_t j;
    if (old[i].epoch != s->epoch) continue;
    for (j = s2s_race_slot(s, old[i].addr); cells[j].epoch == s->epoch; j = (j + 1) & (cap - 1)) {}
    cells[j] = old[i];
  }
  free(old);
}

/* The cell of addr in this launch, made empty the first time.  Cells of
 * earlier launches count as empty: within a launch a probe sequence only
 * ever gains cells, so it still ends at the first empty one. */
static S2sRaceCell *s2s_race_cell(S2sRace *s, uintptr_t addr) {
  size_t i;
  if (2 * (s->used + 1) > s->cap) s2s_race_grow(s);
  for (i = s2s_race_slot(s, addr); s->cells[i].epoch == s->epoch; i = (i + 1) & (s->cap - 1))
    if (s->cells[i].addr == addr) return &s->cells[i];
  memset(&s->cells[i], 0, sizeof s->cells[i]);
  s->cells[i].addr = addr;
  s->cells[i].epoch = s->epoch;
  s->used++;
  return &s->cells[i];
}

static unsigned long long s2s_race_thread(void) {
  unsigned long long b = blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
  unsigned long long t = threadIdx.x + (unsigned long long)blockDim.x * (threadIdx.y + (unsigned long long)blockDim.y * threadIdx.z);
  return b * ((unsigned long long)blockDim.x * blockDim.y * blockDim.z) + t + 1;
}

/* "block (bx,by,bz) thread (tx,ty,tz)" of thread id `id` (+ 1). */
static void s2s_race_thread_text(unsigned long long id, char *buf, size_t size) {
  unsigned long long per = (unsigned long long)blockDim.x * blockDim.y * blockDim.z;
  unsigned long long b = (id - 1) / per, t = (id - 1) % per;
  snprintf(buf, size, "block (%llu,%llu,%llu) thread (%llu,%llu,%llu)", b % gridDim.x,
           b / gridDim.x % gridDim.y, b / gridDim.x / gridDim.y, t % blockDim.x,
           t / blockDim.x % blockDim.y, t / blockDim.x / blockDim.y);
}

/* The element at `off` of the array whose kernel parameter is `base`, as
 * the user writes it: a(12,3,5) in Fortran, a[5][3][12] in C. */
static void s2s_race_element_text(const S2sRace *s, const void *base, long off, char *buf, size_t size) {
  const S2sArray *a = NULL;
  const char *file = s->region && s->region->file ? s->region->file : "";
  size_t fl = strlen(file), n;
  int c_lang = fl > 2 && file[fl - 2] == '.' && (file[fl - 1] == 'c' || file[fl - 1] == 'h');
  long idx[S2S_MAX_RANK];
  for (int i = s->narrays - 1; i >= 0 && !a; i--)
    if (s->arrays[i].dev == (const char *)base) a = &s->arrays[i].desc;
  if (!a || a->rank < 1) {
    snprintf(buf, size, "element %ld of the array at %p", off, base);
    return;
  }
  for (int d = 0; d < a->rank; d++) {
    long ext = d + 1 < a->rank && a->ext[d] > 0 ? a->ext[d] : 0;
    idx[d] = a->lo[d] + (ext ? off % ext : off);
    off = ext ? off / ext : 0;
  }
  n = (size_t)snprintf(buf, size, "%s%s", s2s_rt_str(a->name), c_lang ? "" : "(");
  for (int k = 0; k < a->rank && n < size; k++) {
    int d = c_lang ? a->rank - 1 - k : k;
    if (c_lang)
      n += (size_t)snprintf(buf + n, size - n, "[%ld]", idx[d]);
    else
      n += (size_t)snprintf(buf + n, size - n, "%s%ld", k ? "," : "", idx[d]);
  }
  if (!c_lang && n < size) snprintf(buf + n, size - n, ")");
}

/* Where a race report ends: "kernel K of region" (K when known). */
static void s2s_race_where(const S2sRace *s, char *buf, size_t size) {
  if (s->kernel[0])
    snprintf(buf, size, "kernel %s of region", s->kernel);
  else
    snprintf(buf, size, "kernel of region");
}

static void s2s_race_message(const S2sRegion *r, int line, const char *where, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void s2s_race_message(const S2sRegion *r, int line, const char *where, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  s2s_rt_vmessage("error", r, line, where, fmt, ap);
  va_end(ap);
}

/* Element `off` of `base` is raced: `first` (thread id) wrote it (`first_wrote`)
 * or read it, the running thread now reads or writes it. */
static void s2s_race_report(S2sRace *s, const void *base, long off, unsigned long long first,
                            int first_wrote, int write) {
  char elem[256], one[96], two[96], where[160];
  if (++s->conflicts > S2S_EMU_RACE_SHOWN) return;
  s2s_race_element_text(s, base, off, elem, sizeof elem);
  s2s_race_thread_text(first, one, sizeof one);
  s2s_race_thread_text(s2s_race_thread(), two, sizeof two);
  s2s_race_where(s, where, sizeof where);
  s2s_race_message(s->region, s->line, where, "race on %s: %s by %s, %s by %s", elem,
                   first_wrote ? "written" : "read", one, write ? "written" : "read", two);
}

/* Is element `off` of the array whose device copy is at `base` outside the
 * box of its data clause (the elements the device copy holds)?  Arrays the
 * check was not told of (scratch, constant memory) count as inside. */
static int s2s_race_outside_box(const S2sRace *s, const void *base, long off) {
  const S2sArray *a = NULL;
  for (int i = s->narrays - 1; i >= 0 && !a; i--)
    if (s->arrays[i].dev == (const char *)base) a = &s->arrays[i].desc;
  if (!a || a->rank < 1) return 0;
  if (off < 0) return 1;
  for (int d = 0; d < a->rank; d++) {
    long ext = d + 1 < a->rank && a->ext[d] > 0 ? a->ext[d] : 0;
    long idx = a->lo[d] + (ext ? off % ext : off);
    if (idx < a->sub_lo[d] || idx > a->sub_hi[d]) return 1;
    off = ext ? off / ext : 0;
  }
  return 0;
}

void s2s_emu_race_access(const void *base, long off, size_t elem, int write) {
  S2sRace *s = &s2s_race;
  if (s2s_race_outside_box(s, base, off)) {
    /* a load the device copy cannot serve: on a GPU, stale memory or a fault */
    char text[256], where[160];
    if (++s->outside <= S2S_EMU_RACE_SHOWN) {
      s2s_race_element_text(s, base, off, text, sizeof text);
      s2s_race_where(s, where, sizeof where);
      s2s_race_message(s->region, s->line, where, "%s %s outside the elements the device copy "
                       "holds", text, write ? "written" : "read");
    }
    return;
  }
  S2sRaceCell *c = s2s_race_cell(s, (uintptr_t)base + (uintptr_t)(off * (long)elem));
  unsigned long long me = s2s_race_thread();
  if (c->reported) return;
  if (c->writer && c->writer != me) {
    c->reported = 1;
    s2s_race_report(s, base, off, c->writer, 1, write);
  } else if (write && ((c->reader1 && c->reader1 != me) || c->reader2)) {
    c->reported = 1;
    s2s_race_report(s, base, off, c->reader1 != me ? c->reader1 : c->reader2, 0, 1);
  } else if (write) {
    c->writer = me;
  } else if (!c->reader1) {
    c->reader1 = me;
  } else if (c->reader1 != me && !c->reader2) {
    c->reader2 = me;
  }
}

/* The end of a launch under the check: stop when it raced. */
static void s2s_race_end(const S2sRegion *r, int line) {
  S2sRace *s = &s2s_race;
  char where[160];
  if (!s2s_emu_race_active) return;
  s2s_emu_race_active = 0;
  if (s->outside) {
    s2s_race_where(s, where, sizeof where);
    s2s_rt_fail_hint(r, line, where,
                     "the kernel reaches past the box of a data clause (check the clause's bounds)",
                     "race check (S2S_EMU_CHECK=race): %ld access%s outside the device copy of "
                     "an array", s->outside, s->outside == 1 ? "" : "es");
  }
  if (!s->conflicts) return;
  s2s_race_where(s, where, sizeof where);
  s2s_rt_fail_hint(r, line, where,
                   "the kernel's threads share these elements: a loop run in parallel carries a "
                   "dependence (check its independent or parallel clause, and private and "
                   "reduction clauses)",
                   "race check (S2S_EMU_CHECK=race): %ld element%s of global arrays written by "
                   "one thread and read or written by another%s",
                   s->conflicts, s->conflicts == 1 ? "" : "s",
                   s->conflicts > S2S_EMU_RACE_SHOWN ? " (the first " S2S_RT_XSTR(S2S_EMU_RACE_SHOWN) " shown)" : "");
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
  if (s2s_emu_check_of(getenv("S2S_EMU_CHECK")) < 0)
    s2s_rt_fail_hint(r, line, "kernel of region", "the only check is race",
                     "S2S_EMU_CHECK='%s' is not a check", getenv("S2S_EMU_CHECK"));
}

#else
void s2s_rt_kernel_name(const S2sRegion *r, int line, const char *kernel) {
  (void)r;
  (void)line;
  (void)kernel;
}
#endif /* S2S_EMULATE */

/* ---- host threads, streams and waits ----------------------------------
 *
 * Each host thread that calls the runtime gets an S2sThread: its stream
 * (copies and kernels of its regions, in order), its pinned staging
 * buffers, and the kernels it queued since it last waited for its stream,
 * so that an error that shows at a later wait still names the kernel's
 * region and line.  Streams are created with the default flags: CUDA's
 * legacy default stream (a plain cudaMemcpy in generated code, e.g. of a
 * reduction's result) then waits for them, and they for it.
 */

#define S2S_RT_QUEUED_KERNELS 8

typedef struct S2sQueuedKernel {
  const S2sRegion *region;
  int line;
} S2sQueuedKernel;

typedef struct S2sThread {
  cudaStream_t stream;
  cudaEvent_t ev_start, ev_stop;   /* timers (S2S_TIME, S2S_DEBUG) */
  char *ring;                      /* the staging ring: nslots slots of rt.chunk bytes, pinned when possible */
  int ring_pinned, nslots;
  cudaEvent_t *slot_done;          /* per slot: recorded after the last bus copy that reads or writes it */
  S2sQueuedKernel queued[S2S_RT_QUEUED_KERNELS]; /* the oldest kernels not waited for */
  long nqueued;
  /* Copies beside the kernels, on a second stream of the thread, `copies`:
   * update host ... async, queued after the work queued before it on
   * `stream` (async_after), and update device of a contiguous box that no
   * work still queued on `stream` touches (see `recent`).  Both are
   * finished by s2s_wait_updates (or the thread's next data end).  Work
   * queued on `stream` later runs beside them, unless it may write a box
   * one of them reads, or touches a box one of them writes: then it waits
   * (s2s_rt_copies_hazard). */
  cudaStream_t copies;             /* made at the first copy beside the kernels */
  cudaEvent_t async_after;         /* recorded on `stream` before each update host ... async */
  cudaEvent_t async_done;          /* recorded on `copies` after the last copy */
  /* What the work queued on `stream` touches, since the last point the
   * thread knows it has finished (a wait for the stream, for a copy-out,
   * or for the copies after an update host ... async); recent_overflow:
   * more than fit, so none is known. */
  struct S2sTouch *recent;
  int nrecent, recent_overflow;
  int recent_at_after;             /* nrecent when async_after was last recorded */
  struct S2sAsyncUpdate *async;    /* the updates not yet waited for */
  int nasync, async_cap;
  struct S2sBounce *bounce;        /* pinned blocks they land in, kept for reuse */
  int nbounce;
  size_t bounce_bytes;             /* the blocks' total size */
} S2sThread;

/* An update host ... async not yet waited for.  It lands straight in the
 * user's array when that is registered and the box contiguous; otherwise in
 * a pinned bounce block (packed on the device first if the box has holes),
 * whose rows the wait copies into the array. */
typedef struct S2sAsyncUpdate {
  struct S2sPresent *e;            /* the copy it reads (writes), a reference held */
  int writes_device;               /* an update device, not an update host */
  int ordered;                     /* the thread's stream waited for it: later work there comes after */
  int bounce;                      /* its pinned block, an index in the thread's; -1: straight into the array */
  S2sBoxShape shape;               /* the box, for the bounce block's rows */
  char *host;                      /* the box's first element in the user's array */
  uintptr_t last;                  /* the box's last byte there: [host, last] bounds what it reads */
  size_t elem;
  char *scratch;                   /* the pool block it is packed into, or NULL; kept until the wait */
} S2sAsyncUpdate;

/* Bytes [first, last] of a present copy (as the user's array's addresses),
 * touched by work queued on the thread's stream. */
typedef struct S2sTouch {
  const struct S2sPresent *e;
  uintptr_t first, last;
} S2sTouch;
#define S2S_RT_RECENT 32

typedef struct S2sBounce {
  char *buf;
  size_t size;
  int busy;                        /* an update not yet waited for lands in it */
} S2sBounce;

/* Bounce blocks of one thread stay under this; a larger pending total is
 * copied at once instead (the user asked for asynchrony, not for memory). */
#define S2S_RT_BOUNCE_MAX ((size_t)256 << 20)

static _Thread_local S2sThread *s2s_rt_self;
static pthread_key_t s2s_rt_thread_key;  /* frees a thread's S2sThread when it exits */
static pthread_once_t s2s_rt_key_once = PTHREAD_ONCE_INIT;

/* At thread exit (an OpenMP pool shrinking, a pthread ending): wait for
 * its work, then give back its stream and buffers.  Errors are ignored:
 * nothing can name a region any more, and the process goes on. */
static void s2s_rt_thread_free(void *p) {
  S2sThread *t = p;
  if (!t) return;
  (void)cudaStreamSynchronize(t->stream);
  if (t->copies) (void)cudaStreamSynchronize(t->copies);
  if (t->ring_pinned) (void)cudaFreeHost(t->ring); else free(t->ring);
  for (int i = 0; i < t->nslots; i++) (void)cudaEventDestroy(t->slot_done[i]);
  free(t->slot_done);
  (void)cudaEventDestroy(t->ev_start);
  (void)cudaEventDestroy(t->ev_stop);
  if (t->async_done) (void)cudaEventDestroy(t->async_done);
  if (t->async_after) (void)cudaEventDestroy(t->async_after);
  free(t->async);
  free(t->recent);
  for (int i = 0; i < t->nbounce; i++) (void)cudaFreeHost(t->bounce[i].buf);
  free(t->bounce);
  (void)cudaStreamDestroy(t->stream);
  if (t->copies) (void)cudaStreamDestroy(t->copies);
  (void)cudaGetLastError();
  free(t);
}

static void s2s_rt_make_key(void) { (void)pthread_key_create(&s2s_rt_thread_key, s2s_rt_thread_free); }

/* The calling thread's state, made on its first call (device selected). */
static S2sThread *s2s_rt_thread(const S2sRegion *r, int line) {
  S2sThread *t = s2s_rt_self;
  if (t) return t;
  t = calloc(1, sizeof *t);
  if (!t) s2s_rt_fail(r, line, "out of host memory for the thread's runtime state");
  /* the device is per host thread in CUDA: every thread uses the one chosen */
  s2s_rt_cuda(cudaSetDevice(rt.device), r, line, "cudaSetDevice");
  s2s_rt_cuda(cudaStreamCreate(&t->stream), r, line, "cudaStreamCreate");
  s2s_rt_cuda(cudaEventCreate(&t->ev_start), r, line, "cudaEventCreate");
  s2s_rt_cuda(cudaEventCreate(&t->ev_stop), r, line, "cudaEventCreate");
  pthread_once(&s2s_rt_key_once, s2s_rt_make_key);
  (void)pthread_setspecific(s2s_rt_thread_key, t);
  s2s_rt_self = t;
  return t;
}

/* A kernel queued and not yet waited for: remembered (the oldest few) so
 * that an error seen later names it. */
static void s2s_rt_note_kernel(S2sThread *t, const S2sRegion *r, int line) {
  if (t->nqueued < S2S_RT_QUEUED_KERNELS) {
    t->queued[t->nqueued].region = r;
    t->queued[t->nqueued].line = line;
  }
  t->nqueued++;
}

/* An error returned by a wait belongs to work queued earlier: a kernel
 * (most often) or a copy.  Name the oldest kernel not waited for, in the
 * usual form, and say where the error was seen; with several candidates,
 * list them and say how to pin the culprit down. */
static _Noreturn void s2s_rt_fail_async(const S2sThread *t, const S2sRegion *r, int line,
                                        cudaError_t err) {
  char note[1024];
  size_t n = 0;
  const S2sQueuedKernel *k = &t->queued[0];
  if (t->nqueued == 0)
    s2s_rt_fail(r, line, "CUDA error '%s' while waiting for the device", cudaGetErrorString(err));
  if (k->region == r && k->line == line && t->nqueued == 1)
    s2s_rt_fail_hint(r, line, "kernel of region", NULL, "CUDA error '%s'", cudaGetErrorString(err));
  n += (size_t)snprintf(note + n, sizeof note - n, "seen when region %s (%s:%d) waited for the device",
                        s2s_rt_str(r->name), s2s_rt_str(r->file), line);
  if (t->nqueued > 1) {
    n += (size_t)snprintf(note + n, sizeof note - n,
                          "; %ld kernels were queued since the previous wait, the failing one is "
                          "this or a later one:", t->nqueued);
    for (long i = 1; i < t->nqueued && i < S2S_RT_QUEUED_KERNELS && n < sizeof note; i++)
      n += (size_t)snprintf(note + n, sizeof note - n, " %s (%s:%d)",
                            s2s_rt_str(t->queued[i].region->name),
                            s2s_rt_str(t->queued[i].region->file), t->queued[i].line);
    if (n < sizeof note)
      snprintf(note + n, sizeof note - n, "; S2S_TIME=1 waits after every kernel and names the one");
  }
  s2s_rt_fail_hint(k->region, k->line, "kernel of region", note, "CUDA error '%s'",
                   cudaGetErrorString(err));
}

/* Wait for `ev` (NULL: everything queued on the thread's stream).  `last`:
 * nothing was queued after `ev`, so every kernel noted has finished. */
static void s2s_rt_wait_event(S2sThread *t, const S2sRegion *r, int line, cudaEvent_t ev, int last) {
  cudaError_t err = ev ? cudaEventSynchronize(ev) : cudaStreamSynchronize(t->stream);
  if (err != cudaSuccess) s2s_rt_fail_async(t, r, line, err);
  if (!ev || last) {
    t->nqueued = 0;
    t->nrecent = t->recent_at_after = t->recent_overflow = 0; /* all of it has finished */
  }
}

static void s2s_rt_wait(S2sThread *t, const S2sRegion *r, int line) {
  s2s_rt_wait_event(t, r, line, NULL, 1);
}

cudaStream_t s2s_stream(void) { return s2s_rt_self ? s2s_rt_self->stream : (cudaStream_t)0; }

/* Work about to be queued on the thread's stream touches bytes [first,
 * last] of the copy `e`: remembered until the thread knows the stream has
 * finished it, so that an update device of other bytes may run beside it. */
static void s2s_rt_touch(S2sThread *t, const struct S2sPresent *e, uintptr_t first, uintptr_t last) {
  if (t->recent_overflow) return;
  if (!t->recent && !(t->recent = malloc(S2S_RT_RECENT * sizeof *t->recent))) t->nrecent = S2S_RT_RECENT;
  if (t->nrecent == S2S_RT_RECENT) {
    t->recent_overflow = 1;
    return;
  }
  t->recent[t->nrecent].e = e;
  t->recent[t->nrecent].first = first;
  t->recent[t->nrecent].last = last;
  t->nrecent++;
}

/* Whether work queued on the thread's stream, not known to have finished,
 * may touch bytes [first, last] of `e` (ranges of the user's array's
 * addresses bound the boxes: a box lies within its first and last byte,
 * so disjoint ranges are disjoint boxes). */
static int s2s_rt_touched(const S2sThread *t, const struct S2sPresent *e, uintptr_t first,
                          uintptr_t last) {
  if (t->recent_overflow) return 1;
  for (int i = 0; i < t->nrecent; i++)
    if (t->recent[i].e == e && last >= t->recent[i].first && first <= t->recent[i].last) return 1;
  return 0;
}

#ifdef S2S_EMULATE
/* A kernel runs on the host at its launch: first the work queued before
 * it on the thread's stream, as the GPU would order them. */
void s2s_emu_launch_begin(void) {
  if (!s2s_rt_self) return;
  pthread_mutex_lock(&s2s_emu_lock);
  s2s_emu_run_until(s2s_rt_self->stream, s2s_rt_self->stream->queued);
  pthread_mutex_unlock(&s2s_emu_lock);
}
#endif

/* ---- device set-up and timers ----------------------------------------- */

static int s2s_rt_env_flag(const char *name) {
  const char *v = getenv(name);
  return v && *v && strcmp(v, "0") != 0;
}

/* S2S_DEVICE: a device number, or "host" (-1): run every region's
 * original loops on the host (host fallback).  Unset: -2 (the first
 * device, or host fallback when none is visible). */
static int s2s_rt_env_device(const S2sRegion *r, int line) {
  const char *v = getenv("S2S_DEVICE");
  char *end;
  long dev;
  if (!v || !*v) return -2;
  if (!strcmp(v, "host")) return -1;
  dev = strtol(v, &end, 10);
  if (*end != '\0' || dev < 0 || dev > INT_MAX)
    s2s_rt_fail_hint(r, line, "region", "give a device number, or host to run on the CPU",
                     "S2S_DEVICE='%s' is not a device number", v);
  return (int)dev;
}

/* A size such as 8M, 512k or 65536 (bytes); `fallback` when unset. */
static size_t s2s_rt_env_bytes(const S2sRegion *r, int line, const char *name, size_t fallback) {
  const char *v = getenv(name);
  char *end;
  double n;
  if (!v || !*v) return fallback;
  n = strtod(v, &end);
  if (*end == 'k' || *end == 'K') n *= 1024.0, end++;
  else if (*end == 'm' || *end == 'M') n *= 1024.0 * 1024.0, end++;
  if (*end != '\0' || n < 1.0 || n > 1e12)
    s2s_rt_fail(r, line, "%s='%s' is not a size in bytes (such as 8M)", name, v);
  return (size_t)n;
}

static double s2s_rt_env_number(const S2sRegion *r, int line, const char *name, double fallback,
                                double lo, double hi) {
  const char *v = getenv(name);
  char *end;
  double n;
  if (!v || !*v) return fallback;
  n = strtod(v, &end);
  if (*end != '\0' || n < lo || n > hi)
    s2s_rt_fail(r, line, "%s='%s' is not a number from %g to %g", name, v, lo, hi);
  return n;
}

static S2sRegisterMode s2s_rt_env_register(const S2sRegion *r, int line) {
  const char *v = getenv("S2S_REGISTER");
  if (!v || !*v || !strcmp(v, "auto")) return S2S_REGISTER_AUTO;
  if (!strcmp(v, "always")) return S2S_REGISTER_ALWAYS;
  if (!strcmp(v, "never")) return S2S_REGISTER_NEVER;
  s2s_rt_fail_hint(r, line, "region", "use auto, always or never",
                   "S2S_REGISTER='%s' is not a registration policy", v);
}

/* The value of the first of the `n` variables `vars` that holds an integer
 * in [lo, hi] (one that holds anything else is passed over), with its name
 * in *from; -1 when none does. */
static long s2s_rt_env_first_int(const char *const *vars, size_t n, long lo, long hi,
                                 const char **from) {
  for (size_t i = 0; i < n; i++) {
    const char *v = getenv(vars[i]);
    char *end;
    long x;
    if (!v || !*v) continue;
    x = strtol(v, &end, 10);
    if (*end || x < lo || x > hi) continue;
    if (from) *from = vars[i];
    return x;
  }
  return -1;
}

/* The node-local number of MPI ranks an MPI launcher gives (Open MPI,
 * MPICH and Intel MPI, PMI, MVAPICH, Slurm), or 1. */
static int s2s_rt_env_local_size(void) {
  static const char *const vars[] = { "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS",
                                      "PMI_LOCAL_SIZE", "MV2_COMM_WORLD_LOCAL_SIZE",
                                      "SLURM_NTASKS_PER_NODE" };
  long n = s2s_rt_env_first_int(vars, sizeof vars / sizeof vars[0], 1, 4096, NULL);
  return n < 0 ? 1 : (int)n;
}

/* CPU threads that work on one staged transfer: one core copies a few GB/s
 * on a loaded memory system, PCIe 5 moves 55, so all the CPUs this process
 * may run on but one, at most 15 (measured on an H100 host with 16 cores,
 * datamove --contiguous-only: 8 threads reached 53-68% of pinned from 64 MB
 * up, 15 threads 66-91% with the old windows; 12 threads with the pieces of
 * today no better than 15; tests/bench/RESULTS.md).  The CPUs are those of
 * the affinity mask (mpirun may bind a rank to a core or a socket); ranks
 * of one node that are not bound share the node's CPUs: copy threads that
 * outnumber the cores stall the pieces the others wait for. */
int s2s_copy_threads_default(long online, long cpus, int local_ranks) {
  if (cpus >= online && local_ranks > 1) cpus = online / local_ranks;
  return cpus >= 4 ? (int)(cpus - 1 < 15 ? cpus - 1 : 15) : 1;
}

static int s2s_rt_default_copy_threads(void) {
  long online = sysconf(_SC_NPROCESSORS_ONLN), cpus = online;
#if defined(__linux__) && defined(CPU_COUNT)
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0) cpus = CPU_COUNT(&set);
#endif
  return s2s_copy_threads_default(online, cpus, s2s_rt_env_local_size());
}

static void s2s_rt_read_settings(const S2sRegion *r, int line) {
  rt.chunk = s2s_rt_env_bytes(r, line, "S2S_STAGE_CHUNK", (size_t)4 << 20);
  rt.stage_bytes = s2s_rt_env_bytes(r, line, "S2S_STAGE_BYTES", (size_t)64 << 20);
  rt.span_ratio = s2s_rt_env_number(r, line, "S2S_SPAN_RATIO", 1.25, 1.0, 1e9);
  rt.copy_threads = (int)s2s_rt_env_number(r, line, "S2S_COPY_THREADS",
                                           s2s_rt_default_copy_threads(), 1, 64);
  rt.pool_enabled = !getenv("S2S_POOL") || s2s_rt_env_flag("S2S_POOL");
  rt.register_mode = s2s_rt_env_register(r, line);
  /* Until measured: staging at about 20 GB/s, pinned at 50 GB/s, and
   * registering plus unregistering at about 4 GB/s (Linux pins page by page). */
  rt.staged_us_mb = 50.0;
  rt.pinned_us_mb = 20.0;
  rt.register_us_mb = 250.0;
}

/* The node-local rank an MPI launcher gives this process (Open MPI, MPICH
 * and Intel MPI, Slurm, PMI, MVAPICH), or -1; *from names the variable. */
static int s2s_rt_env_local_rank(const char **from) {
  static const char *const vars[] = { "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID",
                                      "SLURM_LOCALID", "PMI_LOCAL_RANK",
                                      "MV2_COMM_WORLD_LOCAL_RANK" };
  return (int)s2s_rt_env_first_int(vars, sizeof vars / sizeof vars[0], 0, INT_MAX, from);
}

static void s2s_rt_select_device(const S2sRegion *r, int line) {
  int count = 0, dev = s2s_rt_env_device(r, line);
  struct cudaDeviceProp prop; /* C spelling: CUDA has no typedef for C */
  cudaError_t err;
  if (dev == -1) {
    rt.host_fallback = 1;
    fprintf(stderr, "s2s-cuda runtime: S2S_DEVICE=host: the regions run their original loops "
            "on the host\n");
    return;
  }
  err = cudaGetDeviceCount(&count);
  if (dev == -2 && (err != cudaSuccess || count == 0)) {
    /* As NVHPC's host fallback: the host file keeps the original loops. */
    (void)cudaGetLastError();
    rt.host_fallback = 1;
    fprintf(stderr, "s2s-cuda runtime: no GPU is visible (%s): the regions run their original "
            "loops on the host\n", err != cudaSuccess ? cudaGetErrorString(err) : "0 devices");
    return;
  }
  s2s_rt_cuda(err, r, line, "cudaGetDeviceCount (is a GPU visible?)");
  /* One MPI rank per GPU (WRF): the node-local rank picks the device,
   * round robin when a node runs more ranks than it has GPUs. */
  if (!rt.local_rank_given) rt.local_rank = s2s_rt_env_local_rank(&rt.rank_from);
  if (dev == -2) dev = rt.local_rank >= 0 ? rt.local_rank % count : 0;
  if (dev >= count)
    s2s_rt_fail_hint(r, line, "region", "set S2S_DEVICE to a number below the device count",
                     "S2S_DEVICE=%d, but there %s only %d device%s", dev,
                     count == 1 ? "is" : "are", count, count == 1 ? "" : "s");
  s2s_rt_cuda(cudaSetDevice(dev), r, line, "cudaSetDevice");
  s2s_rt_cuda(cudaGetDeviceProperties(&prop, dev), r, line, "cudaGetDeviceProperties");
  rt.device = dev;
  snprintf(rt.device_name, sizeof rt.device_name, "%s", prop.name);
}

const char *s2s_rt_device_label(void) { return rt.device_name; }

static void s2s_rt_report_at_exit(void) { s2s_timing_report(stderr); }
static void s2s_rt_release_at_exit(void);

/* On first use: choose the device, read the settings, and arrange the
 * report and the pool's release at exit.  Lazy, so a program that never
 * reaches a region needs no GPU. */
static void s2s_rt_init(const S2sRegion *r, int line) {
  if (rt.initialised) return;
  s2s_rt_lock_take();
  if (!rt.initialised) {
    rt.debug = s2s_rt_env_flag("S2S_DEBUG");
    rt.timing = s2s_rt_env_flag("S2S_TIME");
    s2s_rt_read_settings(r, line);
    s2s_rt_select_device(r, line);
    if (!rt.host_fallback) atexit(s2s_rt_release_at_exit);
    if (rt.timing && !rt.host_fallback) atexit(s2s_rt_report_at_exit); /* runs first: the report, then the release */
    rt.initialised = 1;
  }
  s2s_rt_lock_give();
}

void s2s_use_local_rank(const int *local_rank) {
  if (*local_rank < 0)
    s2s_rt_fail_hint(NULL, 0, "program", "pass the rank MPI_Comm_split_type gave",
                     "s2s_use_local_rank(%d): not a rank", *local_rank);
  s2s_rt_lock_take();
  if (rt.initialised && !rt.host_fallback && rt.local_rank != *local_rank) {
    s2s_rt_lock_give();
    s2s_rt_fail_hint(NULL, 0, "program", "call it before the first region runs",
                     "s2s_use_local_rank(%d) after the runtime chose device %d", *local_rank,
                     rt.device);
  }
  rt.local_rank = *local_rank;
  rt.rank_from = "s2s_use_local_rank";
  rt.local_rank_given = 1;
  s2s_rt_lock_give();
}

/* Every entry point that touches the device starts here. */
static S2sThread *s2s_rt_enter(S2sRegion *r, int line) {
  s2s_rt_init(r, line);
  s2s_rt_lock_take();
  if (!r->registered) {
    r->registered = 1;
    r->next = rt.regions;
    rt.regions = r;
  }
  s2s_rt_lock_give();
  return s2s_rt_thread(r, line);
}

/* Device time of the work issued between start and stop.  Events time the
 * GPU itself, and waiting on the stop event is also what surfaces a
 * kernel's asynchronous errors; in emulation they read the host clock. */
static void s2s_rt_timer_start(S2sThread *t, const S2sRegion *r, int line) {
  s2s_rt_cuda(cudaEventRecord(t->ev_start, t->stream), r, line, "cudaEventRecord");
}

static double s2s_rt_timer_stop_us(S2sThread *t, const S2sRegion *r, int line) {
  float ms = 0.0f;
  s2s_rt_cuda(cudaEventRecord(t->ev_stop, t->stream), r, line, "cudaEventRecord");
  s2s_rt_wait_event(t, r, line, t->ev_stop, 1);
  s2s_rt_cuda(cudaEventElapsedTime(&ms, t->ev_start, t->ev_stop), r, line, "cudaEventElapsedTime");
  return (double)ms * 1e3;
}

/* ---- boxes ------------------------------------------------------------ */

int s2s_rt_is_c_file(const char *file) {
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

/* ---- the device memory pool -------------------------------------------
 *
 * cudaMalloc and cudaFree cost tens of microseconds to milliseconds each,
 * and cudaFree waits for the whole device: a region entered every time
 * step must not pay them.  Blocks come back to a free list instead, sorted
 * by size, and a request takes the smallest cached block that fits and is
 * at most a quarter larger (so a scalar does not pin a gigabyte).  Sizes
 * are rounded up to classes (at most 1/8 larger) so that nearly equal
 * requests share blocks.  A block records an event on the stream that gave
 * it back; a thread with another stream waits for that event before using
 * it.  The cache is released at exit, by s2s_pool_release, and when a
 * cudaMalloc fails (then the allocation is tried once more).
 * Called with the lock held.
 */

/* Eight classes per power of two (steps of 1/8 of it, at least 512 bytes). */
static size_t s2s_rt_pool_class(size_t bytes) {
  size_t step = 512;
  while (step * 16 <= bytes) step *= 2;
  return (bytes + step - 1) / step * step;
}

static S2sBlock *s2s_rt_pool_take_cached(size_t want) {
  S2sBlock **p = &rt.cached, *b;
  while (*p && (*p)->bytes < want) p = &(*p)->next_free;
  b = *p;
  if (!b || b->bytes > want + want / 4) return NULL;
  *p = b->next_free;
  rt.cached_bytes -= b->bytes;
  return b;
}

static void s2s_rt_pool_free_block(S2sBlock *b) {
  (void)cudaFree((void *)b->dev);
  if (b->released) (void)cudaEventDestroy(b->released);
  free(b);
}

/* Give every cached block back to CUDA; the number released. */
static long s2s_rt_pool_trim(void) {
  long n = 0;
  while (rt.cached) {
    S2sBlock *b = rt.cached;
    rt.cached = b->next_free;
    s2s_rt_pool_free_block(b);
    n++;
  }
  rt.cached_bytes = 0;
  if (n) rt.pool_trims++;
  return n;
}

static S2sBlock *s2s_rt_pool_new(const S2sRegion *r, int line, size_t bytes) {
  void *dev = NULL;
  cudaError_t err = cudaMalloc(&dev, bytes);
  S2sBlock *b;
  if (err == cudaErrorMemoryAllocation && rt.cached) { /* memory runs short: drop the cache */
    (void)cudaGetLastError();
    s2s_rt_debug(r, line, "cudaMalloc of %zu bytes failed; released %ld cached blocks and retried",
                 bytes, s2s_rt_pool_trim());
    err = cudaMalloc(&dev, bytes);
  }
  if (err != cudaSuccess)
    s2s_rt_fail_hint(r, line, "region",
                     err == cudaErrorMemoryAllocation
                         ? "the arrays present at once do not fit in device memory; end data "
                           "regions earlier or move smaller sub-arrays"
                         : NULL,
                     "CUDA error '%s' in cudaMalloc of %zu bytes", cudaGetErrorString(err), bytes);
  b = calloc(1, sizeof *b);
  if (!b) s2s_rt_fail(r, line, "out of host memory for the device memory pool");
  b->dev = (uintptr_t)dev;
  b->bytes = bytes;
  rt.pool_allocated++;
  return b;
}

/* `bytes` of device memory, usable in stream order on `t`'s stream. */
static char *s2s_rt_pool_get(S2sThread *t, const S2sRegion *r, int line, size_t bytes) {
  size_t want = rt.pool_enabled ? s2s_rt_pool_class(bytes) : bytes;
  S2sBlock *b = rt.pool_enabled ? s2s_rt_pool_take_cached(want) : NULL;
  if (b) {
    rt.pool_reused++;
    if (b->stream != t->stream && b->released)
      s2s_rt_cuda(cudaStreamWaitEvent(t->stream, b->released, 0), r, line, "cudaStreamWaitEvent");
#ifdef S2S_EMULATE
    /* Stale bytes would hide a kernel that reads what was never copied in:
     * refill, as fresh emulated memory is. */
    s2s_rt_cuda(cudaMemsetAsync((void *)b->dev, 0xFF, b->bytes, t->stream), r, line, "cudaMemsetAsync");
#endif
  } else {
    b = s2s_rt_pool_new(r, line, want);
  }
  b->stream = t->stream;
  HASH_ADD(hh, rt.blocks_in_use, dev, sizeof b->dev, b);
  return (char *)b->dev;
}

/* Give `dev` back: cached until reused, released or the end. */
static void s2s_rt_pool_put(S2sThread *t, const S2sRegion *r, int line, char *dev) {
  uintptr_t key = (uintptr_t)dev;
  S2sBlock *b, **p;
  HASH_FIND(hh, rt.blocks_in_use, &key, sizeof key, b);
  if (!b) s2s_rt_fail(r, line, "device memory %p was not allocated by the runtime", (void *)dev);
  HASH_DEL(rt.blocks_in_use, b);
  if (!rt.pool_enabled) {
    s2s_rt_pool_free_block(b);
    return;
  }
  if (!b->released)
    s2s_rt_cuda(cudaEventCreateWithFlags(&b->released, cudaEventDisableTiming), r, line,
                "cudaEventCreateWithFlags");
  b->stream = t->stream;
  s2s_rt_cuda(cudaEventRecord(b->released, t->stream), r, line, "cudaEventRecord");
  for (p = &rt.cached; *p && (*p)->bytes < b->bytes; p = &(*p)->next_free) {}
  b->next_free = *p;
  *p = b;
  rt.cached_bytes += b->bytes;
}

static void s2s_rt_release_at_exit(void) {
  /* A thread that stopped the program may hold the lock: then leave the
   * memory to the driver, which frees it with the process. */
  if (pthread_mutex_trylock(&s2s_rt_lock) != 0) return;
  s2s_rt_pool_trim();
  s2s_rt_lock_give();
}

long s2s_pool_release(void) {
  long n;
  s2s_rt_lock_take();
  n = s2s_rt_pool_trim();
  s2s_rt_lock_give();
  return n;
}

void s2s_pool_stats(S2sPoolStats *st) {
  s2s_rt_lock_take();
  st->cached_blocks = 0;
  for (S2sBlock *b = rt.cached; b; b = b->next_free) st->cached_blocks++;
  st->cached_bytes = rt.cached_bytes;
  st->in_use_blocks = (long)HASH_COUNT(rt.blocks_in_use);
  st->reused = rt.pool_reused;
  st->allocated = rt.pool_allocated;
  st->trims = rt.pool_trims;
  s2s_rt_lock_give();
}

/* ---- the present table ------------------------------------------------
 * Called with the lock held. */

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

/* Pointer with the host array's layout: p + (linear offset of element e
 * from a's declared lower bounds) * elem is e's device address.  Unsigned
 * arithmetic, because p itself may lie before the allocation. */
static void *s2s_rt_dev_pointer(const S2sPresent *e, const S2sArray *a) {
  return (void *)((uintptr_t)e->dev + ((uintptr_t)a->host - e->host_first));
}

/* Allocate the device copy of [first, last] for `a`; the caller copies in
 * and then calls s2s_rt_filled. */
static S2sPresent *s2s_rt_create(S2sThread *t, const S2sRegion *r, int line, const S2sArray *a,
                                 S2sClause clause, uintptr_t first, uintptr_t last) {
  S2sPresent *e;
  /* A "host" array in device memory: a device address that host_data
   * handed out, passed on to a routine whose regions take host arrays
   * (on a GPU its copy-in would read device memory from the host). */
  for (e = rt.present; e; e = e->hh.next) {
    uintptr_t dev = (uintptr_t)e->dev, dev_last = dev + (e->host_last - e->host_first);
    if (first <= dev_last && last >= dev) {
      char box[160];
      s2s_rt_box_text(r, a, box, sizeof box);
      s2s_rt_fail_hint(r, line, "region", "call the routine after the host_data construct, "
                       "where the array names the host's copy", "%s is in device memory: it is "
                       "the device copy of %s (a device address from host_data use_device)",
                       box, e->what);
    }
  }
  e = calloc(1, sizeof *e);
  if (!e) s2s_rt_fail(r, line, "out of host memory for the present table");
  e->dev = s2s_rt_pool_get(t, r, line, last - first + 1);
  e->host_first = first;
  e->host_last = last;
  e->elem = a->elem;
  e->refs = 1;
  e->clause = clause;
  e->region = r;
  e->line = line;
  e->stream = t->stream;
  e->filling = 1;
  e->box = *a;
  e->box.name = NULL; /* the caller's string need not outlive the call */
  s2s_rt_box_text(r, a, e->what, sizeof e->what);
  HASH_ADD(hh, rt.present, host_first, sizeof e->host_first, e);
  s2s_rt_debug(r, line, "allocated %zu device bytes for %s", (size_t)(last - first + 1), e->what);
  return e;
}

/* The creator queued its copy-in: other threads may use the copy once
 * their stream has waited for `ready`. */
static void s2s_rt_filled(S2sThread *t, const S2sRegion *r, int line, S2sPresent *e) {
  if (!e->ready)
    s2s_rt_cuda(cudaEventCreateWithFlags(&e->ready, cudaEventDisableTiming), r, line,
                "cudaEventCreateWithFlags");
  s2s_rt_cuda(cudaEventRecord(e->ready, t->stream), r, line, "cudaEventRecord");
  e->ready_stream = t->stream;
  e->filling = 0;
  pthread_cond_broadcast(&s2s_rt_fill_cond);
}

/* Thread `t` queued a write of `e` on `stream` (its stream, or its copy
 * stream for an update device beside the kernels; lock held): a thread
 * whose stream borrows the copy later waits for it.  OpenMP tiles launch
 * kernels on their own streams after the master thread's update device
 * returned, which is once it is queued, and the master copies out what
 * the tiles' kernels wrote. */
static void s2s_rt_written(S2sThread *t, const S2sRegion *r, int line, S2sPresent *e,
                           cudaStream_t stream) {
  if (stream == t->stream) {
    s2s_rt_cuda(cudaEventRecord(e->ready, stream), r, line, "cudaEventRecord");
    e->ready_stream = stream;
    return;
  }
  if (!e->copy_ready)
    s2s_rt_cuda(cudaEventCreateWithFlags(&e->copy_ready, cudaEventDisableTiming), r, line,
                "cudaEventCreateWithFlags");
  s2s_rt_cuda(cudaEventRecord(e->copy_ready, stream), r, line, "cudaEventRecord");
  e->copy_ready_stream = stream;
}

/* Whether another thread's stream has used the copy (it then takes no
 * copy beside the kernels: copy_ready follows one thread's copy stream). */
static int s2s_rt_shared(const S2sPresent *e) {
  int shared;
  s2s_rt_lock_take();
  shared = e->shared;
  s2s_rt_lock_give();
  return shared;
}

/* Whether `stream` is one of thread `t`'s (its own work is ordered there). */
static int s2s_rt_own_stream(const S2sThread *t, cudaStream_t stream) {
  return stream == t->stream || (t->copies && stream == t->copies);
}

/* One more reference from thread `t`: wait (host) until the creator has
 * queued the copy-in, and (device) until it and the last update device
 * have happened when another thread queued them (the thread's own copies
 * are ordered on its stream, or by s2s_rt_copies_hazard). */
static void s2s_rt_borrow(S2sThread *t, const S2sRegion *r, int line, S2sPresent *e) {
  e->refs++;
  while (e->filling) pthread_cond_wait(&s2s_rt_fill_cond, &s2s_rt_lock);
  if (e->stream != t->stream) e->shared = 1;
  if (!s2s_rt_own_stream(t, e->ready_stream))
    s2s_rt_cuda(cudaStreamWaitEvent(t->stream, e->ready, 0), r, line, "cudaStreamWaitEvent");
  if (e->copy_ready_stream && !s2s_rt_own_stream(t, e->copy_ready_stream))
    s2s_rt_cuda(cudaStreamWaitEvent(t->stream, e->copy_ready, 0), r, line, "cudaStreamWaitEvent");
}

static void s2s_rt_destroy(S2sThread *t, const S2sRegion *r, int line, S2sPresent *e) {
  s2s_rt_debug(r, line, "freed the device copy of %s", e->what);
  HASH_DEL(rt.present, e);
  if (e->registered)
    s2s_rt_cuda(cudaHostUnregister((void *)e->host_first), r, line, "cudaHostUnregister");
  s2s_rt_pool_put(t, r, line, e->dev);
  if (e->ready) (void)cudaEventDestroy(e->ready);
  if (e->copy_ready) (void)cudaEventDestroy(e->copy_ready);
  free(e);
}

/* ---- host copies --------------------------------------------------------
 *
 * The host side of a staged transfer moves bytes between the user's array
 * and a staging buffer that holds a window [off, off + n) of the transfer.
 * S2sRows says where each row of the box lies on both sides: in the user's
 * array at its offset in the box's layout; in the transfer either packed
 * (row k at k * width) or at its offset in the span (the span moves whole
 * and only the rows are copied on the host).  A contiguous box is one row.
 */

typedef struct S2sRows {
  char *host;                /* the box's first element in the user's array */
  size_t elem, width;        /* bytes per element, per row */
  long nrows;
  int packed;                /* row k at k * width in the transfer; else at its host offset */
  int nouter;                /* runs beyond the first: row k's index in each */
  long count[S2S_MAX_RANK], stride[S2S_MAX_RANK]; /* of those runs, in elements */
} S2sRows;

static void s2s_rt_rows_flat(S2sRows *w, char *host, size_t bytes) {
  memset(w, 0, sizeof *w);
  w->host = host;
  w->elem = 1;
  w->width = bytes;
  w->nrows = 1;
  w->packed = 1;
}

static void s2s_rt_rows_box(S2sRows *w, const S2sBoxShape *s, size_t elem, char *host, int packed) {
  memset(w, 0, sizeof *w);
  w->host = host;
  w->elem = elem;
  w->width = (size_t)s->count[0] * elem;
  w->packed = packed;
  w->nrows = 1;
  w->nouter = s->nruns - 1;
  for (int d = 1; d < s->nruns; d++) {
    w->count[d - 1] = s->count[d];
    w->stride[d - 1] = s->stride[d];
    w->nrows *= s->count[d];
  }
}

/* Byte offset of row k from the box's first element, in the user's array. */
static size_t s2s_rt_row_host(const S2sRows *w, long k) {
  size_t off = 0;
  for (int d = 0; d < w->nouter; d++) {
    off += (size_t)(k % w->count[d]) * (size_t)w->stride[d];
    k /= w->count[d];
  }
  return off * w->elem;
}

static size_t s2s_rt_row_linear(const S2sRows *w, long k) {
  return w->packed ? (size_t)k * w->width : s2s_rt_row_host(w, k);
}

/* The first row that ends after transfer offset `at` (rows ascend). */
static long s2s_rt_row_at(const S2sRows *w, size_t at) {
  long lo = 0, hi = w->nrows;
  if (w->packed) return (long)(at / w->width);
  while (lo < hi) {
    long mid = lo + (hi - lo) / 2;
    if (s2s_rt_row_linear(w, mid) + w->width <= at) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/* The next row of an odometer walk of the box's rows: idx[] counts along
 * the outer runs, *host is the row's offset in the user's array (elements). */
static void s2s_rt_row_next(const S2sRows *w, long *idx, size_t *host) {
  for (int d = 0; d < w->nouter; d++) {
    *host += (size_t)w->stride[d];
    if (++idx[d] < w->count[d]) return;
    *host -= (size_t)w->stride[d] * (size_t)w->count[d];
    idx[d] = 0;
  }
}

/* Gathering short rows into the staging ring, which only the DMA engine
 * reads next: streaming (non-temporal) stores, which do not read the
 * ring's lines into the cache first.  Measured on the H100 host (device run
 * 5, datamove, boxes of a(256,256,256) doubles, % of pinned copy-in): rows
 * of 256 bytes 42-43% -> 63-66%, of 496 bytes 37-39% -> 58-60%; rows of
 * 1 KB and more, and contiguous boxes of 64 MB and more, got slower (75-77%
 * -> 66-72%, 80-82% -> 70-72%), so they keep memcpy.  The caller fences
 * (s2s_rt_fill_fence) before a bus copy may read the ring. */
#define S2S_RT_STREAM_ROW_MAX 1024

static void s2s_rt_fill_copy(char *dst, const char *src, size_t n) {
#if defined(__SSE2__)
  if (n >= 128) {
    size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
    memcpy(dst, src, head);
    dst += head;
    src += head;
    n -= head;
    for (; n >= 64; n -= 64, dst += 64, src += 64) {
      __m128i a = _mm_loadu_si128((const __m128i *)src), b = _mm_loadu_si128((const __m128i *)(src + 16)),
              c = _mm_loadu_si128((const __m128i *)(src + 32)), d = _mm_loadu_si128((const __m128i *)(src + 48));
      _mm_stream_si128((__m128i *)dst, a);
      _mm_stream_si128((__m128i *)(dst + 16), b);
      _mm_stream_si128((__m128i *)(dst + 32), c);
      _mm_stream_si128((__m128i *)(dst + 48), d);
    }
    for (; n >= 16; n -= 16, dst += 16, src += 16)
      _mm_stream_si128((__m128i *)dst, _mm_loadu_si128((const __m128i *)src));
  }
#endif
  memcpy(dst, src, n);
}

static void s2s_rt_fill_fence(void) {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

/* Copy the box bytes of transfer window [off, off + n) between the user's
 * array and `buf` (which holds that window): to `buf` when `to_buf`.  Rows
 * are walked with an odometer over the outer runs (a division per row
 * costs as much as copying a short row). */
static void s2s_rt_rows_move(const S2sRows *w, char *buf, size_t off, size_t n, int to_buf) {
  long k = s2s_rt_row_at(w, off), idx[S2S_MAX_RANK] = {0}, q = k;
  int streaming = to_buf && w->width < S2S_RT_STREAM_ROW_MAX;
  size_t host = 0; /* row k's offset in the user's array, in elements */
  for (int d = 0; d < w->nouter; d++) {
    idx[d] = q % w->count[d];
    q /= w->count[d];
    host += (size_t)idx[d] * (size_t)w->stride[d];
  }
  for (; k < w->nrows; k++) {
    size_t at = w->packed ? (size_t)k * w->width : host * w->elem, from, to;
    char *row = w->host + host * w->elem;
    if (at >= off + n) break;
    from = at > off ? at : off;
    to = at + w->width < off + n ? at + w->width : off + n;
    if (streaming) s2s_rt_fill_copy(buf + (from - off), row + (from - at), to - from);
    else if (to_buf) memcpy(buf + (from - off), row + (from - at), to - from);
    else memcpy(row + (from - at), buf + (from - off), to - from);
    s2s_rt_row_next(w, idx, &host);
  }
  if (streaming) s2s_rt_fill_fence();
}

/* How a requested box lies against a present copy's. */
typedef enum S2sOverlap { S2S_DISJOINT, S2S_INSIDE, S2S_PARTLY } S2sOverlap;

/* Boxes of the same array as declared (the same first element, element
 * size, lower bounds and extents; the last extent may be unknown): their
 * elements compare index range by index range. */
static int s2s_rt_same_layout(const S2sArray *a, const S2sArray *b) {
  if (a->host != b->host || a->elem != b->elem || a->rank != b->rank) return 0;
  for (int d = 0; d < a->rank; d++)
    if (a->lo[d] != b->lo[d] || (d + 1 < a->rank && a->ext[d] != b->ext[d])) return 0;
  return 1;
}

/* Whether host bytes [x, x + n) lie in one row of the present copy's box. */
static int s2s_rt_in_box_row(const S2sPresent *e, const S2sBoxShape *es, uintptr_t x, size_t n) {
  size_t off;
  if (x < e->host_first || x + n - 1 > e->host_last) return 0;
  off = (size_t)(x - e->host_first);
  for (int d = es->nruns - 1; d >= 1; d--) {
    size_t stride = (size_t)es->stride[d] * e->box.elem, i = off / stride;
    if (i >= (size_t)es->count[d]) return 0;
    off -= i * stride;
  }
  return off + n <= (size_t)es->count[0] * e->box.elem;
}

/* Where the box of `a` (bytes [first, last]) lies against the copy `e`,
 * whose span overlaps it.  The span alone does not tell: a copy of
 * a(1:5,:) spans nearly all of a, and a(50:60,3) lies in its holes (the
 * device bytes there were never copied in; a copy per OpenMP thread of
 * a(its:ite,:,:) interleaves the same way).  Boxes of one layout compare
 * by index ranges; any other view (a column passed at an offset) row by
 * row, and only inside or not: partly. */
static S2sOverlap s2s_rt_overlap(const S2sPresent *e, const S2sArray *a, uintptr_t first,
                                 uintptr_t last) {
  S2sBoxShape s, es;
  S2sRows w;
  long idx[S2S_MAX_RANK] = {0};
  size_t host = 0;
  if (s2s_rt_same_layout(a, &e->box)) {
    int inside = 1;
    for (int d = 0; d < a->rank; d++) {
      if (a->sub_hi[d] < e->box.sub_lo[d] || a->sub_lo[d] > e->box.sub_hi[d]) return S2S_DISJOINT;
      inside &= a->sub_lo[d] >= e->box.sub_lo[d] && a->sub_hi[d] <= e->box.sub_hi[d];
    }
    return inside ? S2S_INSIDE : S2S_PARTLY;
  }
  if (first < e->host_first || last > e->host_last) return S2S_PARTLY;
  s2s_rt_box_shape(a, &s);
  s2s_rt_box_shape(&e->box, &es);
  s2s_rt_rows_box(&w, &s, a->elem, (char *)first, 1);
  for (long k = 0; k < w.nrows; k++) {
    if (!s2s_rt_in_box_row(e, &es, first + host * a->elem, w.width)) return S2S_PARTLY;
    s2s_rt_row_next(&w, idx, &host);
  }
  return S2S_INSIDE;
}

/* The present copy that holds the box of `a` (host bytes [first, last]),
 * or NULL when no copy holds any of it.  A copy that holds part of it is
 * an error (`strict`): the copy would have to grow under kernels that hold
 * pointers into it.  Boxes passed at an offset (a column a(1,1,j) handed
 * to a routine) have no entry of their own, hence the scan. */
static S2sPresent *s2s_rt_find(const S2sRegion *r, int line, const S2sArray *a,
                               uintptr_t first, uintptr_t last, int strict) {
  S2sPresent *e;
  HASH_FIND(hh, rt.present, &first, sizeof first, e);
  if (e && last <= e->host_last && s2s_rt_overlap(e, a, first, last) == S2S_INSIDE) return e;
  for (e = rt.present; e; e = e->hh.next) {
    S2sOverlap o;
    if (last < e->host_first || first > e->host_last) continue;
    o = s2s_rt_overlap(e, a, first, last);
    if (o == S2S_INSIDE) return e;
    if (o == S2S_PARTLY) {
      if (strict) s2s_rt_fail_partial(r, line, a, e);
      return NULL;
    }
  }
  return NULL;
}

/* ---- the staging pipeline ------------------------------------------------
 *
 * A staged transfer is cut into pieces of rt.chunk bytes (smaller ones
 * for a small transfer: s2s_rt_piece_size), each one bus copy between a
 * slot of the thread's pinned staging ring and the device: piece k uses
 * slot k % nslots.  Several CPU threads work on one transfer (one core
 * copies a few GB/s, PCIe 5 moves 55): helpers wait for a job, then
 * the caller and the helpers claim the parts of the pieces (a piece has
 * rt.parts of them) in order, so that all of them work on the first piece
 * and the bus starts after one piece's fill, not after each thread has
 * filled a piece of its own (on a host whose memory bandwidth the threads
 * share, that was 15 times later).  No barrier between pieces:
 *   copy-in   a part waits until its slot's previous bus copy has read the
 *             slot, is filled from the user's array, and the thread that
 *             fills a piece's last part queues the piece's bus copy and
 *             the slot's event on the caller's stream;
 *   copy-out  the caller first queues the bus copies of the first nslots
 *             pieces; a part waits for its piece's copy and is drained
 *             into the user's array, and the thread that drains a piece's
 *             last part queues the bus copy of piece k + nslots into the
 *             same slot.
 * A slot's event is re-recorded piece after piece, so a part of piece k
 * that needs slot s first waits until the piece before it in that slot has
 * recorded (`recorded[s]`), then for the event.  Parts are claimed in
 * order and none waits for a later one, so this cannot deadlock.
 *
 * One job at a time uses the helpers; a host thread that finds them busy
 * (another OpenMP thread copying) runs its job alone, the same way.
 */

/* Bytes of a part, the unit a thread claims (a piece has at most 16). */
#define S2S_RT_PART ((size_t)128 << 10)
#define S2S_RT_MAX_PARTS 16
/* Transfers below this are copied by the caller alone: waking helpers
 * costs more than they save. */
#define S2S_RT_PARALLEL_MIN ((size_t)512 << 10)
/* How long a helper keeps looking for the next job before it sleeps.
 * Waking a sleeping thread took 0.1-0.3 ms on the H100 host (a virtual
 * machine: the wake-up is an interrupt to an idle CPU), as long as moving
 * 4 MB; the arrays of a region move one after the other, so helpers that
 * stay awake a little serve all but the first of them at once. */
#define S2S_RT_HELPER_SPIN_US 1000.0
/* Slots in a ring at most (each has an event). */
#define S2S_RT_MAX_SLOTS 256

typedef struct S2sStageJob {
  S2sThread *t;
  cudaStream_t stream;       /* the bus copies' (the thread's stream, or its copies stream) */
  const S2sRows *rows;
  char *dev;                 /* the device side of transfer offset 0 */
  size_t total;
  int to_device;
  long npieces;
  long parts;                /* per piece (the last piece's may be empty) */
  _Atomic long next;         /* the next part to claim: piece next / parts */
  _Atomic long finished;     /* parts done */
  _Atomic int failed;        /* a CUDA call failed: the others stop */
  cudaError_t err;           /* the first failure (written once, by the thread that set failed) */
  const char *err_what;      /* the call that failed; NULL: a wait (an earlier kernel's error) */
  _Atomic long recorded[S2S_RT_MAX_SLOTS]; /* per slot: the last piece whose bus copy is queued */
  _Atomic long parts_done[S2S_RT_MAX_SLOTS]; /* per slot: parts of its current piece done */
  _Atomic long waiting[S2S_RT_MAX_SLOTS]; /* per slot: the piece whose copy a thread waits for */
  _Atomic long done[S2S_RT_MAX_SLOTS];    /* per slot: the last piece whose copy is known done */
  /* for S2S_DEBUG: when the job began, when its first and last bus copies
   * were queued (us from t0), how many threads ran parts of it */
  double t0, first_us, last_us;
  _Atomic int workers;
} S2sStageJob;

/* Parts per piece: pieces of 128 KiB or less are one part. */
static long s2s_rt_parts(void) {
  size_t parts = rt.chunk / S2S_RT_PART;
  return parts < 1 ? 1 : parts > S2S_RT_MAX_PARTS ? S2S_RT_MAX_PARTS : (long)parts;
}

/* The piece size of a transfer of `total` bytes: rt.chunk, or for a
 * transfer of less than eight chunks an eighth of it (a power of two, at
 * least S2S_RT_PIECE_MIN).  A copy-in's bus starts after the first piece is
 * filled and its last piece crosses the bus after the host is done (the
 * reverse for a copy-out), so at 4-16 MB whole 4 MiB pieces left the bus
 * or the host idle for a good part of the transfer. */
#define S2S_RT_PIECE_MIN ((size_t)256 << 10)

static size_t s2s_rt_piece_size(size_t total) {
  size_t size = S2S_RT_PIECE_MIN;
  while (size < rt.chunk && size * 8 < total) size *= 2;
  return size < rt.chunk ? size : rt.chunk;
}

/* Where piece k lies in a transfer of `total` bytes (*n: its size). */
static size_t s2s_rt_piece(size_t total, long k, size_t *n) {
  size_t size = s2s_rt_piece_size(total), off = (size_t)k * size;
  *n = total - off < size ? total - off : size;
  return off;
}

/* Pieces of a transfer of `total` bytes. */
static long s2s_rt_npieces(size_t total) {
  size_t size = s2s_rt_piece_size(total);
  return (long)((total + size - 1) / size);
}

static char *s2s_rt_slot(const S2sThread *t, long k) { return t->ring + (size_t)(k % t->nslots) * rt.chunk; }

/* Record the first failure of a job; every thread then stops taking work. */
static void s2s_rt_job_fail(S2sStageJob *j, cudaError_t err, const char *what) {
  int expected = 0;
  if (atomic_compare_exchange_strong(&j->failed, &expected, 1)) {
    j->err = err;
    j->err_what = what;
  }
}

static int s2s_rt_job_call(S2sStageJob *j, cudaError_t err, const char *what) {
  if (err != cudaSuccess) s2s_rt_job_fail(j, err, what);
  return err == cudaSuccess;
}

/* Wait until slot s holds piece `k`'s bus copy (queued by whichever thread
 * finished k's parts, or by the caller), then until the copy is done.
 * k < 0: the slot's last use belongs to an earlier transfer, queued.  Of
 * the threads that need the same copy, one waits for its event and the
 * others for its word: CUDA serializes event waits of one context, and a
 * wait per part cost more than the bus copies (128 KiB parts: half the
 * bandwidth of a 1 GB copy-out). */
static int s2s_rt_slot_wait(S2sStageJob *j, long k) {
  S2sThread *t = j->t;
  int s = (int)((k < 0 ? k + t->nslots : k) % t->nslots), ok = 1;
  long waiting;
  if (k >= 0)
    while (atomic_load(&j->recorded[s]) != k) {
      if (atomic_load(&j->failed)) return 0;
      sched_yield();
    }
  if (atomic_load(&j->done[s]) >= k) return 1;
  waiting = atomic_load(&j->waiting[s]);
  if (waiting < k && atomic_compare_exchange_strong(&j->waiting[s], &waiting, k)) {
    ok = s2s_rt_job_call(j, cudaEventSynchronize(t->slot_done[s]), NULL);
    atomic_store(&j->done[s], k); /* also after a failure: the others then see `failed` */
    return ok;
  }
  while (atomic_load(&j->done[s]) < k) {
    if (atomic_load(&j->failed)) return 0;
    sched_yield();
  }
  return !atomic_load(&j->failed);
}

/* Queue piece k's bus copy and its slot's event. */
static int s2s_rt_piece_queue(S2sStageJob *j, long k) {
  S2sThread *t = j->t;
  size_t n, off = s2s_rt_piece(j->total, k, &n);
  int s = (int)(k % t->nslots);
  char *slot = s2s_rt_slot(t, k);
  if (!s2s_rt_job_call(j, cudaMemcpyAsync(j->to_device ? j->dev + off : slot,
                                          j->to_device ? slot : j->dev + off, n,
                                          j->to_device ? cudaMemcpyHostToDevice
                                                       : cudaMemcpyDeviceToHost, j->stream),
                       "cudaMemcpyAsync") ||
      !s2s_rt_job_call(j, cudaEventRecord(t->slot_done[s], j->stream), "cudaEventRecord"))
    return 0;
  atomic_store(&j->recorded[s], k);
  if (rt.debug && (k == 0 || k == j->npieces - 1)) {
    double us = s2s_rt_now_us() - j->t0;
    if (k == 0) j->first_us = us;
    if (k == j->npieces - 1) j->last_us = us;
  }
  return 1;
}

/* Part p of piece k on the calling thread; the thread that completes a
 * piece queues the next bus copy of its slot. */
static void s2s_rt_part_run(S2sStageJob *j, long k, long p) {
  S2sThread *t = j->t;
  int s = (int)(k % t->nslots);
  size_t n, off = s2s_rt_piece(j->total, k, &n), size = (n + (size_t)j->parts - 1) / (size_t)j->parts;
  size_t from = (size_t)p * size, to = from + size < n ? from + size : n;
  if (!s2s_rt_slot_wait(j, j->to_device ? k - t->nslots : k)) return;
  if (from < to) s2s_rt_rows_move(j->rows, s2s_rt_slot(t, k) + from, off + from, to - from, j->to_device);
  if (atomic_fetch_add(&j->parts_done[s], 1) + 1 < j->parts) return;
  atomic_store(&j->parts_done[s], 0); /* before recorded[s] moves on: the next piece's parts wait for that */
  if (j->to_device) (void)s2s_rt_piece_queue(j, k);
  else if (k + t->nslots < j->npieces) (void)s2s_rt_piece_queue(j, k + t->nslots);
}

/* Claim and run parts until none is left; says whether this thread ran
 * the job's last part. */
static int s2s_rt_job_work(S2sStageJob *j) {
  long u, ran = 0, nparts = j->npieces * j->parts;
  while ((u = atomic_fetch_add(&j->next, 1)) < nparts) {
    if (!atomic_load(&j->failed)) s2s_rt_part_run(j, u / j->parts, u % j->parts);
    ran++;
  }
  if (ran > 0) atomic_fetch_add(&j->workers, 1);
  return ran > 0 && atomic_fetch_add(&j->finished, ran) + ran == nparts;
}

static struct {
  pthread_mutex_t lock, busy;
  pthread_cond_t work, finished;
  int started;               /* helpers running; -1 in a child of fork() */
  _Atomic unsigned long generation; /* bumped per job (under lock; read without it to spin) */
  S2sStageJob *job;          /* the job of the current generation (lock) */
  int active;                /* helpers working on it (lock) */
  int job_done;              /* its last piece has run (lock) */
} s2s_copiers = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER,
                 PTHREAD_COND_INITIALIZER, 0, 0, NULL, 0, 0};

static void s2s_rt_cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  sched_yield();
#endif
}

static void *s2s_rt_copier(void *arg) {
  unsigned long seen = 0;
  (void)arg;
  /* a helper queues bus copies: the device is per host thread in CUDA */
  (void)cudaSetDevice(rt.device);
  (void)cudaGetLastError();
  pthread_mutex_lock(&s2s_copiers.lock);
  for (;;) {
    S2sStageJob *j;
    int last;
    if (atomic_load(&s2s_copiers.generation) == seen) {
      double until = s2s_rt_now_us() + S2S_RT_HELPER_SPIN_US;
      pthread_mutex_unlock(&s2s_copiers.lock);
      while (atomic_load(&s2s_copiers.generation) == seen && s2s_rt_now_us() < until)
        s2s_rt_cpu_relax();
      pthread_mutex_lock(&s2s_copiers.lock);
    }
    while (atomic_load(&s2s_copiers.generation) == seen)
      pthread_cond_wait(&s2s_copiers.work, &s2s_copiers.lock);
    seen = atomic_load(&s2s_copiers.generation);
    if (!(j = s2s_copiers.job)) continue; /* woke after the job was over */
    s2s_copiers.active++;
    pthread_mutex_unlock(&s2s_copiers.lock);
    last = s2s_rt_job_work(j);
    pthread_mutex_lock(&s2s_copiers.lock);
    s2s_copiers.active--;
    if (last) s2s_copiers.job_done = 1;
    if (last || !s2s_copiers.active) pthread_cond_broadcast(&s2s_copiers.finished);
  }
  return NULL;
}

/* A child of fork() has none of the helpers: it copies alone. */
static void s2s_rt_copiers_forget(void) { s2s_copiers.started = -1; }

/* Start the helpers once (rt.copy_threads - 1 of them: the caller is one). */
static void s2s_rt_copiers_start(void) {
  pthread_attr_t attr;
  (void)pthread_atfork(NULL, NULL, s2s_rt_copiers_forget);
  pthread_attr_init(&attr);
  pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
  for (int i = 1; i < rt.copy_threads; i++) {
    pthread_t id;
    if (pthread_create(&id, &attr, s2s_rt_copier, NULL) == 0) s2s_copiers.started++;
  }
  pthread_attr_destroy(&attr);
}

/* Run a job on this thread and, when they are free and the transfer is big
 * enough, on the helpers too; return when every piece has run. */
static void s2s_rt_job_run(S2sStageJob *j) {
  int last;
  if (rt.copy_threads < 2 || j->total < S2S_RT_PARALLEL_MIN || s2s_copiers.started < 0 ||
      pthread_mutex_trylock(&s2s_copiers.busy) != 0) {
    (void)s2s_rt_job_work(j);
    return;
  }
  pthread_mutex_lock(&s2s_copiers.lock);
  if (!s2s_copiers.started) s2s_rt_copiers_start();
  s2s_copiers.job = j;
  s2s_copiers.job_done = 0;
  atomic_fetch_add(&s2s_copiers.generation, 1);
  pthread_cond_broadcast(&s2s_copiers.work);
  pthread_mutex_unlock(&s2s_copiers.lock);
  last = s2s_rt_job_work(j);
  pthread_mutex_lock(&s2s_copiers.lock);
  if (last) s2s_copiers.job_done = 1;
  /* the job lives on this thread's stack: wait until its last piece has
   * run and no helper holds it any more */
  while (!s2s_copiers.job_done || s2s_copiers.active)
    pthread_cond_wait(&s2s_copiers.finished, &s2s_copiers.lock);
  s2s_copiers.job = NULL;
  pthread_mutex_unlock(&s2s_copiers.lock);
  pthread_mutex_unlock(&s2s_copiers.busy);
}

/* Move `total` transfer bytes described by `w` between the user's array and
 * `dev`, through the staging ring.  A copy-in returns once every piece is
 * queued; a copy-out once every piece is in the user's array. */
static void s2s_rt_stage(S2sThread *t, const S2sRegion *r, int line, const S2sRows *w, char *dev,
                         size_t total, int to_device, cudaStream_t stream) {
  S2sStageJob j;
  memset(&j, 0, sizeof j);
  j.t = t;
  j.stream = stream;
  j.rows = w;
  j.dev = dev;
  j.total = total;
  j.to_device = to_device;
  j.npieces = s2s_rt_npieces(total);
  j.parts = s2s_rt_parts();
  atomic_init(&j.next, 0);
  atomic_init(&j.finished, 0);
  atomic_init(&j.failed, 0);
  atomic_init(&j.workers, 0);
  j.t0 = rt.debug ? s2s_rt_now_us() : 0.0;
  for (int s = 0; s < t->nslots; s++) {
    atomic_init(&j.recorded[s], -1);
    atomic_init(&j.parts_done[s], 0);
    atomic_init(&j.waiting[s], LONG_MIN); /* below every piece, the earlier transfer's (< 0) too */
    atomic_init(&j.done[s], LONG_MIN);
  }
  if (!to_device)
    for (long k = 0; k < t->nslots && k < j.npieces; k++)
      if (!s2s_rt_piece_queue(&j, k)) break;
  if (!atomic_load(&j.failed)) s2s_rt_job_run(&j);
  if (atomic_load(&j.failed)) {
    if (j.err_what) s2s_rt_cuda(j.err, r, line, j.err_what);
    s2s_rt_fail_async(t, r, line, j.err);
  }
  if (!to_device) { /* every bus copy was waited for, so all before them */
    t->nqueued = 0;
    t->nrecent = t->recent_at_after = t->recent_overflow = 0;
  }
  if (rt.debug)
    s2s_rt_debug(r, line, "staged %zu bytes %s in %ld pieces by %d threads: first bus copy queued "
                 "after %.1f us, last after %.1f us, returned after %.1f us", total,
                 to_device ? "in" : "out", j.npieces, atomic_load(&j.workers), j.first_us,
                 j.last_us, s2s_rt_now_us() - j.t0);
}

/* ---- the copy engine ----------------------------------------------------
 *
 * A transfer between the user's array and the device copy takes one of
 * four ways (S2S_DEBUG names it):
 *   contiguous  the box is one run: staged in pieces (the staging pipeline);
 *   span        a box with holes whose span is at most rt.span_ratio times
 *               its size: the whole span crosses the bus, as one run; the
 *               host copies only the box's rows out of the staging buffer,
 *               so no host element outside the box is written.  A copy-in
 *               does this only into a fresh device copy, whose holes hold
 *               nothing yet (an update must not overwrite them);
 *   packed      other boxes with holes: the host packs rows into the
 *               staging buffer (or unpacks them from it), the packed bytes
 *               cross the bus into (out of) a scratch block, and the device
 *               unpacks (packs) them with one 2-D or 3-D copy per index of
 *               the runs beyond the third: never one bus transfer per row;
 *   registered  the host span was pinned with cudaHostRegister (see
 *               s2s_rt_registered): one copy straight from (to) the array.
 * A copy-in waits only for staging slots the engine has not read yet.
 */

typedef enum S2sMove { S2S_MOVE_CONTIGUOUS, S2S_MOVE_SPAN, S2S_MOVE_PACKED, S2S_MOVE_REGISTERED } S2sMove;

static const char *const s2s_rt_move_name[] = {"contiguous", "span", "packed", "registered"};

static size_t s2s_rt_shape_bytes(const S2sBoxShape *s, size_t elem) {
  size_t n = elem;
  for (int d = 0; d < s->nruns; d++) n *= (size_t)s->count[d];
  return n;
}

/* How a box moves.  `fresh`: the device copy was just made, so a copy-in
 * may write its holes. */
static S2sMove s2s_rt_move_kind(const S2sBoxShape *s, int to_device, int fresh, int registered) {
  double span = (double)(s->last - s->first + 1), box = (double)s2s_rt_shape_bytes(s, 1);
  if (s->nruns == 1) return registered ? S2S_MOVE_REGISTERED : S2S_MOVE_CONTIGUOUS;
  if ((fresh || !to_device) && span <= rt.span_ratio * box) return S2S_MOVE_SPAN;
  return S2S_MOVE_PACKED;
}

/* The thread's staging ring, made at its first transfer: pinned, or
 * ordinary memory when pinned memory runs out (slower, still correct). */
static void s2s_rt_stage_buffers(S2sThread *t, const S2sRegion *r, int line) {
  size_t slots = rt.stage_bytes / rt.chunk;
  if (t->ring) return;
  t->nslots = slots < 2 ? 2 : slots > S2S_RT_MAX_SLOTS ? S2S_RT_MAX_SLOTS : (int)slots;
  t->slot_done = calloc((size_t)t->nslots, sizeof *t->slot_done);
  if (!t->slot_done) s2s_rt_fail(r, line, "out of host memory for staging events");
  for (int i = 0; i < t->nslots; i++)
    s2s_rt_cuda(cudaEventCreateWithFlags(&t->slot_done[i], cudaEventDisableTiming), r, line,
                "cudaEventCreateWithFlags");
  t->ring_pinned = cudaMallocHost((void **)&t->ring, (size_t)t->nslots * rt.chunk) == cudaSuccess;
  if (t->ring_pinned) return;
  (void)cudaGetLastError();
  t->ring = malloc((size_t)t->nslots * rt.chunk);
  if (!t->ring) s2s_rt_fail(r, line, "out of host memory for staging buffers");
  s2s_rt_debug(r, line, "no pinned memory for staging: copies go through pageable buffers");
}

/* Device to device between the box (the array's layout, `box` at its first
 * element) and `packed` (its rows back to back), to `packed` when
 * `to_packed`: the runtime's gather/scatter kernel (s2s_pack.h). */
static void s2s_rt_device_pack(cudaStream_t stream, const S2sRegion *r, int line,
                               const S2sBoxShape *s, size_t elem, char *box, char *packed,
                               int to_packed) {
  S2sPackShape p;
  memset(&p, 0, sizeof p);
  p.width = (size_t)s->count[0] * elem;
  p.nrows = 1;
  p.nouter = s->nruns - 1;
  for (int d = 1; d < s->nruns; d++) {
    p.count[d - 1] = s->count[d];
    p.stride[d - 1] = (size_t)s->stride[d] * elem;
    p.nrows *= s->count[d];
  }
  s2s_rt_cuda(s2s_pack_launch(stream, box, packed, &p, to_packed), r, line,
              "the launch of the runtime's pack kernel");
}

/* Pin the host span of `e` with cudaHostRegister when that pays: it costs
 * about as much as several staged copies of the span (measured at each
 * registration), and saves the difference between a staged and a pinned
 * copy per megabyte moved.  Not knowing how much a copy will move,
 * register once the bytes moved so far, this transfer's `bytes` included,
 * would have paid for it (the ski rental rule: never more than twice the
 * best choice in hindsight).  Only present copies that move more than their
 * size several times over reach that, i.e. arrays in data regions with
 * large updates; the halo planes of a time loop never pay for pinning the
 * whole field (counting transfers instead of bytes registered a 26 MB field
 * after 50 updates of 65 KB planes, 3 to 6 ms in the middle of a loop).
 * Returns whether the span is registered. */
#define S2S_RT_REGISTER_MIN ((size_t)16 << 20)

/* A transfer of `bytes` of `e` (lock held). */
static void s2s_rt_count_transfer(S2sPresent *e, size_t bytes) {
  e->transfers++;
  e->moved_mb += (double)bytes * 1e-6;
}

static int s2s_rt_registered(const S2sRegion *r, int line, S2sPresent *e, size_t bytes) {
  size_t span = e->host_last - e->host_first + 1;
  double mb = (double)span * 1e-6, t0, us;
  int want;
  cudaError_t err;
  if (e->registered || e->register_failed || rt.register_mode == S2S_REGISTER_NEVER)
    return e->registered;
  s2s_rt_lock_take();
  want = rt.register_mode == S2S_REGISTER_ALWAYS ||
         (span >= S2S_RT_REGISTER_MIN &&
          (e->moved_mb + (double)bytes * 1e-6) * (rt.staged_us_mb - rt.pinned_us_mb) >=
              mb * rt.register_us_mb);
  s2s_rt_lock_give();
  if (!want) return 0;
  t0 = s2s_rt_now_us();
  err = cudaHostRegister((void *)e->host_first, span, cudaHostRegisterDefault);
  us = s2s_rt_now_us() - t0;
  if (err != cudaSuccess) { /* e.g. a page shared with another registered copy */
    (void)cudaGetLastError();
    e->register_failed = 1;
    s2s_rt_debug(r, line, "cudaHostRegister of %s failed ('%s'): staged copies", e->what,
                 cudaGetErrorString(err));
    return 0;
  }
  e->registered = 1;
  s2s_rt_lock_take();
  if (mb >= 1.0) rt.register_us_mb = 0.5 * rt.register_us_mb + 0.5 * (2.0 * us / mb); /* + unregister */
  s2s_rt_lock_give();
  s2s_rt_debug(r, line, "registered the %zu host bytes of %s in %.1f us", span, e->what, us);
  return 1;
}

/* The per-box statistics behind the repeated-copy advice (lock held). */
static void s2s_rt_account_array(S2sRegion *r, const S2sArray *a, uintptr_t first, size_t bytes,
                                 int to_device, double us) {
  S2sArrayStat *st;
  for (st = r->array_stats; st; st = st->next)
    if (st->host_first == first && st->bytes == bytes) break;
  if (!st) {
    st = calloc(1, sizeof *st);
    if (!st) return; /* statistics only */
    snprintf(st->name, sizeof st->name, "%s", s2s_rt_str(a->name));
    st->host_first = first;
    st->bytes = bytes;
    st->next = r->array_stats;
    r->array_stats = st;
  }
  if (to_device) st->copyins++, st->in_us += us;
  else st->copyouts++, st->out_us += us;
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

/* Running estimates of what a MB costs each way (lock held). */
static void s2s_rt_learn_cost(S2sMove how, size_t bytes, double us) {
  double mb = (double)bytes * 1e-6;
  if (mb < 4.0) return; /* small copies measure latency, not bandwidth */
  if (how == S2S_MOVE_REGISTERED) rt.pinned_us_mb = 0.7 * rt.pinned_us_mb + 0.3 * us / mb;
  else rt.staged_us_mb = 0.7 * rt.staged_us_mb + 0.3 * us / mb;
}

/* Move `bytes` of a contiguous box straight between the registered array
 * and the device, and wait: the host may change (read) the array as soon
 * as the call returns. */
static void s2s_rt_move_registered(S2sThread *t, const S2sRegion *r, int line, char *host,
                                   char *dev, size_t bytes, int to_device) {
  s2s_rt_cuda(cudaMemcpyAsync(to_device ? dev : host, to_device ? host : dev, bytes,
                              to_device ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost,
                              t->stream), r, line, "cudaMemcpyAsync");
  s2s_rt_wait(t, r, line);
}

/* Holey box the packed way: through a scratch block of the box's size. */
static void s2s_rt_move_packed(S2sThread *t, const S2sRegion *r, int line, const S2sBoxShape *s,
                               size_t elem, char *host, char *dev, int to_device) {
  size_t bytes = s2s_rt_shape_bytes(s, elem);
  S2sRows w;
  char *scratch;
  s2s_rt_lock_take();
  scratch = s2s_rt_pool_get(t, r, line, bytes);
  s2s_rt_lock_give();
  s2s_rt_rows_box(&w, s, elem, host, 1);
  if (to_device) {
    s2s_rt_stage(t, r, line, &w, scratch, bytes, 1, t->stream);
    s2s_rt_device_pack(t->stream, r, line, s, elem, dev, scratch, 0);
  } else {
    s2s_rt_device_pack(t->stream, r, line, s, elem, dev, scratch, 1);
    s2s_rt_stage(t, r, line, &w, scratch, bytes, 0, t->stream);
  }
  s2s_rt_lock_take();
  s2s_rt_pool_put(t, r, line, scratch); /* stream order keeps it until the copies are done */
  s2s_rt_lock_give();
}

/* Copy the box of `a` between the host and its present copy `e`.  `fresh`:
 * e was made for this copy-in; `by_clause`: a data clause's copy (counted
 * for the repeated-copy advice), not an update. */
static void s2s_rt_copy_box(S2sThread *t, S2sRegion *r, int line, const S2sArray *a,
                            const S2sBoxShape *s, S2sPresent *e, int to_device, int fresh,
                            int by_clause) {
  uintptr_t first = s2s_rt_host_first(a, s);
  char *host = (char *)first, *dev = e->dev + (first - e->host_first);
  size_t bytes = s2s_rt_shape_bytes(s, a->elem), span = (size_t)(s->last - s->first + 1) * a->elem;
  int timed = rt.timing || rt.debug;
  double t0 = s2s_rt_now_us(), us;
  /* A copy-in straight from the registered array must be waited for (the
   * host may change the array as soon as the call returns), and that wait
   * is for every kernel queued before it; a staged copy-in returns once its
   * pieces are queued.  So small copy-ins (an `update device` of halo planes
   * between kernels) stay staged, unless S2S_REGISTER=always. */
  int direct = s->nruns == 1 && (!to_device || bytes >= S2S_RT_REGISTER_MIN ||
                                    rt.register_mode == S2S_REGISTER_ALWAYS) &&
               s2s_rt_registered(r, line, e, bytes);
  S2sMove how = s2s_rt_move_kind(s, to_device, fresh, direct);
  S2sRows w;
  s2s_rt_touch(t, e, first, s2s_rt_host_last(a, s));
  s2s_rt_stage_buffers(t, r, line);
  if (timed) s2s_rt_timer_start(t, r, line);
  switch (how) {
  case S2S_MOVE_REGISTERED: s2s_rt_move_registered(t, r, line, host, dev, bytes, to_device); break;
  case S2S_MOVE_CONTIGUOUS:
    s2s_rt_rows_flat(&w, host, bytes);
    s2s_rt_stage(t, r, line, &w, dev, bytes, to_device, t->stream);
    break;
  case S2S_MOVE_SPAN:
    if (to_device) {
      s2s_rt_rows_flat(&w, host, span);
      s2s_rt_stage(t, r, line, &w, dev, span, 1, t->stream);
    } else {
      s2s_rt_rows_box(&w, s, a->elem, host, 0);
      s2s_rt_stage(t, r, line, &w, dev, span, 0, t->stream);
    }
    break;
  case S2S_MOVE_PACKED: s2s_rt_move_packed(t, r, line, s, a->elem, host, dev, to_device); break;
  }
  us = timed ? s2s_rt_timer_stop_us(t, r, line) : s2s_rt_now_us() - t0;
  s2s_rt_lock_take();
  s2s_rt_count_transfer(e, bytes);
  s2s_rt_account(r, to_device, bytes, us);
  if (by_clause) s2s_rt_account_array(r, a, first, bytes, to_device, us);
  s2s_rt_learn_cost(how, how == S2S_MOVE_SPAN ? span : bytes, us);
  s2s_rt_lock_give();
  if (rt.debug) {
    char box[160];
    s2s_rt_box_text(r, a, box, sizeof box);
    s2s_rt_debug(r, line, "%s %s: %zu bytes (%s, %zu bus bytes, pieces up to %zu bytes), %.1f us",
                 to_device ? "copyin" : "copyout", box, bytes, s2s_rt_move_name[how],
                 how == S2S_MOVE_SPAN ? span : bytes, rt.chunk, us);
  }
}

/* ---- data, update and kernel API -------------------------------------- */

int s2s_region_begin(S2sRegion *r) {
  s2s_rt_init(r, r->line);
  if (rt.host_fallback) return 0;
  s2s_rt_enter(r, r->line);
  s2s_rt_lock_take();
  r->entered++;
  /* Several threads may be inside at once (OpenMP tiles): the region's
   * time runs from the first begin to the last end. */
  if (r->depth++ == 0) r->region_t0 = s2s_rt_now_us();
  s2s_rt_lock_give();
  return 1;
}

int s2s_compute_begin(S2sRegion *r) {
  s2s_rt_init(r, r->line);
  if (!s2s_pass_arm(r, rt.host_fallback)) return 0;
  return s2s_region_begin(r);
}

void s2s_region_end(S2sRegion *r) {
  s2s_rt_lock_take();
  if (r->depth <= 0) s2s_rt_fail(r, r->line, "region ended without being begun");
  if (--r->depth == 0) r->region_us += s2s_rt_now_us() - r->region_t0;
  s2s_rt_lock_give();
}

static _Noreturn void s2s_rt_fail_absent(const S2sRegion *r, int line, const S2sArray *a,
                                         const char *what, const char *hint) {
  char box[160];
  s2s_rt_box_text(r, a, box, sizeof box);
  s2s_rt_fail_hint(r, line, "region", hint, "%s is not present on the device (%s)", box, what);
}

/* Whether a copy beside the kernels not yet waited for conflicts with
 * work on bytes [first, last] of `e` that `writes` them (or only reads
 * them): an update host reads its box, an update device writes it. */
static int s2s_rt_copies_conflict(const S2sThread *t, const S2sPresent *e, uintptr_t first,
                                  uintptr_t last, int writes) {
  for (int i = 0; i < t->nasync; i++) {
    const S2sAsyncUpdate *u = &t->async[i];
    if (u->e == e && last >= (uintptr_t)u->host && first <= u->last &&
        (writes || u->writes_device) && !u->ordered)
      return 1;
  }
  return 0;
}

/* Whether an update host ... async of bytes in [first, last] of `e` is
 * pending: its wait would unpack older values over what a synchronous
 * update host copies now, so it finishes first. */
static int s2s_rt_update_host_pending(const S2sThread *t, const S2sPresent *e, uintptr_t first,
                                      uintptr_t last) {
  for (int i = 0; i < t->nasync; i++)
    if (t->async[i].e == e && !t->async[i].writes_device && last >= (uintptr_t)t->async[i].host &&
        first <= t->async[i].last)
      return 1;
  return 0;
}

/* Work queued on the thread's stream from now on touches bytes [first,
 * last] of `e`: if that conflicts with a copy beside the kernels, the
 * stream waits for the copies first (so the edge planes an MPI exchange
 * copies out run beside the kernel that writes the interior, and the
 * kernel that reads the halo waits for the halo's update device). */
static void s2s_rt_copies_hazard(S2sThread *t, const S2sRegion *r, int line, const S2sPresent *e,
                                 uintptr_t first, uintptr_t last, int writes) {
  if (!s2s_rt_copies_conflict(t, e, first, last, writes)) return;
  s2s_rt_debug(r, line, "waits for the copies beside the kernels (%s of %s)",
               writes ? "they touch what this may write" : "they write what this reads", e->what);
  s2s_rt_cuda(cudaStreamWaitEvent(t->stream, t->async_done, 0), r, line, "cudaStreamWaitEvent");
  for (int i = 0; i < t->nasync; i++) t->async[i].ordered = 1;
}

void *s2s_data_begin(S2sRegion *r, int line, const S2sArray *a, S2sClause clause) {
  S2sBoxShape s;
  S2sPresent *e;
  S2sThread *t = s2s_rt_enter(r, line);
  void *dev;
  if ((unsigned)clause > S2S_PRESENT) s2s_rt_fail(r, line, "unknown data clause %d", (int)clause);
  if (!s2s_rt_box(r, line, a, &s)) return NULL;
  s2s_rt_lock_take();
  e = s2s_rt_find(r, line, a, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s), 1);
  if (e) { /* present-or: use the copy an enclosing data region made */
    s2s_rt_borrow(t, r, line, e);
    s2s_rt_debug(r, line, "%s is present (copy of %s), %ld references", s2s_rt_str(a->name),
                 e->what, e->refs);
    dev = s2s_rt_dev_pointer(e, a);
    s2s_rt_lock_give();
    s2s_rt_touch(t, e, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s));
    s2s_rt_copies_hazard(t, r, line, e, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s),
                         !a->read_only);
#ifdef S2S_EMULATE
    s2s_race_note_array(r, line, a, dev);
#endif
    return dev;
  }
  if (clause == S2S_PRESENT)
    s2s_rt_fail_absent(r, line, a, "present clause",
                       "copy it in with an enclosing data region, or use copyin or copy");
  e = s2s_rt_create(t, r, line, a, clause, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s));
  s2s_rt_lock_give();
  s2s_rt_touch(t, e, e->host_first, e->host_last); /* the pool may have given it memory still in use there */
  if (clause == S2S_COPYIN || clause == S2S_COPY) s2s_rt_copy_box(t, r, line, a, &s, e, 1, 1, 1);
  s2s_rt_lock_take();
  s2s_rt_filled(t, r, line, e);
  dev = s2s_rt_dev_pointer(e, a);
  s2s_rt_lock_give();
#ifdef S2S_EMULATE
  s2s_race_note_array(r, line, a, dev);
#endif
  return dev;
}

/* The reference that created a copy is released last when one thread uses
 * it (data clauses are structured); with several threads, whichever
 * releases last copies out, under the creating clause.  `clause` of inner,
 * present-or references changes nothing.  A thread that shared the copy
 * with another first waits for its own stream, so that the last one's copy
 * out and release come after every thread's kernels. */
/* Drop a reference to e, freeing the copy with the last one. */
static void s2s_rt_release(S2sThread *t, const S2sRegion *r, int line, S2sPresent *e) {
  s2s_rt_lock_take();
  if (--e->refs == 0) s2s_rt_destroy(t, r, line, e);
  s2s_rt_lock_give();
}

static void s2s_rt_finish_async(S2sThread *t, const S2sRegion *r, int line);

/* Called with the lock held, before a release of `e` that may be its last
 * user reference: this thread's pending asynchronous updates of `e` hold
 * references of their own (the release would not see that it is the last)
 * and would unpack older values after a copy-out, so they finish first.
 * The end of a region nested in the data region that holds `e` leaves it
 * present and does not wait for them: the host goes on while they run. */
static void s2s_rt_finish_async_before_last(S2sThread *t, const S2sRegion *r, int line,
                                            const S2sPresent *e) {
  long pending = 0;
  for (int i = 0; i < t->nasync; i++) pending += t->async[i].e == e;
  if (!pending || e->refs - pending > 1) return;
  s2s_rt_lock_give();
  s2s_rt_finish_async(t, r, line); /* e keeps the caller's reference */
  s2s_rt_lock_take();
}

void s2s_data_end(S2sRegion *r, int line, const S2sArray *a, S2sClause clause) {
  S2sBoxShape s;
  S2sPresent *e;
  S2sThread *t = s2s_rt_enter(r, line);
  int shared, copy_out;
  S2sClause clause_out;
  if (!s2s_rt_box(r, line, a, &s)) return;
#ifdef S2S_EMULATE
  s2s_race_forget_array(a);
#endif
  s2s_rt_lock_take();
  e = s2s_rt_find(r, line, a, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s), 1);
  if (!e) s2s_rt_fail_absent(r, line, a, "at the end of its data clause", NULL);
  if (!a->read_only) s2s_rt_written(t, r, line, e, t->stream); /* after the region's kernels */
  s2s_rt_finish_async_before_last(t, r, line, e);
  shared = e->shared;
  /* Once an enter data has held the copy, structured and dynamic lifetimes
   * interleave and the last to end need not be the creator: as in OpenACC,
   * the clause of the release that ends it decides. */
  clause_out = e->dynamic ? clause : e->clause;
  copy_out = e->refs == 1 && (clause_out == S2S_COPY || clause_out == S2S_COPYOUT) &&
             !s2s_pass_holds(a->host); /* autocompare: the host pass computes it */
  s2s_rt_lock_give();
  if (shared && !copy_out) s2s_rt_wait(t, r, line);
  if (copy_out) s2s_rt_copy_box(t, r, line, a, &s, e, 0, 0, 1); /* the reference held keeps e */
  s2s_rt_release(t, r, line, e);
}

/* The present copy an update of `a` moves, with a reference held for the
 * copy (NULL: an empty box); an array that is not present stops the run. */
static S2sPresent *s2s_rt_update_copy(S2sThread *t, S2sRegion *r, int line, const S2sArray *a,
                                      S2sBoxShape *s, int to_device) {
  S2sPresent *e;
  if (!s2s_rt_box(r, line, a, s)) return NULL;
  s2s_rt_lock_take();
  e = s2s_rt_find(r, line, a, s2s_rt_host_first(a, s), s2s_rt_host_last(a, s), 1);
  if (!e)
    s2s_rt_fail_absent(r, line, a, to_device ? "update device" : "update host",
                       "update needs an enclosing data region that holds the array");
  s2s_rt_borrow(t, r, line, e);
  s2s_rt_lock_give();
  return e;
}

static void s2s_rt_update_device_beside(S2sThread *t, S2sRegion *r, int line, const S2sArray *a,
                                        const S2sBoxShape *s, S2sPresent *e);

static void s2s_rt_update(S2sRegion *r, int line, const S2sArray *a, int to_device) {
  S2sBoxShape s;
  S2sThread *t = s2s_rt_enter(r, line);
  S2sPresent *e = s2s_rt_update_copy(t, r, line, a, &s, to_device);
  uintptr_t first, last;
  if (!e) return;
  first = s2s_rt_host_first(a, &s);
  last = s2s_rt_host_last(a, &s);
  /* A contiguous box that no work still queued on the thread's stream
   * touches goes beside the kernels (S2S_TIME times copies on the stream) */
  if (to_device && s.nruns == 1 && s2s_rt_shape_bytes(&s, a->elem) < S2S_RT_REGISTER_MIN &&
      rt.register_mode != S2S_REGISTER_ALWAYS && !rt.timing && !s2s_rt_shared(e) &&
      !s2s_rt_touched(t, e, first, last)) {
    s2s_rt_update_device_beside(t, r, line, a, &s, e); /* keeps the reference until the wait */
    return;
  }
  if (to_device)
    s2s_rt_copies_hazard(t, r, line, e, first, last, 1);
  else if (s2s_rt_update_host_pending(t, e, first, last))
    s2s_rt_finish_async(t, r, line); /* its wait would unpack older values over these */
  else
    s2s_rt_copies_hazard(t, r, line, e, first, last, 0); /* an update device beside the kernels */
  s2s_rt_copy_box(t, r, line, a, &s, e, to_device, 0, 0);
  if (to_device) {
    s2s_rt_lock_take();
    s2s_rt_written(t, r, line, e, t->stream);
    s2s_rt_lock_give();
  }
  s2s_rt_release(t, r, line, e);
}

void s2s_update_host(S2sRegion *r, int line, const S2sArray *a) { s2s_rt_update(r, line, a, 0); }

/* enter data: the data_begin of a lifetime that no end bounds; the
 * reference it adds is dynamic, so that exit data finds it. */
void s2s_enter_data(S2sRegion *r, int line, const S2sArray *a, S2sClause clause) {
  S2sBoxShape s;
  S2sPresent *e;
  S2sThread *t = s2s_rt_enter(r, line);
  if (clause != S2S_COPYIN && clause != S2S_CREATE)
    s2s_rt_fail(r, line, "enter data takes copyin or create, not clause %d", (int)clause);
  if (!s2s_rt_box(r, line, a, &s)) return;
  s2s_rt_lock_take();
  e = s2s_rt_find(r, line, a, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s), 1);
  if (e) {
    s2s_rt_borrow(t, r, line, e);
    e->dynamic_refs++;
    e->dynamic = 1;
    s2s_rt_debug(r, line, "enter data: %s is present (copy of %s), %ld references, %ld dynamic",
                 s2s_rt_str(a->name), e->what, e->refs, e->dynamic_refs);
    s2s_rt_lock_give();
    return;
  }
  e = s2s_rt_create(t, r, line, a, clause, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s));
  e->dynamic_refs = 1;
  e->dynamic = 1;
  s2s_rt_lock_give();
  s2s_rt_touch(t, e, e->host_first, e->host_last);
  if (clause == S2S_COPYIN) s2s_rt_copy_box(t, r, line, a, &s, e, 1, 1, 1);
  s2s_rt_lock_take();
  s2s_rt_filled(t, r, line, e);
  s2s_rt_lock_give();
}

/* exit data: drop one dynamic reference (all with finalize); the release
 * that leaves none copies out under COPYOUT and frees.  Not present, or
 * held by no enter data: no action (OpenACC 2.6 and later). */
void s2s_exit_data(S2sRegion *r, int line, const S2sArray *a, S2sClause clause, int finalize) {
  S2sBoxShape s;
  S2sPresent *e;
  S2sThread *t = s2s_rt_enter(r, line);
  int shared, copy_out;
  if (clause != S2S_COPYOUT && clause != S2S_DELETE)
    s2s_rt_fail(r, line, "exit data takes copyout or delete, not clause %d", (int)clause);
  if (!s2s_rt_box(r, line, a, &s)) return;
  s2s_rt_lock_take();
  e = s2s_rt_find(r, line, a, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s), 1);
  if (!e || e->dynamic_refs == 0) {
    s2s_rt_debug(r, line, "exit data: %s is %s: no action", s2s_rt_str(a->name),
                 e ? "held by no enter data" : "not present");
    s2s_rt_lock_give();
    return;
  }
  s2s_rt_finish_async_before_last(t, r, line, e);
  /* keep one reference while copying out, as s2s_data_end does */
  long drop = finalize ? e->dynamic_refs : 1;
  e->dynamic_refs -= drop;
  e->refs -= drop - 1;
  shared = e->shared;
  copy_out = e->refs == 1 && clause == S2S_COPYOUT;
  s2s_rt_debug(r, line, "exit data: %s, %ld references left%s", s2s_rt_str(a->name), e->refs - 1,
               copy_out ? ", copied out" : "");
  s2s_rt_lock_give();
  if (shared && !copy_out) s2s_rt_wait(t, r, line);
  if (copy_out) s2s_rt_copy_box(t, r, line, a, &s, e, 0, 0, 1);
  s2s_rt_release(t, r, line, e);
}

void s2s_update_device(S2sRegion *r, int line, const S2sArray *a) {
  s2s_rt_update(r, line, a, 1);
}

/* Wait for the thread's asynchronous updates, copy what landed in bounce
 * blocks into the user's arrays, and let go of the copies they held. */
static void s2s_rt_finish_async(S2sThread *t, const S2sRegion *r, int line) {
  if (!t->nasync) return;
  s2s_rt_wait_event(t, r, line, t->async_done, 0);
  for (int i = 0; i < t->nasync; i++) {
    S2sAsyncUpdate *u = &t->async[i];
    S2sRows w;
    if (u->bounce < 0) continue;
    s2s_rt_rows_box(&w, &u->shape, u->elem, u->host, 1);
    s2s_rt_rows_move(&w, t->bounce[u->bounce].buf, 0, s2s_rt_shape_bytes(&u->shape, u->elem), 0);
    t->bounce[u->bounce].busy = 0;
  }
  s2s_rt_lock_take();
  for (int i = 0; i < t->nasync; i++) {
    if (t->async[i].scratch) s2s_rt_pool_put(t, r, line, t->async[i].scratch);
    if (--t->async[i].e->refs == 0) s2s_rt_destroy(t, r, line, t->async[i].e);
  }
  s2s_rt_lock_give();
  t->nasync = 0;
  /* the copies waited for the stream up to the last async_after: what was
   * queued there before it has finished */
  if (!t->recent_overflow) {
    memmove(t->recent, t->recent + t->recent_at_after,
            (size_t)(t->nrecent - t->recent_at_after) * sizeof *t->recent);
    t->nrecent -= t->recent_at_after;
  }
  t->recent_at_after = 0;
}

/* A free pinned block of at least `bytes` for an asynchronous update, as
 * an index in the thread's blocks (which a new block may move): the
 * smallest that fits, else a new one (sizes rounded up to a power of two,
 * so that updates of slightly different boxes share blocks).  -1 when the
 * thread's blocks would pass S2S_RT_BOUNCE_MAX or no pinned memory is left. */
static int s2s_rt_bounce_get(S2sThread *t, size_t bytes) {
  S2sBounce *grown;
  size_t size = 4096;
  int best = -1;
  for (int i = 0; i < t->nbounce; i++)
    if (!t->bounce[i].busy && t->bounce[i].size >= bytes &&
        (best < 0 || t->bounce[i].size < t->bounce[best].size))
      best = i;
  if (best >= 0) {
    t->bounce[best].busy = 1;
    return best;
  }
  while (size < bytes) size *= 2;
  if (t->bounce_bytes + size > S2S_RT_BOUNCE_MAX) return -1;
  grown = realloc(t->bounce, (size_t)(t->nbounce + 1) * sizeof *grown);
  if (!grown) return -1;
  t->bounce = grown;
  if (cudaMallocHost((void **)&grown[t->nbounce].buf, size) != cudaSuccess) {
    (void)cudaGetLastError();
    return -1;
  }
  grown[t->nbounce].size = size;
  grown[t->nbounce].busy = 1;
  t->bounce_bytes += size;
  return t->nbounce++;
}

/* The thread's copy stream and its events, made at the first copy beside
 * the kernels. */
static void s2s_rt_copies_ready(S2sThread *t, const S2sRegion *r, int line) {
  if (t->copies) return;
  s2s_rt_cuda(cudaStreamCreate(&t->copies), r, line, "cudaStreamCreate");
  s2s_rt_cuda(cudaEventCreateWithFlags(&t->async_after, cudaEventDisableTiming), r, line,
              "cudaEventCreateWithFlags");
  s2s_rt_cuda(cudaEventCreateWithFlags(&t->async_done, cudaEventDisableTiming), r, line,
              "cudaEventCreateWithFlags");
}

/* A new entry in the thread's copies beside the kernels, zeroed. */
static S2sAsyncUpdate *s2s_rt_async_add(S2sThread *t, const S2sRegion *r, int line) {
  if (t->nasync == t->async_cap) {
    int cap = t->async_cap ? 2 * t->async_cap : 8;
    S2sAsyncUpdate *grown = realloc(t->async, (size_t)cap * sizeof *grown);
    if (!grown) s2s_rt_fail(r, line, "out of host memory for asynchronous updates");
    t->async = grown;
    t->async_cap = cap;
  }
  memset(&t->async[t->nasync], 0, sizeof t->async[t->nasync]);
  return &t->async[t->nasync++];
}

/* update device of a contiguous box that no work still queued on the
 * thread's stream touches: staged onto the copy stream, where it runs
 * beside the kernels queued before it (the interior of a domain while its
 * halo planes arrive).  Work queued later that touches the box waits for
 * it (s2s_rt_copies_hazard); the entry keeps its reference to the copy
 * until a wait, so that the copy outlives the bus copy.  A program that
 * never waits would pile entries up: the finished ones are let go here. */
static void s2s_rt_update_device_beside(S2sThread *t, S2sRegion *r, int line, const S2sArray *a,
                                        const S2sBoxShape *s, S2sPresent *e) {
  uintptr_t first = s2s_rt_host_first(a, s);
  size_t bytes = s2s_rt_shape_bytes(s, a->elem);
  double t0 = s2s_rt_now_us(), us;
  S2sAsyncUpdate *u;
  S2sRows w;
  s2s_rt_copies_ready(t, r, line);
  if (t->nasync >= 16 && cudaEventQuery(t->async_done) == cudaSuccess) s2s_rt_finish_async(t, r, line);
  (void)cudaGetLastError(); /* cudaErrorNotReady is no error */
  if (t->nasync >= 256) s2s_rt_finish_async(t, r, line);
  s2s_rt_stage_buffers(t, r, line);
  s2s_rt_rows_flat(&w, (char *)first, bytes);
  s2s_rt_stage(t, r, line, &w, e->dev + (first - e->host_first), bytes, 1, t->copies);
  s2s_rt_lock_take();
  s2s_rt_written(t, r, line, e, t->copies);
  s2s_rt_lock_give();
  s2s_rt_cuda(cudaEventRecord(t->async_done, t->copies), r, line, "cudaEventRecord");
  u = s2s_rt_async_add(t, r, line);
  u->e = e;
  u->writes_device = 1;
  u->bounce = -1;
  u->shape = *s;
  u->host = (char *)first;
  u->last = s2s_rt_host_last(a, s);
  u->elem = a->elem;
  us = s2s_rt_now_us() - t0;
  s2s_rt_lock_take();
  s2s_rt_count_transfer(e, bytes);
  s2s_rt_account(r, 1, bytes, us);
  s2s_rt_lock_give();
  s2s_rt_debug(r, line, "update device of %s queued beside the kernels (%zu bytes), %.1f us",
               s2s_rt_str(a->name), bytes, us);
}

/* update host(a) async: the copy is queued and the host returns at once;
 * the array holds the values after s2s_wait_updates.  A contiguous box of a
 * registered copy goes straight into the array; any other box into a
 * pinned bounce block (packed on the device first when it has holes) that
 * the wait unpacks.  Only when no bounce block can be had is it copied now,
 * which is what waiting at once would give. */
void s2s_update_host_async(S2sRegion *r, int line, const S2sArray *a) {
  S2sBoxShape s;
  S2sThread *t = s2s_rt_enter(r, line);
  S2sPresent *e = s2s_rt_update_copy(t, r, line, a, &s, 0); /* held until the wait */
  S2sAsyncUpdate *u;
  int bounce = -1;
  size_t bytes;
  uintptr_t first;
  char *dev, *scratch = NULL;
  if (!e) return;
  bytes = s2s_rt_shape_bytes(&s, a->elem);
  if (!(s.nruns == 1 && s2s_rt_registered(r, line, e, bytes)) &&
      (bounce = s2s_rt_bounce_get(t, bytes)) < 0) {
    s2s_rt_debug(r, line, "update host of %s async: no pinned block for %zu bytes, copied now",
                 s2s_rt_str(a->name), bytes);
    if (s2s_rt_update_host_pending(t, e, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s)))
      s2s_rt_finish_async(t, r, line); /* older values must not land over these */
    s2s_rt_copies_hazard(t, r, line, e, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s), 0);
    s2s_rt_copy_box(t, r, line, a, &s, e, 0, 0, 0);
    s2s_rt_release(t, r, line, e);
    return;
  }
  s2s_rt_copies_ready(t, r, line);
  s2s_rt_lock_take();
  s2s_rt_count_transfer(e, bytes);
  s2s_rt_lock_give();
  first = s2s_rt_host_first(a, &s);
  dev = e->dev + (first - e->host_first);
  /* after everything queued so far (the kernels that computed the box), on
   * the copy stream, so that later work runs beside it */
  s2s_rt_cuda(cudaEventRecord(t->async_after, t->stream), r, line, "cudaEventRecord");
  s2s_rt_cuda(cudaStreamWaitEvent(t->copies, t->async_after, 0), r, line, "cudaStreamWaitEvent");
  t->recent_at_after = t->nrecent;
  if (bounce >= 0 && s.nruns > 1) { /* packed on the device, then one bus copy */
    s2s_rt_lock_take();
    scratch = s2s_rt_pool_get(t, r, line, bytes);
    s2s_rt_lock_give();
    s2s_rt_device_pack(t->copies, r, line, &s, a->elem, dev, scratch, 1);
  }
  s2s_rt_cuda(cudaMemcpyAsync(bounce < 0 ? (char *)first : t->bounce[bounce].buf,
                              scratch ? scratch : dev, bytes, cudaMemcpyDeviceToHost, t->copies),
              r, line, "cudaMemcpyAsync");
  s2s_rt_cuda(cudaEventRecord(t->async_done, t->copies), r, line, "cudaEventRecord");
  u = s2s_rt_async_add(t, r, line);
  u->e = e;
  u->bounce = bounce;
  u->shape = s;
  u->host = (char *)first;
  u->last = s2s_rt_host_last(a, &s);
  u->elem = a->elem;
  u->scratch = scratch; /* the pool would hand it to the thread's stream before the copy is done */
  s2s_rt_lock_take();
  s2s_rt_account(r, 0, bytes, 0.0);
  s2s_rt_lock_give();
  s2s_rt_debug(r, line, "update host of %s queued (%zu bytes, %s)", s2s_rt_str(a->name), bytes,
               bounce < 0 ? "registered" : s.nruns == 1 ? "pinned block" : "packed, pinned block");
}

void s2s_wait_updates(S2sRegion *r, int line) { s2s_rt_finish_async(s2s_rt_enter(r, line), r, line); }

/* ---- host_data use_device ---------------------------------------------------
 *
 * The host code of a host_data construct hands the device copy of an array
 * to a library (a CUDA-aware MPI, cuBLAS, cuFFT) that reads and writes it
 * on its own, outside the thread's stream.  So the device bytes must be
 * final before the construct starts: every kernel and copy the thread has
 * queued (both its streams) is waited for, and the last device writes
 * other threads queued on the copy.  What the library writes is there when
 * its call returns (a CUDA-aware MPI's receive, a synchronous cuBLAS call),
 * so the work queued after the construct sees it.
 */

/* The one present copy that holds any of host bytes [first, last]; NULL
 * when none does.  Two copies (two tiles of the array, each held by its
 * own data region) cannot stand for one array: an error. */
static S2sPresent *s2s_rt_holding_copy(const S2sRegion *r, int line, const S2sArray *a,
                                       uintptr_t first, uintptr_t last) {
  S2sPresent *found = NULL;
  for (S2sPresent *e = rt.present; e; e = e->hh.next) {
    if (last < e->host_first || first > e->host_last) continue;
    if (found)
      s2s_rt_fail_hint(r, line, "host_data", "hold the array in one data region around the "
                       "construct", "use_device(%s): two device copies hold parts of it (%s "
                       "and %s); host_data needs one", s2s_rt_str(a->name), found->what, e->what);
    found = e;
  }
  return found;
}

void *s2s_use_device(S2sRegion *r, int line, const S2sArray *a, int if_present) {
  S2sBoxShape s;
  S2sPresent *e;
  S2sThread *t = s2s_rt_enter(r, line);
  char *dev;
  if (!s2s_rt_box(r, line, a, &s)) return a->host; /* an empty array: nothing to address */
  if (s2s_autocompare_enabled()) return a->host; /* see s2s_host_data_end */
  s2s_rt_lock_take();
  e = s2s_rt_holding_copy(r, line, a, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s));
  if (!e) {
    s2s_rt_lock_give();
    if (if_present) return a->host;
    s2s_rt_fail_absent(r, line, a, "host_data use_device",
                       "host_data needs an enclosing data region (or enter data) that holds "
                       "the array; if_present keeps the host address of an array not present");
  }
  s2s_rt_borrow(t, r, line, e); /* the thread's stream waits for other threads' last writes */
  /* the array's base may lie before the copy (a copy of a section): only
   * the addresses of elements the copy holds are ever used */
  dev = e->dev + ((intptr_t)(uintptr_t)a->host - (intptr_t)e->host_first);
  s2s_rt_debug(r, line, "host_data: %s at device address %p (copy of %s)", s2s_rt_str(a->name),
               (void *)dev, e->what);
  s2s_rt_lock_give();
  s2s_rt_finish_async(t, r, line); /* the copies beside the kernels */
  s2s_rt_wait(t, r, line);         /* the kernels and copies on the stream, and what it waited for */
  s2s_rt_release(t, r, line, e);
  return dev;
}

/* Autocompare keeps the host's arrays as the host passes compute them and
 * compares each region's device results with them; code that changed
 * only the device copies would leave the host passes behind.  So under
 * autocompare the construct's code is given the host's arrays, and at its
 * end each present copy takes the host's values. */
void s2s_host_data_end(S2sRegion *r, int line, const S2sArray *a) {
  S2sBoxShape s;
  S2sPresent *e;
  S2sArray box;
  if (!s2s_autocompare_enabled() || !s2s_rt_box(r, line, a, &s)) return;
  s2s_rt_lock_take();
  e = s2s_rt_holding_copy(r, line, a, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s));
  if (e) box = e->box;
  s2s_rt_lock_give();
  if (!e) return;
  box.name = a->name;
  s2s_update_device(r, line, &box);
}

/* MPI reads and writes device memory: S2S_MPI_DEVICE=1 or 0 says so;
 * otherwise the MPI library linked in is asked (Open MPI's
 * MPIX_Query_cuda_support, MPICH's MPIX_GPU_query_support for CUDA, found
 * by name so that the runtime needs no MPI); in emulation device memory is
 * host memory, which any MPI reads. */
int s2s_mpi_device_aware(void) {
  const char *v = getenv("S2S_MPI_DEVICE");
  if (v && *v) {
    if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
      s2s_rt_fail_hint(NULL, 0, NULL, NULL, "S2S_MPI_DEVICE='%s': use 1 when MPI reads and writes "
                       "device memory (a CUDA-aware MPI), 0 when it does not", v);
    return strcmp(v, "1") == 0;
  }
#ifdef S2S_EMULATE
  return 1;
#else
  int (*query)(void);
  int (*gpu_query)(int, int *);
  int yes = 0;
  *(void **)&query = dlsym(RTLD_DEFAULT, "MPIX_Query_cuda_support");
  if (query) return query() != 0;
  *(void **)&gpu_query = dlsym(RTLD_DEFAULT, "MPIX_GPU_query_support");
  if (gpu_query && gpu_query(0 /* MPIX_GPU_SUPPORT_CUDA */, &yes) == 0) return yes != 0;
  return 0;
#endif
}

void s2s_check(cudaError_t err, S2sRegion *r, int line, const char *what) {
  s2s_rt_cuda(err, r, line, what ? what : "a CUDA call");
}

/* Device memory for the per-thread copies of privatized arrays whose size is
 * known only at run time, from the pool.  In emulation it is filled with
 * 0xFF bytes (NaN for reals), so a read before the thread's own write shows
 * up in tests. */
void *s2s_scratch_alloc(S2sRegion *r, int line, size_t bytes) {
  S2sThread *t;
  void *p;
  if (bytes == 0) return NULL;
  t = s2s_rt_enter(r, line);
  s2s_rt_lock_take();
  p = s2s_rt_pool_get(t, r, line, bytes);
  s2s_rt_lock_give();
  return p;
}

/* Back to the pool in stream order: kernels queued before still use it. */
void s2s_scratch_free(S2sRegion *r, int line, void *p) {
  S2sThread *t;
  if (!p) return;
  t = s2s_rt_enter(r, line);
  s2s_rt_lock_take();
  s2s_rt_pool_put(t, r, line, p);
  s2s_rt_lock_give();
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
  S2sThread *t = s2s_rt_enter(r, line);
#ifdef S2S_EMULATE
  s2s_emu_check_env(r, line);
#endif
  /* An error left by code outside the runtime must not be blamed on this kernel. */
  stale = cudaGetLastError();
  if (stale != cudaSuccess)
    s2s_rt_fail_hint(r, line, "kernel of region", "the error comes from an earlier CUDA call",
                     "CUDA error '%s' before launch", cudaGetErrorString(stale));
  s2s_rt_lock_take();
  k = s2s_rt_kernel_stat(r, line);
  r->grid[0] = k->grid[0] = grid.x;
  r->grid[1] = k->grid[1] = grid.y;
  r->grid[2] = k->grid[2] = grid.z;
  r->block[0] = k->block[0] = block.x;
  r->block[1] = k->block[1] = block.y;
  r->block[2] = k->block[2] = block.z;
  r->kernel_line = line;
  s2s_rt_lock_give();
  if (rt.timing || rt.debug || s2s_tune_timing()) s2s_rt_timer_start(t, r, line);
#ifdef S2S_EMULATE
  s2s_race_begin(r, line);
#endif
}

/* Launch errors (configuration, resources) show at once; a fault while the
 * kernel runs shows at the next wait, which names this kernel (see
 * s2s_rt_fail_async).  Only S2S_TIME and S2S_DEBUG wait here, to time it. */
void s2s_kernel_end(S2sRegion *r, int line) {
  cudaError_t err = cudaGetLastError();
  S2sThread *t = s2s_rt_enter(r, line);
  S2sKernelStat *k;
  double us = 0.0;
  if (err != cudaSuccess)
    s2s_rt_fail_hint(r, line, "kernel of region", NULL, "CUDA error '%s'", cudaGetErrorString(err));
#ifdef S2S_EMULATE
  s2s_race_end(r, line);
#endif
  s2s_rt_note_kernel(t, r, line);
  if (rt.timing || rt.debug || s2s_tune_timing()) us = s2s_rt_timer_stop_us(t, r, line);
  s2s_tune_record(us);
  s2s_rt_lock_take();
  k = s2s_rt_kernel_stat(r, line);
  k->max_us = k->launches == 0 || us > k->max_us ? us : k->max_us;
  k->min_us = k->launches == 0 || us < k->min_us ? us : k->min_us;
  k->total_us += us;
  k->launches++;
  r->kernel_us += us;
  r->kernels_launched++;
  s2s_rt_lock_give();
  s2s_rt_debug(r, line, "kernel [%ux%ux%u] x [%ux%ux%u]: %.1f us", k->grid[0], k->grid[1],
               k->grid[2], k->block[0], k->block[1], k->block[2], us);
}

void s2s_wait(S2sRegion *r, int line) { s2s_rt_wait(s2s_rt_enter(r, line), r, line); }

unsigned s2s_grid_dim(S2sRegion *r, int line, long iterations, unsigned block, int axis) {
  long blocks, limit = axis == 0 ? 2147483647L : 65535L;
  if (axis < 0 || axis > 2 || block == 0)
    s2s_rt_fail(r, line, "grid axis %d with block size %u", axis, block);
  if (iterations <= 0) return 0;
  blocks = iterations / (long)block + (iterations % (long)block != 0);
  if (blocks > limit)
    s2s_rt_fail_hint(r, line, "region",
                     "map a shorter loop to this axis (y and z hold at most 65535 blocks)",
                     "%ld threads along grid axis %c need %ld blocks of %u, more than the "
                     "limit of %ld",
                     iterations, "xyz"[axis], blocks, block, limit);
  return (unsigned)blocks;
}

size_t s2s_smem_limit(void) {
#ifdef S2S_EMULATE
  return 48 * 1024;
#else
  static _Atomic long limit;          /* 0: not asked yet */
  long v = limit;
  if (!v) {
    int dev = 0, bytes = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&bytes, cudaDevAttrMaxSharedMemoryPerBlock, dev) != cudaSuccess ||
        bytes <= 0)
      bytes = 48 * 1024;              /* what every CUDA device gives without opting in */
    limit = v = bytes;
  }
  return (size_t)v;
#endif
}

long s2s_array_span(const S2sArray *a) {
  long span = 0, stride = 1;
  for (int d = 0; d < a->rank; d++) {
    long far = a->sub_hi[d] - a->lo[d];
    if (far < 0) return 0;               /* an empty box: no element is touched */
    if (far > 0 && stride > LONG_MAX / far) return LONG_MAX;
    span += far * stride;
    if (d + 1 < a->rank) {
      if (a->ext[d] <= 0 || stride > LONG_MAX / a->ext[d]) return LONG_MAX;
      stride *= a->ext[d];
    }
  }
  return span + 1;
}

int s2s_index32(const long *spans, int n) {
  /* read once: a getenv at every launch scanned the environment each time */
  static _Atomic int force64 = -1;
  int f = force64;
  if (f < 0) {
    const char *v = getenv("S2S_INDEX64");
    force64 = f = v && *v && strcmp(v, "0") != 0;
  }
  if (f) return 0;
  for (int i = 0; i < n; i++)
    if (spans[i] < 0 || spans[i] > INT_MAX) return 0;
  return 1;
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

long s2s_present_count(void) {
  long n;
  s2s_rt_lock_take();
  n = (long)HASH_COUNT(rt.present);
  s2s_rt_lock_give();
  return n;
}

/* References to the copy holding `a` (0 when none): all, or the dynamic
 * ones (enter data). */
static long s2s_rt_present_refs(const S2sArray *a, int dynamic) {
  S2sBoxShape s;
  S2sPresent *e;
  long refs;
  if (!s2s_rt_box(NULL, 0, a, &s)) return 0;
  s2s_rt_lock_take();
  e = s2s_rt_find(NULL, 0, a, s2s_rt_host_first(a, &s), s2s_rt_host_last(a, &s), 0);
  refs = !e ? 0 : dynamic ? e->dynamic_refs : e->refs;
  s2s_rt_lock_give();
  return refs;
}

long s2s_present_dynamic_refs(const S2sArray *a) { return s2s_rt_present_refs(a, 1); }
long s2s_present_refs(const S2sArray *a) { return s2s_rt_present_refs(a, 0); }

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
 *
 * After a region's copies, advice for each array its data clauses copied
 * in three or more times (the three costliest, most time first; the boxes
 * of one name together):
 *
 *         21: advice: copyin of 'th' repeated 150 times (3.1 s): wrap the calls in !$stencil data copy(th)
 *             (copied once instead, saves about 3.0 s)
 *
 * copy(...) when the region also copied it out at least as often,
 * copyin(...) otherwise; `#pragma stencil data` for C files.  The time is
 * the copies' device time (in and out), in s or ms; the saving, all but
 * one of them.  An array copied out three or more times and in fewer
 * gets the same advice for its copy-out:
 *
 *         21: advice: copyout of 'tend' repeated 150 times (1.2 s): wrap the calls in !$stencil data copyout(tend)
 *             (copied out once at its end instead, saves about 1.2 s; where the host reads it
 *             between the calls, an update host(tend) there)
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

static void s2s_rt_report_kernel(FILE *out, const S2sRegion *r, const S2sKernelStat *k) {
  char t[32], mx[32], mn[32], avg[32];
  fprintf(out, "        %d: kernel launched %ld times\n", k->line, k->launches);
  fprintf(out, "            grid: [%ux%ux%u]  block: [%ux%ux%u]\n", k->grid[0], k->grid[1],
          k->grid[2], k->block[0], k->block[1], k->block[2]);
  fprintf(out, "            device time(us): total=%s max=%s min=%s avg=%s\n",
          s2s_rt_commas(k->total_us, t), s2s_rt_commas(k->max_us, mx),
          s2s_rt_commas(k->min_us, mn),
          s2s_rt_commas(k->launches ? k->total_us / (double)k->launches : 0.0, avg));
  s2s_tune_report(out, r, k->line);
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

#define S2S_RT_ADVICE_MIN_REPEATS 3
#define S2S_RT_ADVICE_MAX 3

/* One array's copies by a region's clauses, all its boxes together: a
 * program that swaps two buffers between calls (u and unew of a Jacobi
 * sweep) passes the region two host addresses under one name. */
typedef struct S2sAdvice {
  const char *name;
  long copyins, copyouts;
  double us;              /* copy-in time, plus copy-out time when it is copied out as often */
  double out_us;          /* copy-out time */
} S2sAdvice;

static int s2s_rt_advice_order(const void *pa, const void *pb) {
  const S2sAdvice *a = pa, *b = pb;
  if (a->us != b->us) return a->us < b->us ? 1 : -1;
  return strcmp(a->name, b->name);
}

static const char *s2s_rt_seconds(double us, char buf[32]) {
  if (us >= 1e6) snprintf(buf, 32, "%.1f s", us * 1e-6);
  else snprintf(buf, 32, "%.1f ms", us * 1e-3);
  return buf;
}

static void s2s_rt_report_advice(FILE *out, const S2sRegion *r) {
  S2sAdvice adv[64];
  int n = 0;
  for (const S2sArrayStat *st = r->array_stats; st; st = st->next) {
    int i;
    for (i = 0; i < n && strcmp(adv[i].name, st->name); i++) {}
    if (i == n) {
      if (n == (int)(sizeof adv / sizeof adv[0])) continue;
      memset(&adv[n++], 0, sizeof adv[0]);
      adv[i].name = st->name;
    }
    adv[i].copyins += st->copyins;
    adv[i].copyouts += st->copyouts;
    adv[i].us += st->in_us + (st->copyouts >= st->copyins ? st->out_us : 0.0);
    adv[i].out_us += st->out_us;
  }
  for (int i = 0; i < n; i++) /* an array only copied out is ranked by its copy-out time */
    if (adv[i].copyins < S2S_RT_ADVICE_MIN_REPEATS) adv[i].us = adv[i].out_us;
  qsort(adv, (size_t)n, sizeof adv[0], s2s_rt_advice_order);
  for (int i = 0, shown = 0; i < n && shown < S2S_RT_ADVICE_MAX; i++) {
    char total[32], saved[32];
    if (adv[i].copyins < S2S_RT_ADVICE_MIN_REPEATS) {
      /* copied out at every call and never (or seldom) in: a work array or a result */
      if (adv[i].copyouts < S2S_RT_ADVICE_MIN_REPEATS) continue;
      shown++;
      fprintf(out, "        %d: advice: copyout of '%s' repeated %ld times (%s): wrap the calls in "
                   "%s data %s(%s)\n",
              r->line, adv[i].name, adv[i].copyouts, s2s_rt_seconds(adv[i].out_us, total),
              s2s_rt_is_c_file(r->file) ? "#pragma stencil" : "!$stencil",
              adv[i].copyins ? "copy" : "copyout", adv[i].name);
      fprintf(out, "            (copied out once at its end instead, saves about %s; where the host "
                   "reads it between the calls, an update host(%s) there)\n",
              s2s_rt_seconds(adv[i].out_us * (double)(adv[i].copyouts - 1) / (double)adv[i].copyouts,
                             saved), adv[i].name);
      continue;
    }
    shown++;
    fprintf(out, "        %d: advice: copyin of '%s' repeated %ld times (%s): wrap the calls in "
                 "%s data %s(%s)\n",
            r->line, adv[i].name, adv[i].copyins, s2s_rt_seconds(adv[i].us, total),
            s2s_rt_is_c_file(r->file) ? "#pragma stencil" : "!$stencil",
            adv[i].copyouts >= adv[i].copyins ? "copy" : "copyin", adv[i].name);
    fprintf(out, "            (copied once instead, saves about %s)\n",
            s2s_rt_seconds(adv[i].us * (double)(adv[i].copyins - 1) / (double)adv[i].copyins, saved));
  }
}

static void s2s_rt_report_region(FILE *out, const S2sRegion *r) {
  char t[32], k[32], d[32];
  fprintf(out, "    %d: region %s reached %ld times\n", r->line, s2s_rt_str(r->name), r->entered);
  fprintf(out, "        time(us): total=%s kernels=%s data=%s\n", s2s_rt_commas(r->region_us, t),
          s2s_rt_commas(r->kernel_us, k), s2s_rt_commas(r->data_us, d));
  for (const S2sKernelStat *ks = r->kernel_stats; ks; ks = ks->next) s2s_rt_report_kernel(out, r, ks);
  s2s_rt_report_data(out, r->line, "copyin", r->copies_in, r->bytes_in, r->data_in_us);
  s2s_rt_report_data(out, r->line, "copyout", r->copies_out, r->bytes_out, r->data_out_us);
  s2s_rt_report_advice(out, r);
}

static void s2s_rt_report_header(FILE *out) {
  char rank[160] = "";
  if (rt.initialised && rt.local_rank >= 0 && rt.rank_from)
    snprintf(rank, sizeof rank, "; local rank %d from %s", rt.local_rank, rt.rank_from);
#ifdef S2S_EMULATE
  fprintf(out, "S2S Accelerator Kernel Timing data (emulated on CPU%s)\n", rank);
#else
  if (rt.initialised)
    fprintf(out, "S2S Accelerator Kernel Timing data (%s, device %d%s)\n", rt.device_name,
            rt.device, rank);
  else
    fprintf(out, "S2S Accelerator Kernel Timing data (no device used)\n");
#endif
}

void s2s_timing_report(FILE *out) {
  size_t n = 0, i = 0;
  const S2sRegion **sorted;
  /* At exit after a stop the lock may be held by the thread that stopped:
   * report anyway rather than hang. */
  int locked = pthread_mutex_trylock(&s2s_rt_lock) == 0;
  s2s_rt_report_header(out);
  for (const S2sRegion *r = rt.regions; r; r = r->next) n++;
  sorted = malloc((n ? n : 1) * sizeof *sorted);
  if (!sorted) { /* at exit: no report rather than a crash */
    if (locked) s2s_rt_lock_give();
    return;
  }
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
  if (locked) s2s_rt_lock_give();
}
