/* s2s_rt.h — the runtime that translated programs link against.
 *
 * Generated `.s2s.cu` files include this header and call nothing else of the
 * CUDA runtime directly except kernel launches (through S2S_LAUNCH).  The
 * same generated file builds two ways:
 *   - with nvcc, for a GPU: this header includes <cuda_runtime.h>;
 *   - with g++ and -DS2S_EMULATE, for a CPU: this header includes s2s_emu.h,
 *     which provides dim3, threadIdx/blockIdx, the CUDA runtime calls the
 *     runtime uses, and an S2S_LAUNCH that runs every thread in turn.
 *
 * What the runtime keeps:
 *   - a present table (uthash, keyed by host address) of the arrays that are
 *     on the device, with reference counts, so that `data` regions keep arrays
 *     on the device across the regions and calls inside them;
 *   - a pool of device memory, pinned staging buffers, and a stream per host
 *     thread on which that thread's copies and kernels are queued (the host
 *     waits only where it needs data back);
 *   - per-region timing (S2S_TIME=1 prints a report at exit);
 *   - error checks that name the region and the user's source line.
 * It may be called from several host threads at once.
 *
 * Arrays are described by S2sArray: dimensions are listed fastest-varying
 * first (Fortran order; C arrays are reversed by the translator), with the
 * declared lower bound and extent of each, and the sub-array (box) a clause
 * names.  The device copy covers the contiguous span from the box's first to
 * its last element; the pointer returned has the same layout as the host
 * array (device_base + linear offset of an element == its device address),
 * so kernels index it exactly as the host code indexes the host array.
 */
#ifndef S2S_RT_H
#define S2S_RT_H

#include <stddef.h>
#include <stdint.h>

#include <stdio.h>

#ifdef S2S_EMULATE
#include "s2s_emu.h"
#else
#include <cuda_runtime.h>
#endif

/* Kernel launch and host/device helpers in the real (nvcc) build; s2s_emu.h
 * gives the emulated S2S_LAUNCH and an empty S2S_HD. */
#if !defined(S2S_EMULATE) && defined(__CUDACC__)
/* On the calling thread's stream, after its queued copies. */
#define S2S_LAUNCH(kernel, grid, block, ...) \
  kernel<<<(grid), (block), 0, s2s_stream()>>>(__VA_ARGS__)
/* A kernel with shared-memory tiles (pass "smem"): `bytes` of dynamic
 * shared memory per block.  In the kernel, S2S_SMEM_DECLARE names that
 * memory s2s_smem, the tile load runs under S2S_SMEM_LOADING, and
 * S2S_SMEM_SYNC() is the barrier every thread of the block reaches before
 * any reads the tiles (s2s_emu.h runs the two sides as two phases). */
#define S2S_LAUNCH_SMEM(kernel, grid, block, bytes, ...) \
  kernel<<<(grid), (block), (bytes), s2s_stream()>>>(__VA_ARGS__)
#define S2S_SMEM_DECLARE extern __shared__ __align__(16) unsigned char s2s_smem[]
#define S2S_SMEM_LOADING 1
#define S2S_SMEM_SYNC() __syncthreads()
#ifndef S2S_HD
#define S2S_HD __host__ __device__
#endif
#endif

/* An element of a global array in a kernel: the index macros of generated
 * code are `#define S2S_t(i0, i1) S2S_ELEM(t, offset)`.  On the GPU it is
 * the element itself; in emulation (s2s_emu.h) a reference the race check
 * (S2S_EMU_CHECK=race) can see. */
#ifndef S2S_ELEM
#define S2S_ELEM(p, off) (p)[off]
#endif

/* Bytes of one shared-memory tile (pass "smem") for a block of bx x by x bz
 * threads: (bx + wx) x (by + wy) elements per z slice, where wx and wy are
 * the widths of the halo the reads reach around the block; rounded up to 16
 * so that the next tile starts aligned.  The launcher sizes the dynamic
 * shared memory with it and the kernel places its tiles with it. */
#define S2S_TILE_BYTES(bx, by, bz, wx, wy, elem) \
  (((size_t)((bx) + (wx)) * (size_t)((by) + (wy)) * (size_t)(bz) * (size_t)(elem) + 15) & \
   ~(size_t)15)

#ifdef __cplusplus
extern "C" {
#endif

#define S2S_MAX_RANK 7

/* One region (or data region / update) of the user's program: static in the
 * generated code, filled by the runtime. */
typedef struct S2sRegion {
  const char *name;      /* e.g. "diffuse_r1" */
  const char *routine;   /* the user's routine, e.g. "diffuse" */
  const char *file;      /* the user's source file */
  int line;              /* line of the directive */
  /* statistics, zero-initialised, kept by the runtime */
  long entered;
  double region_us, kernel_us, data_us;
  long kernels_launched;
  long long bytes_in, bytes_out;
  unsigned grid[3], block[3]; /* last launch */
  int kernel_line;       /* line of the last kernel's loop */
  int registered;
  struct S2sRegion *next;
  /* Runtime-private, zero-initialised; appended so that an initialiser
   * listing only {name, routine, file, line} stays valid. */
  int depth;                        /* nesting of s2s_region_begin (recursion) */
  double region_t0;                 /* host clock (us) at the outermost begin */
  double data_in_us, data_out_us;   /* data_us split by direction */
  long copies_in, copies_out;       /* box transfers per direction */
  struct S2sKernelStat *kernel_stats; /* per kernel line; owned by the runtime */
  struct S2sArrayStat *array_stats;   /* per box copied by its clauses; owned by the runtime */
} S2sRegion;

/* Initialiser for a region, valid C and C++ and quiet under
 * -Wmissing-field-initializers (kept next to the struct: update both):
 *   static S2sRegion diffuse_r1 = S2S_REGION("diffuse_r1", "diffuse", "diffusion.f90", 21); */
#define S2S_REGION(name, routine, file, line) \
  { (name), (routine), (file), (line), 0, 0.0, 0.0, 0.0, 0, 0, 0, {0, 0, 0}, {0, 0, 0}, \
    0, 0, 0, 0, 0.0, 0.0, 0.0, 0, 0, 0, 0 }

typedef enum S2sClause {
  S2S_COPYIN, S2S_COPYOUT, S2S_COPY, S2S_CREATE, S2S_PRESENT,
  S2S_DELETE                 /* exit data only: release without copying out */
} S2sClause;

typedef struct S2sArray {
  const char *name;      /* the user's name, for messages */
  void *host;            /* host address of the element at the declared lower bounds */
  size_t elem;           /* bytes per element */
  int rank;
  long lo[S2S_MAX_RANK];   /* declared lower bound per dimension, fastest first */
  long ext[S2S_MAX_RANK];  /* declared extent per dimension (last may be 0: unknown) */
  long sub_lo[S2S_MAX_RANK], sub_hi[S2S_MAX_RANK]; /* the box, inclusive, in declared index space */
  int read_only;         /* a compute region's kernels only read the box (the translator
                            knows); 0: they may write it, which is also what a descriptor
                            without it says */
} S2sArray;

/* Region bracket: counts entries and times the region. */
/* Start of a launcher, data or update function of region r: returns 0
 * under host fallback (no GPU visible, or S2S_DEVICE=host), when the
 * function must return at once and do nothing; 1 otherwise, and then
 * s2s_region_end closes it. */
int s2s_region_begin(S2sRegion *r);
void s2s_region_end(S2sRegion *r);

/* The host pass (s2s_compare.c).  The host file keeps each region's
 * original loops after the launcher's call, run when s2s_host_pass() says
 * so and closed by s2s_host_pass_end():
 *   - host fallback: the launcher did nothing (s2s_compute_begin gave 0)
 *     and the host computes the region;
 *   - autocompare (S2S_AUTOCOMPARE=1): the launcher ran the region on the
 *     device and captured what it computed (s2s_compare_array,
 *     s2s_compare_scalar) instead of copying it back; the host computes it
 *     again, and s2s_host_pass_end compares the two.
 * s2s_compute_begin is s2s_region_begin for the launcher of a compute
 * region: it also arms the host pass. */
int s2s_compute_begin(S2sRegion *r);
int s2s_host_pass(void);
void s2s_host_pass_end(void);
/* Before s2s_host_pass_end: the host's value of each reduction result of
 * the region (the user's variable, by address). */
void s2s_host_pass_result(const void *host);

enum { S2S_TYPE_REAL = 1, S2S_TYPE_INTEGER = 2, S2S_TYPE_LOGICAL = 3 };

/* Autocompare: keep the device's values of the box of array a (device
 * base pointer dev, as s2s_data_begin returned it), which the region
 * wrote, for comparison after the host pass; nothing otherwise.  Call
 * after the last kernel, before s2s_data_end (which then does not copy
 * the box back: the host computes it). */
void s2s_compare_array(S2sRegion *r, int line, const S2sArray *a, const void *dev, int type);

/* Autocompare: keep the device's result `value` (size bytes) of the host
 * scalar `host` (a reduction) and return 1: the launcher must not store
 * it, the host pass computes it.  Returns 0 otherwise. */
int s2s_compare_scalar(S2sRegion *r, int line, const char *name, void *host, const void *value,
                       size_t size, int type);

/* Make array `a` available on the device for region `r` under `clause`
 * (the clause written or inferred at source line `line`).  If the box is
 * already present (inside a data region), nothing is copied and the present
 * copy is used; PRESENT requires that and stops with a message naming the
 * array, region and line otherwise.  Returns the device base pointer (see
 * above).  An empty box (sub_hi < sub_lo in some dimension) allocates
 * nothing and returns NULL. */
void *s2s_data_begin(S2sRegion *r, int line, const S2sArray *a, S2sClause clause);

/* End of the region or data region for `a`: copy back (COPYOUT, COPY) the
 * box if this was the entry that created the device copy, drop a reference,
 * free the device copy when the last reference goes. */
void s2s_data_end(S2sRegion *r, int line, const S2sArray *a, S2sClause clause);

/* Unstructured data lifetimes: `enter data` / `exit data` (OpenACC's
 * dynamic reference count).  s2s_enter_data makes the box of `a` present
 * (COPYIN copies it in, CREATE only allocates) or, when it already is,
 * adds a dynamic reference; the regions, data regions and updates that
 * follow then find it present, wherever they are, until the matching
 * s2s_exit_data.  s2s_exit_data drops one dynamic reference (all of them
 * with `finalize`); when no reference of any kind is left, the box is
 * copied back (COPYOUT; DELETE does not) and its device copy freed.  An
 * array that is not present, or that no enter data holds, is left alone
 * (OpenACC 2.6 and later: no action). */
void s2s_enter_data(S2sRegion *r, int line, const S2sArray *a, S2sClause clause);
void s2s_exit_data(S2sRegion *r, int line, const S2sArray *a, S2sClause clause, int finalize);

/* `update host(a)` / `update device(a)`: copy the box between host and the
 * present device copy; an array that is not present is an error naming it. */
void s2s_update_host(S2sRegion *r, int line, const S2sArray *a);
void s2s_update_device(S2sRegion *r, int line, const S2sArray *a);

/* `update host(a) async`: the copy is queued and the call returns at once
 * (a contiguous box of a copy whose host span is registered; anything else
 * is copied before the call returns); the host array holds the device's
 * values after s2s_wait_updates, which waits for the calling thread's
 * asynchronous updates only, not for the kernels queued after them.  A
 * data end on the thread waits for them first. */
void s2s_update_host_async(S2sRegion *r, int line, const S2sArray *a);
void s2s_wait_updates(S2sRegion *r, int line);

/* `host_data use_device(a)`: the device address of a->host (the array's
 * element at its declared lower bounds) in the one present copy that holds
 * any of the box of `a`, after the calling thread's queued kernels and
 * copies, and other threads' last writes to the copy, have finished (the
 * host code hands the address to a library that works outside the
 * stream).  Not present: a->host with `if_present`, else an error naming
 * the array. */
void *s2s_use_device(S2sRegion *r, int line, const S2sArray *a, int if_present);
/* The end of the construct, for each array.  Under autocompare (which
 * compares the device's results with the host's, S2S_AUTOCOMPARE=1)
 * s2s_use_device gives the host address, and here the present copy takes
 * the host's values; otherwise nothing. */
void s2s_host_data_end(S2sRegion *r, int line, const S2sArray *a);

/* Whether the MPI library reads and writes device memory (a CUDA-aware
 * MPI): S2S_MPI_DEVICE=0 or 1 decides; else Open MPI's
 * MPIX_Query_cuda_support() or MPICH's MPIX_GPU_query_support() when the
 * program has either (ask after MPI_Init); 1 in emulation, where device
 * memory is host memory; 0 otherwise.  A program chooses by it between
 * handing MPI device addresses (host_data use_device) and staging through
 * the host (update host / update device). */
int s2s_mpi_device_aware(void);

/* Kernel bracket around one S2S_LAUNCH: records grid/block and kernel time,
 * checks the launch and the kernel's completion; on failure prints the
 * CUDA error, the region, the kernel and the user's file:line, and exits. */
void s2s_kernel_begin(S2sRegion *r, int line, dim3 grid, dim3 block);
void s2s_kernel_end(S2sRegion *r, int line);

/* The calling thread's stream: kernels and copies of its regions are
 * queued there in order (0 before the thread's first region). */
cudaStream_t s2s_stream(void);

/* Wait until everything the calling thread queued has finished; an error
 * names the kernel that caused it (or the region and line given). */
void s2s_wait(S2sRegion *r, int line);

/* Check a CUDA runtime call made by generated code. */
void s2s_check(cudaError_t err, S2sRegion *r, int line, const char *what);

/* Grid sizes are limited (y and z to 65535): stop with a message naming the
 * region and line when a loop is too long for the dimension it maps to. */
unsigned s2s_grid_dim(S2sRegion *r, int line, long iterations, unsigned block, int axis);

/* 32-bit indexing.  Kernels are templates over their index type s2s_idx;
 * the launcher runs the int instance when every element offset the kernel
 * can compute fits in an int (32-bit arithmetic, fewer registers, smaller
 * parameters), the long instance otherwise.
 * s2s_array_span: one past the largest offset, from the element at the
 * declared lower bounds, of an element of a's box (the box holds every
 * element the region touches; the last extent may be unknown).
 * s2s_index32: nonzero when every span in spans[0..n) fits in an int and
 * S2S_INDEX64 is not set to a nonzero value (which forces the long
 * instances, to test them or to rule them out). */
/* The block shape of one launch of `kernel` (region r, source line line)
 * over trip[0..2] iterations: the translator's (bx, by, bz), or with
 * S2S_TUNE a measured one (rt/s2s_tune.c).  fixed: the user chose it
 * (vector(n)); it is used as is. */
dim3 s2s_block_shape(S2sRegion *r, int line, const char *kernel, const long trip[3], unsigned bx,
                     unsigned by, unsigned bz, int fixed);

long s2s_array_span(const S2sArray *a);
/* The dynamic shared memory one block may have without opting in (bytes):
 * the device's limit, queried once (48 KiB in emulation).  A launcher whose
 * tiles would need more for a tuned block shape goes back to the
 * translator's shape, whose tiles it checked. */
size_t s2s_smem_limit(void);
int s2s_index32(const long *spans, int n);

/* A fact the translation assumed (an inlined helper's reach inside the
 * declared bounds, e.g. its >= ims): when `holds` is 0, stop before any
 * data movement, naming the assumption, why it was needed and the values
 * (values_fmt and what follows, e.g. "its = %ld, ims = %ld"). */
void s2s_assume(S2sRegion *r, int line, int holds, const char *assumption, const char *why,
                const char *values_fmt, ...);

/* Device memory for one kernel's per-thread copies of privatized arrays
 * (size known only at run time); freed after the kernel.  Errors name the
 * region and line. */
void *s2s_scratch_alloc(S2sRegion *r, int line, size_t bytes);
void s2s_scratch_free(S2sRegion *r, int line, void *p);

/* Several GPUs under MPI, one rank per GPU: the runtime picks device
 * (node-local rank mod devices), the rank taken from the launcher's
 * environment (OMPI_COMM_WORLD_LOCAL_RANK, MPI_LOCALRANKID, SLURM_LOCALID,
 * PMI_LOCAL_RANK, MV2_COMM_WORLD_LOCAL_RANK) or given here by a program that
 * computed it (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED) before its
 * first region; S2S_DEVICE overrides both.  By address, so Fortran can call
 * it through a plain bind(C) interface. */
void s2s_use_local_rank(const int *local_rank);

/* The S2S_TIME=1 report (printed to stderr at exit when the variable is
 * set); callable directly, e.g. by tests or a program that wants it early. */
void s2s_timing_report(FILE *out);

/* Introspection for tests: the number of arrays present on the device, and
 * the reference count of the present copy that contains the box of `a`
 * (0 when there is none): data clauses not yet ended plus enter data not
 * yet exited. */
long s2s_present_count(void);
long s2s_present_refs(const S2sArray *a);
/* ... and how many of those references are dynamic (enter data). */
long s2s_present_dynamic_refs(const S2sArray *a);

/* Autocompare's tally of region r so far: host passes compared, those
 * with an element out of tolerance, and such elements in all (0s when
 * autocompare is off or r was not compared). */
void s2s_autocompare_counts(const S2sRegion *r, long *calls, long *failed_calls,
                            long long *bad_elements);

/* The device memory pool: blocks cached for reuse (not in use), in use,
 * requests served from the cache and by cudaMalloc, and how many times the
 * cache was released (a failed cudaMalloc, s2s_pool_release). */
typedef struct S2sPoolStats {
  long cached_blocks, in_use_blocks;
  size_t cached_bytes;
  long reused, allocated, trims;
} S2sPoolStats;
void s2s_pool_stats(S2sPoolStats *st);

/* Give the cached device memory back to CUDA (e.g. before a library of
 * the user's own allocates a lot); returns the number of blocks freed. */
long s2s_pool_release(void);

#ifdef __cplusplus
}
#endif

/* Device-side helpers used by generated kernels (Fortran semantics). */
#ifdef __cplusplus
#include <math.h>
#ifndef S2S_HD
#define S2S_HD __host__ __device__
#endif
template <class T> S2S_HD static inline T s2s_min(T a, T b) { return b < a ? b : a; }
template <class T> S2S_HD static inline T s2s_max(T a, T b) { return b > a ? b : a; }
/* -Kieee products in __host__ __device__ functions: never contracted into
 * an FMA on the device (kernels call __fmul_rn/__dmul_rn themselves); on
 * the host a plain product. */
S2S_HD static inline float s2s_fmul_rn(float a, float b) {
#ifdef __CUDA_ARCH__
  return __fmul_rn(a, b);
#else
  return a * b;
#endif
}
S2S_HD static inline double s2s_dmul_rn(double a, double b) {
#ifdef __CUDA_ARCH__
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
/* x**n for integer n, as Fortran computes it (exact repeated multiplication). */
template <class T> S2S_HD static inline T s2s_powi(T x, int n) {
  if (n < 0) return (T)1 / s2s_powi(x, -n);
  T r = (T)1;
  while (n) { if (n & 1) r *= x; x *= x; n >>= 1; }
  return r;
}
S2S_HD static inline int s2s_ipow(int x, int n) {
  if (n < 0) return x == 1 ? 1 : (x == -1 ? ((n & 1) ? -1 : 1) : 0);
  int r = 1;
  while (n) { if (n & 1) r *= x; x *= x; n >>= 1; }
  return r;
}
/* Fortran SIGN(a, b).  Integers: |a| with the sign of b (b == 0 is
 * positive).  Reals through copysign, as gfortran does, so SIGN(a, -0.0)
 * is -|a|. */
template <class T> S2S_HD static inline T s2s_sign(T a, T b) {
  T m = a < 0 ? -a : a;
  return b < 0 ? -m : m;
}
S2S_HD static inline float s2s_sign(float a, float b) { return copysignf(fabsf(a), b); }
S2S_HD static inline double s2s_sign(double a, double b) { return copysign(fabs(a), b); }
/* Fortran NINT: nearest integer, halves away from zero (roundf does that). */
S2S_HD static inline int s2s_nint(float a) { return (int)roundf(a); }
S2S_HD static inline int s2s_nint(double a) { return (int)round(a); }
/* Fortran MOD: the sign of a (C's % and fmod truncate the same way). */
template <class T> S2S_HD static inline T s2s_mod(T a, T p) { return a % p; }
S2S_HD static inline float s2s_mod(float a, float p) { return fmodf(a, p); }
S2S_HD static inline double s2s_mod(double a, double p) { return fmod(a, p); }
/* Fortran MODULO: the sign of p. */
template <class T> S2S_HD static inline T s2s_modulo(T a, T p) {
  T m = a % p;
  return (m != 0 && ((m < 0) != (p < 0))) ? m + p : m;
}
S2S_HD static inline float s2s_modulo(float a, float p) {
  float m = fmodf(a, p);
  return m != 0.0f ? ((m < 0.0f) != (p < 0.0f) ? m + p : m) : copysignf(0.0f, p);
}
S2S_HD static inline double s2s_modulo(double a, double p) {
  double m = fmod(a, p);
  return m != 0.0 ? ((m < 0.0) != (p < 0.0) ? m + p : m) : copysign(0.0, p);
}

#if defined(S2S_EMULATE)
/* The helpers above that are templates, for elements of global arrays as
 * the emulation's index macros name them (S2sEmuElem, s2s_emu.h): read the
 * element, then as above.  More specialized than the templates above, so
 * chosen over them; the GPU build has none of this. */
#define S2S_EMU_ELEM_2(fn)                                                             \
  template <class T> static inline T fn(S2sEmuElem<T> a, T b) { return fn((T)a, b); } \
  template <class T> static inline T fn(T a, S2sEmuElem<T> b) { return fn(a, (T)b); } \
  template <class T> static inline T fn(S2sEmuElem<T> a, S2sEmuElem<T> b) { return fn((T)a, (T)b); }
S2S_EMU_ELEM_2(s2s_min)
S2S_EMU_ELEM_2(s2s_max)
S2S_EMU_ELEM_2(s2s_sign)
S2S_EMU_ELEM_2(s2s_mod)
S2S_EMU_ELEM_2(s2s_modulo)
#undef S2S_EMU_ELEM_2
template <class T> static inline T s2s_powi(S2sEmuElem<T> x, int n) { return s2s_powi((T)x, n); }
#endif

/* ---- reductions across threads ----
 * A kernel that reduces a scalar gives each thread a partial result that
 * starts from the operator's identity (S2sSum::identity<T>() ...), then
 * every thread, active or not, calls s2s_reduce<Op>(acc, partial): on the
 * GPU a warp adds its lanes by shuffles, the warps of a block meet in
 * shared memory, and one thread per block combines the block's value into
 * the device accumulator `acc` atomically (atomicAdd, atomicMax/Min for
 * integers, a compare-and-swap loop for real max/min: exact for every
 * value but NaN).  The emulation runs threads one after another, so it
 * combines each partial into `acc` in turn, in the thread order of the
 * launch. */
#include <float.h>
#include <limits.h>
template <class T> struct S2sLimits;
template <> struct S2sLimits<int> {
  S2S_HD static int lowest() { return INT_MIN; }
  S2S_HD static int highest() { return INT_MAX; }
};
template <> struct S2sLimits<long long> {
  S2S_HD static long long lowest() { return LLONG_MIN; }
  S2S_HD static long long highest() { return LLONG_MAX; }
};
template <> struct S2sLimits<float> {
  S2S_HD static float lowest() { return -FLT_MAX; }
  S2S_HD static float highest() { return FLT_MAX; }
};
template <> struct S2sLimits<double> {
  S2S_HD static double lowest() { return -DBL_MAX; }
  S2S_HD static double highest() { return DBL_MAX; }
};
struct S2sSum {
  template <class T> S2S_HD static T identity() { return (T)0; }
  template <class T> S2S_HD T operator()(T a, T b) const { return a + b; }
};
struct S2sMax {
  template <class T> S2S_HD static T identity() { return S2sLimits<T>::lowest(); }
  template <class T> S2S_HD T operator()(T a, T b) const { return b > a ? b : a; }
};
struct S2sMin {
  template <class T> S2S_HD static T identity() { return S2sLimits<T>::highest(); }
  template <class T> S2S_HD T operator()(T a, T b) const { return b < a ? b : a; }
};
#if defined(S2S_EMULATE)
template <class Op, class T> static inline void s2s_reduce(T *acc, T partial) {
  *acc = Op()(*acc, partial);
}
#elif defined(__CUDACC__)
__device__ static inline void s2s_atomic_combine(S2sSum, float *acc, float v) { atomicAdd(acc, v); }
__device__ static inline void s2s_atomic_combine(S2sSum, double *acc, double v) { atomicAdd(acc, v); }
__device__ static inline void s2s_atomic_combine(S2sSum, int *acc, int v) { atomicAdd(acc, v); }
__device__ static inline void s2s_atomic_combine(S2sSum, long long *acc, long long v) {
  atomicAdd((unsigned long long *)acc, (unsigned long long)v);   /* two's complement: the same bits */
}
__device__ static inline void s2s_atomic_combine(S2sMax, int *acc, int v) { atomicMax(acc, v); }
__device__ static inline void s2s_atomic_combine(S2sMin, int *acc, int v) { atomicMin(acc, v); }
__device__ static inline void s2s_atomic_combine(S2sMax, long long *acc, long long v) { atomicMax(acc, v); }
__device__ static inline void s2s_atomic_combine(S2sMin, long long *acc, long long v) { atomicMin(acc, v); }
/* Real max/min: replace the stored value while v still wins against it;
 * comparing as reals keeps negative values right (NaN-free inputs). */
template <class Op> __device__ static inline void s2s_atomic_combine(Op op, float *acc, float v) {
  int *bits = (int *)acc, old = *bits;
  while (op(__int_as_float(old), v) != __int_as_float(old)) {
    int seen = atomicCAS(bits, old, __float_as_int(v));
    if (seen == old) break;
    old = seen;
  }
}
template <class Op> __device__ static inline void s2s_atomic_combine(Op op, double *acc, double v) {
  unsigned long long *bits = (unsigned long long *)acc, old = *bits;
  while (op(__longlong_as_double((long long)old), v) != __longlong_as_double((long long)old)) {
    unsigned long long seen = atomicCAS(bits, old, (unsigned long long)__double_as_longlong(v));
    if (seen == old) break;
    old = seen;
  }
}
/* Lanes [0, n) of a warp: lane 0 gets their combination. */
template <class Op, class T> __device__ static inline T s2s_warp_reduce(T v, unsigned lane, unsigned n) {
  const unsigned mask = n >= 32 ? 0xffffffffu : (1u << n) - 1u;
  for (unsigned d = 16; d > 0; d >>= 1) {
    T other = __shfl_down_sync(mask, v, d);
    if (lane + d < n) v = Op()(v, other);
  }
  return v;
}
/* Every thread of the block calls it (blocks of any shape, up to 1024 threads). */
template <class Op, class T> __device__ static inline void s2s_reduce(T *acc, T partial) {
  __shared__ T s2s_warp_part[32];
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  const unsigned lane = tid % 32, warp = tid / 32, nwarps = (nthreads + 31) / 32;
  const unsigned in_warp = nthreads - warp * 32 < 32 ? nthreads - warp * 32 : 32;
  T v = s2s_warp_reduce<Op>(partial, lane, in_warp);
  __syncthreads();            /* an earlier reduction of the kernel may still read the array */
  if (lane == 0) s2s_warp_part[warp] = v;
  __syncthreads();
  if (warp == 0) {
    v = lane < nwarps ? s2s_warp_part[lane] : Op::template identity<T>();
    v = s2s_warp_reduce<Op>(v, lane, in_warp);
    if (lane == 0) s2s_atomic_combine(Op(), acc, v);
  }
}
#endif
#endif

#endif
